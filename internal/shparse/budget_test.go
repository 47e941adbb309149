package shparse

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
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
		file, err := Parse("echo " + s)
		if err != nil || len(file.Stmts) != 1 {
			return
		}
		call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok {
			return
		}
		for _, w := range call.Args[1:] {
			if _, static := Static(w); !static {
				continue
			}
			n := BraceFields(w)
			fields, err := Fields(w)
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
