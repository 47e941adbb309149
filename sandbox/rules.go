//go:build linux

package sandbox

import "golang.org/x/sys/unix"

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
)

// callRule refuses a system call, or some calls of it, at some levels.
type callRule struct {
	name   string
	errno  unix.Errno
	at     levels
	when   when
	arg    int
	mask   uint32
	vals   []uint32
	reason string
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
// are what Landlock does not cover.
var callRules = concat(
	refuse("loads code into the kernel or replaces it", unix.EPERM, allLevels,
		"init_module", "finit_module", "delete_module", "bpf", "perf_event_open", "kexec_load", "kexec_file_load", "reboot"),
	refuse("changes mounts", unix.EPERM, allLevels,
		"mount", "umount2", "pivot_root", "chroot", "swapon", "swapoff",
		"fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr"),
	refuse("enters or makes namespaces", unix.EPERM, allLevels, "unshare", "setns"),
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
		{name: "prlimit64", errno: unix.EPERM, at: allLevels, when: argLowNot0, arg: 0,
			reason: "changes another process's limits (RLIMIT_CPU kills it)"},
		{name: "ioctl", errno: unix.EPERM, at: allLevels, when: argLowIn, arg: 1,
			vals:   []uint32{unix.TIOCSTI, unix.TIOCLINUX, unix.TIOCEXCL},
			reason: "types into the terminal, or locks others out of it"},
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
		{name: "ioctl", errno: unix.EPERM, at: readOnlyOnes, when: argLowIn, arg: 1, vals: []uint32{fsIocSetFlags, fsIocFSSetXattr},
			reason: "changes a file's flags (chattr)"},
	},
	// A file descriptor executed by execveat (a memfd filled with a
	// program) would be a way around Landlock's execute right.
	refuse("executes a file descriptor", unix.EPERM, readOnlyOnes, "execveat"),
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

func concat(lists ...[]callRule) []callRule {
	var out []callRule
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
