package gate

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/allowlist"
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

// feedsTree is feeds as it read the syntax tree before it read the form.
func feedsTree(text string, f *syntax.File) (texts []string, argvs [][]string) {
	if f == nil {
		return nil, nil
	}
	static := shparse.Values
	// feed hands input to the shell or xargs st runs; words is what
	// xargs reads of it when that differs (quoted "~" and "$" reach it
	// as they are: xargs expands nothing, so "echo '~' | xargs rm -rf"
	// removes a file named ~, not the home).
	feed := func(st *syntax.Stmt, input string, xargsWords ...string) {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			return
		}
		argv, ok := static(call.Args)
		if !ok || len(argv) == 0 {
			return
		}
		// The reader behind a wrapper ("| env sh", "| timeout 5 sh").
		for i := 0; i < len(argv) && i <= maxWrapperWords && wrappers[path.Base(argv[0])] && !isShell(argv[0]) && path.Base(argv[0]) != "xargs"; i++ {
			if isShell(argv[i]) || path.Base(argv[i]) == "xargs" {
				argv = argv[i:]
				break
			}
		}
		switch {
		case isShell(argv[0]) && !slices.Contains(argv[1:], "-n"):
			if _, ok := shellCText(argv); !ok {
				texts = append(texts, input)
			}
		case path.Base(argv[0]) == "xargs":
			// One reading: the catalogue's. The words fed to it go in
			// one place, so "echo ~ | xargs -I{} echo rm -rf {}" is the
			// echo it is (trying every later word as the start made it
			// a deny).
			start, repl, ok := allowlist.XargsCommand(argv)
			if !ok {
				return
			}
			words := strings.Fields(input)
			if len(xargsWords) > 0 {
				words = xargsWords
			}
			cmd := argv[start:]
			if repl == "" {
				argvs = append(argvs, append(slices.Clone(cmd), words...))
				return
			}
			for _, w := range words {
				r := slices.Clone(cmd)
				for k := range r {
					r[k] = strings.ReplaceAll(r[k], repl, w)
				}
				argvs = append(argvs, r)
			}
		}
	}
	// produced is what a literal echo or printf prints: every reading of
	// it (printf's escapes decoded and its %s filled in, echo's both
	// ways: dash's echo decodes escapes), each judged.
	produced := func(c *syntax.CallExpr) []string {
		argv, ok := static(c.Args)
		if !ok || len(argv) == 0 {
			return nil
		}
		return printed(argv)
	}
	// procText is what a process substitution <(echo ...) produces.
	procText := func(w *syntax.Word) []string {
		if w == nil || len(w.Parts) != 1 {
			return nil
		}
		ps, ok := w.Parts[0].(*syntax.ProcSubst)
		if !ok || ps.Op != syntax.CmdIn || len(ps.Stmts) != 1 {
			return nil
		}
		if c, ok := ps.Stmts[0].Cmd.(*syntax.CallExpr); ok {
			return produced(c)
		}
		return nil
	}
	for n := range syntax.Preorder(f) {
		switch n := n.(type) {
		case *syntax.CallExpr:
			// ". <(echo ...)", "source <(printf ...)", "sh <(echo ...)"
			// run what the substitution prints.
			if len(n.Args) >= 2 {
				if prog, ok := shparse.Value(n.Args[0]); ok && (prog == "." || prog == "source" || isShell(prog)) {
					for _, w := range n.Args[1:] {
						texts = append(texts, procText(w)...)
					}
				}
			}
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				switch r.Op {
				case syntax.RdrIn:
					// "sh < <(echo ...)"
					for _, t := range procText(r.Word) {
						feed(n, t)
					}
				case syntax.WordHdoc:
					if v, ok := shparse.Value(r.Word); ok {
						feed(n, v, literalWordsTree(r.Word, v)...)
					} else if r.Word != nil {
						// "bash <<< \"rm -rf $HOME\"": the text with its
						// quotes, which the shell's parse of it removes.
						raw := text[r.Word.Pos().Offset():r.Word.End().Offset()]
						if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
							raw = raw[1 : len(raw)-1]
						}
						feed(n, raw)
					}
				case syntax.Hdoc, syntax.DashHdoc:
					if r.Hdoc != nil {
						body := text[r.Hdoc.Pos().Offset():r.Hdoc.End().Offset()]
						// No tilde expansion in a here-document; no
						// expansion at all under a quoted delimiter.
						quoted := r.Word != nil && r.Word.Lit() == ""
						var lit []string
						for _, w := range strings.Fields(body) {
							lit = append(lit, literalField(w, quoted))
						}
						feed(n, body, lit...)
					}
				}
			}
		case *syntax.BinaryCmd:
			if n.Op != syntax.Pipe && n.Op != syntax.PipeAll {
				continue
			}
			call, ok := n.X.Cmd.(*syntax.CallExpr)
			if !ok {
				continue
			}
			argv, ok := static(call.Args)
			if !ok || len(argv) == 0 {
				continue
			}
			switch path.Base(argv[0]) {
			case "echo", "printf":
				lit := make([]string, len(call.Args))
				for i, w := range call.Args {
					lit[i] = strings.Join(literalWordsTree(w, argv[i]), " ")
				}
				litPrinted := printed(lit)
				for k, t := range printed(argv) {
					if k < len(litPrinted) {
						feed(n.Y, t, strings.Fields(litPrinted[k])...)
					} else {
						feed(n.Y, t)
					}
				}
			}
		}
	}
	return texts, argvs
}

func literalWordsTree(w *syntax.Word, v string) []string {
	plain := w != nil && len(w.Parts) == 1
	if plain {
		lit, ok := w.Parts[0].(*syntax.Lit)
		plain = ok && !strings.Contains(lit.Value, `\`)
	}
	var out []string
	for _, f := range strings.Fields(v) {
		if plain {
			out = append(out, f)
		} else {
			out = append(out, literalField(f, true))
		}
	}
	return out
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
		"echo 'rm -rf ~' | sh", "printf 'rm -rf \\x7e' | bash", "sh <<< 'rm -rf ~'", "bash <<< \"rm -rf $HOME\"",
		"echo ~ | xargs rm -rf", "xargs -I{} rm -rf {} <<< ~", "echo '~' | xargs rm -rf", "xargs rm -rf <<< \"a b\"",
		"sh <<EOF\nrm -rf ~\nEOF\n", "cat <<'E' | sh\nrm $x\nE\n", ". <(echo rm -rf ~)", "sh < <(printf 'rm -rf ~')",
		"echo ~ | timeout 5 xargs -I % rm -rf %", "echo x | env sh", "a=1 | bash", "{ echo ls; } | sh",
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
	fed := 0
	defer func() {
		if fed < 10 {
			t.Errorf("only %d texts feed a shell or xargs: the comparison of feeds reads little", fed)
		}
	}()
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
		wt, wa := feedsTree(text, s.File)
		gt, ga := feeds(s.Form())
		if len(wt)+len(wa) > 0 {
			fed++
		}
		if fmt.Sprint(gt, ga) != fmt.Sprint(wt, wa) {
			t.Errorf("%q: fed\n form %q %q\n tree %q %q", text, gt, ga, wt, wa)
		}
	}
}
