//go:build e2e

package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/agentgate/agentgate/internal/e2e/harness"
)

// TestCodexOutOfBandApproval: Codex cannot ask a person, so agentgate's
// hook denies a write with a short id; a person approves that id with
// agentgate approve at a terminal of their own while Codex waits, and the
// model's retry of exactly that command runs, once: a third try is denied
// again.
func TestCodexOutOfBandApproval(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	bin := clientBin(t, "codex")
	w := newWorld(t, hookAgentgate(t))
	w.installHook(codexHost)
	const command = "echo ran >> made.txt"
	s, url := newStandIn(t, command, responsesAPI)
	ids := make(chan string, 1)
	approved := make(chan struct{})
	var approve sync.Once
	letGo := func() { approve.Do(func() { close(approved) }) }
	t.Cleanup(letGo) // a failed test lets the stand-in answer and Codex end
	approveRe := regexp.MustCompile(`agentgate approve ([A-Za-z0-9]+)`)
	tries := 0
	s.again = func(result string) bool {
		tries++
		switch tries {
		case 1: // denied with an id: wait for the person, then retry
			m := approveRe.FindStringSubmatch(result)
			if m == nil {
				return false
			}
			ids <- m[1]
			select {
			case <-approved:
			case <-time.After(clientTimeout):
			}
			return true
		case 2: // the approved retry ran: try once more
			return true
		}
		return false
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
	made := filepath.Join(w.project, "made.txt")
	if w.exists(made) {
		t.Fatal("the write ran before anyone approved it")
	}
	approveAtTerminal(t, w, id)
	letGo()
	var r run
	select {
	case r = <-done:
	case <-time.After(clientTimeout):
		t.Fatalf("codex did not finish after the approval\n%s", s.summary())
	}
	b, _ := os.ReadFile(made)
	if runs := strings.Count(string(b), "ran"); runs != 1 {
		t.Errorf("the approved command ran %d times, want once (%v)\n%s\n%s", runs, r.err, r.out, s.summary())
	}
	if res := s.toolResults(); len(res) != 3 || !strings.Contains(res[2], "agentgate") {
		t.Errorf("the third try was not denied by agentgate: tool results:\n%s", strings.Join(res, "\n---\n"))
	}
	found := false
	for _, rec := range w.audit() {
		if rec.Command == command && rec.Outcome == "approved_out_of_band" {
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
// a person in another terminal would, and answers Allow once (Deny is
// preset; allowing takes the whole word and Enter).
func approveAtTerminal(t *testing.T, w *world, id string) {
	t.Helper()
	c := exec.Command(w.ag, "approve", id)
	c.Dir, c.Env = w.project, withTerm(w.env())
	r := startPty(t, c)
	r.WaitFor("run this command?")
	r.WaitFor("made.txt")
	r.WaitFor("Allow once")
	r.Send("allow\r") // allowing takes the whole word and Enter
	if status := r.Wait(); status != 0 {
		t.Fatalf("agentgate approve %s: exit status %d\n%s", id, status, r.Screen())
	}
}

// withTerm gives a pseudo-terminal's program a terminal type that draws.
func withTerm(env []string) []string {
	env = append([]string(nil), env...)
	for i, kv := range env {
		if strings.HasPrefix(kv, "TERM=") {
			env[i] = "TERM=xterm-256color"
		}
	}
	return env
}

// startPty starts c with a pseudo-terminal as its controlling terminal
// and collects what it draws.
func startPty(t *testing.T, c *exec.Cmd) *ptyRun {
	t.Helper()
	ptmx, err := pty.StartWithSize(c, &pty.Winsize{Rows: 50, Cols: 160})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	r := &ptyRun{harness.Read(t, c, ptmx, clientTimeout)}
	return r
}
