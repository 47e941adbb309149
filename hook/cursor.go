package hook

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// Cursor is Cursor's agent. Its beforeReadFile hook (.file_path) gates its
// reads as the other hosts' file tools are gated; Cursor has no hook that
// can stop an edit before it is made (afterFileEdit reports one), so its
// writes are not gated. Its beforeShellExecution hook gets .command,
// .cwd and .conversation_id, and answers {"permission": "allow" | "ask" |
// "deny", "user_message": ..., "agent_message": ...}. Cursor cannot
// rewrite the command, so an allowed command runs as Cursor runs it,
// without exec's protections. Cursor's "ask" was reported ignored in its
// auto-review mode, which the event does not name, so an ask is answered
// deny with an id to approve out of band.
var Cursor = &Host{
	Name:     "cursor",
	Title:    "Cursor",
	Decode:   decodeCursor,
	Encode:   encodeCursor,
	CanAsk:   func(Event) bool { return false },
	Rewrites: false,
}

type cursorEvent struct {
	Event          string          `json:"hook_event_name"`
	Command        json.RawMessage `json:"command"`
	FilePath       json.RawMessage `json:"file_path"`
	Cwd            string          `json:"cwd"`
	WorkspaceRoots []string        `json:"workspace_roots"`
	Conversation   string          `json:"conversation_id"`
}

func decodeCursor(data []byte) (Event, error) {
	if len(data) > MaxEvent {
		return Event{}, malformed("larger than %d bytes", MaxEvent)
	}
	var ce cursorEvent
	if err := json.Unmarshal(data, &ce); err != nil {
		return Event{}, malformed("%v", err)
	}
	ev := Event{Session: ce.Conversation}
	if ce.Event == "beforeReadFile" {
		return decodeCursorRead(ev, ce)
	}
	if ce.Event != "beforeShellExecution" {
		return ev, nil
	}
	cmd, ok := jsonString(ce.Command)
	if !ok {
		return Event{}, malformed("command is not a string")
	}
	ev.Command = cmd
	ev.Kind = Pre
	ev.Cwd, ev.CwdProblem = workdir(nil, "", ce.Cwd)
	return ev, nil
}

// decodeCursorRead reads beforeReadFile, Cursor's hook before its agent
// reads a file (the file's absolute path in .file_path; the event has no
// cwd, so a relative path is taken from the first workspace root). It is
// judged as the other hosts' reads are.
func decodeCursorRead(ev Event, ce cursorEvent) (Event, error) {
	p, ok := jsonString(ce.FilePath)
	if !ok || p == "" {
		return Event{}, malformed("file_path is not a string")
	}
	dir := ce.Cwd
	if dir == "" && len(ce.WorkspaceRoots) > 0 {
		dir = ce.WorkspaceRoots[0]
	}
	if dir == "" && filepath.IsAbs(p) {
		dir = filepath.Dir(p)
	}
	ev.Kind = PreFile
	ev.File = &FileUse{Tool: "Read", Access: FileRead, Paths: []string{p}}
	ev.Project = dir
	ev.Cwd, ev.CwdProblem = workdir(nil, "", dir)
	return ev, nil
}

func encodeCursor(ev Event, a Answer) Reply {
	if a.Decision == Pass && ev.Kind == PreFile {
		// The hook is installed fail-closed: a read it lets through is
		// said so.
		return Reply{Stdout: marshal(map[string]string{"permission": "allow"})}
	}
	if a.Decision == Pass {
		return Reply{}
	}
	out := map[string]string{"permission": a.Decision.String()}
	if a.Decision != Allow {
		out["user_message"] = oneLine(a.Reason)
		if !strings.HasPrefix(a.Reason, "agentgate") {
			out["user_message"] = "agentgate: " + out["user_message"]
		}
		out["agent_message"] = oneLine(a.Reason)
	}
	return Reply{Stdout: marshal(out)}
}
