package engine

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentgate/agentgate/audit"
)

// Approval in the host's own dialog: a hook whose host shows agentgate's
// ask to the person (Claude Code) and can rewrite the tool input answers
// ask with the command rewritten into "agentgate exec --host-ticket T".
// The host runs that rewrite only after the person said yes, so the
// approved command runs through exec after all: judged again at the
// moment it runs, confined as an approved command is (agentgate's own
// files read-only), and recorded under the hook's record.
//
// T is a secret: only its hash is kept, under the state directory, with
// what the person was asked about (text, directory, session, reasons, the
// files its words reached). exec honours it once, for exactly that
// command, and only while its own judgement adds nothing to what the
// person saw. Without the secret nobody can claim the approval; with it,
// nobody can stretch it to another command. An agent that learns T and
// proposes the rewrite itself proposes "agentgate exec", which is a
// sticky ask: a person decides again.

// hostTicketTTL is how long a ticket waits for the host to run the
// rewrite: as long as the hook's kept record waits for its result event.
// A host's dialog has no time limit of its own; a person who answers
// later gets a denial with an id to approve from another terminal.
const hostTicketTTL = laterTTL

// hostTicketBytes is the secret's size: 160 bits.
const hostTicketBytes = 20

// hostTicket is what is kept of a ticket: the question the person saw.
type hostTicket struct {
	Pending
	ToolUseID string `json:"tool_use_id,omitempty"`
}

// ErrNoHostTicket is returned when exec's ticket names no live approval.
var ErrNoHostTicket = errors.New("the host's approval is unknown, used or expired")

func (e *Engine) hostTicketDir() string { return filepath.Join(e.StateDir, "hostasked") }

// hostTicketPath is where the ticket whose secret is t is kept: named by
// the secret's hash, so that reading the directory reveals no secret and
// exec opens exactly one file.
func (e *Engine) hostTicketPath(t string) string {
	sum := sha256.Sum256([]byte("agentgate host ticket\x00" + t))
	return filepath.Join(e.hostTicketDir(), hex.EncodeToString(sum[:16])+".json")
}

// validHostTicket keeps a ticket from being anything but the secret's
// spelling.
func validHostTicket(t string) bool {
	if len(t) != base32.StdEncoding.WithPadding(base32.NoPadding).EncodedLen(hostTicketBytes) {
		return false
	}
	for _, c := range t {
		if !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz234567", c) {
			return false
		}
	}
	return true
}

// HostAsk keeps x, asked in the host's own dialog, as an approval the
// rewritten exec claims with the returned secret once the person said
// yes. x's record must already be written ([Escalation.Approve] with
// asked_host) and kept for the result event ([Escalation.Later]).
func (x *Escalation) HostAsk() (ticket string, err error) {
	e, j := x.e, x.J
	var b [hostTicketBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	ticket = strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
	now := e.Now().UTC()
	t := hostTicket{Pending: Pending{Command: j.Request.Text, Cwd: j.Cwd, Session: j.Session, Harness: harnessOf(j),
		Reasons: j.Decision.Reasons(), Resolved: resolvedWords(j), Record: x.Rec.ID, Created: now,
		Expires: now.Add(hostTicketTTL), Approved: now}, ToolUseID: j.ToolUseID}
	if err := os.MkdirAll(e.hostTicketDir(), 0o700); err != nil {
		return "", err
	}
	e.pruneHostTickets()
	data, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	return ticket, os.WriteFile(e.hostTicketPath(ticket), data, 0o600)
}

// pruneHostTickets removes the tickets whose time is up.
func (e *Engine) pruneHostTickets() { e.pruneOlder(e.hostTicketDir(), hostTicketTTL) }

// hostGrant reads the ticket j presents and reports whether it approves
// exactly j: the same text, directory and session, no reason the person
// was not shown, and the same files on disk.
func (e *Engine) hostGrant(j *Judgement) (hostTicket, bool) {
	if !validHostTicket(j.HostTicket) {
		return hostTicket{}, false
	}
	data, err := os.ReadFile(e.hostTicketPath(j.HostTicket))
	if err != nil {
		return hostTicket{}, false
	}
	var t hostTicket
	if json.Unmarshal(data, &t) != nil || e.Now().After(t.Expires) {
		return hostTicket{}, false
	}
	if t.Command != j.Request.Text || t.Cwd != j.Cwd || t.Session != j.Session || !sameJudgement(t.Pending, j) {
		return hostTicket{}, false
	}
	return t, true
}

// claimHost uses up the ticket that approves j. Removing the file is the
// claim: of two runs racing, one removes it and the other finds nothing.
func (e *Engine) claimHost(j *Judgement) (hostTicket, error) {
	t, ok := e.hostGrant(j)
	if !ok {
		return t, ErrNoHostTicket
	}
	if err := os.Remove(e.hostTicketPath(j.HostTicket)); err != nil {
		return t, ErrNoHostTicket
	}
	return t, nil
}

// approveHost claims the host's approval for x and records it under the
// hook's record: a result approved_host, as the host's result event would
// have written, which the exit status follows. The kept record is taken,
// so that the host's result event records nothing twice.
func (x *Escalation) approveHost() error {
	t, err := x.e.claimHost(x.J)
	if err != nil {
		return err
	}
	if kept, ok := x.e.Resume(x.J.Config, t.Session, t.ToolUseID); ok && kept.Rec.ID == t.Record {
		x.Rec = kept.Rec
	} else {
		x.Rec.ID, x.Rec.Harness, x.Rec.ToolUseID = t.Record, t.Harness, t.ToolUseID
	}
	x.Rec.Event, x.Rec.Time = audit.EventResult, x.e.Now().UTC().Format(audit.TimeFormat)
	x.Rec.Reasons, x.Rec.Risks, x.Rec.Shell = nil, nil, nil
	x.Rec.PID, x.Rec.PPID = os.Getpid(), os.Getppid()
	return nil
}

// DropHostTicket forgets the ticket of a session's tool use the host
// reports denied: the person said no, so nothing may claim it later.
func (e *Engine) DropHostTicket(session, toolUseID string) {
	if toolUseID == "" {
		return
	}
	ents, err := os.ReadDir(e.hostTicketDir())
	if err != nil {
		return
	}
	for _, ent := range ents {
		p := filepath.Join(e.hostTicketDir(), ent.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var t hostTicket
		if json.Unmarshal(data, &t) == nil && t.Session == session && t.ToolUseID == toolUseID {
			_ = os.Remove(p)
		}
	}
}
