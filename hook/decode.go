package hook

import "github.com/agentgate/agentgate/internal/shparse"

// shellEvents is how a host names its shell tool and the events around it;
// decode reads any of those hosts' events with it.
type shellEvents struct {
	tool      string   // the shell tool's name in the event
	pre       string   // the event before the command runs
	post      []string // events after it ran
	denied    []string // events after the person refused it
	asking    []string // events as the host is about to ask about it
	stop      []string // events at the end of the agent's turn
	dirFields []string // tool input fields naming where it runs, the first present wins; none: .cwd
	files     map[string]fileTool
	// shellPatch: the host applies "apply_patch <<'EOF'" sent to its
	// shell as a patch (Codex), so such a command is judged as its
	// patch tool (shellPatch).
	shellPatch string
}

func (s shellEvents) decode(data []byte) (Event, error) {
	env, err := decodeEnvelope(data)
	if err != nil {
		return Event{}, err
	}
	ev := Event{Session: env.Session, ToolUseID: env.ToolUseID, Mode: env.Mode, TurnID: env.TurnID, Transcript: env.Transcript}
	if contains(s.stop, env.Event) {
		ev.Kind = Stopped
		return ev, nil
	}
	ft, isFile := s.files[env.Tool]
	isFile = isFile && env.Tool != s.tool
	if env.Tool != s.tool && !isFile {
		return ev, nil
	}
	switch {
	case env.Event == s.pre && isFile:
		ev.Kind = PreFile
	case env.Event == s.pre:
		ev.Kind = Pre
	case contains(s.post, env.Event):
		ev.Kind, ev.ExitCode = Post, exitCode(env.Response)
		// The command that ran: for Codex, agentgate's marked rewrite,
		// whose ticket the result uses up.
		if _, c, err := toolInput(env.Input, "command"); err == nil {
			ev.Command = c
		}
		return ev, nil
	case contains(s.denied, env.Event):
		ev.Kind = Denied
		return ev, nil
	case contains(s.asking, env.Event) && !isFile:
		ev.Kind = Asking
		_, ev.Command, err = toolInput(env.Input, "command")
		return ev, err
	default:
		return ev, nil
	}
	if isFile {
		if ev.File, err = decodeFile(env.Tool, ft, env.Input); err != nil {
			return Event{}, err
		}
		ev.Project = env.Cwd
		ev.Cwd, ev.CwdProblem = workdir(nil, "", env.Cwd)
		return ev, nil
	}
	ev.input, ev.Command, err = toolInput(env.Input, "command")
	if err != nil {
		return Event{}, err
	}
	// The command's one parse: read here for a shell patch, and handed to
	// the engine with the event (Proposal.Script).
	ev.script = shparse.Of(ev.Command)
	if patch, ok := shellPatch(ev.script); ok && s.shellPatch != "" && ev.Kind == Pre {
		ev.Kind, ev.Command, ev.input = PreFile, "", nil
		ev.File = &FileUse{Tool: s.shellPatch, Access: FileWrite, Paths: patchPaths(patch), PatchChanges: patchChanges(patch)}
		if len(ev.File.Paths) == 0 {
			return Event{}, malformed("the patch names no file")
		}
		ev.Project = env.Cwd
		in, _, _ := toolInput(env.Input, "command")
		ev.Cwd, ev.CwdProblem = workdir(in, firstField(s.dirFields), env.Cwd)
		return ev, nil
	}
	dirField := ""
	if len(s.dirFields) > 0 {
		dirField = s.dirFields[0]
		for _, f := range s.dirFields {
			if _, ok := ev.input[f]; ok {
				dirField = f
				break
			}
		}
	}
	ev.Project = env.Cwd
	ev.Cwd, ev.CwdProblem = workdir(ev.input, dirField, env.Cwd)
	return ev, nil
}

func firstField(fields []string) string {
	if len(fields) == 0 {
		return ""
	}
	return fields[0]
}
