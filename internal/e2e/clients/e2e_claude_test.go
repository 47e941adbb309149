//go:build e2e

package clients

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/hostcheck"
)

// Claude Code: the Anthropic Messages API at ANTHROPIC_BASE_URL; the hook
// is a PreToolUse command hook on Bash in ~/.claude/settings.json. It runs
// in bypassPermissions mode, so Claude Code's own permission rules stop
// nothing and only agentgate stands between the model and the shell
// (IS_SANDBOX lets that mode run as root).
var claudeHost = host{
	name:      "claude",
	bin:       "claude",
	proto:     anthropicAPI,
	write:     "rm -rf build",
	toolUseID: "toolu_e2e_1",
	install: func(w *world) {
		w.writeJSON(filepath.Join(w.home, ".claude", "settings.json"), obj{
			"hooks": obj{"PreToolUse": []any{obj{
				"matcher": "Bash",
				"hooks":   []any{obj{"type": "command", "command": w.hookCommand("claude"), "timeout": 30}},
			}}},
		})
	},
	run: func(w *world, bin, url string) (string, string, error) {
		res, out, err := runClaude(w, bin, url, "bypassPermissions")
		return res.SessionID, out, err
	},
}

// claudeResult is what claude -p --output-format json reports.
type claudeResult struct {
	SessionID         string `json:"session_id"`
	PermissionDenials []struct {
		ToolName  string `json:"tool_name"`
		ToolInput struct {
			Command string `json:"command"`
		} `json:"tool_input"`
	} `json:"permission_denials"`
}

func runClaude(w *world, bin, url, mode string) (claudeResult, string, error) {
	out, errOut, err := w.run(claudeEnv(w, url), bin,
		"-p", "Run the command you are given.", "--output-format", "json",
		"--permission-mode", mode, "--max-turns", "4")
	var res claudeResult
	json.Unmarshal([]byte(out), &res)
	return res, out + errOut, err
}

func claudeEnv(w *world, url string) []string {
	return w.env(append(slices.Clone(hostcheck.ClaudeOffline),
		"ANTHROPIC_BASE_URL="+url,
		"ANTHROPIC_API_KEY=e2e-test-key",
		"IS_SANDBOX=1",
	)...)
}

// claudePermissions sets the permissions of the user's Claude Code
// settings, keeping the rest (the hook install wrote).
func (w *world) claudePermissions(perms obj) {
	w.t.Helper()
	path := filepath.Join(w.home, ".claude", "settings.json")
	settings := obj{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &settings); err != nil {
			w.t.Fatal(err)
		}
	}
	settings["permissions"] = perms
	w.writeJSON(path, settings)
}

// claudeSetup is a world with agentgate installed as Claude Code's hook.
func claudeSetup(t *testing.T) (w *world, bin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	bin = clientBin(t, "claude")
	w = newWorld(t, hookAgentgate(t))
	w.installHook(claudeHost)
	return w, bin
}

// TestClaudeDenyRuleHoldsAfterRewrite: agentgate allows ls and rewrites it
// into agentgate exec, yet Claude Code's own permissions.deny rule for the
// original command still blocks it. (Claude Code 2.1.328 matches its rules
// against the command a hook's updatedInput gives, seen here: a rewrite
// into "agentgate exec -- ls" no longer matches Bash(ls:*), so the hook
// must keep the host's rules in force some other way.)
func TestClaudeDenyRuleHoldsAfterRewrite(t *testing.T) {
	t.Parallel()
	w, bin := claudeSetup(t)
	w.claudePermissions(obj{"deny": []any{"Bash(ls:*)", "Bash(ls)"}})
	s, url := newStandIn(t, "ls", anthropicAPI)
	res, out, err := runClaude(w, bin, url, "bypassPermissions")
	if s.timesAsked() == 0 {
		t.Fatalf("claude never asked for the shell call (%v)\n%s", err, out)
	}
	if anyContains(s.toolResults(), w.visible) {
		t.Errorf("ls ran despite the deny rule on it\n%s", s.summary())
	}
	if len(res.PermissionDenials) != 1 {
		t.Errorf("permission_denials %+v, want the one ls\n%s", res.PermissionDenials, out)
	}
}

// TestClaudeHeadlessDefaultMode: in Claude Code's default mode with -p
// nobody can answer its dialog; an escalation must not run, and Claude
// Code reports it among permission_denials.
func TestClaudeHeadlessDefaultMode(t *testing.T) {
	t.Parallel()
	w, bin := claudeSetup(t)
	s, url := newStandIn(t, "rm -rf build", anthropicAPI)
	res, out, err := runClaude(w, bin, url, "default")
	if s.timesAsked() == 0 {
		t.Fatalf("claude never asked for the shell call (%v)\n%s", err, out)
	}
	checkWriteDidNotRun(t, w, claudeHost)
	if len(res.PermissionDenials) != 1 || !askedAbout(res.PermissionDenials[0].ToolInput.Command, "rm -rf build") {
		t.Errorf("permission_denials %+v, want rm -rf build\n%s", res.PermissionDenials, out)
	}
	checkEscalationAudited(t, w, claudeHost, "rm -rf build", res.SessionID)
}

// TestClaudeAllowRuleKeepsAgentgatesAsk: a user's Bash allow rule that
// matches the command does not skip agentgate's question on Claude Code
// 2.1.328. With -p nobody can answer the dialog, so had the rule won,
// rm would have run; it is denied instead. This is why doctor reports
// such a rule as a note, not a problem.
func TestClaudeAllowRuleKeepsAgentgatesAsk(t *testing.T) {
	t.Parallel()
	w, bin := claudeSetup(t)
	w.claudePermissions(obj{"allow": []any{"Bash(rm:*)", "Bash(rm -rf build)", "Bash"}})
	s, url := newStandIn(t, "rm -rf build", anthropicAPI)
	res, out, err := runClaude(w, bin, url, "default")
	if s.timesAsked() == 0 {
		t.Fatalf("claude never asked for the shell call (%v)\n%s", err, out)
	}
	checkWriteDidNotRun(t, w, claudeHost)
	if len(res.PermissionDenials) != 1 {
		t.Errorf("permission_denials %+v, want rm -rf build\n%s", res.PermissionDenials, out)
	}

	// The control: without agentgate, the same rule runs rm in the same
	// mode, so the rule is one that would matter.
	bare := newWorld(t, "")
	bare.claudePermissions(obj{"allow": []any{"Bash(rm:*)", "Bash(rm -rf build)", "Bash"}})
	s2, url2 := newStandIn(t, "rm -rf build", anthropicAPI)
	_, out2, err2 := runClaude(bare, bin, url2, "default")
	if s2.timesAsked() == 0 {
		t.Fatalf("claude never asked for the shell call (%v)\n%s", err2, out2)
	}
	if bare.exists(filepath.Join(bare.project, "build", "out.o")) {
		t.Errorf("without agentgate the allow rule did not run rm -rf build: the case proves nothing\n%s", out2)
	}
}

// TestClaudeDoctorLiveShowsTheAllowRuleHolds: "agentgate doctor --live"
// runs the installed Claude Code (the real 2.1.328) against a stand-in
// model and reports what TestClaudeAllowRuleKeepsAgentgatesAsk shows: a
// Bash allow rule keeps agentgate's question, so the person's own allow
// rule is a note, shown on this version, and doctor passes. (A host that
// ran the command is hostcheck.TestClaudeAllowRule's "obey" case.)
func TestClaudeDoctorLiveShowsTheAllowRuleHolds(t *testing.T) {
	t.Parallel()
	w, bin := claudeSetup(t)
	w.claudePermissions(obj{"allow": []any{"Bash(npm test:*)"}})
	env := w.env()
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	out, errOut, err := w.run(env, w.ag, "doctor", "--live")
	if err != nil {
		t.Fatalf("doctor --live: %v\n%s%s", err, out, errOut)
	}
	for _, want := range []string{
		"live check (a stand-in model on 127.0.0.1, a throwaway home): holds",
		"allows Bash(npm test:*): the installed Claude Code still shows agentgate's question for matching commands (doctor --live)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor --live does not say %q:\n%s%s", want, out, errOut)
		}
	}
	// The check ran in a throwaway home: nothing reached the person's
	// audit log.
	if recs := w.audit(); len(recs) != 0 {
		t.Errorf("the live check wrote %d records to the person's audit log: %+v", len(recs), recs)
	}
}
