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
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/sandbox"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// Forwarded are the signals agentgate passes on to a command it waits for.
var Forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// Plan is a resolved command: the program to execute, its argv, its
// environment, and the confinement it runs under (nil: none).
type Plan struct {
	Path    string
	Argv    []string
	Env     []string
	Sandbox *sandbox.Spec
	// Limit, when set, is how long Run lets the command run: then its
	// process group is ended (see [LimitError]).
	Limit time.Duration
}

// LimitError is a command Run ended at its Limit.
type LimitError struct{ After time.Duration }

func (e *LimitError) Error() string {
	return fmt.Sprintf("stopped after %s, its time limit (command_timeout)", e.After)
}

// limitGrace is how long a command has between SIGTERM and SIGKILL.
const limitGrace = 2 * time.Second

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
// A confined command is forked from a thread of agentgate confined for
// it, which then ends ([sandbox.StartConfined]: no second agentgate
// process starts); a workspace or guarded one, which needs namespaces of
// its own, starts through agentgate's sandbox helper, a fresh agentgate
// process that confines itself and executes the command. Its scratch
// directory is removed when it ends. With a Limit, the command runs in a
// process group of its own when its standard input is not a terminal
// (nobody is there to stop it; a terminal's job control needs the group
// it has), agentgate becomes the reaper of whatever it leaves behind,
// and at the limit that group and every process under agentgate get
// SIGTERM and then SIGKILL; Run then returns a [LimitError].
func Run(p Plan) (int, error) {
	c := &exec.Cmd{Path: p.Path, Args: p.Argv, Env: p.Env}
	start := c.Start
	if p.Sandbox != nil && sandbox.Forkable(*p.Sandbox) {
		spec := *p.Sandbox
		start = func() error { return sandbox.StartConfined(c, spec) }
		if spec.TmpDir != "" {
			defer os.RemoveAll(spec.TmpDir)
		}
	} else if p.Sandbox != nil {
		self, err := os.Executable()
		if err != nil {
			return 0, &NotFoundError{Name: p.Argv[0], Err: err}
		}
		c = sandbox.Command(self, *p.Sandbox, p.Path, p.Argv, p.Env)
		start = c.Start
		if p.Sandbox.TmpDir != "" {
			defer os.RemoveAll(p.Sandbox.TmpDir)
		}
	}
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	ownGroup := p.Limit > 0 && !isTerminal(os.Stdin)
	if ownGroup {
		if c.SysProcAttr == nil {
			c.SysProcAttr = &syscall.SysProcAttr{}
		}
		c.SysProcAttr.Setpgid = true
	}
	workspace := p.Sandbox != nil && p.Sandbox.Level == sandbox.Workspace
	if p.Limit > 0 || workspace {
		// A grandchild that leaves the group (setsid, setpgid) is
		// reparented here when its parent ends, so the limit finds it.
		becomeSubreaper()
	}
	var before *sandbox.Snapshot
	if workspace {
		before = sandbox.Take(p.Sandbox.Watch)
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, Forwarded...)
	defer signal.Stop(sigs)
	if err := start(); err != nil {
		if p.Sandbox != nil && p.Sandbox.Guarding() && sandbox.Refused(err) {
			// The kernel's policy refused the namespaces (unprivileged
			// user namespaces turned off, as Ubuntu 24.04's AppArmor
			// does): the command the person approved runs, without the
			// guard. A quota used up (ENOSPC: a red team's background
			// processes held user namespaces) is no reason: it fails.
			fmt.Fprintf(os.Stderr, "agentgate: note: agentgate's own files are not kept read-only for this command: %v\n", err)
			signal.Stop(sigs)
			q := p
			q.Sandbox = nil
			return Run(q)
		}
		return 0, &NotFoundError{Name: p.Argv[0], Err: err}
	}
	done := make(chan struct{})
	var limit <-chan time.Time
	if p.Limit > 0 {
		t := time.NewTimer(p.Limit)
		defer t.Stop()
		limit = t.C
	}
	stopped := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = c.Process.Signal(s)
			case <-limit:
				close(stopped)
				end(c.Process.Pid, ownGroup, syscall.SIGTERM)
				select {
				case <-done:
				case <-time.After(limitGrace):
					end(c.Process.Pid, ownGroup, syscall.SIGKILL)
				}
				return
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
	select {
	case <-stopped:
		// What left the group and outlived the command is reparented
		// here by now: end it too, and wait until it is gone, before
		// agentgate goes (a single SIGKILL left a "sleep" of the
		// pipeline still dying when agentgate returned, which a CI run
		// under load saw).
		endAll(c.Process.Pid, ownGroup)
		var err error = &LimitError{After: p.Limit}
		if workspace {
			if moved, rerr := before.Restore(); len(moved) > 0 || rerr != nil {
				err = &ProtectedError{Moved: moved, Err: rerr, Cause: err}
			}
		}
		return Status(c.ProcessState), err
	default:
	}
	if workspace {
		// Nothing a workspace command started outlives it: a red team's
		// setsid'd child waited for the person to create .claude, which
		// had no read-only bind, and wrote settings into it.
		endAll(c.Process.Pid, ownGroup)
		// Then what it made at a protected name that was absent or a
		// link (which no bind holds) is moved aside before anything
		// reads it.
		moved, err := before.Restore()
		if len(moved) > 0 || err != nil {
			return Status(c.ProcessState), &ProtectedError{Moved: moved, Err: err}
		}
	}
	return Status(c.ProcessState), nil
}

// ProtectedError is a workspace command that created or replaced a
// protected path (an .envrc, a .claude directory, a hook directory where
// there was none, a link it swapped): agentgate moved what it found
// aside and put links back. The command did run; its exit status stands.
type ProtectedError struct {
	Moved []sandbox.Moved
	// Err is what could not be moved or put back.
	Err error
	// Cause is the error the run ended with otherwise (a [LimitError]).
	Cause error
}

func (e *ProtectedError) Unwrap() error { return e.Cause }

func (e *ProtectedError) Error() string {
	var parts []string
	for _, m := range e.Moved {
		if m.To == "" {
			parts = append(parts, fmt.Sprintf("removed %s (%s), put back", m.Path, m.Was))
			continue
		}
		parts = append(parts, fmt.Sprintf("made %s (was %s), moved to %s", m.Path, m.Was, m.To))
	}
	if e.Err != nil {
		parts = append(parts, e.Err.Error())
	}
	return "the command changed protected paths of the project: " + strings.Join(parts, "; ")
}

// end signals the command at its limit: its group when it has one of
// its own, and every process under agentgate (the command, what it
// started, and what left its group and was reparented here).
func end(pid int, ownGroup bool, sig syscall.Signal) {
	if ownGroup {
		_ = syscall.Kill(-pid, sig)
	}
	for _, p := range descendants(os.Getpid()) {
		_ = syscall.Kill(p, sig)
	}
}

// endAll kills every process under agentgate until none is left. One
// pass is not enough: a red team's chain of processes, each forking the
// next and exiting, had a generation born after the pass read /proc,
// which outlived the command and planted a setting later. Each pass
// kills what it sees and reaps what was reparented here (agentgate is
// their reaper), so what a killed process forked in the meantime is seen
// by the next; the passes are bounded.
func endAll(pid int, ownGroup bool) {
	for range maxEndPasses {
		if ownGroup {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}
		live := 0
		for _, p := range descendants(os.Getpid()) {
			if f, ok := fsutil.StatFields(strconv.Itoa(p)); ok && len(f) > 0 && f[0] == "Z" {
				continue
			}
			live++
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		// Reap the ones that ended, so that they leave /proc.
		for {
			if wpid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil); wpid <= 0 || err != nil {
				break
			}
		}
		if live == 0 {
			return
		}
	}
}

// maxEndPasses bounds [endAll]: each pass sees what the last one missed.
const maxEndPasses = 1000

// descendants are the processes pid started, and theirs, from /proc.
func descendants(pid int) []int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f, ok := fsutil.StatFields(e.Name()) // ppid is field 4
		if !ok || len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			children[ppid] = append(children[ppid], child)
		}
	}
	var out []int
	for queue := []int{pid}; len(queue) > 0; queue = queue[1:] {
		for _, c := range children[queue[0]] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// Status maps a finished process to a shell exit status.
func Status(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
