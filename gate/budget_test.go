package gate

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/allowlist"
)

// FuzzBraceBudget: the count made before expanding never undercounts what
// the expansion makes, and no word ever expands past the budget, however
// the braces nest or the ranges run.
func FuzzBraceBudget(f *testing.F) {
	for _, s := range []string{"{a,b}", "{1..10000000}", "{a..z}{0..9}", "x{a,{b,c}}y", "{1..9..-2}", "{z..a}",
		"{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", "{-5..5}", "{01..100}", "{,}", "{a,b}c{d..f}", "'{a,b}'{c,d}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "$`\\x00") || len(s) > 200 {
			return
		}
		file, err := syntax.NewParser().Parse(strings.NewReader("echo "+s), "")
		if err != nil || len(file.Stmts) != 1 {
			return
		}
		call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok {
			return
		}
		for _, w := range call.Args[1:] {
			if _, static := staticWord(w); !static {
				continue
			}
			n := braceFields(w)
			fields, err := wordFields(w)
			if err != nil {
				continue
			}
			if len(fields) > MaxBraceFields {
				t.Fatalf("%q expanded to %d words, past the budget", s, len(fields))
			}
			if len(fields) > n {
				t.Fatalf("%q: counted %d words before expanding, made %d", s, n, len(fields))
			}
		}
	})
}

// A text with more commands than MaxSegments is not checked whole
// against the rules, so it asks, even when every command is read-only.
func TestSegmentCapAsks(t *testing.T) {
	text := strings.Repeat("true; ", MaxSegments+10) + "true"
	d := Decide(Request{Text: text, Rules: allowlist.Defaults(), Split: true})
	if d.Verdict() == Allow {
		t.Fatalf("%d commands: allowed; want an ask past MaxSegments", MaxSegments+11)
	}
	short := strings.Repeat("true; ", 10) + "true"
	if d := Decide(Request{Text: short, Rules: allowlist.Defaults(), Split: true}); d.Verdict() != Allow {
		t.Fatalf("11 commands: %s (%s); want allow", d.Verdict(), d.Primary())
	}
}
