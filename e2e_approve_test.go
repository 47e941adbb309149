package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestCodexOutOfBandApproval: Codex cannot ask a person, so agentgate's
// hook denies touch made.txt with a short id; a person approves that id
// with agentgate approve at a terminal of their own while Codex waits, and
// the model's retry of exactly that command runs, once.
func TestCodexOutOfBandApproval(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	bin := clientBin(t, "codex")
	w := newWorld(t, hookAgentgate(t))
	w.installHook(codexHost)
	s, url := newStandIn(t, "touch made.txt", responsesAPI)
	ids := make(chan string, 1)
	approved := make(chan struct{})
	approveRe := regexp.MustCompile(`agentgate approve ([A-Za-z0-9]+)`)
	s.again = func(result string) bool {
		m := approveRe.FindStringSubmatch(result)
		if m == nil {
			return false
		}
		select {
		case ids <- m[1]:
		default:
			return false // retry once only
		}
		select {
		case <-approved:
		case <-time.After(clientTimeout):
		}
		return true
	}
	type run struct {
		session, out string
		err          error
	}
	done := make(chan run, 1)
	go func() {
		session, out, err := codexHost.run(w, bin, url)
		done <- run{session, out, err}
	}()
	var id string
	select {
	case id = <-ids:
	case r := <-done:
		t.Fatalf("codex ended before the denial named an id to approve (%v)\n%s\n%s", r.err, r.out, s.summary())
	case <-time.After(clientTimeout):
		t.Fatalf("no denial naming an id in %v\n%s", clientTimeout, s.summary())
	}
	if w.exists(filepath.Join(w.project, "made.txt")) {
		t.Fatal("touch made.txt ran before anyone approved it")
	}
	approveAtTerminal(t, w, id)
	close(approved)
	var r run
	select {
	case r = <-done:
	case <-time.After(clientTimeout):
		t.Fatalf("codex did not finish after the approval\n%s", s.summary())
	}
	if !w.exists(filepath.Join(w.project, "made.txt")) {
		t.Errorf("the approved retry did not run (%v)\n%s\n%s", r.err, r.out, s.summary())
	}
	found := false
	for _, rec := range w.audit() {
		if rec.Command == "touch made.txt" && rec.Outcome == "approved_out_of_band" {
			found = true
			if rec.Session != r.session || rec.Harness != "codex" {
				t.Errorf("approved record %s: session %q harness %q, want %q codex", rec.ID, rec.Session, rec.Harness, r.session)
			}
		}
	}
	if !found {
		t.Errorf("no approved_out_of_band record; the log holds %+v", w.audit())
	}
}

// approveAtTerminal runs agentgate approve ID under a pseudo-terminal, as
// a person in another terminal would, and answers Allow once.
func approveAtTerminal(t *testing.T, w *world, id string) {
	t.Helper()
	c := exec.Command(w.ag, "approve", id)
	c.Dir = w.project
	env := w.env()
	for i, kv := range env {
		if strings.HasPrefix(kv, "TERM=") {
			env[i] = "TERM=xterm-256color"
		}
	}
	c.Env = env
	ptmx, err := pty.StartWithSize(c, &pty.Winsize{Rows: 40, Cols: 160})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	r := &ptyRun{t: t, cmd: c, ptmx: ptmx, done: make(chan struct{})}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			if err != nil {
				close(r.done)
				return
			}
		}
	}()
	t.Cleanup(func() { c.Process.Kill(); ptmx.Close() })
	r.waitFor("touch made.txt")
	r.waitFor("Deny for this session")
	r.send("a")
	if status := r.wait(); status != 0 {
		t.Fatalf("agentgate approve %s: exit status %d\n%s", id, status, r.screen())
	}
}
