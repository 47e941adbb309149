//go:build e2e

package clients

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGeminiInteractiveAskReachesDialog: in an interactive Gemini CLI
// session (a terminal, no -p), agentgate's ask becomes Gemini's own
// confirmation, even in yolo mode, where Gemini would not ask on its own;
// the person's answer decides. Headless runs are denied with an id
// instead (TestHosts), since nothing would answer there.
func TestGeminiInteractiveAskReachesDialog(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	for _, tc := range []struct {
		name, keys string
		ran        bool
	}{
		{"yes", "\r", true},
		{"no", "\x1b", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bin := clientBin(t, "gemini")
			w := newWorld(t, hookAgentgate(t))
			w.installHook(geminiHost)
			w.mergeGeminiSettings()
			s, url := newStandIn(t, "rm -rf build", geminiAPI)
			clientSlots <- struct{}{}
			defer func() { <-clientSlots }()
			c := exec.Command(bin, "--yolo", "-m", "gemini-2.5-flash", "-i", "Run the command you are given.")
			c.Dir, c.Env = w.project, withTerm(geminiEnv(w, url))
			r := startPty(t, c)
			waitForGemini(t, r, s, "Allow execution")
			// The reason is agentgate's, in Gemini's own dialog.
			if !strings.Contains(squeeze(r.Screen()), squeeze(`"rm" is not on the allowlist`)) {
				t.Errorf("Gemini's confirmation does not show agentgate's reason:\n%s", r.Screen())
			}
			r.Send(tc.keys)
			if tc.ran {
				deadline := time.Now().Add(clientTimeout)
				for time.Now().Before(deadline) && len(s.toolResults()) == 0 {
					time.Sleep(100 * time.Millisecond)
				}
			} else {
				// No cancels the request: nothing goes back to the model.
				waitForGemini(t, r, s, "Request cancelled")
			}
			gone := !w.exists(filepath.Join(w.project, "build", "out.o"))
			if gone != tc.ran {
				t.Errorf("rm -rf build ran: %v, want %v\n%s\n%s", gone, tc.ran, r.Screen(), s.summary())
			}
			asked := false
			for _, rec := range w.audit() {
				asked = asked || rec.Command == "rm -rf build" && rec.Outcome == "asked_host" && rec.Harness == "gemini"
			}
			if !asked {
				t.Errorf("no asked_host record for rm -rf build; the log holds %+v", w.audit())
			}
		})
	}
}

// waitForGemini waits for text on Gemini CLI's screen.
func waitForGemini(t *testing.T, r *ptyRun, s *standIn, text string) {
	t.Helper()
	deadline := time.Now().Add(clientTimeout)
	for time.Now().Before(deadline) && len(s.toolResults()) == 0 {
		if strings.Contains(squeeze(r.Screen()), squeeze(text)) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("Gemini CLI never drew %q; the screen shows:\n%s\n%s", text, r.Screen(), s.summary())
}

// TestGeminiHostApprovalRunsThroughExec: a command the person approves in
// Gemini CLI's own confirmation runs through agentgate exec (issue 17).
// Gemini applies a hook's tool_input before it asks, so the person
// confirms the rewrite, ticket and all; the planted build script it runs
// cannot change agentgate's configuration, and its own work is done.
func TestGeminiHostApprovalRunsThroughExec(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	bin := clientBin(t, "gemini")
	w := newWorld(t, hookAgentgate(t))
	w.installHook(geminiHost)
	w.mergeGeminiSettings()
	w.plantBuild()
	s, url := newStandIn(t, "sh ./build.sh", geminiAPI)
	clientSlots <- struct{}{}
	defer func() { <-clientSlots }()
	c := exec.Command(bin, "--yolo", "-m", "gemini-2.5-flash", "-i", "Run the command you are given.")
	c.Dir, c.Env = w.project, withTerm(geminiEnv(w, url))
	r := startPty(t, c)
	waitForGemini(t, r, s, "Allow execution")
	if screen := squeeze(r.Screen()); !strings.Contains(screen, squeeze("--host-ticket=")) {
		t.Errorf("Gemini's confirmation does not show the rewrite it will run:\n%s", r.Screen())
	}
	r.Send("\r")
	deadline := time.Now().Add(clientTimeout)
	for time.Now().Before(deadline) && len(s.toolResults()) == 0 {
		time.Sleep(100 * time.Millisecond)
	}
	checkBuildGuarded(t, w, "gemini", s, r)
}
