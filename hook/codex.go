package hook

// Codex is the Codex CLI. Its PreToolUse hook gets apply_patch (the
// patch in .tool_input.command; the file headers name what it writes)
// and view_image (.tool_input.path) as file tools, judged as the other
// hosts' are; a pass is exit 0 with nothing on stdout. For the shell it
// (matcher ^Bash$) gets
// tool_name "Bash" with .tool_input.command, even though the model's tool
// is exec_command with {"cmd": ...}; the tool input's workdir, where
// present, is where the command runs. Codex has no ask that reaches a
// person ("ask" runs the command), so an ask is answered deny with an id
// to approve out of band. Allow is exit 0 with nothing on stdout, or
// permissionDecision allow with updatedInput; deny is exit 2 with the
// reason on stderr.
var Codex = &Host{
	Name:      "codex",
	Decode:    decodeCodex,
	Encode:    encodeCodex,
	CanAsk:    func(Event) bool { return false },
	Rewrites:  true,
	HostRules: codexRules,
}

// decodeCodex reads PreToolUse and PostToolUse for the Bash tool; the tool
// input's workdir, where present, is where the command runs.
var decodeCodex = shellEvents{tool: "Bash", pre: "PreToolUse", post: []string{"PostToolUse"}, dirFields: []string{"workdir"},
	files: codexFileTools, shellPatch: "apply_patch"}.decode

func encodeCodex(ev Event, a Answer) Reply {
	switch a.Decision {
	case Pass:
		return Reply{}
	case Allow:
		if a.Rewrite == "" {
			return Reply{}
		}
		return Reply{Stdout: marshal(map[string]any{"hookSpecificOutput": claudeOutput{
			Event: "PreToolUse", Decision: "allow", Reason: "agentgate: allowed",
			UpdatedInput: withCommand(ev.input, "command", a.Rewrite)}})}
	}
	return Block(a.Reason)
}
