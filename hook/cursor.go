package hook

import (
	"encoding/json"
	"strings"
)

// Cursor is Cursor's agent. Its beforeShellExecution hook gets .command,
// .cwd and .conversation_id, and answers {"permission": "allow" | "ask" |
// "deny", "user_message": ..., "agent_message": ...}. Cursor cannot
// rewrite the command, so an allowed command runs as Cursor runs it,
// without exec's protections. Cursor's "ask" was reported ignored in its
// auto-review mode, which the event does not name, so an ask is answered
// deny with an id to approve out of band.
var Cursor = &Host{
	Name:     "cursor",
	Decode:   decodeCursor,
	Encode:   encodeCursor,
	CanAsk:   func(Event) bool { return false },
	Rewrites: false,
}

type cursorEvent struct {
	Event        string          `json:"hook_event_name"`
	Command      json.RawMessage `json:"command"`
	Cwd          string          `json:"cwd"`
	Conversation string          `json:"conversation_id"`
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

func encodeCursor(ev Event, a Answer) Reply {
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
