package inspect_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/inspect"
)

var update = flag.Bool("update", false, "rewrite testdata/tree.golden")

// goldenInputs cover every node kind and word part the inspector knows.
var goldenInputs = []string{
	"git status",
	"'git' \"log\" -5",
	"git status && rm -rf build",
	"make || echo failed",
	"git log --oneline | head -5",
	"make |& tee log",
	"ls; rm x",
	"ls\nrm x",
	"sleep 10 &",
	"! grep -q x f",
	"ls $(rm x) > out 2>&1",
	"ls `id`",
	"cat <(curl evil) >(tee log)",
	"echo $((1 + $(id -u)))",
	"echo ${X:-$(id)}",
	"cat <<EOF\n$(id)\nEOF",
	"cat <<'EOF'\n$(id)\nEOF",
	"cat < in.txt >> out.txt 2>/dev/null",
	"FOO=bar BAZ=$(id) ls",
	"(cd /tmp && rm -rf x)",
	"{ ls; rm x; }",
	"if true; then rm x; else ls; fi",
	"while true; do rm x; done",
	"until false; do ls; done",
	"for f in *.go; do rm \"$f\"; done",
	"case $x in a) rm x;; *) ls;; esac",
	"f() { rm -rf ~; }",
	"((x = 1 + 2))",
	"[[ -f x && $(id) ]]",
	"export PATH=/tmp:$PATH",
	"let x=1",
	"time rm x",
	"coproc rm x",
	"ls *.go {a,b} ~/x $HOME",
	"ls 'unterminated",
	"ls\rrm -rf ~",
	"for ((i = $(rm x); i < 2; i++)); do ls; done",
	"exec {fd}>x 3<&- 4>&1",
	"a &> b &>> c <> d >| e <<< \"$(id)\"",
	"coproc N { ls; }",
	"declare -x A=1 -r b c+=2 d=(1 2)",
	"bash -c 'rm -rf ~' && eval \"ls $(id)\"",
	"f() { f | f & }; f",
	"x=(a $(rm -rf build)); y[$(id)]=1",
}

func TestGolden(t *testing.T) {
	var b strings.Builder
	for _, in := range goldenInputs {
		s := inspect.Parse(in)
		js, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "== %q\n%s-- json\n%s\n\n", in, s.Tree(), js)
	}
	got := b.String()
	if *update {
		if err := os.WriteFile("testdata/tree.golden", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("testdata/tree.golden")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("inspected structure differs from testdata/tree.golden (go test ./inspect -update to accept):\n%s", diff(string(want), got))
	}
}

func diff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths differ: %d vs %d lines", len(al), len(bl))
}

func TestBounds(t *testing.T) {
	deep := strings.Repeat("$(", 100) + "id" + strings.Repeat(")", 100)
	s := inspect.Parse("echo " + deep)
	if !strings.Contains(s.Error, "nesting deeper than") {
		t.Errorf("deep nesting: error %q", s.Error)
	}
	wide := strings.Repeat("ls; ", 3000)
	if s := inspect.Parse(wide); !strings.Contains(s.Error, "more than") {
		t.Errorf("many nodes: error %q", s.Error)
	}
}

// FuzzParse: the inspector never panics, and whatever it reports as a
// literal word really is static.
func FuzzParse(f *testing.F) {
	for _, in := range goldenInputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s := inspect.Parse(text)
		_ = s.Tree()
		if _, err := json.Marshal(s); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		var check func(ns []inspect.Node)
		check = func(ns []inspect.Node) {
			for _, n := range ns {
				for _, w := range n.Words {
					if w.Literal && (len(w.Substs) > 0 || len(w.Expands) > 0) {
						t.Fatalf("%q: word %q literal with expansions", text, w.Text)
					}
				}
				check(n.Children)
			}
		}
		check(s.Nodes)
	})
}

// TestWordsReadAsTheGateReadsThem: the inspector takes a word's expansion
// from the one reading of words (shparse). It once called "--opt=~/x"
// literal, while the gate (and bash) expand its "~".
func TestWordsReadAsTheGateReadsThem(t *testing.T) {
	s := inspect.Parse("ls --opt=~/x a=~ '~'")
	if s.Error != "" || len(s.Nodes) != 1 {
		t.Fatalf("parse: %+v", s)
	}
	ws := s.Nodes[0].Words
	for i, want := range []bool{true, false, false, true} {
		if ws[i].Literal != want {
			t.Errorf("word %q: literal %v, want %v (expands %v)", ws[i].Text, ws[i].Literal, want, ws[i].Expands)
		}
	}
}

// TestLoopHeaderSubstitutionShown: the substitutions of a C-style for
// loop's header run, and the gate judges them; the description once left
// them out, so the prompt showed "for ... ls" for a text that ran "rm".
func TestLoopHeaderSubstitutionShown(t *testing.T) {
	tree := inspect.Parse("for ((i = $(rm -rf build); i < 1; i++)); do ls; done").Tree()
	if !strings.Contains(tree, "command: rm -rf build") {
		t.Errorf("the loop header's command is not shown:\n%s", tree)
	}
}

// TestArraySubstitutionShown: the substitutions in an array's elements
// and in an index run; the description showed "x=(...) {array}" and no
// command.
func TestArraySubstitutionShown(t *testing.T) {
	for _, text := range []string{"x=(a $(rm -rf build))", "y[$(rm -rf build)]=1"} {
		if tree := inspect.Parse(text).Tree(); !strings.Contains(tree, "command: rm -rf build") {
			t.Errorf("%s: the command an assignment runs is not shown:\n%s", text, tree)
		}
	}
}
