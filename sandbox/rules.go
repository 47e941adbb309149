//go:build linux

package sandbox

import (
	"sync"

	"golang.org/x/sys/unix"
)

// The confinement as data: what each level may execute, write, and which
// system calls the seccomp filter refuses. apply_linux.go turns these into
// Landlock rules and seccomp_linux.go into a BPF program.

// execDirs are where installed programs live: the only places, besides
// the resolved program and its ELF interpreter, from which a confined
// command may execute a file.
var execDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"}

// readableDevices are the devices a confined command may open. /dev is
// otherwise closed: no terminal, no disk, no input device is opened anew
// (descriptors 0-2 the command inherited keep working). /dev/null is also
// writable.
var readableDevices = []string{"/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// levels a rule applies at.
type levels uint8

const (
	atReadOnly levels = 1 << iota
	atReadOnlyNetwork
	atWorkspace

	allLevels    = atReadOnly | atReadOnlyNetwork | atWorkspace
	readOnlyOnes = atReadOnly | atReadOnlyNetwork // no writes of any kind
	noNetwork    = atReadOnly | atWorkspace       // no sockets
)

func (s levels) has(l Level) bool {
	switch l {
	case ReadOnly:
		return s&atReadOnly != 0
	case ReadOnlyNetwork:
		return s&atReadOnlyNetwork != 0
	case Workspace:
		return s&atWorkspace != 0
	}
	return false
}

// when says which calls of a system call a rule refuses.
type when int

const (
	always       when = iota
	argNonZero        // the 64-bit argument arg is not 0 (a pointer is set)
	argLowNot0        // the low 32 bits of arg are not 0 (a pid other than 0)
	argBitsSet        // the low 32 bits of arg have any bit of mask set
	argLowIn          // the low 32 bits of arg are one of vals
	argMaskedNot      // the low 32 bits of arg, masked with mask, are not vals[0]
	unlessAny         // refused unless one of unless holds (and only when only holds)
)

// argIs holds when the low 32 bits of an argument are one of vals, or,
// with clear, when none of clear's bits is set in them.
//
// There is no "the command's own pid": a pid fixed when the filter loads
// is, once that process has ended and the pid counter has come round,
// some other process's (a red team's detached child waited for it and
// then changed the limits of whatever held it). Only 0, which the kernel
// reads as the caller, means "this process".
type argIs struct {
	arg   int
	vals  []uint32
	clear uint32
}

// callRule refuses a system call, or some calls of it, at some levels.
type callRule struct {
	name  string
	errno unix.Errno
	at    levels
	when  when
	arg   int
	mask  uint32
	vals  []uint32
	// only, with unlessAny, narrows the rule to calls whose argument
	// only.arg holds; unless are the calls it lets through.
	only   *argIs
	unless []argIs
	// unscoped rules apply only where Landlock does not scope signals
	// (ABI 6): there the kernel keeps the promise, and the rule would only
	// cost what it refuses (a command signalling a child by its pid).
	unscoped bool
	reason   string
}

// nsFlags are clone's flags that make a new namespace: a user namespace
// hands the child every capability inside it.
const nsFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWTIME

// Ioctl requests that change a file's flags (chattr): not covered by
// Landlock, and allowed to a file's owner on a read-only descriptor.
const (
	fsIocSetFlags   = 0x40086602 // FS_IOC_SETFLAGS
	fsIocFSSetXattr = 0x401c5820 // FS_IOC_FSSETXATTR
	fsIocSetVersion = 0x40087602 // FS_IOC_SETVERSION
)

func refuse(reason string, errno unix.Errno, at levels, names ...string) []callRule {
	out := make([]callRule, len(names))
	for i, n := range names {
		out[i] = callRule{name: n, errno: errno, at: at, reason: reason}
	}
	return out
}

// callRules are the system calls the seccomp filter refuses. The filter
// allows everything else: Landlock is the accept-list for files, and these
// are what Landlock does not cover. They are built when a filter is
// (the confined command's helper), not at every agentgate start.
var callRules = sync.OnceValue(func() []callRule { return callRuleList() })

func callRuleList() []callRule {
	return concat(
		refuse("loads code into the kernel or replaces it", unix.EPERM, allLevels,
			"init_module", "finit_module", "delete_module", "bpf", "perf_event_open", "kexec_load", "kexec_file_load", "reboot"),
		refuse("changes mounts", unix.EPERM, allLevels,
			"mount", "umount2", "pivot_root", "chroot", "swapon", "swapoff",
			"fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr"),
		refuse("enters or makes namespaces", unix.EPERM, allLevels, "unshare", "setns"),
		// Landlock lets a process trace and read the memory of processes in
		// its own domain, and without Yama nothing else stops it: a red team's
		// command attached to the thread of agentgate that had confined it.
		// No read-only command needs to.
		refuse("traces or reads another process's memory or descriptors", unix.EPERM, allLevels,
			"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp"),
		refuse("reaches the kernel key ring", unix.EPERM, allLevels, "keyctl", "add_key", "request_key"),
		refuse("runs system calls past the filter", unix.EPERM, allLevels, "io_uring_setup", "io_uring_enter", "io_uring_register"),
		refuse("shares memory or messages with processes outside (System V and POSIX IPC)", unix.EPERM, allLevels,
			"shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semtimedop", "semctl",
			"mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr"),
		// clone3 takes its flags in a structure the filter cannot read: refused
		// with ENOSYS, so that the C library falls back to clone, whose flags
		// it can.
		refuse("takes flags the filter cannot read", unix.ENOSYS, allLevels, "clone3"),
		[]callRule{
			{name: "clone", errno: unix.EPERM, at: allLevels, when: argBitsSet, arg: 0, mask: nsFlags,
				reason: "makes a namespace (a user namespace holds every capability)"},
			{name: "prlimit64", errno: unix.EPERM, at: allLevels, when: unlessAny, unless: []argIs{ownPid(0)},
				reason: "changes another process's limits (RLIMIT_CPU kills it)"},
			{name: "ioctl", errno: unix.EPERM, at: allLevels, when: argLowIn, arg: 1,
				vals:   []uint32{unix.TIOCSTI, unix.TIOCLINUX, unix.TIOCEXCL, unix.TIOCSPGRP},
				reason: "types into the terminal, locks others out of it, or hands it to another process group"},
		},
		// Landlock does not cover a file's metadata: its mode, owner, times and
		// extended attributes can be changed by its owner without the right to
		// write it. A workspace command builds and needs chmod; the read-only
		// levels change nothing.
		refuse("changes a file's mode, owner, times or attributes", unix.EPERM, readOnlyOnes,
			"chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
			"setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr", "setxattrat", "removexattrat",
			"utime", "utimes", "futimesat", "utimensat"),
		[]callRule{
			{name: "ioctl", errno: unix.EPERM, at: readOnlyOnes, when: argLowIn, arg: 1, vals: []uint32{fsIocSetFlags, fsIocFSSetXattr, fsIocSetVersion},
				reason: "changes a file's flags (chattr) or generation number"},
		},
		schedRules,
		signalRules,
		// A file descriptor executed by execveat (a memfd filled with a
		// program) would be a way around Landlock's execute right.
		refuse("executes a file descriptor", unix.EPERM, readOnlyOnes, "execveat"),
		// Landlock does not cover a memfd (it is on no mount a rule can name),
		// so one filled with a program would execute through /proc/self/fd.
		// ENOSYS, as on a kernel without memfds: programs that use one as a
		// buffer fall back to a file.
		refuse("makes a memory file that could be executed through /proc/self/fd", unix.ENOSYS, readOnlyOnes, "memfd_create"),
		// truncate(2) by path is Landlock's from ABI 3 only; a read-only
		// command has no use for it on any kernel.
		refuse("truncates a file", unix.EPERM, readOnlyOnes, "truncate"),
		// No network: no socket; a socketpair only as a connected stream (a
		// datagram one can send to any path-named socket); no connect, bind or
		// addressed send.
		refuse("opens a socket", unix.EACCES, noNetwork, "socket", "connect", "bind", "listen", "accept", "accept4"),
		[]callRule{
			{name: "socketpair", errno: unix.EACCES, at: noNetwork, when: argMaskedNot, arg: 1, mask: 0xf, vals: []uint32{unix.SOCK_STREAM},
				reason: "makes a datagram socket that can send to any path"},
			{name: "sendto", errno: unix.EACCES, at: noNetwork, when: argNonZero, arg: 4,
				reason: "sends to an address"},
		},
	)
}

// ownPid lets a call through when its argument arg is 0: the scheduling
// and limit calls take 0 for "this process".
func ownPid(arg int) argIs { return argIs{arg: arg, vals: []uint32{0}} }

// harmlessSignal lets a signal call through when its signal (argument
// arg) is 0, which only asks whether the process exists, or SIGURG, which
// the Go runtime sends its own threads to preempt them and which is
// ignored by default.
func harmlessSignal(arg int) argIs {
	return argIs{arg: arg, vals: []uint32{0, uint32(unix.SIGURG)}}
}

// schedRules keep a command from changing another process's scheduling,
// priority, CPUs, I/O priority or memory placement, on every kernel:
// Landlock covers none of these. Each takes 0 for the caller itself.
var schedRules = each([]callRule{
	{name: "sched_setscheduler", unless: []argIs{ownPid(0)}},
	{name: "sched_setparam", unless: []argIs{ownPid(0)}},
	{name: "sched_setattr", unless: []argIs{ownPid(0)}},
	{name: "sched_setaffinity", unless: []argIs{ownPid(0)}},
	{name: "migrate_pages", unless: []argIs{ownPid(0)}},
	{name: "move_pages", unless: []argIs{ownPid(0)}},
	// setpriority(which, who, prio) and ioprio_set(which, who, prio): only
	// "this process" (PRIO_PROCESS, IOPRIO_WHO_PROCESS), as 0 or the pid;
	// a group or a user would reach other processes.
	{name: "setpriority", unless: []argIs{{arg: 0, vals: []uint32{0}}}},
	{name: "setpriority", unless: []argIs{ownPid(1)}},
	{name: "ioprio_set", unless: []argIs{{arg: 0, vals: []uint32{1}}}},
	{name: "ioprio_set", unless: []argIs{ownPid(1)}},
}, func(r *callRule) {
	r.errno, r.at, r.when = unix.EPERM, allLevels, unlessAny
	r.reason = "changes another process's scheduling, priority, CPUs or memory"
})

// signalRules keep a command from signalling processes outside it where
// Landlock cannot (ABI 6 scopes signals to the domain). A command may
// signal its process group as the kernel finds it at the call (kill 0),
// and anyone with a harmless signal; it may not leave its group for
// another (setpgid), which would make kill 0 reach that one. Any pid is
// refused, its own and its children's too, since the filter cannot tell
// them from another process's: that is the cost on such a kernel (a
// raise() fails, and abort() ends the process by its fallback).
var signalRules = each([]callRule{
	{name: "kill", unless: []argIs{{arg: 0, vals: []uint32{0}}, harmlessSignal(1)}},
	{name: "tkill", unless: []argIs{harmlessSignal(1)}},
	{name: "tgkill", unless: []argIs{harmlessSignal(2)}},
	{name: "rt_sigqueueinfo", unless: []argIs{harmlessSignal(1)}},
	{name: "rt_tgsigqueueinfo", unless: []argIs{harmlessSignal(2)}},
	// A pidfd names a process the filter cannot see.
	{name: "pidfd_send_signal", unless: []argIs{{arg: 1, vals: []uint32{0}}}},
	// setpgid(pid, 0) starts a group of pid's own; any other group is
	// someone else's.
	{name: "setpgid", unless: []argIs{{arg: 1, vals: []uint32{0}}}},
	// SIGIO and its replacement (F_SETSIG) go to a descriptor's owner, or,
	// for a terminal set to O_ASYNC, to its foreground group on the next
	// input, after the command has ended: no owner, no O_ASYNC.
	{name: "fcntl", only: &argIs{arg: 1, vals: []uint32{unix.F_SETOWN}}, unless: []argIs{{arg: 2, vals: []uint32{0}}}},
	{name: "fcntl", only: &argIs{arg: 1, vals: []uint32{unix.F_SETOWN_EX}}},
	{name: "fcntl", only: &argIs{arg: 1, vals: []uint32{unix.F_SETFL}}, unless: []argIs{{arg: 2, clear: unix.O_ASYNC}}},
	{name: "ioctl", only: &argIs{arg: 1, vals: []uint32{fioSetOwn, siocSPgrp, fioAsync}}},
}, func(r *callRule) {
	r.errno, r.at, r.when, r.unscoped = unix.EPERM, allLevels, unlessAny, true
	r.reason = "signals a process outside the command"
})

// FIOSETOWN and SIOCSPGRP, ioctl's F_SETOWN (through a pointer the filter
// cannot read).
const (
	fioSetOwn = 0x8901
	siocSPgrp = 0x8902
	fioAsync  = 0x5452 // FIOASYNC: O_ASYNC by ioctl
)

// each sets what a group of rules shares.
func each(rules []callRule, set func(*callRule)) []callRule {
	for i := range rules {
		set(&rules[i])
	}
	return rules
}

func concat(lists ...[]callRule) []callRule {
	var out []callRule
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
