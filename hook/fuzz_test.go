package hook

import (
	"encoding/json"
	"testing"
)

// FuzzDecode: no event, however malformed, panics a decoder, decodes as
// a command without one, or gets a reply that exits 1 or is not JSON.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","workdir":"sub"},"cwd":"/p","session_id":"s","tool_use_id":"u","permission_mode":"default"}`,
		`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"x"},"cwd":"/p"}`,
		`{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"/p","conversation_id":"c"}`,
		`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"exit_code":3},"tool_use_id":"u"}`,
		`{"tool_input":{"command":null}}`, `[]`, `"x"`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		for _, name := range Names {
			h := Hosts[name]
			ev, err := h.Decode([]byte(data))
			if err != nil {
				continue
			}
			if ev.Kind == Pre && !json.Valid([]byte(data)) {
				t.Fatalf("%s: invalid JSON decoded as a command", name)
			}
			if ev.Cwd != "" && ev.Cwd[0] != '/' {
				t.Fatalf("%s: relative cwd %q", name, ev.Cwd)
			}
			for _, a := range []Answer{{Decision: Allow, Rewrite: Rewrite("/bin/agentgate", ev.Session, ev.Command)}, {Decision: Ask, Reason: data}, {Decision: Deny, Reason: data}} {
				r := h.Encode(ev, a)
				if r.Code != 0 && r.Code != 2 {
					t.Fatalf("%s %s: exit %d", name, a.Decision, r.Code)
				}
				if len(r.Stdout) > 0 && !json.Valid(r.Stdout) {
					t.Fatalf("%s %s: stdout is not JSON: %q", name, a.Decision, r.Stdout)
				}
				if r.Code == 2 && len(r.Stderr) == 0 {
					t.Fatalf("%s %s: exit 2 without a reason on stderr", name, a.Decision)
				}
			}
		}
	})
}
