// Package hook lets the agents people run (Claude Code, Codex CLI, Gemini
// CLI, Cursor) put their shell commands through agentgate's one engine.
// Each host's pre-tool hook sends a JSON event on stdin; a [Host] decodes
// it into an [Event], [Gate.Handle] decides with the engine exactly as
// exec does, and the host encodes the [Answer] in its own protocol.
//
// # Guarantees
//
//   - The hook never prompts: it never opens /dev/tty. A person is asked
//     in the host's own dialog where the host has one that reaches a
//     person, and otherwise the answer is deny, with an id the person
//     can approve from another terminal ("agentgate approve ID").
//   - Never fail open by accident: a malformed event, an internal error
//     or a panic answers deny, as exit status 2 with the reason on
//     stderr, which every host treats as a block. [Block] is that reply.
//   - What runs is what was checked: where the host can rewrite the tool
//     input, an allowed command becomes "agentgate exec --non-interactive
//     -- '<exact text>'", every other field kept, so exec's direct
//     execution, git hardening and confinement apply, and exec decides
//     again when it runs (and denies rather than prompts).
//   - The working directory is the tool input's own directory field where
//     the host has one, resolved against the event's cwd; when it cannot
//     be known the command asks (or is denied).
//
// The file tools of Claude Code and Gemini CLI are gated too (see
// files.go): reads and searches are judged as the shell's cat and grep,
// writes to self-protected paths ask. Fetch, web and MCP tools are not
// gated.
package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentgate/agentgate/internal/shparse"
)

// Kind is the kind of event a host sent.
type Kind int

// The kinds of event.
const (
	// Other is an event agentgate has no opinion on (another tool, an
	// event it was not installed for): the answer is empty.
	Other Kind = iota
	// Pre is a shell command about to run.
	Pre
	// Post is a shell command that ran.
	Post
	// Denied is a shell command the host refused after asking.
	Denied
	// PreFile is a file tool call about to run (see [FileUse]).
	PreFile
	// Asking is a shell command the host is about to ask someone about
	// (Codex's PermissionRequest): the hook may arm the ticket of its
	// marked rewrite, or refuse.
	Asking
	// Stopped is the end of the agent's turn (Codex's Stop): an ask the
	// host kept open and never ran is over.
	Stopped
)

// Event is a host's hook event, decoded.
type Event struct {
	Kind Kind
	// Command is the shell command text, exactly as the host will run it.
	Command string
	// Cwd is the absolute directory the command runs in; "" when it
	// cannot be known, and CwdProblem says why.
	Cwd, CwdProblem string
	// Session is the host's session or conversation id.
	Session string
	// ToolUseID is the host's id of this tool call.
	ToolUseID string
	// Mode is the host's permission mode, when it sends one.
	Mode string
	// TurnID and Transcript are the host's turn id and the file it
	// records the session in, when it sends them (Codex: the turn's
	// settings are read there).
	TurnID, Transcript string
	// Project is the project directory the host names (the event's cwd),
	// where its project settings are.
	Project string
	// ExitCode is the command's exit status on a Post event, when the host
	// reports it.
	ExitCode *int
	// File is the file tool call of a PreFile event.
	File *FileUse
	// input is the tool input as sent, for a rewrite that keeps every
	// other field.
	input map[string]json.RawMessage
	// script is Command's one parse, made when the event is decoded.
	script *shparse.Script
}

// Decision is the answer's verdict.
type Decision int

// The verdicts.
const (
	Deny Decision = iota
	Allow
	Ask
	// Pass answers nothing: an event agentgate has no opinion on.
	Pass
)

func (d Decision) String() string {
	return [...]string{"deny", "allow", "ask", "pass"}[d]
}

// Answer is what agentgate tells the host.
type Answer struct {
	Decision Decision
	// Reason is, for ask, the reason chain the person sees in the host's
	// dialog; for deny, the reason and next step sent to the model.
	Reason string
	// Rewrite, for allow, is the command to run instead, when the host
	// can rewrite its tool input; for ask, the command the host runs
	// instead once the person said yes (a host with AsksRewritten).
	Rewrite string
}

// Reply is an encoded answer: what the hook process writes and how it
// exits. Code is 0 or 2, never 1: hosts run the command on exit 1.
type Reply struct {
	Stdout, Stderr []byte
	Code           int
}

// Host is one agent's protocol.
type Host struct {
	// Name is the host's name on the command line: claude, codex, gemini,
	// cursor.
	Name string
	// Title is the host's name in words to a person: "Claude Code".
	Title string
	// Decode reads an event. An error answers deny.
	Decode func(data []byte) (Event, error)
	// Encode writes an answer to ev.
	Encode func(ev Event, a Answer) Reply
	// CanAsk reports whether an ask answer to ev reaches a person; where
	// it does not, the answer is deny with an id to approve out of band.
	CanAsk func(ev Event) bool
	// Rewrites is true when the host can rewrite the tool input.
	Rewrites bool
	// AsksRewritten is true when the host also rewrites the tool input
	// of an ask, showing the person the rewrite and running it once they
	// said yes (Claude Code's updatedInput with "ask"): the approved
	// command then runs through exec, judged again and confined.
	AsksRewritten bool
	// HostRules are the host's own deny and ask rules: a command one
	// of them may match is not rewritten, so that the rule, which the
	// host matches against what it runs, still holds.
	HostRules func(w Where) []HostRule
	// HostAllows reports whether one of the host's own allow rules may
	// match the command, so that the host may run it without showing an
	// ask: a sticky ask (sensitive path, self-protection) is then denied
	// with an id to approve out of band instead.
	HostAllows func(w Where, command string) bool
	// AskVia, where set, is a host's only way to ask a person about a
	// shell command: it has no ask answer, but asks about agentgate's
	// marked rewrite, because of its own rule (Codex; see codexask.go).
	// An ask is answered allow with that rewrite, ticketed and unarmed
	// until the host's Asking event, where AskVia says "" for agentgate
	// at self; where it names a reason, the ask is denied with an id.
	AskVia func(w Where, self string, ev Event) string
}

// Hosts are the hosts agentgate plugs into, by name.
var Hosts = map[string]*Host{
	"claude": Claude,
	"codex":  Codex,
	"gemini": Gemini,
	"cursor": Cursor,
}

// Names lists the hosts in a fixed order.
var Names = []string{"claude", "codex", "gemini", "cursor"}

// Block is the reply every host treats as a block: exit 2 with the reason
// on stderr. It is the answer to a malformed event or an internal error.
func Block(reason string) Reply {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		reason = "denied"
	}
	if !strings.HasPrefix(reason, "agentgate") {
		reason = "agentgate: denied: " + reason
	}
	return Reply{Stderr: []byte(oneLine(reason) + "\n"), Code: 2}
}

// oneLine keeps text on one line: hosts show stderr and reasons as they
// are, and a newline from a command could forge a line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// MaxEvent bounds an event: larger ones are denied unread.
const MaxEvent = 1 << 20

// errMalformed wraps every decoding problem.
var errMalformed = errors.New("malformed hook event")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errMalformed, fmt.Sprintf(format, args...))
}

// envelope is the fields most hosts share.
type envelope struct {
	Event     string          `json:"hook_event_name"`
	Tool      string          `json:"tool_name"`
	Input     json.RawMessage `json:"tool_input"`
	Response  json.RawMessage `json:"tool_response"`
	Cwd       string          `json:"cwd"`
	Session   string          `json:"session_id"`
	ToolUseID string          `json:"tool_use_id"`
	Mode      string          `json:"permission_mode"`
	TurnID    string          `json:"turn_id"`
	// Transcript is a string or null (Codex's ephemeral sessions).
	Transcript string `json:"transcript_path"`
}

func decodeEnvelope(data []byte) (envelope, error) {
	var env envelope
	if len(data) > MaxEvent {
		return env, malformed("larger than %d bytes", MaxEvent)
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return env, malformed("%v", err)
	}
	return env, nil
}

// toolInput decodes the tool input object and its command field.
func toolInput(raw json.RawMessage, field string) (map[string]json.RawMessage, string, error) {
	var in map[string]json.RawMessage
	if err := json.Unmarshal(raw, &in); err != nil || in == nil {
		return nil, "", malformed("tool_input is not an object")
	}
	cmd, ok := jsonString(in[field])
	if !ok {
		return nil, "", malformed("tool_input.%s is not a string", field)
	}
	return in, cmd, nil
}

// jsonString decodes a JSON string; null and other types are not one.
func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// workdir resolves the directory a command runs in: the tool input's own
// directory field (named dirField) when present, resolved against the
// event's cwd; else the event's cwd. It returns "" and why when neither
// is an absolute path.
func workdir(in map[string]json.RawMessage, dirField, cwd string) (string, string) {
	base := ""
	if filepath.IsAbs(cwd) {
		base = filepath.Clean(cwd)
	}
	raw, ok := in[dirField]
	if dirField == "" || !ok || string(raw) == "null" {
		if base == "" {
			return "", fmt.Sprintf("the event's cwd %q is not an absolute path", cwd)
		}
		return base, ""
	}
	var dir string
	if err := json.Unmarshal(raw, &dir); err != nil {
		return "", fmt.Sprintf("tool_input.%s is not a string", dirField)
	}
	switch {
	case dir == "":
		if base == "" {
			return "", fmt.Sprintf("the event's cwd %q is not an absolute path", cwd)
		}
		return base, ""
	case filepath.IsAbs(dir):
		return filepath.Clean(dir), ""
	case base == "":
		return "", fmt.Sprintf("tool_input.%s %q is relative and the event's cwd is not known", dirField, dir)
	}
	return filepath.Join(base, dir), ""
}

// withCommand returns the tool input with its command field replaced and
// every other field as it was.
func withCommand(in map[string]json.RawMessage, field, cmd string) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(in))
	for k, v := range in {
		out[k] = v
	}
	b, _ := json.Marshal(cmd)
	out[field] = b
	return out
}

// exitCode looks for an exit status in a tool response: the hosts name it
// differently, and some do not report it at all.
func exitCode(raw json.RawMessage) *int {
	var resp map[string]json.RawMessage
	if json.Unmarshal(raw, &resp) != nil {
		return nil
	}
	for _, k := range []string{"exit_code", "exitCode", "returnCode", "return_code"} {
		var n int
		if v, ok := resp[k]; ok && json.Unmarshal(v, &n) == nil {
			return &n
		}
	}
	return nil
}

// marshal encodes v for a host, with a newline; HTML characters are left
// alone.
func marshal(v any) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return []byte(b.String())
}
