//go:build e2e

package clients

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentgate/agentgate/internal/e2e/harness"
)

// agentgateBinary is agentgate built from this tree (harness.Binary).
func agentgateBinary(t *testing.T) string { return harness.Binary(t) }

// ptyRun is a real client running under a pseudo-terminal (startPty).
type ptyRun struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]`)

// screen is everything drawn so far, escape sequences removed.
func (r *ptyRun) screen() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return ansi.ReplaceAllString(r.out.String(), "")
}

func (r *ptyRun) waitFor(text string) {
	r.t.Helper()
	deadline := time.Now().Add(clientTimeout)
	for time.Now().Before(deadline) {
		if strings.Contains(r.screen(), text) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.t.Fatalf("waited %s for %q; the screen shows:\n%s", clientTimeout, text, r.screen())
}

func (r *ptyRun) send(keys string) {
	r.t.Helper()
	time.Sleep(150 * time.Millisecond) // let the program take the terminal into raw mode
	if _, err := r.ptmx.Write([]byte(keys)); err != nil {
		r.t.Fatal(err)
	}
}

// wait returns the program's exit status.
func (r *ptyRun) wait() int {
	r.t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- r.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(clientTimeout):
		r.cmd.Process.Signal(syscall.SIGQUIT)
		time.Sleep(500 * time.Millisecond)
		r.t.Fatalf("the program did not exit; the screen shows:\n%s", r.screen())
	}
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
	}
	return r.cmd.ProcessState.ExitCode()
}
