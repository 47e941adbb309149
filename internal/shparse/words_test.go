package shparse

import (
	"os/exec"
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
		{`$'\x2eenv'`, ".env", "", nil, "a hex escape both read alike"},
		{`$'\056env'`, ".env", "", nil, "an octal escape both read alike"},
		{`$'\u002eenv'`, ".env", "", nil, "a unicode escape both read alike"},
		{`$'\x{2e}env'`, "", "", []string{"escape"}, "bash reads \\x{2e} as '.', the expander as text (a red team's)"},
		{`$'.env\400x'`, "", "", []string{"escape"}, "octal 400 is a NUL to bash, which ends the word there (a red team's)"},
		{`$'.env\x00x'`, "", "", []string{"escape"}, "a NUL ends the word"},
		{`$'\c@'`, "", "", []string{"escape"}, "a control escape"},
		{`$'\q'`, "", "", []string{"escape"}, "an escape bash leaves as written"},
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

// TestANSICAgreesWithBash: every $'...' word read as static has the value
// bash gives it. Count-based: each escape form with a few neighbours.
func TestANSICAgreesWithBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	var words []string
	for _, e := range []string{`\x2e`, `\x2`, `\x`, `\x{2e}`, `\xg`, `\56`, `\056`, `\0056`, `\400`, `\377`, `\0`, `\1`, `\u2e`, `\u002e`,
		`\U0001F600`, `\U110000`, `\ud800`, `\c@`, `\cA`, `\a`, `\e`, `\E`, `\'`, `\"`, `\?`, `\\`, `\q`, `\ `, `\x41\x42`, `\1010`} {
		words = append(words, "$'a"+e+"b'")
	}
	checked := 0
	for _, word := range words {
		f, err := Parse("echo " + word)
		if err != nil {
			continue
		}
		v, ok := Value(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1])
		if !ok {
			continue
		}
		out, err := exec.Command(bash, "--norc", "--noprofile", "-c", "printf %s "+word).Output()
		if err != nil {
			t.Fatalf("%s: %v", word, err)
		}
		checked++
		if string(out) != v {
			t.Errorf("%s: agentgate reads %q, bash %q", word, v, out)
		}
	}
	if checked < 15 {
		t.Fatalf("only %d words read as static: the test checks too little", checked)
	}
}

// TestTemplate: a word of plain variables is spelled with its quotes
// removed as bash removes them: a red team's "$X\v" was read as the
// template ${X}\v, while bash reads ${X}v.
func TestTemplate(t *testing.T) {
	for word, want := range map[string]string{
		`$X\v`:     "${X}v",
		`"$X\v"`:   `${X}\v`,
		`"$X\$"`:   "${X}$",
		`$X'\v'`:   `${X}\v`,
		"$X\\\nrc": "${Xrc}", // a line continuation joins the name
		`~/$X`:     "~/${X}",
	} {
		f, err := Parse("echo " + word)
		if err != nil {
			t.Fatalf("%s: %v", word, err)
		}
		got, ok := Template(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1])
		if !ok || got != want {
			t.Errorf("%s: template %q (%v), want %q", word, got, ok, want)
		}
	}
}

// TestLiteralNames: the names a word spells as "$NAME" in text bash
// leaves as written, and none it expands.
func TestLiteralNames(t *testing.T) {
	for text, want := range map[string][]string{
		`'$HOME'/notes`: {"HOME"},
		`"\$D"/x`:       {"D"},
		`\$D`:           {"D"},
		`'$'HOME`:       {"HOME"},
		`'${X}'y`:       {"X"},
		`$'\x24X'`:      {"X"},
		`"$"X`:          {"X"},
		`$HOME/notes`:   nil,
		`"$HOME"`:       nil,
		`'{print $1}'`:  nil,
		`'$'$X`:         nil,
		`'${X'`:         nil,
		`'$a $b'`:       {"a", "b"},
		`"\$HOME`:       nil, // does not parse: skipped below
	} {
		f := Of("echo " + text).Form()
		if f.Err != "" {
			continue
		}
		got := f.Stmts[0].Args[1].LiteralNames()
		if !slices.Equal(got, want) {
			t.Errorf("%s: literal names %q, want %q", text, got, want)
		}
	}
}
