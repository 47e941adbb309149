package shparse

import (
	"slices"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestWordReading is the one reading of a word: its value, bash's exact
// expansion and the wide one split mode and the inspector read.
func TestWordReading(t *testing.T) {
	for _, c := range []struct {
		word   string
		value  string // "" when it has no static value
		exact  string
		wide   []string
		reason string
	}{
		{"plain", "plain", "", nil, "a literal is its own value"},
		{`'a b'`, "a b", "", nil, "quotes removed"},
		{`$'\x41'`, "A", "", nil, "ANSI-C quoting decoded"},
		{`\*.py`, `*.py`, "", []string{"glob"}, "an escaped star is literal to bash, but split mode reads it widely"},
		{`*.py`, "*.py", "glob", []string{"glob"}, "a glob is left as written"},
		{`{}`, "{}", "", nil, "find's placeholder: bash leaves it"},
		{`x{a,b}`, "", "brace", []string{"brace"}, "two fields: no single value"},
		{`~/x`, "~/x", "tilde", []string{"tilde"}, "a leading tilde"},
		{`--opt=~/x`, "--opt=~/x", "tilde", []string{"tilde"}, "bash expands a tilde after '=': the inspector once called this literal"},
		{`"$HOME"/x`, "", "", []string{"variable"}, "a variable depends on state"},
		{`$(id)`, "", "", []string{"substitution"}, "a substitution depends on state"},
		{`"a*"$((1+1))`, "", "", []string{"arithmetic"}, "a quoted star is literal"},
	} {
		f, err := Parse("echo " + c.word)
		if err != nil {
			t.Fatalf("%s: %v", c.word, err)
		}
		w := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		v, ok := Value(w)
		if !ok {
			v = ""
		}
		if v != c.value {
			t.Errorf("%s: value %q, want %q (%s)", c.word, v, c.value, c.reason)
		}
		if e := Expansion(w, false); e != c.exact {
			t.Errorf("%s: bash's expansion %q, want %q (%s)", c.word, e, c.exact, c.reason)
		}
		if e := Expansions(w); !slices.Equal(e, c.wide) {
			t.Errorf("%s: expansions %q, want %q (%s)", c.word, e, c.wide, c.reason)
		}
	}
}
