package hook

import "encoding/json"

// Claude is Claude Code. Its PreToolUse hook (matcher Bash) gets
// .tool_input.command, .cwd, .session_id, .tool_use_id and
// .permission_mode, and answers with hookSpecificOutput.permissionDecision
// allow, ask (Claude Code's own dialog shows permissionDecisionReason to
// the person) or deny (the reason goes to the model). An allow or an ask
// can carry updatedInput, the whole tool input to run instead (for an
// ask, once the person said yes). PostToolUse and
// PermissionDenied report how an asked command ended.
var Claude = &Host{
	Name:          "claude",
	Title:         "Claude Code",
	Decode:        decodeClaude,
	Encode:        encodeClaude,
	CanAsk:        claudeCanAsk,
	Rewrites:      true,
	AsksRewritten: true,
	HostRules:     claudeRules,
	HostAllows:    claudeAllows,
}

// decodeClaude reads PreToolUse, PostToolUse(Failure) and PermissionDenied
// for the Bash tool; the command runs in .cwd.
var decodeClaude = shellEvents{tool: "Bash", pre: "PreToolUse", post: []string{"PostToolUse", "PostToolUseFailure"},
	denied: []string{"PermissionDenied"}, files: claudeFileTools}.decode

// claudeCanAsk: Claude Code's dialog reaches a person in its interactive
// permission modes, auto included (the default of 2.1.328 in a terminal:
// a hook's ask is shown in Claude Code's own dialog, no classifier first;
// TestClaudeInteractiveAskReachesDialog drives the real client). In
// bypassPermissions and dontAsk no dialog is shown, so those and unknown
// modes are answered deny.
func claudeCanAsk(ev Event) bool {
	switch ev.Mode {
	case "default", "acceptEdits", "plan", "auto":
		return true
	}
	return false
}

type claudeOutput struct {
	Event        string                     `json:"hookEventName"`
	Decision     string                     `json:"permissionDecision"`
	Reason       string                     `json:"permissionDecisionReason,omitempty"`
	UpdatedInput map[string]json.RawMessage `json:"updatedInput,omitempty"`
}

func encodeClaude(ev Event, a Answer) Reply {
	out := claudeOutput{Event: "PreToolUse", Decision: a.Decision.String(), Reason: oneLine(a.Reason)}
	switch a.Decision {
	case Pass:
		return Reply{}
	case Allow:
		if out.Reason == "" {
			out.Reason = "agentgate: allowed"
		}
		if a.Rewrite != "" {
			out.UpdatedInput = withCommand(ev.input, "command", a.Rewrite)
		}
	case Ask:
		// The dialog shows the rewrite, which runs once the person says
		// yes (TestClaudeHostApprovalRunsThroughExec).
		if a.Rewrite != "" {
			out.UpdatedInput = withCommand(ev.input, "command", a.Rewrite)
		}
	}
	b := marshal(map[string]any{"hookSpecificOutput": out})
	if b == nil {
		return Block(a.Reason)
	}
	return Reply{Stdout: b}
}
