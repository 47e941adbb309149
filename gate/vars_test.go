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

// TestHostDirRelative: a host directory variable set to a relative path
// (CLAUDE_CONFIG_DIR=.cc) names the file the host reads from its own
// working directory, which the command's cd may have left: its
// components count anywhere.
func TestHostDirRelative(t *testing.T) {
	for v, dir := range map[string]string{".cc": ".cc", "./.cc": ".cc", "../x/.cc": "x/.cc"} {
		paths := gate.Paths{Home: "/home/u", Cwd: "/home/u/proj/sub", Sensitive: gate.DefaultSensitive,
			Vars: map[string]string{"CLAUDE_CONFIG_DIR": v}}
		for text, want := range map[string]gate.Verdict{
			"cat ../" + dir + "/.credentials.json":         gate.Ask,
			"cat " + dir + "/.credentials.json":            gate.Ask,
			"cat /elsewhere/" + dir + "/.credentials.json": gate.Ask,
			"ls | head -1 ../" + dir + "/.cred*":           gate.Ask,
			"cat ../" + dir + "/settings.json":             gate.Allow,
			"cat ../other/.credentials.json":               gate.Allow,
		} {
			d := gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults(), Paths: paths, Split: true})
			if d.Verdict() != want {
				t.Errorf("CLAUDE_CONFIG_DIR=%s: %q = %s (%s); want %s", v, text, d.Verdict(), d.Primary(), want)
			}
		}
	}
}
