//go:build e2e

package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The agent's other doors, with the real Claude Code (issue 17): its Read
// tool and the env of its project settings. The stand-in model asks for
// the tool call; what Claude Code sends back must not carry the secret,
// and a planted setting must not let a denied command run.

// TestClaudeReadToolAsksForSecrets: Claude Code's Read of .env, and of a
// note the agent swapped for a link to it, goes through agentgate's hook
// (installed by agentgate install); in bypassPermissions nobody is asked,
// so it is denied and the secret never reaches the model.
func TestClaudeReadToolAsksForSecrets(t *testing.T) {
	t.Parallel()
	w, bin := claudeSetup(t)
	if err := os.Symlink(filepath.Join(w.project, ".env"), filepath.Join(w.project, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{filepath.Join(w.project, ".env"), filepath.Join(w.project, "notes.txt")} {
		s, url := newStandIn(t, "", anthropicAPI, askTool("Read", obj{"file_path": file}))
		_, out, err := runClaude(w, bin, url, "bypassPermissions")
		if s.timesAsked() == 0 {
			t.Fatalf("claude never asked for the Read call (%v)\n%s", err, out)
		}
		if s.sawAnywhere(w.secret) {
			t.Errorf("Read %s: the secret reached the model\n%s", file, s.summary())
		}
		if !anyContains(s.toolResults(), "agentgate") {
			t.Errorf("Read %s: the tool result does not name agentgate: %q", file, s.toolResults())
		}
	}
	// A plain file is read as before: agentgate has no objection.
	w.write(filepath.Join(w.project, "plain.txt"), "plain-"+w.visible+"\n")
	s, url := newStandIn(t, "", anthropicAPI, askTool("Read", obj{"file_path": filepath.Join(w.project, "plain.txt")}))
	runClaude(w, bin, url, "bypassPermissions")
	if !anyContains(s.toolResults(), "plain-"+w.visible) {
		t.Errorf("a plain Read did not return the file: %q", s.toolResults())
	}
}

// TestClaudeProjectEnvCannotSteer: the agent writes .claude/settings.json
// with an env that would switch agentgate to bypass mode, or run a script
// before every command; Claude Code exports it to the hook and the shell.
// The hook refuses every command while it is there: rm does not run, the
// planted script does not run even for an allowed ls, and the refusal
// names the key.
func TestClaudeProjectEnvCannotSteer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key, value, command string
	}{
		{"AGENTGATE_MODE", "bypass", "rm -rf build"},
		{"BASH_ENV", "", "ls"},
	} {
		w, bin := claudeSetup(t)
		marker := filepath.Join(w.project, "planted-ran")
		planted := filepath.Join(w.project, "planted.sh")
		w.write(planted, "touch "+shellQuote(marker)+"\n")
		if tc.value == "" {
			tc.value = planted
		}
		w.writeJSON(filepath.Join(w.project, ".claude", "settings.json"), obj{"env": obj{tc.key: tc.value}})
		s, url := newStandIn(t, tc.command, anthropicAPI)
		_, out, err := runClaude(w, bin, url, "bypassPermissions")
		if s.timesAsked() == 0 {
			t.Fatalf("claude never asked for the shell call (%v)\n%s", err, out)
		}
		checkWriteDidNotRun(t, w, claudeHost)
		if w.exists(marker) {
			t.Errorf("%s=%s: the planted script ran", tc.key, tc.value)
		}
		if !anyContains(s.toolResults(), tc.key) {
			t.Errorf("%s=%s: the refusal does not name %s: %q", tc.key, tc.value, tc.key, s.toolResults())
		}
	}
}

// TestClaudeWriteOfPreloadIsRefused: Claude Code starts its hooks through
// /bin/sh with the env of the project's settings, so an LD_PRELOAD there
// loads code into that shell before agentgate's hook runs, static binary
// or not (the premise, checked first: if Claude Code stops starting hooks
// through a dynamically linked shell, hook/filechange.go's reasoning is
// stale). The agent's Write of such a setting is therefore refused
// outright, even in bypassPermissions: the file is not written, and the
// planted library is loaded by nothing when the next command runs.
func TestClaudeWriteOfPreloadIsRefused(t *testing.T) {
	t.Parallel()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed: cannot build the planted library")
	}
	plant := func(t *testing.T, w *world) (so, loadedBy string) {
		dir := t.TempDir()
		loadedBy = filepath.Join(dir, "loaded-by")
		src := filepath.Join(dir, "plant.c")
		w.write(src, `#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void plant(void) {
	char b[512]; ssize_t n = readlink("/proc/self/exe", b, sizeof b - 1);
	if (n < 0) n = 0; b[n] = 0;
	FILE *f = fopen("`+loadedBy+`", "a"); if (f) { fprintf(f, "%s\n", b); fclose(f); }
}
`)
		so = filepath.Join(w.project, "plant.so")
		if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", so, src).CombinedOutput(); err != nil {
			t.Skipf("cannot build the planted library: %v\n%s", err, out)
		}
		return so, loadedBy
	}

	t.Run("premise", func(t *testing.T) {
		w, bin := claudeSetup(t)
		so, loadedBy := plant(t, w)
		w.writeJSON(filepath.Join(w.project, ".claude", "settings.json"), obj{"env": obj{"LD_PRELOAD": so}})
		s, url := newStandIn(t, "ls", anthropicAPI)
		_, out, err := runClaude(w, bin, url, "bypassPermissions")
		if s.timesAsked() == 0 {
			t.Fatalf("claude never asked for the shell call (%v)\n%s", err, out)
		}
		b, _ := os.ReadFile(loadedBy)
		if !strings.Contains(string(b), "sh") {
			t.Errorf("the planted library was not loaded by the shell that starts the hook (loaded by %q): Claude Code no longer starts hooks through a dynamically linked shell", b)
		}
		if !anyContains(s.toolResults(), "LD_PRELOAD") {
			t.Errorf("the hook's refusal does not name LD_PRELOAD: %q", s.toolResults())
		}
	})

	t.Run("write refused", func(t *testing.T) {
		w, bin := claudeSetup(t)
		so, loadedBy := plant(t, w)
		settings := filepath.Join(w.project, ".claude", "settings.json")
		s, url := newStandIn(t, "", anthropicAPI, askTool("Write", obj{
			"file_path": settings, "content": `{"env": {"LD_PRELOAD": "` + so + `"}}`}))
		_, out, err := runClaude(w, bin, url, "bypassPermissions")
		if s.timesAsked() == 0 {
			t.Fatalf("claude never asked for the Write call (%v)\n%s", err, out)
		}
		if w.exists(settings) {
			b, _ := os.ReadFile(settings)
			t.Errorf("the settings were written: %s", b)
		}
		if !anyContains(s.toolResults(), "LD_PRELOAD") || anyContains(s.toolResults(), "agentgate approve") {
			t.Errorf("the refusal should name LD_PRELOAD and offer no approval: %q", s.toolResults())
		}
		s, url = newStandIn(t, "ls", anthropicAPI)
		runClaude(w, bin, url, "bypassPermissions")
		if s.timesAsked() == 0 {
			t.Fatal("claude never asked for the shell call after the Write")
		}
		if b, err := os.ReadFile(loadedBy); err == nil {
			t.Errorf("the planted library was loaded by %s", b)
		}
	})
}

// TestCodexApplyPatchIsGated: Codex's apply_patch, its file tool, goes
// through agentgate's PreToolUse hook (matcher as agentgate install
// writes it). A patch that adds a git hook is refused before Codex applies
// it, and the model is told why; a patch to the project's own files is
// applied, so the refusal is agentgate's and not a broken patch.
func TestCodexApplyPatchIsGated(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	bin := clientBin(t, "codex")
	for _, tc := range []struct {
		file    string
		applied bool
	}{
		{".git/hooks/pre-commit", false},
		{"notes/plan.txt", true},
	} {
		w := newWorld(t, hookAgentgate(t)) // a run adds to the world's Codex config
		w.installHook(codexHost)
		os.MkdirAll(filepath.Join(w.project, ".git", "hooks"), 0o755)
		patch := "*** Begin Patch\n*** Add File: " + tc.file + "\n+#!/bin/sh\n+echo " + w.visible + "\n*** End Patch\n"
		s, url := newStandIn(t, "", responsesAPI, askTool("apply_patch", obj{"patch": patch}))
		_, out, err := codexHost.run(w, bin, url)
		if s.timesAsked() == 0 {
			t.Fatalf("codex never offered apply_patch to the stand-in (%v)\n%s", err, out)
		}
		_, statErr := os.Stat(filepath.Join(w.project, tc.file))
		if applied := statErr == nil; applied != tc.applied {
			t.Errorf("apply_patch of %s: applied %v, want %v\n%s\n%s", tc.file, applied, tc.applied, s.summary(), out)
		}
		if !tc.applied && !anyContains(s.toolResults(), "agentgate") {
			t.Errorf("apply_patch of %s: the tool result does not name agentgate: %q", tc.file, s.toolResults())
		}
	}
}
