package runner_test

import (
	"github.com/agentgate/agentgate/internal/testenv"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/agentgate/agentgate/runner"
)

// With RUNNER_HELPER set the test binary acts as agentgate waiting for a
// command: it runs the command with runner.Run and exits with its status.
func TestMain(m *testing.M) {
	if os.Getenv("RUNNER_HELPER") != "" {
		p, err := runner.Resolve(os.Args[1:], os.Environ())
		if err != nil {
			os.Exit(125)
		}
		code, err := runner.Run(p)
		if err != nil {
			os.Exit(125)
		}
		os.Exit(code)
	}
	testenv.NoRaceExitSleep()
	os.Exit(m.Run())
}

func TestRunStatus(t *testing.T) {
	tests := []struct {
		argv []string
		want int
	}{
		{[]string{"true"}, 0},
		{[]string{"false"}, 1},
		{[]string{"sh", "-c", "exit 42"}, 42},
		{[]string{"sh", "-c", "kill -TERM $$"}, 128 + 15},
		{[]string{"sh", "-c", "kill -KILL $$"}, 128 + 9},
	}
	for _, tt := range tests {
		p, err := runner.Resolve(tt.argv, os.Environ())
		if err != nil {
			t.Fatal(err)
		}
		got, err := runner.Run(p)
		if err != nil || got != tt.want {
			t.Errorf("Run(%q) = %d, %v; want %d", tt.argv, got, err, tt.want)
		}
	}
}

func TestNotFound(t *testing.T) {
	_, err := runner.Resolve([]string{"no-such-program-here"}, nil)
	nf, ok := err.(*runner.NotFoundError)
	if !ok || nf.ExitStatus() != 127 {
		t.Fatalf("Resolve(missing) = %v; want a NotFoundError with status 127", err)
	}
}

// Each forwarded signal sent to agentgate reaches the command, which the
// signal kills, so agentgate exits 128+N.
func TestSignalsAreForwarded(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			// The command resets the signal to its default action (a
			// non-interactive sh would ignore SIGINT and SIGQUIT in the
			// background otherwise) and then waits.
			script := "trap - " + strconv.Itoa(int(sig)) + "; echo ready; exec sleep 30"
			c := exec.Command(os.Args[0], "sh", "-c", script)
			c.Env = append(os.Environ(), "RUNNER_HELPER=1")
			out, err := c.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 6)
			if _, err := out.Read(buf); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
			c.Process.Signal(sig)
			c.Wait()
			if got, want := c.ProcessState.ExitCode(), 128+int(sig); got != want {
				t.Errorf("after %v the wrapper exited %d; want %d", sig, got, want)
			}
		})
	}
}
