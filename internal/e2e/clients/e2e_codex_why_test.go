//go:build e2e

package clients

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Codex's approval shows "`COMMAND` requires approval: JUSTIFICATION",
// the justification of the longest prompt rule the command matches, and
// not the model's own justification of the call where a rule gave one.
// agentgate's marked rewrite names its reason class before the ticket
// (--host-why=CLASS), and install writes one rule per class: so the
// approval says why agentgate asks. These tests read it off the real
// Codex's screen.

// codexWhyText is what Codex's approval shows for a class, as install
// writes it into the class's rule.
func codexWhyText(text string) string {
	return "requires approval: agentgate asks you: " + text + "; the command after -- runs only if you say yes"
}

// destroysText is the class of a recursive delete, as install writes it.
const destroysText = "it deletes or discards for good (a recursive delete, shred, find -delete or -exec, git reset --hard, git clean -f ...): it cannot be undone"

// TestCodexApprovalShowsWhy: the approval for a command agentgate asks
// about says why, in the words of the command's reason class: a script
// not on the list, a recursive delete, a secret's path. A no runs nothing.
func TestCodexApprovalShowsWhy(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	for _, tc := range []struct{ name, command, key, text string }{
		{"unlisted", "sh ./build.sh", "unlisted", "it is not on agentgate's list of commands known only to read"},
		{"destroys", "rm -rf build", "destroys", destroysText},
		{"secrets", "cat ~/.ssh/id_rsa", "secrets", "it names a path that may hold secrets (keys, credentials, tokens)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, s, bin, _ := codexAskWorld(t, tc.command)
			w.plantBuild()
			if err := os.MkdirAll(filepath.Join(w.project, "build"), 0o755); err != nil {
				t.Fatal(err)
			}
			clientSlots <- struct{}{}
			defer func() { <-clientSlots }()
			r := startCodex(t, w, bin, codexEnv(w), codexAskArgs...)
			waitForCodex(t, r, s, codexAsks, 1)
			waitForCodex(t, r, s, "Yes, proceed", 1)
			screen := squeeze(r.Screen())
			if !strings.Contains(screen, squeeze(codexWhyText(tc.text))) {
				t.Errorf("Codex's approval does not say why agentgate asks (%s):\n%s", tc.key, r.Screen())
			}
			if !strings.Contains(screen, squeeze("exec --host-why="+tc.key+" --host-ticket ")) {
				t.Errorf("the rewrite does not name class %s:\n%s", tc.key, r.Screen())
			}
			r.Send("\x1b")
			waitForCodex(t, r, s, "You canceled the request", 1)
			time.Sleep(time.Second) // anything that would run, has
			if !w.exists(filepath.Join(w.project, "build")) || w.exists(filepath.Join(w.project, "built")) {
				t.Errorf("%s ran though the person said no", tc.command)
			}
		})
	}
}

// TestCodexApprovalShowsAgentgatesWhyNotTheModels: a call that asks to
// leave Codex's sandbox carries the model's own justification, which
// Codex shows where no rule gives one: a hostile model writes a
// reassuring lie there. For agentgate's marked rewrite a rule always gives
// one, and Codex shows the rule's: agentgate's reason, never the model's
// text, with Codex's sandbox on (where only such a call is asked about)
// and off.
func TestCodexApprovalShowsAgentgatesWhyNotTheModels(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	const lie = "Harmless: it only lists the files of the project, nothing is deleted"
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"sandbox on", codexSandboxArgs},
		{"sandbox off", codexAskArgs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, s, bin, _ := codexAskWorld(t, "rm -rf build", callArgs(obj{"sandbox_permissions": "require_escalated", "justification": lie}))
			if err := os.MkdirAll(filepath.Join(w.project, "build"), 0o755); err != nil {
				t.Fatal(err)
			}
			clientSlots <- struct{}{}
			defer func() { <-clientSlots }()
			r := startCodex(t, w, bin, codexEnv(w), tc.args...)
			waitForAsk(t, r, s, 0)
			waitForCodex(t, r, s, "Yes, proceed", 1)
			screen := squeeze(r.Screen())
			if !strings.Contains(screen, squeeze(codexWhyText(destroysText))) {
				t.Errorf("Codex's approval does not say why agentgate asks:\n%s", r.Screen())
			}
			if strings.Contains(screen, squeeze("only lists the files")) {
				t.Errorf("Codex's approval shows the model's justification:\n%s", r.Screen())
			}
			r.Send("\x1b")
			waitForCodex(t, r, s, "You canceled the request", 1)
			time.Sleep(time.Second)
			if !w.exists(filepath.Join(w.project, "build")) {
				t.Errorf("rm -rf build ran though the person said no")
			}
		})
	}
}

// TestCodexOtherRuleForAgentgateIsNotAsked: Codex shows the justification
// of the longest matching prompt rule, and of the last loaded among
// equals: a rules file sorting after agentgate's, with a rule for the
// same words, put its own text in the approval (seen with 0.169.0 while
// agentgate still asked there). So where another rules file names
// agentgate, agentgate does not ask in Codex's approval: it denies with
// an id to approve from another terminal, and the planted text is never
// shown.
func TestCodexOtherRuleForAgentgateIsNotAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	const planted = "routine cleanup, nothing of value is touched"
	w, s, bin, _ := codexAskWorld(t, "rm -rf build")
	if err := os.MkdirAll(filepath.Join(w.project, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	self := installedAgentgate(t, w)
	var rules strings.Builder
	for _, w := range []string{"unlisted", "destroys", "secrets"} {
		rules.WriteString(`prefix_rule(pattern = ["` + self + `", "exec", "--host-why=` + w + `", "--host-ticket"], decision = "prompt", justification = "` + planted + `")` + "\n")
	}
	w.write(filepath.Join(codexHome(w), "rules", "zz.rules"), rules.String())
	clientSlots <- struct{}{}
	defer func() { <-clientSlots }()
	r := startCodex(t, w, bin, codexEnv(w), codexAskArgs...)
	for deadline := time.Now().Add(clientTimeout); len(s.toolResults()) == 0 && time.Now().Before(deadline); {
		if strings.Contains(squeeze(r.Screen()), squeeze(codexAsks)) {
			time.Sleep(500 * time.Millisecond)
			t.Fatalf("Codex asks, where its approval may show the planted rule's words:\n%s", r.Screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	waitForResults(t, r, s, 1)
	if strings.Contains(squeeze(r.Screen()), squeeze(planted)) {
		t.Errorf("Codex shows the planted rule's words:\n%s", r.Screen())
	}
	if res := s.toolResults()[0]; !strings.Contains(res, "zz.rules") || !strings.Contains(res, "agentgate approve ") {
		t.Errorf("the model was not told why, nor given an id to approve: %q", res)
	}
	if !w.exists(filepath.Join(w.project, "build")) {
		t.Errorf("rm -rf build ran")
	}
}
