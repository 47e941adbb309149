package shparse

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/agentgate/agentgate/internal/testenv"
)

// TestOneParser: no package but this one makes a parser of command text
// or reads its words with mvdan.cc/sh/v3/expand (issue 16: the gate, the
// resolver and the inspector each made their own, and readings of one
// command could differ). Tests may make their own.
func TestOneParser(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	found, expands := 0, 0
	testenv.GoSources(t, func(path string, f *ast.File, fset *token.FileSet) {
		for _, imp := range f.Imports {
			if imp.Path.Value == `"mvdan.cc/sh/v3/expand"` {
				expands++
				if filepath.Dir(path) != filepath.Dir(file) {
					t.Errorf("%s reads words of command text with mvdan.cc/sh/v3/expand; use shparse.Value, Fields or Expansion", fset.Position(imp.Pos()))
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "NewParser" {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "syntax" {
				found++
				if filepath.Dir(path) != filepath.Dir(file) {
					t.Errorf("%s makes its own parser of command text; use shparse.Parse", fset.Position(sel.Pos()))
				}
			}
			return true
		})
	})
	if found == 0 || expands == 0 {
		t.Fatal("no syntax.NewParser or expand import found at all: the test reads nothing")
	}
}

// A request's Script parses each nested text once, for every Script made
// from it, and never hands one text's parse out as another's.
func TestNestedParsedOnce(t *testing.T) {
	parsed := map[string]int{}
	stop := Trace(func(text string) { parsed[text]++ })
	defer stop()
	root := Of("bash -c 'ls -la'")
	a, _ := root.For("ls -la")
	b, _ := root.Of("ls -la").For("ls -la")
	c, _ := root.Of("git status").For("ls -la")
	if a != b || a != c {
		t.Errorf("the nested text's parse differs between asks: %p %p %p", a, b, c)
	}
	if parsed["ls -la"] != 1 || parsed["git status"] != 1 || parsed["bash -c 'ls -la'"] != 1 {
		t.Errorf("parses: %v, want one of each text", parsed)
	}
	if other, _ := root.For("ls -l"); other == a {
		t.Error("the parse of one text was handed out for another")
	}
	// Another request keeps its own table.
	if d, _ := Of("x").For("ls -la"); d == a {
		t.Error("a second request reused the first one's parse")
	}
	// nil parses every time.
	var none *Script
	before := parsed["pwd"]
	none.For("pwd")
	none.For("pwd")
	if parsed["pwd"]-before != 2 {
		t.Errorf("a nil Script parsed pwd %d times for two asks", parsed["pwd"]-before)
	}
}

// TestMemo: a reading of the parse is built once per Script and key,
// and one Script's is not another's.
func TestMemo(t *testing.T) {
	a, b := Of("ls"), Of("ls")
	n := 0
	build := func() any { n++; return n }
	type key struct{}
	first := a.Memo(key{}, build)
	again := a.Memo(key{}, build)
	other := b.Memo(key{}, build)
	if first != 1 || again != 1 || other != 2 {
		t.Fatalf("built %d times (%v, %v, %v); want once per Script", n, first, again, other)
	}
}

// formReaders are the packages, and files of packages not yet ported
// whole, that read a command through its form ([Script.Form]) and no
// longer walk the syntax tree themselves: each is held to it, so that no
// second reading of a text creeps back in (issue 16). One joins when its
// last walk is ported.
var formReaders = []string{"inspect", "resolve", "gate", "engine", "hook"}

// TestFormReadersDoNotWalk: no non-test file of a form reader imports
// mvdan.cc/sh/v3/syntax (walking, type switches on its nodes, or reading
// a word's parts all need it).
func TestFormReadersDoNotWalk(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	seen := map[string]bool{}
	testenv.GoSources(t, func(path string, f *ast.File, fset *token.FileSet) {
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return
		}
		rel = filepath.ToSlash(rel)
		reader := ""
		for _, r := range formReaders {
			if rel == r || filepath.ToSlash(filepath.Dir(rel)) == r {
				reader = r
			}
		}
		if reader == "" {
			return
		}
		seen[reader] = true
		for _, imp := range f.Imports {
			if imp.Path.Value == `"mvdan.cc/sh/v3/syntax"` {
				t.Errorf("%s imports the syntax tree; read the command's form (shparse.Script.Form) instead", fset.Position(imp.Pos()))
			}
		}
		if reader == "hook" {
			return // its events have a File of their own
		}
		// Nor is the tree handed to this package to walk for them
		// (shparse.UnreadableEscape(sc.File) was: the form says it).
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "File" {
				t.Errorf("%s reads a Script's syntax tree (.File); read its form (Form.Parsed, Form.Escape ...) instead", fset.Position(sel.Pos()))
			}
			return true
		})
	})
	for _, r := range formReaders {
		if !seen[r] {
			t.Errorf("no Go file of %s was read: the test checks nothing there", r)
		}
	}
}
