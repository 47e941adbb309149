//go:build linux && (amd64 || arm64)

package sandbox

import (
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// Forkable reports whether a child confined by spec can be started from a
// thread of agentgate's own ([StartConfined]) rather than through the
// helper, a second agentgate process whose start costs about as much as
// agentgate's own. A workspace command and a guarded one need namespaces
// of their own, which only the helper sets up; without seccomp, the
// guards that keep the child from agentgate's thread are not all there.
func Forkable(spec Spec) bool {
	return spec.Level.Confined() && spec.Level != Workspace && len(spec.Guard) == 0 && seccompAvailable()
}

// heldThread, when set (by tests), is called on the confined thread after
// the child has started, before the thread ends: it stands for a thread
// the scheduler leaves alive while the child already runs.
var heldThread func()

// StartConfined starts c (c.Path is the program spec names) confined by
// spec: a thread locked to a goroutine of its own confines itself (Landlock,
// the seccomp filter, no_new_privs and capabilities are per thread) and
// forks c, which inherits all of it; then the goroutine ends locked, and
// Go ends a thread whose goroutine ends locked, so nothing else runs on
// it. New threads the runtime makes meanwhile come from its template
// thread, never from a locked one.
//
// Until that thread ends, the child shares its Landlock domain, which
// lets a domain trace and signal its own (a red team's command attached
// to the thread with ptrace before it ended, in an earlier design). So:
// agentgate's process is made non-dumpable first (no ptrace attach, no
// /proc/PID/task/TID/mem or fd of it for a process without
// CAP_SYS_PTRACE, which the child has not), and the child's filter
// refuses ptrace and its kin at every level and signals by pid on every
// kernel ([apply] with forked). Only [Forkable] specs start this way.
func StartConfined(c *exec.Cmd, spec Spec) error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return err
	}
	return fromThread(c, spec)
}

func fromThread(c *exec.Cmd, spec Spec) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if unix.Gettid() == unix.Getpid() {
			// The main thread: Go never ends it, so it would stay in the
			// command's domain. Another goroutine starts the child; it
			// cannot run here while this one holds the thread.
			errc <- fromThread(c, spec)
			runtime.UnlockOSThread()
			return
		}
		// Never unlocked: the thread ends with this goroutine.
		if err := apply(spec, true); err != nil {
			errc <- err
			return
		}
		err := c.Start()
		errc <- err
		if heldThread != nil && err == nil {
			heldThread()
		}
	}()
	return <-errc
}
