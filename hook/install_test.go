package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

func testSetup(t *testing.T) Setup {
	home := t.TempDir()
	return Setup{Home: home, Project: filepath.Join(home, "proj"), Self: "/opt/agentgate/bin/agentgate",
		Timeout: 30 * time.Second, Now: func() time.Time { return time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC) }}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Install merges with what is there, keeps the order of the person's
// keys, backs the file up, and a second install changes nothing;
// uninstall gives back exactly the original content.
func TestInstallMergeIdempotentUninstall(t *testing.T) {
	existing := map[string]string{
		"claude": `{"model": "opus", "permissions": {"deny": ["Read(./.env)"]}, "hooks": {"PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]}]}}`,
		"codex":  `{"hooks": {"PreToolUse": [{"matcher": "^Bash$", "hooks": [{"type": "command", "command": "audit-tool", "timeout": 5}]}]}}`,
		"gemini": `{"security": {"auth": {"selectedType": "gemini-api-key"}}, "hooks": {"AfterTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "lint.sh"}]}]}}`,
		"cursor": `{"version": 1, "hooks": {"afterFileEdit": [{"command": "hooks/audit.sh"}], "beforeShellExecution": [{"command": "other-check"}]}}`,
	}
	for _, host := range Names {
		t.Run(host, func(t *testing.T) {
			s := testSetup(t)
			path, _ := s.Path(host, User)
			write(t, path, existing[host])
			orig := read(t, path)
			changes, _, err := s.Install(host, User)
			if err != nil {
				t.Fatal(err)
			}
			if len(changes) == 0 || changes[0].Path != path || read(t, changes[0].Backup) != orig {
				t.Fatalf("changes %+v: want %s changed with a backup of the original", changes, path)
			}
			got := read(t, path)
			for _, keep := range []string{"fmt.sh", "audit-tool", "lint.sh", "hooks/audit.sh", "other-check", "gemini-api-key", "Read(./.env)"} {
				if strings.Contains(orig, keep) && !strings.Contains(got, keep) {
					t.Errorf("install lost %q:\n%s", keep, got)
				}
			}
			if !strings.Contains(got, `"/opt/agentgate/bin/agentgate hook `+host+`"`) {
				t.Errorf("no hook entry with the absolute path:\n%s", got)
			}
			if host == "claude" && strings.Index(got, `"model"`) > strings.Index(got, `"hooks"`) {
				t.Errorf("the keys were reordered:\n%s", got)
			}
			entry, err := s.Inspect(host, User)
			if err != nil {
				t.Fatal(err)
			}
			for ev, c := range entry.Events {
				if c != s.Command(host) {
					t.Errorf("%s: entry %q", ev, c)
				}
			}
			again, _, err := s.Install(host, User)
			if err != nil || len(again) != 0 || read(t, path) != got {
				t.Errorf("second install changed %+v (%v)", again, err)
			}
			if _, err := s.Uninstall(host, User); err != nil {
				t.Fatal(err)
			}
			if back := read(t, path); !sameJSON(t, back, orig) {
				t.Errorf("uninstall did not give back the original:\n%s\nwant\n%s", back, orig)
			}
		})
	}
}

func sameJSON(t *testing.T, a, b string) bool {
	va, err1 := parseJSON([]byte(a))
	vb, err2 := parseJSON([]byte(b))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return string(formatJSON(va)) == string(formatJSON(vb))
}

// Install replaces an old entry (another agentgate path) in place rather
// than adding a second one; a file that is not JSON is left alone.
func TestInstallReplacesOldAndRefusesBroken(t *testing.T) {
	s := testSetup(t)
	path, _ := s.Path("claude", User)
	write(t, path, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/old/agentgate hook claude","timeout":5}]}]}}`)
	if _, _, err := s.Install("claude", User); err != nil {
		t.Fatal(err)
	}
	got := read(t, path)
	if strings.Contains(got, "/old/agentgate") || strings.Count(got, "hook claude") != 4 {
		t.Errorf("old entry not replaced in place:\n%s", got)
	}
	write(t, path, `{"hooks": [`)
	if _, _, err := s.Install("claude", User); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("broken file: %v", err)
	}
	if read(t, path) != `{"hooks": [` {
		t.Errorf("a broken file was changed")
	}
}

// For Codex, install trusts exactly its entries in config.toml, keeps the
// rest of the file, and uninstall removes that trust and moves the trust
// of the hooks after it with them.
func TestInstallCodexTrust(t *testing.T) {
	s := testSetup(t)
	hooksPath, _ := s.Path("codex", User)
	cfgPath := filepath.Join(s.Home, ".codex", "config.toml")
	write(t, cfgPath, "model = \"gpt-5\" # mine\n\n[hooks.state.\"x:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:00\"\n")
	if _, _, err := s.Install("codex", User); err != nil {
		t.Fatal(err)
	}
	// Another hook installed after agentgate's, trusted by its owner.
	doc, _, _ := readSettings(hooksPath)
	hooks, _ := doc.get("hooks")
	pre, _ := hooks.(*object).get("PreToolUse")
	g := newObject()
	g.set("matcher", "^Bash$")
	h := newObject()
	h.set("type", "command")
	h.set("command", "later-hook")
	g.set("hooks", []any{h})
	hooks.(*object).set("PreToolUse", append(pre.([]any), g))
	write(t, hooksPath, string(formatJSON(doc)))
	later := CodexHash("PreToolUse", "^Bash$", "later-hook", 600)
	f, _ := os.OpenFile(cfgPath, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\n[hooks.state.\"" + hooksPath + ":pre_tool_use:1:0\"]\ntrusted_hash = \"" + later + "\"\n")
	f.Close()

	if problems, err := s.CodexTrusted(User); err != nil || len(problems) != 0 {
		t.Fatalf("after install: %v %v\n%s", problems, err, read(t, cfgPath))
	}
	text := read(t, cfgPath)
	want := CodexHash("PreToolUse", CodexFileMatcher, s.Command("codex"), 30)
	if !strings.Contains(text, `model = "gpt-5" # mine`) || !strings.Contains(text, `[hooks.state."x:pre_tool_use:0:0"]`) ||
		!strings.Contains(text, `[hooks.state."`+hooksPath+`:pre_tool_use:0:0"]`+"\nenabled = true\ntrusted_hash = \""+want+`"`) {
		t.Fatalf("config.toml:\n%s", text)
	}
	if _, err := s.Uninstall("codex", User); err != nil {
		t.Fatal(err)
	}
	text = read(t, cfgPath)
	var cfg struct {
		Hooks struct {
			State map[string]struct {
				TrustedHash string `toml:"trusted_hash"`
			} `toml:"state"`
		} `toml:"hooks"`
	}
	if _, err := toml.Decode(text, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks.State) != 2 || cfg.Hooks.State[hooksPath+":pre_tool_use:0:0"].TrustedHash != later || cfg.Hooks.State["x:pre_tool_use:0:0"].TrustedHash != "sha256:00" {
		t.Errorf("after uninstall the other hook's trust did not follow it:\n%s", text)
	}
	if strings.Contains(read(t, hooksPath), "agentgate") {
		t.Errorf("uninstall left agentgate in hooks.json")
	}
}

// The trust hash is Codex's: the value codex 0.169.0 reported for this
// handler through its app-server's hooks/list (checked by hand).
func TestCodexHashKnown(t *testing.T) {
	got := CodexHash("PreToolUse", "^Bash$", "/tmp/ag-hook hook codex", 30)
	if want := "sha256:48de41b6ee9e6068cfb7912cd157de6525407bec46e0700cea8bb17134f266a0"; got != want {
		t.Errorf("CodexHash = %s; want %s", got, want)
	}
	got = CodexHash("PermissionRequest", "^Bash$", "/tmp/ag-hook hook codex", 30)
	if want := "sha256:9a2e7a4149e363b1fcefcf98271e2b1d963b6c1d87db3ac97607886265ced412"; got != want {
		t.Errorf("CodexHash(PermissionRequest) = %s; want %s", got, want)
	}
}

// Install writes agentgate's rule into Codex's rules (the user's only),
// once; uninstall removes it, and only a file agentgate wrote.
func TestInstallCodexRule(t *testing.T) {
	s := testSetup(t)
	rule := CodexRuleFile(filepath.Join(s.Home, ".codex"))
	if p := s.CodexRuleProblem(); !strings.Contains(p, "is missing") {
		t.Errorf("before install: %q", p)
	}
	if _, _, err := s.Install("codex", Project); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(rule); err == nil {
		t.Errorf("a project install wrote the user's rule")
	}
	changes, _, err := s.Install("codex", User)
	if err != nil {
		t.Fatal(err)
	}
	if read(t, rule) != CodexRuleText(s.Self) || s.CodexRuleProblem() != "" {
		t.Fatalf("rule %s:\n%s", rule, read(t, rule))
	}
	wrote := false
	for _, c := range changes {
		wrote = wrote || c.Path == rule
	}
	if !wrote {
		t.Errorf("install did not report the rule it wrote: %+v", changes)
	}
	if changes, _, _ := s.Install("codex", User); len(changes) != 0 {
		t.Errorf("a second install changed %+v", changes)
	}
	// Another agentgate's rule is replaced, with a backup.
	write(t, rule, CodexRuleText("/old/agentgate"))
	if p := s.CodexRuleProblem(); !strings.Contains(p, "not the rule") {
		t.Errorf("a rule for another path: %q", p)
	}
	if _, _, err := s.Install("codex", User); err != nil || read(t, rule) != CodexRuleText(s.Self) {
		t.Errorf("install did not replace the rule: %v", err)
	}
	if _, err := s.Uninstall("codex", User); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(rule); err == nil {
		t.Errorf("uninstall left the rule")
	}
	// A file of the same name agentgate did not write stays.
	write(t, rule, "prefix_rule(pattern=[\"rm\"], decision=\"forbidden\")\n")
	if _, err := s.Uninstall("codex", User); err != nil || !strings.Contains(read(t, rule), "forbidden") {
		t.Errorf("uninstall removed a rules file agentgate did not write: %v", err)
	}
	// A path Codex's rules cannot match: no rule, and a note.
	s.Self = "/opt/agent gate/agentgate"
	write(t, rule, "")
	os.Remove(rule)
	_, notes, err := s.Install("codex", User)
	if err != nil || len(notes) == 0 || !strings.Contains(strings.Join(notes, " "), "denied with an id") {
		t.Errorf("notes %q %v", notes, err)
	}
	if _, err := os.Stat(rule); err == nil {
		t.Errorf("a rule was written for a path Codex cannot match")
	}
}

// Project scope writes the project's file, by absolute path.
func TestInstallProjectScope(t *testing.T) {
	s := testSetup(t)
	for _, host := range Names {
		if _, _, err := s.Install(host, Project); err != nil {
			t.Fatal(err)
		}
		p, _ := s.Path(host, Project)
		if !strings.HasPrefix(p, s.Project) || !strings.Contains(read(t, p), s.Self) {
			t.Errorf("%s: %s", host, p)
		}
	}
	s.Project = "relative"
	if _, _, err := s.Install("claude", Project); err == nil {
		t.Errorf("a relative project directory was accepted")
	}
}

// When Codex's config.toml cannot be edited safely, install leaves it
// alone and tells the person exactly how to trust the hook.
func TestInstallCodexTrustManual(t *testing.T) {
	s := testSetup(t)
	cfgPath := filepath.Join(s.Home, ".codex", "config.toml")
	broken := "model = \"gpt-5\"\n[hooks\n"
	write(t, cfgPath, broken)
	_, notes, err := s.Install("codex", User)
	if err != nil {
		t.Fatal(err)
	}
	if read(t, cfgPath) != broken {
		t.Errorf("an unreadable config.toml was changed")
	}
	if len(notes) == 0 || !strings.Contains(strings.Join(notes, "\n"), "open /hooks and trust the agentgate entries") {
		t.Errorf("notes %q give no way to trust the hook", notes)
	}
	if problems, _ := s.CodexTrusted(User); len(problems) == 0 {
		t.Errorf("doctor's trust check found nothing wrong")
	}
}

// After a project install, installing for the user again changes nothing:
// the blank lines the dropped trust tables leave do not pile up.
func TestInstallCodexIdempotentAfterProject(t *testing.T) {
	s := testSetup(t)
	for _, scope := range []Scope{Project, User} {
		if _, _, err := s.Install("codex", scope); err != nil {
			t.Fatal(err)
		}
	}
	if changes, _, _ := s.Install("codex", User); len(changes) != 0 {
		t.Errorf("a second install changed %+v", changes)
	}
}
