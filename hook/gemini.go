package hook

import "strings"

// Gemini is the Gemini CLI. Its BeforeTool hook (matcher
// run_shell_command) gets .tool_input.command and the tool input's
// dir_path, .cwd and .session_id. Gemini's "ask" shows its own
// confirmation in an interactive run, whatever its approval mode, but
// hangs a headless one (gemini -p); the event does not say which it is,
// so the hook reads it from the Gemini process (geminiCanAsk), and
// elsewhere an ask is answered deny with an id to approve out of band.
// Allow is exit 0; a rewrite is decision allow (or ask) with
// hookSpecificOutput.tool_input, which Gemini merges over the model's
// arguments (before its confirmation, for an ask). Deny is {"decision":"deny","reason":...} with exit 0, which
// Gemini shows as "Tool execution blocked: REASON" (exit 2 blocks too,
// but reads as "Hook(s) [agentgate] failed"); a malformed event or an
// internal error is still exit 2 (see [Block]). AfterTool reports a
// command that ran.
var Gemini = &Host{
	Name:          "gemini",
	Title:         "Gemini CLI",
	Decode:        decodeGemini,
	Encode:        encodeGemini,
	CanAsk:        geminiCanAsk,
	Rewrites:      true,
	AsksRewritten: true,
	HostRules:     geminiRules,
}

// decodeGemini reads BeforeTool and AfterTool for run_shell_command; the
// tool input's dir_path (directory, its earlier name) is where it runs.
var decodeGemini = shellEvents{tool: "run_shell_command", pre: "BeforeTool", post: []string{"AfterTool"},
	dirFields: []string{"dir_path", "directory"}, files: geminiFileTools}.decode

func encodeGemini(ev Event, a Answer) Reply {
	switch a.Decision {
	case Pass:
		return Reply{}
	case Allow:
		if a.Rewrite == "" {
			return Reply{}
		}
		return Reply{Stdout: marshal(map[string]any{"decision": "allow",
			"hookSpecificOutput": map[string]any{"tool_input": withCommand(ev.input, "command", a.Rewrite)}})}
	case Ask:
		// Gemini shows the systemMessage; the reason goes to the model.
		// It applies tool_input before its confirmation, so the person
		// confirms the rewrite, which runs once they say yes (0.61.0,
		// evaluateBeforeToolHook; TestGeminiHostApprovalRunsThroughExec).
		out := map[string]any{"decision": "ask", "reason": oneLine(a.Reason), "systemMessage": oneLine(a.Reason)}
		if a.Rewrite != "" {
			out["hookSpecificOutput"] = map[string]any{"tool_input": withCommand(ev.input, "command", a.Rewrite)}
		}
		return Reply{Stdout: marshal(out)}
	}
	if b := marshal(map[string]any{"decision": "deny", "reason": oneLine(a.Reason)}); b != nil && strings.TrimSpace(a.Reason) != "" {
		return Reply{Stdout: b}
	}
	return Block(a.Reason)
}
