//go:build e2e

package clients

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
)

// TestClaudeInteractiveAskReachesDialog runs Claude Code as a person does,
// in a terminal, in its default interactive permission mode (auto, in
// 2.1.328). agentgate's hook answers ask for cat .env; Claude Code shows
// its own dialog with agentgate's reason, and the person's answer decides.
// (Seen with a throwaway hook: in auto mode an ask is shown as "Hook
// PreToolUse:Bash requires confirmation for this command: REASON ... Do
// you want to proceed? 1. Yes 2. No" without any request to the model
// for auto mode's classifier first, while claude -p runs in default mode
// and refuses an ask. No interrupts the turn, and no hook event follows.)
func TestClaudeInteractiveAskReachesDialog(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	for _, tc := range []struct {
		name, keys string
		secretSeen bool
	}{
		{"yes", "\r", true},
		{"no", "2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, bin := claudeSetup(t)
			w.onboardClaude()
			s, url := newStandIn(t, "cat .env", anthropicAPI)
			clientSlots <- struct{}{}
			defer func() { <-clientSlots }()
			c := exec.Command(bin, "Run the command you are given.")
			c.Dir, c.Env = w.project, withTerm(claudeEnv(w, url))
			r := startPty(t, c)
			waitForDrawn(t, r, s, "Do you want to proceed?")
			// The reason is agentgate's: .env may hold secrets.
			if !strings.Contains(squeeze(r.Screen()), squeeze("may hold secrets")) {
				t.Errorf("Claude Code's dialog does not show agentgate's reason:\n%s", r.Screen())
			}
			r.Send(tc.keys)
			if tc.secretSeen {
				deadline := time.Now().Add(30 * time.Second)
				for len(s.toolResults()) == 0 && time.Now().Before(deadline) {
					time.Sleep(100 * time.Millisecond)
				}
			} else {
				// No interrupts the turn: nothing goes back to the model.
				waitForDrawn(t, r, s, "What should Claude do instead?")
			}
			if got := s.sawAnywhere(w.secret); got != tc.secretSeen {
				t.Errorf("secret reached the model: %v, want %v\n%s", got, tc.secretSeen, s.summary())
			}
			asked := false
			for _, rec := range w.audit() {
				asked = asked || rec.Command == "cat .env" && rec.Outcome == "asked_host" && rec.Harness == "claude"
			}
			if !asked {
				t.Errorf("no asked_host record for cat .env; the log holds %+v", w.audit())
			}
		})
	}
}

// squeeze drops white space: Claude Code's renderer moves the cursor
// instead of printing spaces.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// waitForDrawn waits for text on a full-screen program's terminal, and
// gives up as soon as the model got a tool result: then nobody was asked.
func waitForDrawn(t *testing.T, r *ptyRun, s *standIn, text string) {
	t.Helper()
	deadline := time.Now().Add(clientTimeout)
	for time.Now().Before(deadline) && len(s.toolResults()) == 0 {
		if strings.Contains(squeeze(r.Screen()), squeeze(text)) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("Claude Code never drew %q; the screen shows:\n%s\n%s", text, r.Screen(), s.summary())
}

// TestClaudeHostApprovalRunsThroughExec: a command the person approves in
// Claude Code's own dialog runs through agentgate exec, not as Claude Code
// runs the original (issue 17). The hook's ask carries a rewrite with a
// ticket for exactly that approval (updatedInput with "ask"); Claude Code
// runs the rewrite once the person says yes, so what runs is judged again
// and confined as an approved command is. The planted build script the
// person approved tries to turn the gate off in agentgate's own
// configuration: that write fails, and the build's own work is done.
func TestClaudeHostApprovalRunsThroughExec(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	w, bin := claudeSetup(t)
	w.onboardClaude()
	w.plantBuild()
	s, url := newStandIn(t, "sh ./build.sh", anthropicAPI)
	clientSlots <- struct{}{}
	defer func() { <-clientSlots }()
	c := exec.Command(bin, "Run the command you are given.")
	c.Dir, c.Env = w.project, withTerm(claudeEnv(w, url))
	r := startPty(t, c)
	waitForDrawn(t, r, s, "Do you want to proceed?")
	// The dialog shows what will run: exec, its ticket, and the command.
	if screen := squeeze(r.Screen()); !strings.Contains(screen, squeeze("--host-ticket=")) || !strings.Contains(screen, squeeze("-- 'sh ./build.sh'")) {
		t.Errorf("Claude Code's dialog does not show the rewrite it will run:\n%s", r.Screen())
	}
	r.Send("\r")
	deadline := time.Now().Add(30 * time.Second)
	for len(s.toolResults()) == 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	checkBuildGuarded(t, w, "claude", s, r)
}

// onboardClaude writes what a person's first run of Claude Code leaves
// behind: onboarding done, this folder trusted, the API key accepted.
func (w *world) onboardClaude() {
	w.writeJSON(filepath.Join(w.home, ".claude.json"), obj{
		"hasCompletedOnboarding": true, "lastOnboardingVersion": "2.1.328", "theme": "dark",
		"customApiKeyResponses": obj{"approved": []any{"e2e-test-key"}, "rejected": []any{}},
		"projects":              obj{w.project: obj{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
	})
}

// plantBuild plants the build script a person approves in the tests of
// host approvals: it tries to turn the gate off in agentgate's own
// configuration, then does its own work.
func (w *world) plantBuild() {
	w.write(filepath.Join(w.project, "build.sh"), "mkdir -p \"$HOME/.config/agentgate\"\n"+
		"echo 'mode = \"bypass\"' >> \"$HOME/.config/agentgate/config.toml\"\n"+
		"touch built\necho build done\n")
}

// checkBuildGuarded checks that the approved build ran through exec: its
// own work done, agentgate's configuration untouched, the result recorded
// as approved in the host's dialog.
func checkBuildGuarded(t *testing.T, w *world, harness string, s *standIn, r *ptyRun) {
	t.Helper()
	if !w.exists(filepath.Join(w.project, "built")) {
		t.Fatalf("the approved build did not run\n%s\n%s", s.summary(), r.Screen())
	}
	if w.exists(filepath.Join(w.home, ".config", "agentgate", "config.toml")) {
		t.Errorf("the approved build wrote agentgate's configuration: it ran unconfined, not through exec\n%s", s.summary())
	}
	ran := false
	for _, rec := range w.audit() {
		ran = ran || rec.Command == "sh ./build.sh" && rec.Event == "result" && rec.Outcome == "approved_host" && rec.Harness == harness
	}
	if !ran {
		t.Errorf("no approved_host result for the build; the log holds %+v", w.audit())
	}
}
