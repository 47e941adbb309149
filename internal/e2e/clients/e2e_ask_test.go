//go:build e2e

package clients

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeAskReachesThePerson drives Claude Code through the Agent SDK,
// whose canUseTool callback stands for the person at Claude Code's
// permission dialog: agentgate's hook answers "ask" for cat .env, the
// person is asked about exactly that command, and their answer decides.
// An approval reaches the audit log under the escalation's record id
// (through PostToolUse). A refusal cannot: Claude Code 2.1.328 sends no
// hook event when the person says no in its dialog (seen here: only
// PermissionRequest before the dialog, then Stop; no PermissionDenied, which
// is for its auto mode's refusals), so the log keeps asked_host alone.
func TestClaudeAskReachesThePerson(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	claude := clientBin(t, "claude")
	script, err := filepath.Abs(filepath.Join(e2eDir, "ask.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		skipOrFail(t, "node is not installed: the Agent SDK runs on it")
	}
	ag := hookAgentgate(t)
	for _, tc := range []struct {
		answer, outcome string
		secretSeen      bool
	}{
		{answer: "deny"},
		{answer: "allow", outcome: "approved_host", secretSeen: true},
	} {
		t.Run(tc.answer, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, ag)
			w.installHook(claudeHost)
			s, url := newStandIn(t, "cat .env", anthropicAPI)
			out, errOut, err := w.run(claudeEnv(w, url), "node", script, claude, tc.answer)
			if err != nil {
				t.Fatalf("node ask.mjs: %v\n%s%s\n%s", err, out, errOut, s.summary())
			}
			var res struct {
				Session string
				Asked   []struct {
					ToolName string
					Input    struct{ Command string }
				}
			}
			if err := json.Unmarshal([]byte(lastLine(out)), &res); err != nil {
				t.Fatalf("ask.mjs printed %q: %v\n%s", out, err, errOut)
			}
			if len(res.Asked) != 1 || res.Asked[0].ToolName != "Bash" || !askedAbout(res.Asked[0].Input.Command, "cat .env") {
				t.Errorf("the person was asked %+v, want once about Bash cat .env", res.Asked)
			}
			if got := s.sawAnywhere(w.secret); got != tc.secretSeen {
				t.Errorf("secret reached the model: %v, want %v\n%s", got, tc.secretSeen, s.summary())
			}
			checkAnswerAudited(t, w, "cat .env", res.Session, tc.outcome)
		})
	}
}

// askedAbout reports whether a host asked about command: the original, or
// the rewrite into agentgate exec with a ticket that the hook's ask
// carries, which ends in the original, quoted.
func askedAbout(command, original string) bool {
	if command == original {
		return true
	}
	return strings.Contains(command, " exec --non-interactive ") && strings.Contains(command, " '--host-ticket=") &&
		strings.HasSuffix(command, " -- "+shellQuote(original))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// checkAnswerAudited finds the escalation the host asked about, and the
// person's answer under the same record id; outcome "" is no answer.
func checkAnswerAudited(t *testing.T, w *world, command, session, outcome string) {
	t.Helper()
	recs := w.audit()
	id := ""
	for _, r := range recs {
		if r.Command == command && r.Outcome == "asked_host" {
			id = r.ID
			if r.Session != session || r.Harness != "claude" {
				t.Errorf("asked record %s: session %q harness %q, want %q claude", r.ID, r.Session, r.Harness, session)
			}
		}
	}
	if id == "" {
		t.Fatalf("no asked_host record for %q; the log holds %+v", command, recs)
	}
	for _, r := range recs {
		if r.ID != id || r.Outcome == "asked_host" {
			continue
		}
		if r.Outcome != outcome {
			t.Errorf("record %s: outcome %q, want %q", id, r.Outcome, outcome)
		}
		return
	}
	if outcome != "" {
		t.Errorf("no %s outcome under record %s; the log holds %+v", outcome, id, recs)
	}
}
