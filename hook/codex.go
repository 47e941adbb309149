package hook

// Codex is the Codex CLI. Its PreToolUse hook (matcher ^Bash$) gets
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

func decodeCodex(data []byte) (Event, error) {
	env, err := decodeEnvelope(data)
	if err != nil {
		return Event{}, err
	}
	ev := Event{Session: env.Session, ToolUseID: env.ToolUseID, Mode: env.Mode}
	if env.Tool != "Bash" {
		return ev, nil
	}
	switch env.Event {
	case "PreToolUse":
		ev.Kind = Pre
	case "PostToolUse":
		ev.Kind, ev.ExitCode = Post, exitCode(env.Response)
		return ev, nil
	default:
		return ev, nil
	}
	ev.input, ev.Command, err = toolInput(env.Input, "command")
	if err != nil {
		return Event{}, err
	}
	ev.Project = env.Cwd
	ev.Cwd, ev.CwdProblem = workdir(ev.input, "workdir", env.Cwd)
	return ev, nil
}

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
