package gate_test

import (
	"testing"

	"github.com/agentgate/agentgate/gate"
)

// TestUnreadTilde: a "~" bash does not expand to the home asks, stickily,
// alone and in a compound; the home's own tilde is judged as the home.
func TestUnreadTilde(t *testing.T) {
	for text, want := range map[string]gate.Verdict{
		"cat ~/notes.txt":                    gate.Allow,
		"ls ~":                               gate.Allow,
		"ls ~+/src":                          gate.Allow,
		"ls | head ~/notes.txt":              gate.Allow,
		"git log HEAD~1":                     gate.Allow,
		"cat a/~/b":                          gate.Allow,
		"cat '~/x'":                          gate.Ask,
		`cat "~/x"`:                          gate.Ask,
		`cat \~/x`:                           gate.Ask,
		"cat ~'/x'":                          gate.Ask,
		"ls | cat '~'/x":                     gate.Ask,
		"cat < '~/x'":                        gate.Ask,
		"diff --from-file=~/x a.txt":         gate.Ask,
		"grep -f~/x -e hi a.txt":             gate.Ask,
		"cat a=~/x":                          gate.Ask,
		"cat a:~/x":                          gate.Ask,
		"cat ~nosuchuser/x":                  gate.Ask,
		"ls | cat ~+1/x":                     gate.Ask,
		"cat ~1/x":                           gate.Ask,
		"cat ~-2/x":                          gate.Ask,
		"ls ~*":                              gate.Ask,
		`bash -c "cat '~/x'"`:                gate.Ask,
		"true && diff --from-file=~/x a.txt": gate.Ask,
	} {
		d := decideSplit(text)
		if d.Verdict() != want {
			t.Errorf("%q = %s (%s); want %s", text, d.Verdict(), d.Primary(), want)
		}
		if want == gate.Ask && !d.Sticky() {
			t.Errorf("%q asks, but not stickily (%s)", text, d.Primary())
		}
	}
}
