package gate_test

import (
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
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
