package gate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/internal/shparse"
)

// parsedSegmentsTree is parsedSegments as it read the syntax tree before
// it read the form: the reference the form's reading is held to.
func parsedSegmentsTree(text string, f *syntax.File) (out [][]string, overBudget bool) {
	words := func(ws []*syntax.Word) []string {
		var argv []string
		for _, w := range ws {
			if _, static := shparse.Static(w); static {
				fields, err := shparse.Fields(w)
				if err == nil && len(fields) > 0 {
					argv = append(argv, fields...)
					continue
				}
				var be *BudgetError
				overBudget = overBudget || errors.As(err, &be)
			}
			if t, ok := shparse.Template(w); ok {
				argv = append(argv, t)
				continue
			}
			argv = append(argv, text[w.Pos().Offset():w.End().Offset()])
		}
		return argv
	}
	for n := range syntax.Preorder(f) {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 || len(n.Assigns) > 0 {
				out = append(out, words(n.Args))
			}
		case *syntax.Redirect:
			if n.Word != nil {
				out = append(out, words([]*syntax.Word{n.Word}))
			}
		}
	}
	return out, overBudget
}

// TestSegmentsReadTheFormAsTheTree: the collector's commands, read from
// the form, are the ones a walk of the tree gave, in the same order, for
// texts that hide them everywhere and for the shared corpora when
// AGENTGATE_SHARED names them.
func TestSegmentsReadTheFormAsTheTree(t *testing.T) {
	texts := []string{
		"ls -la", "a && b || c | d |& e; f & ! g", "x=$(a) y=`b` c $(d $(e)) <(f) >(g)",
		"echo ${x:-$(a)} $(( $(b) + 1 )) \"$(c)\"", "cat <<E > $(a)\n$(b)\nE\n", "[[ $(a) == $(b) ]] && (( $(c) ))",
		"case $(a) in $(b)) c;; $(d)) e;; *) f;; esac", "for x in $(a); do b; done; for ((i=$(c);;)); do d; done",
		"f() { a | f & }; f", "coproc N { a; }; time b; let x=$(c)", "export A=$(a) B; declare -a z=($(b) c)",
		"{ a $(b); } > $(c) 2> $(d); (e) 2>&1", "x[$(a)]=$(b) && y=(1 $(c))", "rm -rf {a,b}/$HOME \"$X\"/y ~/z",
	}
	if dir := os.Getenv("AGENTGATE_SHARED"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "corpora", "*.tsv"))
		for _, fn := range files {
			data, err := os.ReadFile(fn)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(data), "\n") {
				for _, field := range strings.Split(line, "\t") {
					if strings.ContainsAny(field, " |&;$") {
						texts = append(texts, field)
					}
				}
			}
		}
	}
	for _, text := range texts {
		s := shparse.Of(text)
		if s.Err != nil || !s.Form().Complete() {
			continue
		}
		want, wb := parsedSegmentsTree(text, s.File)
		got, gb, _ := parsedSegments(s)
		if fmt.Sprint(got) != fmt.Sprint(want) || gb != wb {
			t.Errorf("%q:\n form %q %v\n tree %q %v", text, got, gb, want, wb)
		}
	}
}
