//go:build linux && (amd64 || arm64)

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// namespaceAttr starts the helper of a workspace command with paths to
// protect in a mount namespace of its own (and, for a user other than
// root, a user namespace that maps only that user, which is what lets it
// mount there).
//
// The helper is also the first process of a PID namespace of its own:
// when it ends, the kernel ends every process left in the namespace, so
// nothing a workspace command started outlives it, however fast it forks
// (a red team's chain of processes, each forking the next and exiting,
// outran agentgate's passes over /proc).
func namespaceAttr(spec Spec) *syscall.SysProcAttr {
	if spec.Level != Workspace && !spec.Guarding() {
		return nil
	}
	a := &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWPID}
	if spec.Guarding() {
		// An approved command keeps seeing and signalling the user's
		// other processes: no PID namespace.
		a.Cloneflags = syscall.CLONE_NEWNS
	}
	if uid, gid := os.Geteuid(), os.Getegid(); uid != 0 {
		a.Cloneflags |= syscall.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		a.GidMappingsEnableSetgroups = false
		// The user keeps its own id, so execve of the helper would drop
		// the namespace's capabilities; the helper needs CAP_SYS_ADMIN
		// there to mount, and drops every capability (ambient ones too)
		// before the command starts.
		a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN}
	}
	return a
}

// bindReadOnly makes each path read-only for this mount namespace: bound
// over itself, then remounted read-only, so that writing in it fails
// (EROFS) and unlinking or renaming it fails (EBUSY: a mount point). The
// namespace's mounts are made private first, so nothing propagates back.
func bindReadOnly(root string, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	// Only in a namespace of its own (namespaceAttr): never change the
	// mounts agentgate's caller and everything else see.
	own, _ := os.Readlink("/proc/self/ns/mnt")
	parent, _ := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", os.Getppid()))
	if own == "" || own == parent {
		return fmt.Errorf("not in a mount namespace of its own")
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("cannot make the mounts private: %w", err)
	}
	// Every directory between the root and a protected path is bound
	// over itself too, writable: a mount point cannot be renamed or
	// removed (EBUSY). A red team renamed lib/sm, the parent of a
	// submodule's read-only .git, made a new lib/sm whose .git named a
	// planted gitdir, and the person's next git status ran its
	// core.fsmonitor.
	for _, a := range ancestors(root, paths) {
		if err := unix.Mount(a, a, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("cannot bind %s: %w", a, err)
		}
	}
	for _, p := range paths {
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("cannot bind %s: %w", p, err)
		}
		// A remount in a user namespace must keep the flags the mount
		// was locked with.
		flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
		var st unix.Statfs_t
		if unix.Statfs(p, &st) == nil {
			for _, f := range []struct{ st, ms int64 }{
				{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV}, {unix.ST_NOEXEC, unix.MS_NOEXEC},
				{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
			} {
				if st.Flags&f.st != 0 {
					flags |= uintptr(f.ms)
				}
			}
		}
		if err := unix.Mount("", p, "", flags, ""); err != nil {
			return fmt.Errorf("cannot make %s read-only: %w", p, err)
		}
	}
	// A working directory inside a protected one was entered before its
	// bind, and lookups from it never cross into the mount above it (a
	// red team's make run in .git wrote hooks/pre-commit): enter it again
	// by name, which lands on the read-only mount.
	wd, err := unix.Getwd()
	if err != nil {
		return fmt.Errorf("cannot find the working directory: %w", err)
	}
	if err := unix.Chdir(wd); err != nil {
		return fmt.Errorf("cannot enter the working directory again: %w", err)
	}
	return nil
}

// initMain is the helper as the first process of the workspace's PID
// namespace: it binds the protected paths read-only, starts the helper
// again inside (Inner: it confines itself and executes the command),
// forwards the signals agentgate forwards, reaps every orphan of the
// namespace, and ends with the command's status (128+N for signal N).
// Its end ends the namespace. It returns the status to exit with.
func initMain(spec Spec, path string, argv []string) int {
	if err := bindReadOnly(spec.Root, spec.Protect); err != nil {
		fmt.Fprintf(os.Stderr, "agentgate: error: sandbox: the project's protected files cannot be kept read-only: %v\n", err)
		return 126
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "agentgate: error: sandbox: %v\n", err)
		return 126
	}
	inner := spec
	inner.Inner = true
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	p, err := os.StartProcess(self, append([]string{"agentgate", HelperArg, inner.encode(), path}, argv...),
		&os.ProcAttr{Env: os.Environ(), Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "agentgate: error: sandbox: %v\n", err)
		return 126
	}
	go func() {
		for s := range sigs {
			_ = syscall.Kill(p.Pid, s.(syscall.Signal))
		}
	}()
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 125
		}
		if pid != p.Pid {
			continue // an orphan of the namespace, reaped
		}
		switch {
		case ws.Exited():
			return ws.ExitStatus()
		case ws.Signaled():
			return 128 + int(ws.Signal())
		}
		return 125
	}
}

// CanGuard reports whether [Spec.Guard] is carried out here.
const CanGuard = true

// guardMain binds the guarded directories read-only in the helper's
// mount namespace, takes CAP_SYS_ADMIN away from what runs next (root's
// command could unmount them; a user's command has no capabilities in
// its user namespace once it executes), and executes the command. It
// returns only on failure.
func guardMain(spec Spec, path string, argv, env []string) error {
	runtime.LockOSThread() // never unlocked: this thread execs
	if err := bindReadOnly(spec.Root, spec.Guard); err != nil {
		// A kernel that gives the namespace but refuses its mounts
		// (a security module's policy): the command the person
		// approved runs, and says what it lacks. Anything else (a
		// quota the command's own processes could have used up) stops
		// it: that the guard failed must not be the agent's choice.
		if !Refused(err) {
			return fmt.Errorf("sandbox: agentgate's own files cannot be kept read-only: %w", err)
		}
		fmt.Fprintf(os.Stderr, "agentgate: note: agentgate's own files are not kept read-only for this command: %v\n", err)
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	if err := unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SYS_ADMIN, 0, 0, 0); err != nil && os.Geteuid() == 0 {
		return fmt.Errorf("sandbox: cannot drop CAP_SYS_ADMIN: %w", err)
	}
	// Out of the inheritable set too: root's execve adds it to the
	// permitted set whatever the bounding set says.
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err == nil {
		data[unix.CAP_SYS_ADMIN/32].Inheritable &^= 1 << (unix.CAP_SYS_ADMIN % 32)
		_ = unix.Capset(&hdr, &data[0])
	}
	return syscall.Exec(path, argv, env)
}

// Refused reports an error of a namespace or mount the system's policy
// refuses (EPERM, EACCES: unprivileged user namespaces turned off, an
// AppArmor or SELinux rule), as against a resource used up (ENOSPC,
// EAGAIN, ENOMEM), which a command's own processes can cause.
func Refused(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES)
}
