package engine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/shparse"
)

// TestBindingSameAcrossHostShellEnv: the hook binds an approval with its
// own environment and exec checks it with the one the host gives the
// shell. Gemini CLI's shell points git's global and system files at
// /dev/null and adds GIT_CONFIG_KEY_n overrides the hook's process does
// not have: the binding must come out the same, or every approval given
// in Gemini's dialog is refused (it was, once the global files were
// bound). A global file the shell alone names still changes the binding:
// that refuses, never runs.
func TestBindingSameAcrossHostShellEnv(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	project := filepath.Join(dir, "project")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = u\n"), 0o644)
	other := filepath.Join(dir, "other.cfg")
	os.WriteFile(other, []byte("[core]\n\thooksPath = /tmp/hk\n"), 0o644)
	binding := func(vars map[string]string) []string {
		text := "git status > st.txt"
		j := &Judgement{Cwd: project}
		j.Request = gate.Request{Text: text, Script: shparse.Of(text), Paths: gate.Paths{Home: home, Cwd: project, Vars: vars}}
		j.Decision = gate.Decide(j.Request)
		return gitBinding(j)
	}
	hook := map[string]string{"HOME": home, "PATH": "/usr/bin", "GIT_CONFIG_NOSYSTEM": "1"}
	gemini := map[string]string{"HOME": home, "PATH": "/usr/bin", "GIT_CONFIG_NOSYSTEM": "1", "GEMINI_CLI": "1",
		"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null", "GIT_CONFIG_COUNT": "2",
		"GIT_CONFIG_KEY_0": "core.fsmonitor", "GIT_CONFIG_VALUE_0": "", "GIT_CONFIG_KEY_1": "core.hooksPath", "GIT_CONFIG_VALUE_1": ""}
	b1, b2 := binding(hook), binding(gemini)
	if len(b1) == 0 || !slices.Equal(b1, b2) {
		t.Errorf("the hook's binding %q and the Gemini shell's %q differ: an approval would never run", b1, b2)
	}
	shellOnly := map[string]string{"HOME": home, "PATH": "/usr/bin", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": other}
	if b3 := binding(shellOnly); slices.Equal(b1, b3) {
		t.Errorf("a global file only the shell's environment names (%s) did not change the binding", other)
	}
}
