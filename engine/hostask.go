package engine

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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
//
// Codex asks a person about a hook's rewrite only because one of its own
// rules (which install writes) matches it; it has no ask of its own. Its
// ticket is unarmed: it approves nothing until Codex's PermissionRequest
// event, which Codex sends once it has decided to ask about exactly that
// rewrite, arms it. A rewrite Codex runs without asking (its rule not
// loaded, or not matching what it runs) claims nothing.

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
	// Unarmed keeps the ticket from approving anything until the host
	// reports that it is asking a person about the rewrite
	// ([Engine.ArmHostTicket]). It is for a host that asks only because
	// one of its own rules matches the rewrite (Codex): should the rule
	// not hold for some run, the host runs the rewrite without asking,
	// and then the ticket approves nothing.
	Unarmed bool `json:"unarmed,omitempty"`
	// Why is the reason class the host showed the person with the
	// rewrite (Codex's rule justification, chosen by the rewrite's
	// --host-why): the ticket approves the rewrite that names it, and no
	// other.
	Why string `json:"why,omitempty"`
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
func (x *Escalation) HostAsk() (ticket string, err error) { return x.hostAsk(false, "") }

// HostAskUnarmed is [Escalation.HostAsk] for a ticket that approves
// nothing until [Engine.ArmHostTicket] arms it: when the host reports
// that it is asking a person about the rewrite. why is the reason class
// the rewrite names for the host to show; exec's must be the same.
func (x *Escalation) HostAskUnarmed(why string) (ticket string, err error) {
	return x.hostAsk(true, why)
}

func (x *Escalation) hostAsk(unarmed bool, why string) (ticket string, err error) {
	e, j := x.e, x.J
	var b [hostTicketBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	ticket = strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
	now := e.Now().UTC()
	t := hostTicket{Pending: Pending{Command: j.Request.Text, Cwd: j.Cwd, Session: j.Session, Harness: harnessOf(j),
		Reasons: j.Decision.Reasons(), Resolved: resolvedWords(j), Record: x.Rec.ID, Created: now,
		Expires: now.Add(hostTicketTTL), Approved: now}, ToolUseID: j.ToolUseID, Unarmed: unarmed, Why: why}
	if err := os.MkdirAll(e.hostTicketDir(), 0o700); err != nil {
		return "", err
	}
	e.pruneHostTickets()
	return ticket, e.writeHostTicket(ticket, t)
}

// writeHostTicket replaces the ticket's file at once, so that exec never
// reads half of it.
func (e *Engine) writeHostTicket(ticket string, t hostTicket) error {
	data, err := json.Marshal(t)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(e.hostTicketDir(), ".ticket-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), e.hostTicketPath(ticket))
}

// ArmHostTicket arms the unarmed ticket of session: the host reports
// that it is asking a person about the rewrite that carries it. An
// unknown, expired or other session's ticket is an error.
func (e *Engine) ArmHostTicket(ticket, session string) error {
	t, ok := e.readHostTicket(ticket)
	if !ok || t.Session != session {
		return ErrNoHostTicket
	}
	if !t.Unarmed {
		return nil
	}
	t.Unarmed = false
	return e.writeHostTicket(ticket, t)
}

// HostTicketCall is the tool call of session's live ticket whose secret
// is ticket: the host's tool-use id, and the command the person is asked
// about (before the rewrite). ok is false for an unknown, expired or
// other session's ticket.
func (e *Engine) HostTicketCall(ticket, session string) (toolUseID, command string, ok bool) {
	t, ok := e.readHostTicket(ticket)
	if !ok || t.Session != session {
		return "", "", false
	}
	return t.ToolUseID, t.Command, true
}

// HostTicketLive reports whether the ticket whose secret is ticket is
// still there to claim: no exec has used it up.
func (e *Engine) HostTicketLive(ticket string) bool {
	_, ok := e.readHostTicket(ticket)
	return ok
}

// readHostTicket reads the live ticket whose secret is ticket.
func (e *Engine) readHostTicket(ticket string) (hostTicket, bool) {
	if !validHostTicket(ticket) {
		return hostTicket{}, false
	}
	data, err := os.ReadFile(e.hostTicketPath(ticket))
	if err != nil {
		return hostTicket{}, false
	}
	var t hostTicket
	if json.Unmarshal(data, &t) != nil || e.Now().After(t.Expires) {
		return hostTicket{}, false
	}
	return t, true
}

// DropHostTicketBySecret forgets the ticket whose secret is ticket: the
// host will not ask a person about it after all.
func (e *Engine) DropHostTicketBySecret(ticket string) {
	if validHostTicket(ticket) {
		_ = os.Remove(e.hostTicketPath(ticket))
	}
}

// pruneHostTickets removes the tickets whose time is up.
func (e *Engine) pruneHostTickets() { e.pruneOlder(e.hostTicketDir(), hostTicketTTL) }

// hostGrant reads the ticket j presents and reports whether it approves
// exactly j: an armed ticket, for the same text, directory and session,
// shown with the same reason class, no reason the person was not shown,
// and the same files on disk.
func (e *Engine) hostGrant(j *Judgement) (hostTicket, bool) {
	t, ok := e.readHostTicket(j.HostTicket)
	if !ok || t.Unarmed {
		return hostTicket{}, false
	}
	if t.Command != j.Request.Text || t.Cwd != j.Cwd || t.Session != j.Session || t.Why != j.HostWhy || !sameJudgement(t.Pending, j) {
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
		if errors.Is(err, fs.ErrNotExist) {
			return t, ErrNoHostTicket
		}
		// Inside a host's sandbox (Codex's workspace-write), agentgate's
		// state is read-only: a ticket that cannot be used up approves
		// nothing.
		return t, fmt.Errorf("%w: it cannot be used up here, where agentgate's state is read-only (inside the host's sandbox?): %v", ErrNoHostTicket, err)
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
