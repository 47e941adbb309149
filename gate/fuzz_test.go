package gate_test

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/inspect"
)

// FuzzDecide checks the invariants of the gate on arbitrary text:
//
//   - Decide never panics and every ask or deny carries a reason;
//   - text holding any operator, control or invisible character, or more
//     than MaxCommandBytes is never allowed;
//   - an allowed text is one simple command whose words start with an
//     allow rule's prefix, and none of its words hits an exception;
//   - a deny rule for the first word of an allowed command denies it.
func FuzzDecide(f *testing.F) {
	for _, s := range []string{
		"ls -la", "git log --oneline", "find . -name x", "find . -delete", "ls; rm x", "ls $(id)",
		"cat 'a b'", `g\it status`, "ls\rrm", "ls {a,b}", "sort -o x", "rg --pre=x y", "git branch x",
		"echo \"$HOME\"", "FOO=1 ls", "(ls)", "ls *", "find *", "ls\u202e", "ls ~-", "$'\\x2d'",
	} {
		f.Add(s)
	}
	for _, e := range loadCorpus(f) {
		f.Add(e.req.Text)
	}
	rules := allowlist.Defaults()
	f.Fuzz(func(t *testing.T, text string) {
		d := gate.Decide(gate.Request{Text: text, Rules: rules})
		if d.Verdict() != gate.Allow {
			if d.Primary().Message == "" {
				t.Fatalf("%q: %s with no reason", text, d.Verdict())
			}
			return
		}
		if strings.ContainsAny(text, ";&|`<>\n\r") || strings.Contains(text, "$(") || strings.Contains(text, "${") {
			t.Fatalf("%q holds an operator and was allowed", text)
		}
		if len(text) > gate.MaxCommandBytes {
			t.Fatalf("%d bytes allowed", len(text))
		}
		for _, r := range text {
			if (r < 0x20 && r != '\t') || r == 0x7f || r == 0xfffd {
				t.Fatalf("%q holds %U and was allowed", text, r)
			}
		}
		argv := d.Argv()
		matched := false
		for _, r := range rules {
			if r.Entry != nil {
				if _, ref, ok := r.Entry.Judge(argv); ok && ref == nil {
					matched = true
				}
				continue
			}
			if r.MatchPrefix(argv) {
				matched = true
				if h, hit := r.CheckExceptions(argv); hit {
					t.Fatalf("%q allowed although %q hits exception %s", text, h.Word, h.Exception)
				}
			}
		}
		if !matched {
			t.Fatalf("%q allowed with words %q that no rule matches", text, argv)
		}
		deny := allowlist.Rule{Kind: allowlist.Deny, Prefix: argv[:1], Source: allowlist.Source{Name: "fuzz"}}
		if d2 := gate.Decide(gate.Request{Text: text, Rules: append(rules[:len(rules):len(rules)], deny)}); d2.Verdict() != gate.Deny {
			t.Fatalf("%q: a deny rule for %q gave %s", text, argv[0], d2.Verdict())
		}
	})
}

// operandGlob reports whether the ith of words is a word split mode may
// leave to bash's expansion: a glob or a tilde, and nothing else, in the
// operands of a program that is not cd, pushd or popd.
func operandGlob(words []inspect.Word, i int) bool {
	if i == 0 || len(words[i].Expands) == 0 {
		return false
	}
	switch words[0].Value {
	case "cd", "pushd", "popd":
		return false
	}
	for _, e := range words[i].Expands {
		if e != "glob" && e != "tilde" {
			return false
		}
	}
	return true
}

// FuzzSplit: in split mode nothing with a substitution, a background job,
// an output redirect to anything but /dev/null, or an operator other than
// && || ; | is ever allowed, no word bash still expands but a glob or
// tilde in a program's operands, and every part of an allowed compound is
// allowed on its own.
func FuzzSplit(f *testing.F) {
	for _, s := range append(append([]string{}, splitRuns...), splitAsks...) {
		f.Add(s)
	}
	for _, s := range []string{"ls 3<f.txt | head", "ls >&3 && ls", "cat </dev/tcp/127.0.0.1/80 | head", "cat < $'/dev/tcp/h/1' && ls", "ls 2>&1 | head"} {
		f.Add(s)
	}
	rules := allowlist.Defaults()
	f.Fuzz(func(t *testing.T, text string) {
		d := gate.Decide(gate.Request{Text: text, Rules: rules, Split: true})
		if d.Verdict() != gate.Allow || !containsOperator(text) {
			return // a text without operators is judged as usual (FuzzDecide)
		}
		if strings.ContainsAny(text, "`\r") || strings.Contains(text, "$(") || strings.Contains(text, "${") ||
			strings.Contains(text, "<(") || strings.Contains(text, ">(") || strings.Contains(text, "|&") {
			t.Fatalf("split allowed %q", text)
		}
		s := inspect.Parse(text)
		if s.Error != "" {
			t.Fatalf("split allowed %q, which does not inspect cleanly: %s", text, s.Error)
		}
		var check func(ns []inspect.Node)
		check = func(ns []inspect.Node) {
			for _, n := range ns {
				if n.Background || n.Negated || (n.Kind != "command" && n.Kind != "and" && n.Kind != "or" && n.Kind != "pipe") {
					t.Fatalf("split allowed %q with a %s node", text, n.Kind)
				}
				for i, w := range n.Words {
					if len(w.Substs) > 0 || !w.Literal && !operandGlob(n.Words, i) {
						t.Fatalf("split allowed %q with word %q", text, w.Text)
					}
				}
				for _, r := range n.Redirs {
					if r.Fd != "" && r.Fd != "0" && r.Fd != "1" && r.Fd != "2" {
						t.Fatalf("split allowed %q redirecting descriptor %s", text, r.Fd)
					}
					if gate.NetDevice(r.Target.Value) {
						t.Fatalf("split allowed %q with a network redirect %q", text, r.Target.Text)
					}
					switch r.Op {
					case ">", ">>", "&>", "&>>":
						if r.Target.Value != "/dev/null" {
							t.Fatalf("split allowed %q writing to %q", text, r.Target.Text)
						}
					case ">&":
						if v := r.Target.Value; v != "0" && v != "1" && v != "2" {
							t.Fatalf("split allowed %q duplicating to %q", text, r.Target.Text)
						}
					case "<":
						if !r.Target.Literal {
							t.Fatalf("split allowed %q reading %q", text, r.Target.Text)
						}
					default:
						t.Fatalf("split allowed %q with redirect %s", text, r.Op)
					}
				}
				check(n.Children)
			}
		}
		check(s.Nodes)
		for i, argv := range d.Commands() {
			if i == 0 && len(argv) == 2 && argv[0] == "cd" {
				continue // a leading cd moves where the rest is judged (TestSplitGlobFromCd)
			}
			if d1 := gate.Decide(gate.Request{Argv: argv, Text: partText(argv), Rules: rules}); d1.Verdict() != gate.Allow {
				t.Fatalf("split allowed %q but its part %q alone is %s", text, argv, d1.Verdict())
			}
		}
	})
}

// partText is a part's words as a lone command's text: each as written
// when it holds only characters bash reads plainly or as a glob or tilde
// (which the part alone must be judged with), else quoted ("0|0$0", the
// value of a quoted word, is no pipe).
func partText(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = a
		if strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%*?[]~") != "" || a == "" {
			if q, err := syntax.Quote(a, syntax.LangBash); err == nil {
				words[i] = q
			}
		}
	}
	return strings.Join(words, " ")
}
