package gitsafe

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Keys Environ overrides are findings for a command that runs without it
// (Vet), and not for one that runs with it (VetHardened), except in a
// submodule's configuration; other keys are findings for both.
func TestVetHardened(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	set := func(kv ...string) {
		for i := 0; i < len(kv); i += 2 {
			if out, err := exec.Command("git", "-C", repo, "config", kv[i], kv[i+1]).CombinedOutput(); err != nil {
				t.Fatalf("git config: %v %s", err, out)
			}
		}
	}
	count := func(f func([]string, string, []string) ([]Finding, error)) int {
		t.Helper()
		got, err := f([]string{"git", "status"}, repo, os.Environ())
		if err != nil {
			t.Fatal(err)
		}
		return len(got)
	}
	set("core.fsmonitor", "/tmp/planted", "core.hooksPath", ".husky", "core.pager", "/tmp/planted", "pager.log", "/tmp/planted")
	if n := count(Vet); n != 4 {
		t.Errorf("Vet: %d findings, want 4 (each overridden key, for a command run without the overrides)", n)
	}
	if n := count(VetHardened); n != 0 {
		t.Errorf("VetHardened: %d findings, want none for keys the overrides neutralise", n)
	}
	set("core.sshCommand", "/tmp/planted")
	if n := count(VetHardened); n != 1 {
		t.Errorf("VetHardened with core.sshCommand: %d findings, want 1", n)
	}
	exec.Command("git", "-C", repo, "config", "--unset", "core.sshCommand").Run()
	sub := filepath.Join(repo, ".git", "modules", "lib")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "config"), []byte("[core]\n\tfsmonitor = /tmp/planted\n"), 0o644)
	if n := count(VetHardened); n != 1 {
		t.Errorf("VetHardened with a submodule's core.fsmonitor: %d findings, want 1", n)
	}
}
