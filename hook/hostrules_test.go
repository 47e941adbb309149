package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRuleMayMatch(t *testing.T) {
	for _, tt := range []struct {
		rule, cmd string
		want      bool
	}{
		{"ls:*", "ls -la", true},
		{"ls:*", "ls", true},
		{"ls", "ls", true},
		{"ls", "ls -la", false},
		{"git push:*", "git status && git push origin", true},
		{"git push:*", "git status", false},
		{"npm run *", "npm run build", true},
		{"*", "anything", true},
		{"", "anything", true},
		{"cat .env", "echo x; cat .env", true},
		{"rm:*", "echo $(rm -rf x)", true},
	} {
		if got := ruleMayMatch(tt.rule, tt.cmd); got != tt.want {
			t.Errorf("ruleMayMatch(%q, %q) = %v", tt.rule, tt.cmd, got)
		}
	}
}

// A Claude Code deny or ask rule that may match the original keeps the
// command unrewritten, so that the rule still holds; rules on other
// commands or other tools do not.
func TestHostRulesKeepOriginal(t *testing.T) {
	g, proj := testGate(t, "")
	settings := filepath.Join(g.Home, ".claude", "settings.json")
	write(t, settings, `{"permissions": {"deny": ["Bash(ls:*)", "Read(./.env)"], "ask": ["Bash(git push:*)"], "allow": ["Bash(cat:*)"]}}`)
	for _, tt := range []struct {
		cmd     string
		rewrite bool
	}{{"ls -la", false}, {"git status", true}, {"cat README", true}, {"pwd", true}} {
		_, _, c := claudeDecision(t, handle(t, g, Claude, claudeEvent(tt.cmd, proj, "default", "r")))
		if (c != "") != tt.rewrite {
			t.Errorf("%q: rewrite %q, want rewritten %v", tt.cmd, c, tt.rewrite)
		}
	}
	// The answer says why it was not rewritten, naming the rule: the
	// person sees it in the dialog of an ask.
	if _, reason, _ := claudeDecision(t, handle(t, g, Claude, claudeEvent("ls -la", proj, "default", "r"))); !strings.Contains(reason, "not run through agentgate exec") || !strings.Contains(reason, "deny Bash(ls:*)") {
		t.Errorf("an allow kept unrewritten by a host rule does not say so: %q", reason)
	}
	if d, reason, c := claudeDecision(t, handle(t, g, Claude, claudeEvent("git push origin main", proj, "default", "r"))); d != "ask" || c != "" || !strings.Contains(reason, "ask Bash(git push:*)") {
		t.Errorf("an ask kept unrewritten by a host rule: %s %q %q", d, reason, c)
	}
	// The project's settings do not count: the agent can write them, and
	// a rule (or a broken file) planted there must not keep an allowed
	// command unrewritten and so unconfined. CLAUDE_CONFIG_DIR moves the
	// user's.
	write(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions": {"ask": ["Bash(pwd)"]}}`)
	write(t, filepath.Join(proj, ".claude", "settings.json"), `{"permissions": {"deny": [`)
	if _, _, c := claudeDecision(t, handle(t, g, Claude, claudeEvent("pwd", proj, "default", "r"))); c == "" {
		t.Errorf("a planted project rule kept the command unrewritten (unconfined)")
	}
	other := t.TempDir()
	write(t, filepath.Join(other, "settings.json"), `{"permissions": {"deny": ["Bash(git status)"]}}`)
	g.Getenv = func(k string) string { return map[string]string{"CLAUDE_CONFIG_DIR": other}[k] }
	if _, _, c := claudeDecision(t, handle(t, g, Claude, claudeEvent("git status", proj, "default", "r"))); c != "" {
		t.Errorf("a rule under CLAUDE_CONFIG_DIR did not keep the original: %q", c)
	}
}

func TestCodexAndGeminiRules(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".codex", "rules", "default.rules"), `prefix_rule(pattern = ["rm", "-rf"], decision = "forbidden")
prefix_rule(pattern = ["git", "status"], decision = "allow")
`)
	write(t, filepath.Join(home, ".gemini", "policies", "p.toml"), `[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "deny"
priority = 100
`)
	w := Where{Home: home}
	match := func(rules func(Where) []HostRule) func(Where, string) bool {
		return func(w Where, c string) bool { _, ok := firstMatch(rules(w), c); return ok }
	}
	codexRules, geminiRules := match(codexRules), match(geminiRules)
	for _, tt := range []struct {
		f    func(Where, string) bool
		cmd  string
		want bool
	}{
		{codexRules, "rm -rf build", true}, {codexRules, "git status", false}, {codexRules, "ls; rm x", true},
		{geminiRules, "git push origin", true}, {geminiRules, "ls", false},
	} {
		if got := tt.f(w, tt.cmd); got != tt.want {
			t.Errorf("%q: %v, want %v", tt.cmd, got, tt.want)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "policies", "bad.toml"), []byte("[[rule"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !geminiRules(w, "ls") {
		t.Errorf("an unreadable policy file was taken to hold no rule")
	}
}

// A Claude Code allow rule may let Claude Code run a command without
// showing an ask: a sticky ask (a secret, agentgate's own files) that
// such a rule may match is denied with an id instead; other asks still
// ask.
func TestStickyAskUnderHostAllowRule(t *testing.T) {
	g, proj := testGate(t, "")
	write(t, filepath.Join(g.Home, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(cat:*)", "Bash(rm:*)"]}}`)
	if d, reason, _ := claudeDecision(t, handle(t, g, Claude, claudeEvent("cat .env", proj, "default", "s1"))); d != "deny" || !strings.Contains(reason, "agentgate approve") {
		t.Errorf("cat .env under Bash(cat:*): %s %q", d, reason)
	}
	if d, _, _ := claudeDecision(t, handle(t, g, Claude, claudeEvent("rm -rf build", proj, "default", "s2"))); d != "ask" {
		t.Errorf("rm under Bash(rm:*): %s, want ask (the person's own rule decides)", d)
	}
	if d, _, _ := claudeDecision(t, handle(t, g, Claude, claudeEvent("head .env", proj, "default", "s3"))); d != "ask" {
		t.Errorf("head .env with no allow rule for head: %s, want ask", d)
	}
}
