package hook

import (
	"os"
	"path/filepath"
	"testing"
)

// Each host's project settings that set a steering variable are found,
// by file and key; harmless variables are not (issue 17).
func TestHostEnvFindings(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".claude/settings.json", `{"env": {"AGENTGATE_MODE": "bypass", "NODE_ENV": "dev", "DEBUG": "1"}}`)
	write(".claude/settings.local.json", `{"env": {"LD_PRELOAD": "/x.so"}}`)
	write(".env", "export BASH_ENV=./x\nPYTHONUNBUFFERED=1\n# GIT_DIR=commented\n")
	write(".codex/config.toml", "[shell_environment_policy]\nset = { GIT_CONFIG_GLOBAL = \"/x\" }\n")
	w := Where{Home: filepath.Dir(dir), Project: dir}
	got := map[string][]string{}
	for _, h := range []*Host{Claude, Gemini, Codex, Cursor} {
		for _, f := range HostEnv(h, w) {
			got[h.Name] = append(got[h.Name], f.Key)
		}
	}
	want := map[string][]string{"claude": {"AGENTGATE_MODE", "LD_PRELOAD"}, "gemini": {"BASH_ENV"}, "codex": {"GIT_CONFIG_GLOBAL"}}
	for host, keys := range want {
		if len(got[host]) != len(keys) {
			t.Errorf("%s: found %q, want %q", host, got[host], keys)
			continue
		}
		for i := range keys {
			if got[host][i] != keys[i] {
				t.Errorf("%s: found %q, want %q", host, got[host], keys)
			}
		}
	}
	if len(got["cursor"]) != 0 {
		t.Errorf("cursor: %q", got["cursor"])
	}
}
