//go:build e2e

package clients

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// plantShell puts an executable named bash in the project (a hostile
// repository ships one; apply_patch keeps a file's mode), which records
// that it ran, outside Codex's writable roots, then runs the real bash.
func plantShell(w *world) (shell, marker string) {
	shell = filepath.Join(w.project, "tools", "bash")
	marker = filepath.Join(w.home, "shell-ran")
	w.write(shell, "#!/bin/sh\necho \"$@\" >> '"+marker+"'\nexec /bin/bash \"$@\"\n")
	os.Chmod(shell, 0o755)
	return shell, marker
}

// TestCodexRedModelShellOutsideBoth: the model names its own "shell"
// (an executable named bash or zsh in the project) for an allowed call.
// Codex 0.169.0 runs its own /bin/bash instead: the model's program never
// runs, unsandboxed or at all.
func TestCodexRedModelShellOutsideBoth(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	for _, tc := range []struct {
		name, command string
		sandbox       bool
		yes           bool
		how           string
	}{
		{"sandbox off allowed", "ls", false, false, "abs"},
		{"sandbox off allowed rel", "ls", false, false, "tools/bash"},
		{"sandbox off allowed zsh", "ls", false, false, "zsh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var shell string
			args := obj{}
			if tc.sandbox {
				for k, v := range escalated {
					args[k] = v
				}
			}
			w, s, bin, _ := codexAskWorld(t, tc.command, callArgsFor(func(int) obj {
				a := obj{"shell": shell}
				for k, v := range args {
					a[k] = v
				}
				return a
			}))
			w.plantBuild()
			var marker string
			shell, marker = plantShell(w)
			if tc.how == "tools/bash" {
				shell = "tools/bash"
			} else if tc.how == "zsh" {
				os.Rename(filepath.Join(w.project, "tools", "bash"), filepath.Join(w.project, "tools", "zsh"))
				shell = filepath.Join(w.project, "tools", "zsh")
			}
			clientSlots <- struct{}{}
			defer func() { <-clientSlots }()
			cargs := codexAskArgs
			if tc.sandbox {
				cargs = codexSandboxArgs
			}
			r := startCodex(t, w, bin, codexEnv(w), cargs...)
			if tc.yes {
				waitForCodex(t, r, s, codexAsks, 1)
				t.Logf("the person is shown:\n%s", r.Screen())
				r.Send("y")
			}
			waitForResults(t, r, s, 1)
			data, err := os.ReadFile(marker)
			t.Logf("results: %q", s.toolResults())
			if err == nil {
				t.Errorf("the model's own shell ran (outside Codex's sandbox: it wrote %s), with %q; asked: %v", marker, strings.TrimSpace(string(data)), strings.Contains(squeeze(r.Screen()), squeeze(codexAsks)))
			}
		})
	}
}

// TestCodexRedReusedCallIDEndsNoApproved: the person says no to an ask
// in Codex's approval (Codex sends no event for a no, so the ask's
// record stays open); in the next turn the model API gives an allowed
// command the same call id. Its result must not end the refused ask
// approved_host: that command never ran.
func TestCodexRedReusedCallIDEndsNoApproved(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	w, s, bin, _ := codexAskWorld(t, "", callsFor(func(n int) string {
		if n == 1 {
			return "touch made.txt"
		}
		return "ls"
	}), func(s *standIn) {
		s.callID = func(int) string { return "call_e2e_same" }
		s.again = func(string) bool { return s.timesAsked() < 2 }
	})
	clientSlots <- struct{}{}
	defer func() { <-clientSlots }()
	r := startCodex(t, w, bin, codexEnv(w), codexAskArgs...)
	waitForCodex(t, r, s, codexAsks, 1)
	r.Send("\x1b")
	waitForCodex(t, r, s, "You canceled the request", 1)
	time.Sleep(time.Second)
	r.Send("go on")
	time.Sleep(500 * time.Millisecond)
	r.Send("\r")
	deadline := time.Now().Add(clientTimeout)
	for time.Now().Before(deadline) && s.timesAsked() < 2 {
		time.Sleep(100 * time.Millisecond)
	}
	if s.timesAsked() < 2 {
		t.Fatalf("the model never made its second call\n%s", s.summary())
	}
	time.Sleep(3 * time.Second) // the second call ran, and its result event came
	var got []string
	for _, rec := range w.audit() {
		got = append(got, rec.Event+":"+rec.Outcome+":"+rec.Command)
	}
	t.Logf("audit: %q", got)
	if w.exists(filepath.Join(w.project, "made.txt")) {
		t.Errorf("touch made.txt ran")
	}
	for _, g := range got {
		if strings.Contains(g, "approved_host") {
			t.Errorf("the ask the person said no to is recorded approved: %q", got)
			break
		}
	}
	// The turn that followed ended (Codex's Stop): the refused ask, which
	// never ran, is ended denied_host rather than left open.
	if !slices.Contains(got, "result:denied_host:touch made.txt") {
		t.Errorf("the refused ask was not ended denied_host at the end of the next turn: %q", got)
	}
}
