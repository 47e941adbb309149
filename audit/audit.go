// Package audit appends agentgate's escalation records to a JSON Lines
// log.
//
// # Guarantees
//
// Every record is one line, written by a single write(2) on a file opened
// with O_APPEND, while holding an exclusive flock(2) on the log's lock
// file, and followed by fsync before the lock is released. Many agentgate processes can append
// at once: no line is torn, interleaved or lost, and a record that Append
// reported written survives a crash of the machine. The directory is
// created 0700 and the file 0600: the log names commands and directories.
package audit

import (
	"bytes"
	"encoding/json"

	"github.com/agentgate/agentgate/gate"
)

// Outcomes of an escalation.
const (
	OutcomeDeniedNonInteractive = "denied_noninteractive"
	OutcomeDenied               = "denied"
	OutcomeApprovedOnce         = "approved_once"
	OutcomeApprovedSession      = "approved_session"
	OutcomeApprovedAlways       = "approved_always"
	OutcomeAllowedBySession     = "allowed_by_session"
	OutcomeDeniedSession        = "denied_session"
	OutcomeDeniedBySession      = "denied_by_session"
	OutcomeTimeout              = "timeout"
	OutcomeInterrupted          = "interrupted"
	OutcomeBreaker              = "breaker"
	OutcomeBypassed             = "bypassed"
	OutcomeDeniedReadonly       = "denied_readonly"
	// A hook's host asked the person in its own dialog; approved_host or
	// denied_host follows under the same id when the host reports it.
	OutcomeAskedHost    = "asked_host"
	OutcomeApprovedHost = "approved_host"
	OutcomeDeniedHost   = "denied_host"
	// A person approved the command from another terminal with
	// "agentgate approve"; denied_out_of_band when they denied it there.
	OutcomeApprovedOutOfBand = "approved_out_of_band"
	OutcomeDeniedOutOfBand   = "denied_out_of_band"
	// A command allowed on its own ran past command_timeout while nobody
	// watched and was ended (a limit record).
	OutcomeStoppedByLimit = "stopped_by_limit"
	// A command confined to the project created or replaced a protected
	// path (an .envrc, a .claude directory, a hooks directory where there
	// was none, a link): agentgate moved it aside (a protected record).
	OutcomeQuarantined = "quarantined"
)

// Outcome is a record's outcome, read: the one list of outcomes and what
// each means, for every reader of the log (log --outcome, stats,
// suggest). A hook's asked_host escalation ends in a result record under
// the same id: approved_host or denied_host.
type Outcome string

// Outcomes lists every outcome a record can have.
var Outcomes = []Outcome{
	OutcomeDeniedNonInteractive, OutcomeDenied, OutcomeDeniedReadonly, OutcomeApprovedOnce, OutcomeApprovedSession,
	OutcomeApprovedAlways, OutcomeAllowedBySession, OutcomeDeniedSession, OutcomeDeniedBySession, OutcomeTimeout,
	OutcomeInterrupted, OutcomeBreaker, OutcomeBypassed, OutcomeAskedHost, OutcomeApprovedHost, OutcomeDeniedHost,
	OutcomeApprovedOutOfBand, OutcomeDeniedOutOfBand, OutcomeStoppedByLimit, OutcomeQuarantined,
}

// Known reports whether o is one of [Outcomes].
func (o Outcome) Known() bool {
	for _, k := range Outcomes {
		if k == o {
			return true
		}
	}
	return false
}

// Approved reports an outcome where the command ran with a person's (or
// the mode's) consent.
func (o Outcome) Approved() bool {
	switch o {
	case OutcomeApprovedOnce, OutcomeApprovedSession, OutcomeApprovedAlways, OutcomeAllowedBySession,
		OutcomeBypassed, OutcomeApprovedHost, OutcomeApprovedOutOfBand:
		return true
	}
	return false
}

// AskedPerson reports an outcome a person decided: at agentgate's prompt,
// in the host's dialog, or from another terminal.
func (o Outcome) AskedPerson() bool {
	switch o {
	case OutcomeApprovedOnce, OutcomeApprovedSession, OutcomeApprovedAlways, OutcomeDenied, OutcomeDeniedSession,
		OutcomeTimeout, OutcomeInterrupted, OutcomeAskedHost, OutcomeApprovedHost, OutcomeDeniedHost,
		OutcomeApprovedOutOfBand, OutcomeDeniedOutOfBand:
		return true
	}
	return false
}

// Pending reports an outcome whose end comes in a later result record
// (asked_host).
func (o Outcome) Pending() bool { return o == OutcomeAskedHost }

// Events: an escalation is recorded before anything runs; when an
// approved command finishes, a result record with the same id follows.
const (
	EventEscalation = "escalation"
	EventResult     = "result"
	// EventLimit records a command allowed on its own that was ended at
	// its time limit; the allow path writes nothing else.
	EventLimit = "limit"
	// EventProtected records what a workspace command made at protected
	// paths of the project and where agentgate moved it.
	EventProtected = "protected"
)

// Record is one line of the audit log.
type Record struct {
	Time     string        `json:"time"`
	ID       string        `json:"id"`
	Event    string        `json:"event"`
	Command  string        `json:"command"`
	Argv     []string      `json:"argv,omitempty"`
	Cwd      string        `json:"cwd"`
	Decision gate.Verdict  `json:"decision"`
	Outcome  string        `json:"outcome"`
	Reasons  []gate.Reason `json:"reasons"`
	Risks    []gate.Risk   `json:"risks"`
	Session  string        `json:"session"`
	// Harness names the hook's host (claude, codex, gemini, cursor) when
	// a hook judged the command; empty for exec.
	Harness string `json:"harness,omitempty"`
	// ToolUseID is the host's id of the tool call, which its result
	// event carries too.
	ToolUseID string `json:"tool_use_id,omitempty"`
	// Pending is the id a person can approve the command by from another
	// terminal ("agentgate approve ID").
	Pending string `json:"pending,omitempty"`
	PID     int    `json:"pid"`
	PPID    int    `json:"ppid"`
	User    string `json:"user"`
	Host    string `json:"host"`
	Version string `json:"version"`
	// Shell is the inspected structure of the command, when known.
	Shell any `json:"shell,omitempty"`
	// Severity is a warning for a broadly destructive or irreversible
	// command (recursive delete, force-push, a download piped into a
	// shell); empty otherwise.
	Severity string `json:"severity,omitempty"`
	// ExitCode and DurationMS are set on result records.
	ExitCode   *int   `json:"exit_code,omitempty"`
	DurationMS *int64 `json:"duration_ms,omitempty"`
	// Seq numbers records from 1 across rotations; Prev is the SHA-256 of
	// the previous record's line as written. Together they make edits,
	// deletions, insertions and reordering evident (see Verify).
	Seq  int64  `json:"seq"`
	Prev string `json:"prev"`
}

// TimeFormat is RFC 3339 with milliseconds.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// MaxRecordBytes bounds one line. A command is at most 64 KiB and is
// escaped at most sixfold in JSON; a record larger than this is refused,
// which makes the command not run, rather than written in pieces.
const MaxRecordBytes = 1 << 20

// Append writes rec as one line to the log at path, rotating at
// DefaultMaxSize.
func Append(path string, rec Record) error {
	return Log{Path: path, MaxSize: DefaultMaxSize}.Append(rec)
}

// Marshal encodes v as one line of JSON without its newline, leaving "&",
// "<" and ">" as they are: the log is read by people and by jq, not
// embedded in HTML.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
