package engine

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
)

func pendingEngine(t *testing.T) (*Engine, *time.Time, *config.Config) {
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	cfg := &config.Config{SessionTTL: time.Hour, BreakerWindow: time.Hour, BreakerThreshold: 3, Mode: config.ModeDefault}
	e := &Engine{Now: func() time.Time { return now }, StateDir: dir, AuditLog: filepath.Join(dir, "audit.jsonl")}
	return e, &now, cfg
}

func judgement(cfg *config.Config, text, cwd, sess string) *Judgement {
	return &Judgement{Request: gate.Request{Text: text}, Config: cfg, Cwd: cwd, Session: sess, Harness: "codex",
		Decision: gate.Decide(gate.Request{Text: text})}
}

// A refused command is held; a person's approval lets exactly its retry
// run once, within GrantTTL; an unapproved request expires.
func TestPendingLifecycle(t *testing.T) {
	e, now, cfg := pendingEngine(t)
	j := judgement(cfg, "touch made.txt", "/p", "s1")
	if r := e.Route(j); r.Action != Prompt {
		t.Fatalf("route %v", r)
	}
	dn := e.Escalate(j).Refuse(NoOneToAsk("test"))
	if dn.Pending == "" || !validPendingID(dn.Pending) {
		t.Fatalf("no pending id: %+v", dn)
	}
	if e.Route(j).Action != Prompt {
		t.Fatalf("a request that nobody approved ran")
	}
	if _, err := e.ApprovePending(dn.Pending); err != nil {
		t.Fatal(err)
	}
	for _, other := range []*Judgement{judgement(cfg, "touch made.txt", "/q", "s1"), judgement(cfg, "touch made.txt", "/p", "s2"),
		judgement(cfg, "touch made.txt ", "/p", "s1")} {
		if r := e.Route(other); r.Action != Prompt {
			t.Errorf("the approval ran %q in %s, session %s", other.Request.Text, other.Cwd, other.Session)
		}
	}
	r := e.Route(j)
	if r.Action != Run || r.Outcome != audit.OutcomeApprovedOutOfBand {
		t.Fatalf("approved retry: %+v", r)
	}
	x := e.Escalate(j)
	if err := x.Approve(r.Outcome); err != nil || x.Rec.Pending != dn.Pending {
		t.Fatalf("approve: %v %+v", err, x.Rec)
	}
	if err := e.Escalate(j).Approve(r.Outcome); err == nil {
		t.Errorf("the approval was used twice")
	}
	// An approval not used within GrantTTL lapses.
	dn = e.Escalate(j).Refuse(NoOneToAsk("test"))
	if _, err := e.ApprovePending(dn.Pending); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(GrantTTL + time.Second)
	if r := e.Route(j); r.Action != Prompt {
		t.Errorf("a lapsed approval ran: %+v", r)
	}
	// A request nobody answers expires: with the prompt timeout, as a
	// question at agentgate's own prompt would, else after PendingTTL.
	dn = e.Escalate(j).Refuse(NoOneToAsk("test"))
	*now = now.Add(PendingTTL + time.Second)
	if _, err := e.PendingGet(dn.Pending); err == nil {
		t.Errorf("an expired request can still be approved")
	}
	cfg.PromptTimeout = 2 * time.Minute
	dn = e.Escalate(j).Refuse(NoOneToAsk("test"))
	*now = now.Add(time.Minute)
	if _, err := e.PendingGet(dn.Pending); err != nil {
		t.Errorf("a request within the prompt timeout cannot be approved: %v", err)
	}
	*now = now.Add(time.Minute + time.Second)
	if _, err := e.PendingGet(dn.Pending); err == nil {
		t.Errorf("a request past the prompt timeout can still be approved")
	}
	if list, _ := e.PendingList(); len(list) != 0 {
		t.Errorf("expired requests are still listed: %v", list)
	}
}

// Requests are capped per session; ids never name files elsewhere.
func TestPendingCapAndIDs(t *testing.T) {
	e, _, cfg := pendingEngine(t)
	for i := range MaxPending + 5 {
		e.Escalate(judgement(cfg, "touch "+string(rune('a'+i)), "/p", "s1")).Refuse(NoOneToAsk("test"))
	}
	list, _ := e.PendingList()
	if len(list) != MaxPending {
		t.Errorf("%d pending for one session, want %d", len(list), MaxPending)
	}
	for _, id := range []string{"../../x", "abc", "ABCDEF", "abcde/", "ilo01x"} {
		if _, err := e.PendingGet(id); err == nil {
			t.Errorf("id %q accepted", id)
		}
	}
	if err := os.WriteFile(filepath.Join(e.StateDir, "pending", "zzzzzz.json"), []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := e.PendingList(); err != nil {
		t.Errorf("a broken request file: %v", err)
	}
}

// Denied from another terminal: the session remembers it.
func TestDenyPending(t *testing.T) {
	e, _, cfg := pendingEngine(t)
	j := judgement(cfg, "touch made.txt", "/p", "s1")
	dn := e.Escalate(j).Refuse(NoOneToAsk("test"))
	if _, err := e.DenyPending(cfg, dn.Pending); err != nil {
		t.Fatal(err)
	}
	if r := e.Route(j); r.Action != Refuse || r.Outcome != audit.OutcomeDeniedBySession {
		t.Errorf("after deny: %+v", r)
	}
}

// An approval is bound to what the person saw: a file swapped for a
// symlink before the retry makes the retry a new request, even when the
// swap adds no reason of its own.
func TestGrantBoundToWhatWasSeen(t *testing.T) {
	e, _, cfg := pendingEngine(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes"), 0o644)
	os.WriteFile(filepath.Join(dir, "key"), []byte("SECRET"), 0o600)
	j := judgement(cfg, "touch notes.txt", dir, "s1")
	dn := e.Escalate(j).Refuse(NoOneToAsk("test"))
	if _, err := e.ApprovePending(dn.Pending); err != nil {
		t.Fatal(err)
	}
	// Unchanged: the approval holds.
	if r := e.Route(judgement(cfg, "touch notes.txt", dir, "s1")); r.Outcome != audit.OutcomeApprovedOutOfBand {
		t.Fatalf("unchanged retry: %+v", r)
	}
	// Swapped for a link: a new request.
	os.Remove(filepath.Join(dir, "notes.txt"))
	os.Symlink(filepath.Join(dir, "key"), filepath.Join(dir, "notes.txt"))
	if r := e.Route(judgement(cfg, "touch notes.txt", dir, "s1")); r.Action == Run {
		t.Errorf("the approval ran a retry whose file was swapped for a link: %+v", r)
	}
	// A text the gate stopped reading at its first reason to ask (the
	// redirect) still binds every file it names: the note it copies.
	os.Remove(filepath.Join(dir, "notes.txt"))
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes"), 0o644)
	copyText := "cat notes.txt > copy.txt"
	dn = e.Escalate(judgement(cfg, copyText, dir, "s1")).Refuse(NoOneToAsk("test"))
	if _, err := e.ApprovePending(dn.Pending); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "notes.txt"))
	os.Symlink(filepath.Join(dir, "key"), filepath.Join(dir, "notes.txt"))
	if r := e.Route(judgement(cfg, copyText, dir, "s1")); r.Action == Run {
		t.Errorf("the approval ran a redirected retry whose file was swapped for a link: %+v", r)
	}
	// A retry with a reason the held request did not have is new too.
	j2 := judgement(cfg, "touch other.txt", dir, "s1")
	dn = e.Escalate(j2).Refuse(NoOneToAsk("test"))
	if _, err := e.ApprovePending(dn.Pending); err != nil {
		t.Fatal(err)
	}
	j3 := judgement(cfg, "touch other.txt", dir, "s1")
	j3.Decision = gate.Escalate(gate.Decide(gate.Request{Text: "ls"}), gate.Reason{Check: gate.CheckSensitive, Match: "other.txt", Message: "other.txt reaches a key"})
	if r := e.Route(j3); r.Action == Run {
		t.Errorf("the approval ran a retry with a new reason: %+v", r)
	}
}
