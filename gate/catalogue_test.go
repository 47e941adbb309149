package gate_test

import (
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

// sampleValues are flag values the catalogue test writes for a
// placeholder; any other placeholder gets "1".
var sampleValues = map[string]string{"PATTERN": "x", "FILE": "f", "DIR": "d", "FORMAT": "%s", "STRING": "s", "NAME": "n"}

// entrySamples override the value of one flag of one entry, where the
// entry judges the value ("sed -e" must be a script that prints).
var entrySamples = map[string]string{"sed -e": "1p", "sed --expression": "1p"}

// flagUses are the ways a program accepts the flag: every name, with
// its value attached and apart, and for a long name an abbreviation.
func flagUses(e *allowlist.Entry, f allowlist.Flag) [][]string {
	var out [][]string
	for _, n := range f.Names {
		v := sampleValues[f.Value]
		if v == "" {
			v = "1"
		}
		if s, ok := entrySamples[e.Name()+" "+n]; ok {
			v = s
		}
		bare := f.Value == "" || containsName(f.Bare, n)
		var more []string
		for _, m := range f.More {
			more = append(more, sampleValues[m]+"v")
		}
		switch {
		case bare:
			out = append(out, []string{n})
		case len(more) > 0:
			out = append(out, append([]string{n, v}, more...))
		case f.Optional && strings.HasPrefix(n, "--"):
			out = append(out, []string{n}, []string{n + "=" + v})
		case f.Optional:
			out = append(out, []string{n}, []string{n + v})
		case strings.HasPrefix(n, "--"):
			out = append(out, []string{n, v}, []string{n + "=" + v})
		case len(n) == 2 && !e.SingleDash && !e.ExactFlags:
			out = append(out, []string{n, v}, []string{n + v})
		default:
			out = append(out, []string{n, v})
		}
		if f.Effect != allowlist.Reads && strings.HasPrefix(n, "--") && len(n) > 5 {
			// An abbreviation of a refused flag is refused.
			abbr := []string{n[:len(n)-1]}
			if !bare {
				abbr = append(abbr, v)
			}
			out = append(out, append(abbr, more...))
		}
	}
	return out
}

func containsName(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

// Every flag of every catalogue entry, through Decide: a flag that reads
// is allowed in a case that uses it, a refused one asks and names it.
func TestCatalogueFlags(t *testing.T) {
	rules := allowlist.Defaults()
	for _, e := range allowlist.Builtin() {
		if e.Example == "" {
			t.Errorf("%s: no example", e.Name())
			continue
		}
		base := strings.Fields(e.Example)
		if d := gate.Decide(gate.Request{Text: e.Example, Rules: rules}); d.Verdict() != gate.Allow {
			t.Errorf("example %q = %s (%s); want allow", e.Example, d.Verdict(), d.Primary().Message)
			continue
		}
		seen := map[string]allowlist.Effect{}
		for _, f := range e.Flags {
			shadowed := false
			for _, n := range f.Names {
				if _, ok := seen[n]; ok {
					shadowed = true
				}
			}
			if f.Note == "" {
				t.Errorf("%s %s: no note", e.Name(), f.Spec())
			}
			for _, n := range f.Names {
				if eff, dup := seen[n]; dup && eff != f.Effect {
					t.Errorf("%s: %s listed twice with different effects", e.Name(), n)
				}
				seen[n] = f.Effect
			}
			if shadowed {
				continue // an earlier flag of the entry wins
			}
			for _, use := range flagUses(e, f) {
				argv := append(append(append([]string{}, base[:len(e.Words)]...), use...), base[len(e.Words):]...)
				text := shellJoin(argv)
				d := gate.Decide(gate.Request{Text: text, Rules: rules})
				if f.Effect == allowlist.Reads {
					if d.Verdict() != gate.Allow {
						t.Errorf("%s (%s) = %s (%s); want allow", text, f.Spec(), d.Verdict(), d.Primary().Message)
					}
				} else if c := d.Primary().Check; d.Verdict() != gate.Ask || c != gate.CheckException && c != gate.CheckSelfProtect {
					t.Errorf("%s (%s: %s) = %s (%s); want ask on the flag", text, f.Spec(), f.Note, d.Verdict(), d.Primary().Message)
				}
			}
		}
	}
}

func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, w := range argv {
		if strings.ContainsAny(w, " %*?[]{}~$'\"\\;&|<>()#!") {
			w = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		out[i] = w
	}
	return strings.Join(out, " ")
}
