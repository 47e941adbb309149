// Package runner starts the command the gate let through, with stdin,
// stdout and stderr passed as they are (the same file descriptors, no
// copying, no buffering), and turns its end into an exit status the way a
// shell does: the command's own status, or 128+N when signal N killed it.
package runner

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/agentgate/agentgate/sandbox"
)

// Forwarded are the signals agentgate passes on to a command it waits for.
var Forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// Plan is a resolved command: the program to execute, its argv, its
// environment, and the confinement it runs under (nil: none).
type Plan struct {
	Path    string
	Argv    []string
	Env     []string
	Sandbox *sandbox.Spec
}

// NotFoundError is a program that cannot be found or executed. Its exit
// status follows the shell: 127 when not found, 126 when not executable.
type NotFoundError struct {
	Name string
	Err  error
}

func (e *NotFoundError) Error() string { return fmt.Sprintf("%s: %v", e.Name, e.Err) }

// ExitStatus is 127 for a missing program and 126 otherwise.
func (e *NotFoundError) ExitStatus() int {
	if errors.Is(e.Err, exec.ErrNotFound) || errors.Is(e.Err, os.ErrNotExist) {
		return 127
	}
	return 126
}

// Resolve finds argv[0] on PATH (or as a path) and returns the plan.
func Resolve(argv []string, env []string) (Plan, error) {
	if len(argv) == 0 {
		return Plan{}, errors.New("empty command")
	}
	p, err := exec.LookPath(argv[0])
	if err != nil && !errors.Is(err, exec.ErrDot) {
		return Plan{}, &NotFoundError{Name: argv[0], Err: err}
	}
	if errors.Is(err, exec.ErrDot) {
		// bash runs ./prog only when written with a slash; LookPath's
		// ErrDot means PATH held "." or "". Follow bash: it would run it.
		err = nil
	}
	return Plan{Path: p, Argv: argv, Env: env}, err
}

// Exec replaces agentgate with the command. It returns only on failure.
// Signals and the exit status then belong to the command alone, which is
// why it is used when nothing remains to be done after the command.
func Exec(p Plan) error {
	var err error
	if p.Sandbox != nil {
		err = sandbox.Exec(*p.Sandbox, p.Path, p.Argv, p.Env)
	} else {
		err = syscall.Exec(p.Path, p.Argv, p.Env)
	}
	return &NotFoundError{Name: p.Argv[0], Err: err}
}

// Run starts the command, forwards SIGINT, SIGTERM, SIGHUP and SIGQUIT to
// it, waits, and returns its exit status (128+N when killed by signal N).
//
// A confined command starts through agentgate's sandbox helper, and its
// scratch directory is removed when it ends.
func Run(p Plan) (int, error) {
	c := &exec.Cmd{Path: p.Path, Args: p.Argv, Env: p.Env}
	if p.Sandbox != nil {
		self, err := os.Executable()
		if err != nil {
			return 0, &NotFoundError{Name: p.Argv[0], Err: err}
		}
		c = sandbox.Command(self, *p.Sandbox, p.Path, p.Argv, p.Env)
		if p.Sandbox.TmpDir != "" {
			defer os.RemoveAll(p.Sandbox.TmpDir)
		}
	}
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, Forwarded...)
	defer signal.Stop(sigs)
	if err := c.Start(); err != nil {
		return 0, &NotFoundError{Name: p.Argv[0], Err: err}
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = c.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err := c.Wait()
	close(done)
	if c.ProcessState == nil {
		return 0, err
	}
	return Status(c.ProcessState), nil
}

// Status maps a finished process to a shell exit status.
func Status(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
