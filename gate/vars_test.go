package gate_test

import (
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

// A protected path spelled through a variable of the environment the
// command runs with, in a word or a redirect target, is a sticky ask.
func TestProtectedThroughVariables(t *testing.T) {
	paths := gate.Paths{Home: "/home/u", Cwd: "/home/u/proj",
		Self:      append([]string{"/home/u/.config/agentgate"}, gate.DefaultSelf...),
		Sensitive: gate.DefaultSensitive,
		Vars:      map[string]string{"XDG_CONFIG_HOME": "/home/u/.config", "KEYS": "/home/u/.ssh"}}
	for _, text := range []string{
		`echo x > $XDG_CONFIG_HOME/agentgate/config.toml`,
		`echo x > "$XDG_CONFIG_HOME/agentgate/config.toml"`,
		`echo x > "${XDG_CONFIG_HOME}"/agentgate/config.toml`,
		`tee ${XDG_CONFIG_HOME}/agentgate/config.toml`,
		`echo x >> $HOME/.bashrc`,
		`echo x >> ${HOME}/.bashrc`,
		`cat $KEYS/id_ed25519`,
		`ls && cat < "$KEYS/id_rsa"`,
	} {
		for _, split := range []bool{false, true} {
			d := gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults(), Paths: paths, Split: split})
			if d.Verdict() == gate.Allow || !d.Sticky() {
				t.Errorf("%q (split %v): %s sticky=%v %v", text, split, d.Verdict(), d.Sticky(), d.Reasons())
			}
		}
	}
	// Unknown variables and harmless targets are not protected paths.
	for _, text := range []string{`echo x > $UNSET/agentgate/config.toml`, `ls > /dev/null`, `echo $XDG_CONFIG_HOME`} {
		d := gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults(), Paths: paths})
		if d.Sticky() {
			t.Errorf("%q: a sticky ask: %v", text, d.Reasons())
		}
	}
}
