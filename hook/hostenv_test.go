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

// The settings of a directory above the one a command runs in count too:
// Codex reads .codex/config.toml from the project root down, and Claude
// Code's project may be any directory above; the home directory's are the
// user's own and do not.
func TestHostEnvAboveTheWorkingDirectory(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(home, "repo")
	sub := filepath.Join(repo, "sub", "deeper")
	os.MkdirAll(sub, 0o755)
	for rel, content := range map[string]string{
		"repo/.codex/config.toml":    "[shell_environment_policy]\nset = { BASH_ENV = \"/tmp/x.sh\" }\n",
		"repo/.claude/settings.json": `{"env": {"LD_PRELOAD": "/x.so"}}`,
		".codex/config.toml":         "[shell_environment_policy]\nset = { GIT_DIR = \"/x\" }\n",
		".claude/settings.json":      `{"env": {"GIT_DIR": "/x"}}`,
	} {
		p := filepath.Join(home, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	w := Where{Home: home, Project: sub}
	for h, want := range map[*Host]string{Codex: "BASH_ENV", Claude: "LD_PRELOAD"} {
		f := HostEnv(h, w)
		if len(f) != 1 || f[0].Key != want || f[0].File != filepath.Join(repo, "."+h.Name, map[string]string{"codex": "config.toml", "claude": "settings.json"}[h.Name]) {
			t.Errorf("%s from %s: %+v, want one finding of %s in the repository's settings", h.Name, sub, f, want)
		}
	}
}
