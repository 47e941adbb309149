package config_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/sandbox"
)

// Sandbox settings only tighten: a project file, trusted or not, cannot
// loosen what the user or the policy set, and can tighten it.
func TestSandboxSettingsOnlyTighten(t *testing.T) {
	w := newWorld(t)
	w.write(filepath.Join(w.cfg, "config.toml"), "sandbox = \"require\"\nmin_rule_sandbox = \"workspace\"\n")
	proj := w.write(filepath.Join(w.repo, ".agentgate.toml"), "sandbox = \"best-effort\"\nmin_rule_sandbox = \"none\"\n")
	for _, trusted := range []bool{false, true} {
		if trusted {
			w.trust(proj)
		}
		c := w.load(w.opts())
		if !c.SandboxRequire || c.MinRuleSandbox != sandbox.Workspace {
			t.Errorf("trusted=%v: the project loosened the user's sandbox settings: require=%v floor=%q", trusted, c.SandboxRequire, c.MinRuleSandbox)
		}
	}
	w2 := newWorld(t)
	w2.write(filepath.Join(w2.repo, ".agentgate.toml"), "sandbox = \"require\"\nmin_rule_sandbox = \"read-only\"\n")
	if c := w2.load(w2.opts()); !c.SandboxRequire || c.MinRuleSandbox != sandbox.ReadOnly {
		t.Errorf("an untrusted project could not tighten: require=%v floor=%q", c.SandboxRequire, c.MinRuleSandbox)
	}
}

// Rule sandbox settings are checked, with file, line and fix.
func TestRuleSandboxErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"[[allow.rule]]\nprefix = \"make\"\nsandbox = \"readonly\"\n", `config.toml:3:1: unknown sandbox level "readonly"`},
		{"[[allow.rule]]\nprefix = \"make\"\nwritable = [\"/x\"]\n", `writable without sandbox = "workspace"`},
		{"[[allow.rule]]\nprefix = \"make\"\nsandbox = \"workspace\"\nwritable = [\"cache\"]\n", `config.toml:4:1: writable path "cache" is not absolute`},
		{"[[deny.rule]]\nprefix = \"make\"\nsandbox = \"none\"\n", `sandbox in [[deny.rule]]`},
		{"sandbox = \"sometimes\"\n", `config.toml:1:1: unknown sandbox setting "sometimes"`},
		{"min_rule_sandbox = \"tight\"\n", `config.toml:1:1: unknown sandbox level "tight"`},
	} {
		w := newWorld(t)
		w.write(filepath.Join(w.cfg, "config.toml"), tt.text)
		_, err := config.Load(w.opts())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v; want %q", tt.text, err, tt.want)
		}
	}
	w := newWorld(t)
	w.write(filepath.Join(w.cfg, "config.toml"), "[[allow.rule]]\nprefix = \"go test\"\nsandbox = \"workspace\"\nwritable = [\"/root/.cache/go-build\"]\n")
	c := w.load(w.opts())
	for _, r := range c.Rules {
		if r.String() == "go test" && (r.Sandbox != "workspace" || len(r.Writable) != 1) {
			t.Errorf("rule read as %+v", r)
		}
	}
}
