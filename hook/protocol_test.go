package hook

import (
	"encoding/json"
	"strings"
	"testing"
)

// Each host's events decode to the command, the directory it runs in,
// the session and the tool-use id; events about other tools pass.
func TestDecode(t *testing.T) {
	tests := []struct {
		host, event string
		kind        Kind
		cmd, cwd    string
		session, id string
		problem     string
	}{
		// Claude Code, from its hooks reference.
		{"claude", `{"session_id":"abc123","transcript_path":"/t.jsonl","cwd":"/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"psql -c 'SELECT 1'","description":"q","timeout":120000},"tool_use_id":"toolu_01"}`,
			Pre, "psql -c 'SELECT 1'", "/p", "abc123", "toolu_01", ""},
		// The file tools are another door (files.go).
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/p/x"},"cwd":"/p"}`, PreFile, "", "/p", "", "", ""},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"x"},"cwd":"/p"}`, Other, "", "", "", "", ""},
		{"claude", `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"x"},"session_id":"s","tool_use_id":"u"}`, Post, "ls", "", "s", "u", ""},
		{"claude", `{"hook_event_name":"PermissionDenied","tool_name":"Bash","tool_input":{"command":"ls"},"session_id":"s","tool_use_id":"u"}`, Denied, "", "", "s", "u", ""},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"relative"}`, Pre, "ls", "", "", "", "not an absolute path"},
		// Codex: tool_name Bash and tool_input.command although the
		// model's tool is exec_command; workdir is where it runs.
		{"codex", `{"session_id":"019a","turn_id":"t1","cwd":"/p","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"call_1"}`,
			Pre, "git status", "/p", "019a", "call_1", ""},
		{"codex", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","workdir":"sub"},"session_id":"s"}`, Pre, "ls", "/p/sub", "s", "", ""},
		{"codex", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","workdir":"/q"}}`, Pre, "ls", "/q", "", "", ""},
		// Codex's apply_patch (captured from 0.169.0) and view_image are
		// its file tools.
		{"codex", `{"session_id":"01a2","turn_id":"01a2","transcript_path":"/r.jsonl","cwd":"/p","hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n"},"tool_use_id":"call_patch_1"}`,
			PreFile, "", "/p", "01a2", "call_patch_1", ""},
		{"codex", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"view_image","tool_input":{"path":"/p/x.png"}}`, PreFile, "", "/p", "", "", ""},
		// The shell form of apply_patch is its patch, judged as the tool.
		{"codex", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\nEOF\n","workdir":"sub"}}`, PreFile, "", "/p/sub", "", "", ""},
		{"codex", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"apply_patch <<EOF\n*** Begin Patch\n*** Add File: a.txt\n+$(id)\n*** End Patch\nEOF\n"}}`, Pre, "apply_patch <<EOF\n*** Begin Patch\n*** Add File: a.txt\n+$(id)\n*** End Patch\nEOF\n", "/p", "", "", ""},
		{"codex", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"web_search","tool_input":{"query":"x"}}`, Other, "", "", "", "", ""},
		// PermissionRequest, captured from 0.169.0: the command Codex is
		// about to ask about (a hook's rewrite), with no tool-use id.
		{"codex", `{"session_id":"01a2","turn_id":"01a3","transcript_path":"/r.jsonl","cwd":"/p","hook_event_name":"PermissionRequest","model":"gpt-5.5","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"/x/agentgate exec --host-ticket t -- 'ls'"}}`,
			Asking, "/x/agentgate exec --host-ticket t -- 'ls'", "", "01a2", "", ""},
		{"codex", `{"cwd":"/p","hook_event_name":"PermissionRequest","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** End Patch\n"}}`, Other, "", "", "", "", ""},
		// Gemini CLI: BeforeTool on run_shell_command, dir_path.
		{"gemini", `{"session_id":"g1","transcript_path":"/t","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"run_shell_command","tool_input":{"command":"ls -la","description":"list","dir_path":"src"}}`,
			Pre, "ls -la", "/p/src", "g1", "", ""},
		{"gemini", `{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","directory":"/q"}}`, Pre, "ls", "/q", "", "", ""},
		{"gemini", `{"cwd":"","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"src"}}`, Pre, "ls", "", "", "", "relative"},
		{"gemini", `{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"/p/.env"}}`, PreFile, "", "/p", "", "", ""},
		{"gemini", `{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"web_fetch","tool_input":{"prompt":"x"}}`, Other, "", "", "", "", ""},
		// Cursor, from its documented beforeShellExecution example.
		{"cursor", `{"hook_event_name":"beforeShellExecution","conversation_id":"conv-123","generation_id":"gen-456","workspace_roots":["/path/to/project"],"command":"npm install express","cwd":"/path/to/project"}`,
			Pre, "npm install express", "/path/to/project", "conv-123", "", ""},
		// beforeReadFile, from Cursor's hooks reference: an absolute
		// file_path, the file's content, no cwd.
		{"cursor", `{"hook_event_name":"beforeReadFile","conversation_id":"c","generation_id":"g","workspace_roots":["/p"],"file_path":"/p/.env","content":"X=1","attachments":[]}`,
			PreFile, "", "/p", "c", "", ""},
		{"cursor", `{"hook_event_name":"afterShellExecution","conversation_id":"c","command":"ls","cwd":"/p","output":"x","duration":150}`, Other, "", "", "c", "", ""},
	}
	for _, tt := range tests {
		ev, err := Hosts[tt.host].Decode([]byte(tt.event))
		if err != nil {
			t.Errorf("%s %s: %v", tt.host, tt.event, err)
			continue
		}
		if ev.Kind != tt.kind || ev.Command != tt.cmd || ev.Cwd != tt.cwd || ev.Session != tt.session || ev.ToolUseID != tt.id ||
			!strings.Contains(ev.CwdProblem, tt.problem) || (tt.problem == "") != (ev.CwdProblem == "") {
			t.Errorf("%s %s:\ngot  %+v\nwant kind %d cmd %q cwd %q session %q id %q problem %q", tt.host, tt.event, ev, tt.kind, tt.cmd, tt.cwd, tt.session, tt.id, tt.problem)
		}
	}
}

// Malformed events are errors, which answer deny; never a pass.
func TestDecodeMalformed(t *testing.T) {
	for _, host := range Names {
		for _, in := range []string{
			``, `garbage`, `[]`, `{"hook_event_name":`, `{}{}`,
			`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":42}}`,
			`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"ls"}`,
			`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":null}}`,
			`{"hook_event_name":"beforeShellExecution","command":["ls"]}`,
			`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`,
			`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{}}`,
			`{"hook_event_name":"beforeShellExecution"}`,
			`{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"no headers"}}`,
			`{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":7}}`,
			`{"hook_event_name":"beforeReadFile","file_path":7}`,
			strings.Repeat(" ", MaxEvent+1),
		} {
			ev, err := Hosts[host].Decode([]byte(in))
			if err == nil && ev.Kind == Pre {
				t.Errorf("%s: %.60q decoded as a command (%+v)", host, in, ev)
			}
			if err == nil && ev.Kind == Other && looksShell(host, in) {
				t.Errorf("%s: %.60q passed", host, in)
			}
		}
	}
}

// looksShell reports whether a malformed event was about the host's
// shell tool, which must not pass.
func looksShell(host, in string) bool {
	switch host {
	case "claude", "codex":
		return strings.Contains(in, `"PreToolUse","tool_name":"Bash"`)
	case "gemini":
		return strings.Contains(in, `"BeforeTool","tool_name":"run_shell_command"`)
	}
	return strings.Contains(in, `"beforeShellExecution"`)
}

// Each host's answers, in its own protocol.
func TestEncode(t *testing.T) {
	claudeEv, _ := Claude.Decode([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","description":"d","run_in_background":false},"cwd":"/p"}`))
	codexEv, _ := Codex.Decode([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","workdir":"/p"},"cwd":"/p"}`))
	codexAsking, _ := Codex.Decode([]byte(`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"x"},"cwd":"/p"}`))
	geminiEv, _ := Gemini.Decode([]byte(`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git status","dir_path":"/p","description":"d"},"cwd":"/p"}`))
	cursorEv, _ := Cursor.Decode([]byte(`{"hook_event_name":"beforeShellExecution","command":"git status","cwd":"/p"}`))
	rw := `"/bin/agentgate" exec --non-interactive -- 'git status'`
	tests := []struct {
		host   *Host
		ev     Event
		a      Answer
		stdout string
		stderr string
		code   int
	}{
		{Claude, claudeEv, Answer{Decision: Allow, Rewrite: rw},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"agentgate: allowed","updatedInput":{"command":"\"/bin/agentgate\" exec --non-interactive -- 'git status'","description":"d","run_in_background":false}}}`, "", 0},
		{Claude, claudeEv, Answer{Decision: Ask, Reason: "agentgate: \"rm\" is not on the allowlist"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"agentgate: \"rm\" is not on the allowlist"}}`, "", 0},
		// An ask with a rewrite: the host runs it once the person said yes.
		{Claude, claudeEv, Answer{Decision: Ask, Reason: "agentgate: why", Rewrite: rw},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"agentgate: why","updatedInput":{"command":"\"/bin/agentgate\" exec --non-interactive -- 'git status'","description":"d","run_in_background":false}}}`, "", 0},
		{Claude, claudeEv, Answer{Decision: Deny, Reason: "agentgate denied x:\nno"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"agentgate denied x: no"}}`, "", 0},
		{Claude, claudeEv, Answer{Decision: Pass}, ``, "", 0},
		{Codex, codexEv, Answer{Decision: Allow}, ``, "", 0},
		{Codex, codexEv, Answer{Decision: Allow, Rewrite: rw},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"agentgate: allowed","updatedInput":{"command":"\"/bin/agentgate\" exec --non-interactive -- 'git status'","workdir":"/p"}}}`, "", 0},
		{Codex, codexEv, Answer{Decision: Deny, Reason: "agentgate denied rm"}, ``, "agentgate denied rm\n", 2},
		{Codex, codexEv, Answer{Decision: Ask, Reason: "ask"}, ``, "agentgate: denied: ask\n", 2},
		// An ask is an allow of the marked rewrite, which Codex's rule asks
		// the person about (codexask.go).
		{Codex, codexEv, Answer{Decision: Ask, Reason: "agentgate: why", Rewrite: "/bin/agentgate exec --host-ticket t -- 'git status'"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"agentgate: why","updatedInput":{"command":"/bin/agentgate exec --host-ticket t -- 'git status'","workdir":"/p"}}}`, "", 0},
		{Codex, codexAsking, Answer{Decision: Pass}, ``, "", 0},
		{Codex, codexAsking, Answer{Decision: Deny, Reason: "agentgate: no"}, ``, "agentgate: no\n", 2},
		{Gemini, geminiEv, Answer{Decision: Allow}, ``, "", 0},
		{Gemini, geminiEv, Answer{Decision: Allow, Rewrite: rw},
			`{"decision":"allow","hookSpecificOutput":{"tool_input":{"command":"\"/bin/agentgate\" exec --non-interactive -- 'git status'","description":"d","dir_path":"/p"}}}`, "", 0},
		{Gemini, geminiEv, Answer{Decision: Ask, Reason: "agentgate: why", Rewrite: rw},
			`{"decision":"ask","hookSpecificOutput":{"tool_input":{"command":"\"/bin/agentgate\" exec --non-interactive -- 'git status'","description":"d","dir_path":"/p"}},"reason":"agentgate: why","systemMessage":"agentgate: why"}`, "", 0},
		{Gemini, geminiEv, Answer{Decision: Deny, Reason: "agentgate denied rm"}, `{"decision":"deny","reason":"agentgate denied rm"}`, "", 0},
		// A deny with no reason is a block: exit 2 (never an empty exit 0).
		{Gemini, geminiEv, Answer{Decision: Deny}, ``, "agentgate: denied: denied\n", 2},
		{Cursor, cursorEv, Answer{Decision: Allow}, `{"permission":"allow"}`, "", 0},
		{Cursor, cursorEv, Answer{Decision: Ask, Reason: "why"}, `{"agent_message":"why","permission":"ask","user_message":"agentgate: why"}`, "", 0},
		{Cursor, cursorEv, Answer{Decision: Deny, Reason: "why"}, `{"agent_message":"why","permission":"deny","user_message":"agentgate: why"}`, "", 0},
	}
	for _, tt := range tests {
		r := tt.host.Encode(tt.ev, tt.a)
		if strings.TrimSpace(string(r.Stdout)) != tt.stdout || string(r.Stderr) != tt.stderr || r.Code != tt.code {
			t.Errorf("%s %s:\ngot  %q %q %d\nwant %q %q %d", tt.host.Name, tt.a.Decision, r.Stdout, r.Stderr, r.Code, tt.stdout, tt.stderr, tt.code)
		}
		if r.Code == 1 {
			t.Errorf("%s %s: exit 1 runs the command", tt.host.Name, tt.a.Decision)
		}
		if len(r.Stdout) > 0 && !json.Valid(r.Stdout) {
			t.Errorf("%s %s: stdout is not JSON: %s", tt.host.Name, tt.a.Decision, r.Stdout)
		}
	}
}

// Only Claude Code's interactive modes reach a person with ask.
func TestCanAsk(t *testing.T) {
	for _, tt := range []struct {
		host *Host
		mode string
		want bool
	}{
		{Claude, "default", true}, {Claude, "acceptEdits", true}, {Claude, "plan", true},
		{Claude, "bypassPermissions", false}, {Claude, "dontAsk", false}, {Claude, "auto", true}, {Claude, "", false},
		{Codex, "default", false}, {Gemini, "", false}, {Cursor, "", false},
	} {
		if got := tt.host.CanAsk(Event{Mode: tt.mode}); got != tt.want {
			t.Errorf("%s %q: %v, want %v", tt.host.Name, tt.mode, got, tt.want)
		}
	}
}

// The rewrite holds the exact text, whatever quotes it holds.
func TestRewriteQuote(t *testing.T) {
	for _, tt := range []struct{ self, sess, text, want string }{
		{"/usr/bin/agentgate", "", "git status", `"/usr/bin/agentgate" exec --non-interactive -- 'git status'`},
		{"/usr/bin/agentgate", "s-1", "echo 'a b' \"$HOME\"", `"/usr/bin/agentgate" exec --non-interactive --session 's-1' -- 'echo '\''a b'\'' "$HOME"'`},
		{"/home/a b/$x/agentgate", "it's", "ls", `'/home/a b/$x/agentgate' exec --non-interactive --session 'it'\''s' -- 'ls'`},
		{"/usr/bin/agentgate", "a\x00b", "ls", `"/usr/bin/agentgate" exec --non-interactive -- 'ls'`},
	} {
		if got := Rewrite(tt.self, tt.sess, tt.text); got != tt.want {
			t.Errorf("Rewrite(%q, %q, %q) = %s; want %s", tt.self, tt.sess, tt.text, got, tt.want)
		}
	}
}

// A hostile event that names the command twice is judged by the last
// value, which is the one the hosts' JSON parsers keep too.
func TestDecodeDuplicateKeys(t *testing.T) {
	for host, event := range map[string]string{
		"claude": `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf /"},"cwd":"/p"}`,
		"gemini": `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","command":"rm -rf /"},"cwd":"/p"}`,
		"cursor": `{"hook_event_name":"beforeShellExecution","command":"ls","command":"rm -rf /","cwd":"/p"}`,
	} {
		ev, err := Hosts[host].Decode([]byte(event))
		if err != nil || ev.Command != "rm -rf /" {
			t.Errorf("%s: %q %v", host, ev.Command, err)
		}
	}
}
