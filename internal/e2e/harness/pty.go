package harness

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
)

// Pty is a program running under a pseudo-terminal, with what it draws
// collected as it draws it.
type Pty struct {
	t    testing.TB
	cmd  *exec.Cmd
	ptmx *os.File
	// timeout bounds each wait: it only ends a failing test.
	timeout time.Duration
	mu      sync.Mutex
	out     bytes.Buffer
	done    chan struct{}
}

// Read collects what the started cmd draws on ptmx, its terminal's
// master side, and ends both when the test ends.
func Read(t testing.TB, cmd *exec.Cmd, ptmx *os.File, timeout time.Duration) *Pty {
	r := &Pty{t: t, cmd: cmd, ptmx: ptmx, timeout: timeout, done: make(chan struct{})}
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
	t.Cleanup(func() { cmd.Process.Kill(); ptmx.Close() })
	return r
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]`)

// Signal sends sig to the program.
func (r *Pty) Signal(sig os.Signal) error { return r.cmd.Process.Signal(sig) }

// Screen is everything drawn so far, escape sequences removed.
func (r *Pty) Screen() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return ansi.ReplaceAllString(r.out.String(), "")
}

// WaitFor waits until text is on the screen.
func (r *Pty) WaitFor(text string) {
	r.t.Helper()
	deadline := time.Now().Add(r.timeout)
	for time.Now().Before(deadline) {
		if strings.Contains(r.Screen(), text) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.t.Fatalf("waited %s for %q; the screen shows:\n%s", r.timeout, text, r.Screen())
}

// Send types keys, once the program has had the time to take the
// terminal into raw mode.
func (r *Pty) Send(keys string) {
	r.t.Helper()
	time.Sleep(150 * time.Millisecond)
	if _, err := r.ptmx.Write([]byte(keys)); err != nil {
		r.t.Fatal(err)
	}
}

// Wait returns the program's exit status, once it has ended and what it
// drew has been read.
func (r *Pty) Wait() int {
	r.t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- r.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(r.timeout):
		r.cmd.Process.Signal(syscall.SIGQUIT) // a goroutine dump, for the failure message
		time.Sleep(500 * time.Millisecond)
		r.t.Fatalf("the program did not exit; the screen shows:\n%s", r.Screen())
	}
	// The pty ends with EIO once its buffer is empty.
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
	}
	return r.cmd.ProcessState.ExitCode()
}
