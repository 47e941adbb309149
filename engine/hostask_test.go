package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
)

// hostAsked is j asked in the host's dialog, as the hook keeps it: the
// asked_host record written and kept for the result event, and a ticket.
func hostAsked(t *testing.T, e *Engine, j *Judgement) (ticket, record string) {
	t.Helper()
	x := e.Escalate(j)
	if err := x.Approve(audit.OutcomeAskedHost); err != nil {
		t.Fatal(err)
	}
	if err := x.Later(); err != nil {
		t.Fatal(err)
	}
	ticket, err := x.HostAsk()
	if err != nil {
		t.Fatal(err)
	}
	return ticket, x.Rec.ID
}

func withTicket(j *Judgement, ticket string) *Judgement {
	j.HostTicket = ticket
	return j
}

// A ticket runs exactly the command the person was asked about, once, in
// its directory and session, and is recorded under the hook's record.
func TestHostTicketLifecycle(t *testing.T) {
	e, now, cfg := pendingEngine(t)
	ask := func() *Judgement {
		j := judgement(cfg, "touch made.txt", "/p", "s1")
		j.ToolUseID = "toolu_1"
		return j
	}
	ticket, record := hostAsked(t, e, ask())
	if !validHostTicket(ticket) {
		t.Fatalf("ticket %q is not of the ticket's form", ticket)
	}
	// Only the hash names the file: the state directory holds no secret.
	ents, _ := os.ReadDir(filepath.Join(e.StateDir, "hostasked"))
	for _, ent := range ents {
		data, _ := os.ReadFile(filepath.Join(e.StateDir, "hostasked", ent.Name()))
		if strings.Contains(ent.Name()+string(data), ticket) {
			t.Errorf("the ticket is kept in the clear in %s", ent.Name())
		}
	}
	// Without it, or with another, nothing runs.
	for _, j := range []*Judgement{ask(), withTicket(ask(), strings.Repeat("a", len(ticket))), withTicket(ask(), ticket+"a"),
		withTicket(ask(), "../../pending/x"), withTicket(judgement(cfg, "touch other.txt", "/p", "s1"), ticket),
		withTicket(judgement(cfg, "touch made.txt", "/q", "s1"), ticket), withTicket(judgement(cfg, "touch made.txt", "/p", "s2"), ticket)} {
		if r := e.Route(j); r.Action == Run {
			t.Errorf("ran %q in %s, session %s, ticket %q: %+v", j.Request.Text, j.Cwd, j.Session, j.HostTicket, r)
		}
	}
	// Not in the modes that run nothing that asks.
	for _, mode := range []config.Mode{config.ModeCI, config.ModeReadonly} {
		strict := *cfg
		strict.Mode = mode
		j := withTicket(judgement(&strict, "touch made.txt", "/p", "s1"), ticket)
		if r := e.Route(j); r.Action == Run {
			t.Errorf("mode %s ran a host-approved command: %+v", mode, r)
		}
	}
	j := withTicket(ask(), ticket)
	r := e.Route(j)
	if r.Action != Run || r.Outcome != audit.OutcomeApprovedHost {
		t.Fatalf("the approved command: %+v", r)
	}
	x := e.Escalate(j)
	if err := x.Approve(r.Outcome); err != nil {
		t.Fatal(err)
	}
	if x.Rec.ID != record || x.Rec.Event != audit.EventResult || x.Rec.Harness != "codex" || x.Rec.ToolUseID != "toolu_1" {
		t.Errorf("the run is not recorded under the hook's record %s: %+v", record, x.Rec)
	}
	// The kept record is taken: the host's result event writes nothing.
	if _, ok := e.Resume(cfg, "s1", "toolu_1"); ok {
		t.Errorf("the hook's record is still kept for the result event")
	}
	// Used up.
	if err := e.Escalate(withTicket(ask(), ticket)).Approve(audit.OutcomeApprovedHost); err == nil {
		t.Errorf("a ticket was used twice")
	}
	if r := e.Route(withTicket(ask(), ticket)); r.Action == Run {
		t.Errorf("a used ticket ran: %+v", r)
	}
	// A ticket lapses with the kept record.
	ticket, _ = hostAsked(t, e, ask())
	*now = now.Add(hostTicketTTL + time.Second)
	if r := e.Route(withTicket(ask(), ticket)); r.Action == Run {
		t.Errorf("a lapsed ticket ran: %+v", r)
	}
}

// The person said no in the host's dialog: the ticket is gone.
func TestHostTicketDropped(t *testing.T) {
	e, _, cfg := pendingEngine(t)
	j := judgement(cfg, "touch made.txt", "/p", "s1")
	j.ToolUseID = "toolu_2"
	ticket, _ := hostAsked(t, e, j)
	e.DropHostTicket("s1", "toolu_1")
	if r := e.Route(withTicket(judgement(cfg, "touch made.txt", "/p", "s1"), ticket)); r.Action != Run {
		t.Fatalf("another tool use's denial dropped the ticket: %+v", r)
	}
	e.DropHostTicket("s1", "toolu_2")
	if r := e.Route(withTicket(judgement(cfg, "touch made.txt", "/p", "s1"), ticket)); r.Action == Run {
		t.Errorf("a ticket the person denied ran: %+v", r)
	}
}

// The ticket is bound to what the person saw: a file swapped for a link
// to a key between the question and the run makes the run a new request.
func TestHostTicketBoundToWhatWasSeen(t *testing.T) {
	e, _, cfg := pendingEngine(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes"), 0o644)
	os.WriteFile(filepath.Join(dir, "key"), []byte("SECRET"), 0o600)
	text := "cat notes.txt > copy.txt"
	ticket, _ := hostAsked(t, e, judgement(cfg, text, dir, "s1"))
	os.Remove(filepath.Join(dir, "notes.txt"))
	os.Symlink(filepath.Join(dir, "key"), filepath.Join(dir, "notes.txt"))
	if r := e.Route(withTicket(judgement(cfg, text, dir, "s1"), ticket)); r.Action == Run {
		t.Errorf("the ticket ran a command whose file was swapped for a link: %+v", r)
	}
}

// An unarmed ticket (Codex's) approves nothing until the host reports it
// is asking a person about the rewrite; only its own session can arm it.
func TestHostTicketUnarmed(t *testing.T) {
	e, _, cfg := pendingEngine(t)
	ask := func() *Judgement { return judgement(cfg, "touch made.txt", "/p", "s1") }
	x := e.Escalate(ask())
	if err := x.Approve(audit.OutcomeAskedHost); err != nil {
		t.Fatal(err)
	}
	ticket, err := x.HostAskUnarmed("")
	if err != nil {
		t.Fatal(err)
	}
	if r := e.Route(withTicket(ask(), ticket)); r.Action == Run {
		t.Fatalf("an unarmed ticket ran: %+v", r)
	}
	if err := e.Escalate(withTicket(ask(), ticket)).Approve(audit.OutcomeApprovedHost); err == nil {
		t.Fatalf("an unarmed ticket was claimed")
	}
	for _, bad := range []struct{ ticket, session string }{{ticket, "s2"}, {strings.Repeat("a", len(ticket)), "s1"}, {"../x", "s1"}} {
		if err := e.ArmHostTicket(bad.ticket, bad.session); err == nil {
			t.Errorf("armed ticket %q of session %s", bad.ticket, bad.session)
		}
	}
	if r := e.Route(withTicket(ask(), ticket)); r.Action == Run {
		t.Fatalf("a ticket armed by another session ran: %+v", r)
	}
	if err := e.ArmHostTicket(ticket, "s1"); err != nil {
		t.Fatal(err)
	}
	if r := e.Route(withTicket(ask(), ticket)); r.Action != Run || r.Outcome != audit.OutcomeApprovedHost {
		t.Fatalf("the armed ticket: %+v", r)
	}
	if err := e.Escalate(withTicket(ask(), ticket)).Approve(audit.OutcomeApprovedHost); err != nil {
		t.Fatal(err)
	}
	if err := e.ArmHostTicket(ticket, "s1"); err == nil {
		t.Errorf("a used ticket was armed again")
	}
	// A ticket dropped before it is armed is gone.
	ticket, _ = hostAsked(t, e, ask())
	e.DropHostTicketBySecret(ticket)
	if r := e.Route(withTicket(ask(), ticket)); r.Action == Run {
		t.Errorf("a dropped ticket ran: %+v", r)
	}
}
