package hook

// Codex is the Codex CLI. Its PreToolUse hook gets apply_patch (the
// patch in .tool_input.command; the file headers name what it writes)
// and view_image (.tool_input.path) as file tools, judged as the other
// hosts' are; a pass is exit 0 with nothing on stdout. For the shell it
// gets tool_name "Bash" with .tool_input.command, even though the model's
// tool is exec_command with {"cmd": ...}; the tool input's workdir, where
// present, is where the command runs. Allow is exit 0 with nothing on
// stdout, or permissionDecision allow with updatedInput; deny is exit 2
// with the reason on stderr.
//
// Codex has no ask answer ("ask" runs the command). It asks a person
// about agentgate's marked rewrite of a command, through the rule install
// writes (codexask.go), where the turn's settings say a person will see
// it; elsewhere an ask is denied with an id to approve out of band. Its
// PermissionRequest event, sent as it is about to ask, arms the
// rewrite's ticket (exit 0, nothing on stdout: it goes on to ask) or
// refuses (exit 2, the reason on stderr).
var Codex = &Host{
	Name:      "codex",
	Title:     "Codex",
	Decode:    decodeCodex,
	Encode:    encodeCodex,
	CanAsk:    func(Event) bool { return false },
	Rewrites:  true,
	HostRules: codexRules,
	AskVia:    codexAskProblem,
}

// decodeCodex reads PreToolUse, PermissionRequest and PostToolUse for the
// Bash tool, and Stop, the end of the turn; the tool input's workdir, where present, is where the
// command runs.
var decodeCodex = shellEvents{tool: "Bash", pre: "PreToolUse", post: []string{"PostToolUse"}, asking: []string{"PermissionRequest"}, stop: []string{"Stop"}, dirFields: []string{"workdir"},
	files: codexFileTools, shellPatch: "apply_patch"}.decode

func encodeCodex(ev Event, a Answer) Reply {
	switch {
	case a.Decision == Pass:
		return Reply{}
	case ev.Kind == Asking:
		// A PermissionRequest answers allow, deny or nothing; agentgate
		// never allows there: the person decides.
		return Block(a.Reason)
	case a.Decision == Allow && a.Rewrite == "":
		return Reply{}
	case a.Decision == Allow, a.Decision == Ask && a.Rewrite != "":
		// An ask goes to Codex as an allow with the marked rewrite: its
		// rule makes it ask the person about exactly that.
		reason := "agentgate: allowed"
		if a.Decision == Ask {
			reason = oneLine(a.Reason)
		}
		return Reply{Stdout: marshal(map[string]any{"hookSpecificOutput": claudeOutput{
			Event: "PreToolUse", Decision: "allow", Reason: reason,
			UpdatedInput: withCommand(ev.input, "command", a.Rewrite)}})}
	}
	// A deny, or an ask without the marked rewrite, which Codex would run.
	return Block(a.Reason)
}
