package engine

import (
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

// A pack program runs with its scripts, toolchain and config pinned in
// command scope (issue 16), whatever the environment says.
func TestPackPins(t *testing.T) {
	d := gate.Decide(gate.Request{Text: "npm ls && go list ./...", Split: true, Rules: allowlist.Defaults()})
	env := pinPacks(d, []string{"npm_config_ignore_scripts=false", "GOFLAGS=-toolexec=/tmp/x", "GOTOOLCHAIN=go1.99"})
	want := map[string]string{"npm_config_ignore_scripts": "true", "GOFLAGS": "", "GOTOOLCHAIN": "local"}
	got := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := got[k]; dup {
			t.Errorf("%s set twice", k)
		}
		got[k] = v
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s=%q, want %q", k, got[k], v)
		}
	}
}
