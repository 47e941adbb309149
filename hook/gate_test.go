package hook

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/engine"
	"github.com/agentgate/agentgate/gate"
)

// testGate is a Gate on a temporary home, with its project directory.
func testGate(t *testing.T, mode string) (*Gate, string) {
	t.Helper()
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	state, cfgDir := filepath.Join(home, "state"), filepath.Join(home, "cfg")
	cfg, err := config.Load(config.Options{Cwd: proj, Home: home, ConfigDir: cfgDir, StateDir: state,
		PolicyPath: filepath.Join(home, "no-policy.toml"), FlagMode: mode, SkipPolicyOwnerCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	eng := &engine.Engine{Getenv: func(string) string { return "" }, Environ: os.Environ, Now: time.Now,
		StateDir: state, ConfigDir: cfgDir, UserConfig: filepath.Join(cfgDir, "config.toml"),
		AuditLog: filepath.Join(state, "audit.jsonl"), Version: "test"}
	return &Gate{Engine: eng, Config: cfg, Home: home, Self: "/opt/agentgate/agentgate"}, proj
}

func (g *Gate) records(t *testing.T) []audit.Record {
	t.Helper()
	f, err := os.Open(g.Engine.AuditLog)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []audit.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, audit.MaxRecordBytes)
	for sc.Scan() {
		var r audit.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func claudeEvent(cmd, cwd, mode, id string) []byte {
	b, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": cmd, "description": "d"}, "cwd": cwd, "session_id": "sess-1",
		"tool_use_id": id, "permission_mode": mode})
	return b
}

func handle(t *testing.T, g *Gate, h *Host, event []byte) Reply {
	t.Helper()
	ev, err := h.Decode(event)
	if err != nil {
		t.Fatal(err)
	}
	r := g.Handle(h, ev)
	if r.Code == 1 {
		t.Fatalf("exit 1 runs the command")
	}
	return r
}

func claudeDecision(t *testing.T, r Reply) (decision, reason, command string) {
	t.Helper()
	var out struct {
		Specific struct {
			Decision string         `json:"permissionDecision"`
			Reason   string         `json:"permissionDecisionReason"`
			Updated  map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(r.Stdout, &out); err != nil {
		t.Fatalf("%q: %v", r.Stdout, err)
	}
	c, _ := out.Specific.Updated["command"].(string)
	return out.Specific.Decision, out.Specific.Reason, c
}

// A read-only command is allowed and rewritten into agentgate exec, the
// exact text quoted; the other fields stay; nothing is logged.
func TestHandleAllowRewrites(t *testing.T) {
	g, proj := testGate(t, "")
	text := `git log --format='%h %s' -3`
	r := handle(t, g, Claude, claudeEvent(text, proj, "default", "u1"))
	d, _, c := claudeDecision(t, r)
	want := `"/opt/agentgate/agentgate" exec --non-interactive --session 'sess-1' -- 'git log --format='\''%h %s'\'' -3'`
	if d != "allow" || c != want {
		t.Fatalf("got %s %s; want allow %s", d, c, want)
	}
	if !strings.Contains(string(r.Stdout), `"description":"d"`) {
		t.Errorf("the other fields were not kept: %s", r.Stdout)
	}
	if recs := g.records(t); len(recs) != 0 {
		t.Errorf("an allowed command left %d records", len(recs))
	}
}

// Claude Code asks in its own dialog; the record says asked_host, and the
// PostToolUse event finishes it as approved_host under the same id.
func TestHandleAskThenResult(t *testing.T) {
	g, proj := testGate(t, "")
	r := handle(t, g, Claude, claudeEvent("rm -rf build", proj, "default", "u2"))
	if d, reason, _ := claudeDecision(t, r); d != "ask" || !strings.Contains(reason, `"rm" is not on the allowlist`) {
		t.Fatalf("got %s %q", d, reason)
	}
	post, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf build"},
		"tool_response": map[string]any{"stdout": "", "exit_code": 0}, "session_id": "sess-1", "tool_use_id": "u2", "cwd": proj})
	if r := handle(t, g, Claude, post); len(r.Stdout)+len(r.Stderr) != 0 {
		t.Errorf("a result event got an answer: %q %q", r.Stdout, r.Stderr)
	}
	recs := g.records(t)
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2: %+v", len(recs), recs)
	}
	esc, res := recs[0], recs[1]
	if esc.Outcome != audit.OutcomeAskedHost || esc.Harness != "claude" || esc.ToolUseID != "u2" || esc.Session != "sess-1" || esc.Cwd != proj {
		t.Errorf("escalation record %+v", esc)
	}
	if res.ID != esc.ID || res.Event != audit.EventResult || res.Outcome != audit.OutcomeApprovedHost || res.ExitCode == nil || *res.ExitCode != 0 {
		t.Errorf("result record %+v", res)
	}
	// A second result event for the same tool use records nothing more.
	handle(t, g, Claude, post)
	if n := len(g.records(t)); n != 2 {
		t.Errorf("%d records after a repeated result event", n)
	}
}

// Claude Code's PermissionDenied finishes an ask as denied_host.
func TestHandleDeniedByHost(t *testing.T) {
	g, proj := testGate(t, "")
	handle(t, g, Claude, claudeEvent("rm -rf build", proj, "acceptEdits", "u3"))
	den, _ := json.Marshal(map[string]any{"hook_event_name": "PermissionDenied", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "rm -rf build"}, "session_id": "sess-1", "tool_use_id": "u3"})
	handle(t, g, Claude, den)
	recs := g.records(t)
	if len(recs) != 2 || recs[1].Outcome != audit.OutcomeDeniedHost || recs[1].ID != recs[0].ID {
		t.Fatalf("records %+v", recs)
	}
}

// Where no dialog reaches a person (Codex, Claude Code in
// bypassPermissions), an escalation is denied with an id; once a person
// approves it, the exact retry runs once, through the exec it is
// rewritten into.
func TestHandleOutOfBand(t *testing.T) {
	for _, tt := range []struct {
		host  *Host
		event func(cmd, cwd, id string) []byte
	}{
		{Codex, func(cmd, cwd, id string) []byte {
			b, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd},
				"cwd": cwd, "session_id": "sess-1", "turn_id": "t", "tool_use_id": id})
			return b
		}},
		{Claude, func(cmd, cwd, id string) []byte { return claudeEvent(cmd, cwd, "bypassPermissions", id) }},
	} {
		t.Run(tt.host.Name, func(t *testing.T) {
			g, proj := testGate(t, "")
			r := handle(t, g, tt.host, tt.event("touch made.txt", proj, "a"))
			text := string(r.Stdout) + string(r.Stderr)
			list, _ := g.Engine.PendingList()
			if len(list) != 1 || !strings.Contains(text, "agentgate approve "+list[0].ID) {
				t.Fatalf("denial %q names no pending id (%+v)", text, list)
			}
			if tt.host == Codex && r.Code != 2 {
				t.Errorf("codex deny exits %d", r.Code)
			}
			if _, err := g.Engine.ApprovePending(list[0].ID); err != nil {
				t.Fatal(err)
			}
			// Another command, or the same in another directory, does
			// not use the approval.
			for _, ev := range [][]byte{tt.event("touch other.txt", proj, "b"), tt.event("touch made.txt", "/tmp", "c")} {
				if r := handle(t, g, tt.host, ev); r.Code != 2 && !strings.Contains(string(r.Stdout), "deny") {
					t.Errorf("approval used by a different command: %s", r.Stdout)
				}
			}
			// The retry is rewritten into exec, which claims the
			// approval and runs it guarded (the host's hook protocol
			// test runs that exec for real: hook.txtar).
			r = handle(t, g, tt.host, tt.event("touch made.txt", proj, "d"))
			if r.Code != 0 || strings.Contains(string(r.Stdout), "deny") || !strings.Contains(string(r.Stdout), "exec --non-interactive") {
				t.Fatalf("approved retry: %q %q %d", r.Stdout, r.Stderr, r.Code)
			}
			j := g.Engine.Judge(engine.Proposal{Text: "touch made.txt", Cwd: proj, Home: g.Home, Session: "sess-1", Harness: "exec", Hardened: true}, g.Config)
			if rt := g.Engine.Route(j); rt.Action != engine.Run || rt.Outcome != audit.OutcomeApprovedOutOfBand {
				t.Fatalf("the rewritten exec's route: %+v", rt)
			}
			if err := g.Engine.Escalate(j).Approve(audit.OutcomeApprovedOutOfBand); err != nil {
				t.Fatalf("the rewritten exec could not claim the approval: %v", err)
			}
			if r := handle(t, g, tt.host, tt.event("touch made.txt", proj, "e")); r.Code == 0 && !strings.Contains(string(r.Stdout), "deny") {
				t.Errorf("the approval was used twice: %q", r.Stdout)
			}
			var approved int
			for _, rec := range g.records(t) {
				if rec.Outcome == audit.OutcomeApprovedOutOfBand && rec.Pending == list[0].ID {
					approved++
				}
			}
			if approved != 1 {
				t.Errorf("%d approved_out_of_band records, want 1", approved)
			}
			for _, rec := range g.records(t) {
				if rec.Outcome == audit.OutcomeApprovedOutOfBand && rec.Harness != tt.host.Name {
					t.Errorf("the approved run's record names harness %q, want %s", rec.Harness, tt.host.Name)
				}
			}
		})
	}
}

// A directory that cannot be known asks; a denied command is denied in
// every mode; an empty command is denied.
func TestHandleEdges(t *testing.T) {
	g, proj := testGate(t, "")
	if d, reason, _ := claudeDecision(t, handle(t, g, Claude, claudeEvent("ls", "relative/dir", "default", "x"))); d != "ask" || !strings.Contains(reason, "not known") {
		t.Errorf("unknown cwd: %s %q", d, reason)
	}
	if d, _, _ := claudeDecision(t, handle(t, g, Claude, claudeEvent("   ", proj, "default", "y"))); d != "deny" {
		t.Errorf("empty command: %s", d)
	}
	gb, projb := testGate(t, "bypass")
	if d, _, c := claudeDecision(t, handle(t, gb, Claude, claudeEvent("touch x", projb, "default", "z"))); d != "allow" || !strings.Contains(c, "exec --non-interactive") {
		t.Errorf("bypass mode: %s %q", d, c)
	}
	if d, _, _ := claudeDecision(t, handle(t, gb, Claude, claudeEvent("cat .env", projb, "default", "w"))); d != "ask" {
		t.Errorf("a sensitive path in bypass mode: %s", d)
	}
}

// A panic inside the decision is a block, never a pass.
func TestHandlePanicBlocks(t *testing.T) {
	g, proj := testGate(t, "")
	g.Engine.Vet = func(*engine.Judgement) gate.Decision { panic("boom") }
	r := handle(t, g, Claude, claudeEvent("ls", proj, "default", "p"))
	if r.Code != 2 || !strings.Contains(string(r.Stderr), "internal error: boom") {
		t.Errorf("panic: %q %q %d", r.Stdout, r.Stderr, r.Code)
	}
}

// An ask in Claude Code's dialog carries the rewrite it runs once the
// person says yes: exec with a ticket, the other tool input fields kept.
// Claude Code matches its allow rules against that rewrite, so a rule for
// agentgate exec is a rule that may run a sticky ask unasked: then the
// sticky ask is denied with an id, as for a rule on the original.
func TestAskCarriesTicketedRewrite(t *testing.T) {
	g, proj := testGate(t, "")
	d, _, c := claudeDecision(t, handle(t, g, Claude, claudeEvent("touch made.txt", proj, "default", "t1")))
	if d != "ask" || !regexp.MustCompile(`^"/opt/agentgate/agentgate" exec --non-interactive '--host-ticket=[a-z2-7]{32}' --session 'sess-1' -- 'touch made.txt'$`).MatchString(c) {
		t.Fatalf("ask %s with rewrite %q", d, c)
	}
	if d, _, _ := claudeDecision(t, handle(t, g, Claude, claudeEvent("cat .env", proj, "default", "t2"))); d != "ask" {
		t.Fatalf("a sticky ask with no host rule: %s", d)
	}
	settings := filepath.Join(g.Home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	rule := `{"permissions":{"allow":["Bash(\"/opt/agentgate/agentgate\" exec:*)"]}}`
	if err := os.WriteFile(settings, []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	if d, _, _ := claudeDecision(t, handle(t, g, Claude, claudeEvent("cat .env", proj, "default", "t3"))); d != "deny" {
		t.Errorf("a sticky ask whose rewrite a host allow rule matches: %s, want deny", d)
	}
	if d, _, _ := claudeDecision(t, handle(t, g, Claude, claudeEvent("touch made.txt", proj, "default", "t4"))); d != "ask" {
		t.Errorf("a plain ask with that rule: %s, want ask", d)
	}
}

// Gemini CLI applies a hook's tool_input before its own confirmation, so
// its ask carries the ticketed rewrite too (where it can ask: an
// interactive session; TestGeminiHostApprovalRunsThroughExec drives the
// real client).
func TestGeminiAskCarriesTicketedRewrite(t *testing.T) {
	g, proj := testGate(t, "")
	h := *Gemini
	h.CanAsk = func(Event) bool { return true }
	ev, _ := json.Marshal(map[string]any{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
		"tool_input": map[string]any{"command": "touch made.txt"}, "cwd": proj, "session_id": "sess-1"})
	r := handle(t, g, &h, ev)
	var out struct {
		Decision string `json:"decision"`
		Specific struct {
			Input map[string]any `json:"tool_input"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(r.Stdout, &out); err != nil {
		t.Fatalf("%q: %v", r.Stdout, err)
	}
	c, _ := out.Specific.Input["command"].(string)
	if out.Decision != "ask" || !regexp.MustCompile(`exec --non-interactive '--host-ticket=[a-z2-7]{32}' --session 'sess-1' -- 'touch made.txt'$`).MatchString(c) {
		t.Errorf("gemini ask %s with rewrite %q", out.Decision, c)
	}
}
