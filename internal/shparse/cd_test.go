package shparse

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/internal/testenv"
)

// TestReadCd is the one reading of a directory change, which the text
// flow, split mode and the resolver all follow.
func TestReadCd(t *testing.T) {
	for _, c := range []struct {
		argv     string
		target   string // "~" for home; "?" for unknown
		physical bool
		why      string
	}{
		{"cd sub", "sub", false, "one operand"},
		{"cd", "~", false, "no operand goes home"},
		{"cd -P sub", "sub", true, "-P follows links first"},
		{"cd -Pe d", "d", true, "options cluster, as bash reads them (a red team's -Pe was once a directory name)"},
		{"cd -PL d", "d", false, "the last of -P and -L wins"},
		{"cd -- -d", "-d", false, "-- ends the options"},
		{"cd -x d", "?", false, "an option agentgate does not read"},
		{"cd -", "?", false, "the previous directory, kept by the shell"},
		{"cd ~-/x", "?", false, "~- is the previous directory"},
		{"cd a b", "?", false, "several operands"},
		{"cd s*", "?", false, "a glob left in the target"},
		{"cd $D", "?", false, "a variable left in the target"},
		{"/usr/bin/cd sub", "sub", false, "by base name"},
		{"pushd sub", "sub", false, "pushd DIR goes to DIR"},
		{"pushd +1", "?", false, "rotates the stack"},
		{"pushd", "?", false, "swaps the stack"},
		{"pushd -n sub", "?", false, "only pushes"},
		{"popd", "?", false, "the stack"},
		{"builtin cd /", "/", false, "builtin runs the builtin"},
		{"builtin -- cd /", "/", false, "builtin takes --"},
		{"command cd /", "/", false, "command runs the builtin"},
		{"command -p cd /", "/", false, "command -p runs the builtin too (the flow once read it as no cd)"},
		{"command -p -- cd /", "/", false, "-- after -p"},
	} {
		step, ok := ReadCd(strings.Fields(c.argv))
		if !ok {
			t.Errorf("%s: not read as a directory change", c.argv)
			continue
		}
		got := step.Target
		switch {
		case step.Unknown != "":
			got = "?"
		case step.Home:
			got = "~"
		}
		if got != c.target || got != "?" && step.Physical != c.physical {
			t.Errorf("%s: target %q physical %v (%s), want %q physical %v: %s", c.argv, got, step.Physical, step.Unknown, c.target, c.physical, c.why)
		}
	}
	for _, argv := range []string{"ls sub", "command -v cd", "command -V cd", "builtin", "command -p"} {
		if _, ok := ReadCd(strings.Fields(argv)); ok {
			t.Errorf("%s read as a directory change", argv)
		}
	}
	for argv, want := range map[string]bool{"cd sub": true, "cd ./sub": false, "cd ../x": false, "cd /x": false, "cd ~/x": false, "cd": false, "cd .": false} {
		step, _ := ReadCd(strings.Fields(argv))
		if step.LooksUp() != want {
			t.Errorf("%s: looks up in CDPATH %v, want %v", argv, step.LooksUp(), want)
		}
	}
}

// TestFormCd: each simple command's directory change is read once, in
// the form, as [ReadCd] reads its words; an expansion in the target is
// unknown until put in under the known variables ([Cd.Under]).
func TestFormCd(t *testing.T) {
	for _, c := range []struct {
		text, target string // "" for no cd, "?" for unknown, "~" for home
		under        string // the target with D=/tmp put in
	}{
		{"ls /", "", ""},
		{"cd", "~", "~"},
		{"cd /", "/", "/"},
		{"c\\d /", "/", "/"},
		{"'cd' --  '/x y'", "/x y", "/x y"},
		{"command -p cd /", "/", "/"},
		{"builtin cd /", "/", "/"},
		{"command -v cd", "", ""},
		{"cd -", "?", "?"},
		{"cd $D", "?", "/tmp"},
		{"cd \"$D/sub\"", "?", "/tmp/sub"},
		{"cd $(echo /)", "?", "?"},
		{"cd '$D'", "?", "?"},
		{"cd \\$D", "?", "?"},
		{"cd $E", "?", "?"},
		{"pushd $D", "?", "/tmp"},
		{"popd", "?", "?"},
	} {
		f := Of(c.text).Form()
		st := f.Stmts[0]
		show := func(cd *Cd) string {
			switch {
			case cd == nil:
				return ""
			case cd.Unknown != "":
				return "?"
			case cd.Home:
				return "~"
			}
			return cd.Target
		}
		if got := show(st.Cd); got != c.target {
			t.Errorf("%s: cd %q, want %q", c.text, got, c.target)
		}
		if st.Cd == nil {
			continue
		}
		under := st.Cd.Under(func(w string) string { return strings.NewReplacer("${D}", "/tmp", "$D", "/tmp").Replace(w) })
		if got := show(&under); got != c.under {
			t.Errorf("%s: under D=/tmp, cd %q, want %q", c.text, got, c.under)
		}
	}
}

// TestOneCdReader: no package but this one reads a directory change from
// a command's words (issue 16: the flow, split mode and the resolver each
// read cd their own way, and "command -p cd /" was no cd to one of them).
// A reader names the builtins to know them: no other package's code may
// spell "pushd" or "popd", or compare a word with "cd".
func TestOneCdReader(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	found := 0
	testenv.GoSources(t, func(path string, f *ast.File, fset *token.FileSet) {
		mine := filepath.Dir(path) == filepath.Dir(file)
		ast.Inspect(f, func(n ast.Node) bool {
			var lits []ast.Expr
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Value == `"pushd"` || n.Value == `"popd"` {
					lits = append(lits, n)
				}
			case *ast.BinaryExpr:
				if n.Op == token.EQL || n.Op == token.NEQ {
					lits = append(lits, n.X, n.Y)
				}
			case *ast.CaseClause:
				lits = append(lits, n.List...)
			}
			for _, e := range lits {
				lit, ok := e.(*ast.BasicLit)
				if !ok || lit.Value != `"cd"` && !(lit == n && (lit.Value == `"pushd"` || lit.Value == `"popd"`)) {
					continue
				}
				found++
				if !mine {
					t.Errorf("%s reads a directory change from words (%s); read the form's shparse.Stmt.Cd, or shparse.ReadCd", fset.Position(lit.Pos()), lit.Value)
				}
			}
			return true
		})
	})
	if found == 0 {
		t.Fatal("no reading of cd found at all: the test reads nothing")
	}
}
