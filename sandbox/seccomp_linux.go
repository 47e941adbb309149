//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"slices"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccomp_data offsets (linux/seccomp.h): nr, arch, instruction pointer,
// then six 64-bit arguments. Both supported architectures are little
// endian, so an argument's low 32 bits come first.
const (
	offNr   = 0
	offArch = 4
	offArgs = 16
)

const (
	retAllow = 0x7fff0000 // SECCOMP_RET_ALLOW
	retErrno = 0x00050000 // SECCOMP_RET_ERRNO | errno
)

// syscallNumbers maps the names of rules.go to this architecture's
// numbers (x/sys/unix has them per architecture). A name that is neither
// here, in archSyscalls, nor in notOnThisArch fails filter, and so
// TestFilter.
var syscallNumbers = map[string]uint32{
	"init_module": unix.SYS_INIT_MODULE, "finit_module": unix.SYS_FINIT_MODULE, "delete_module": unix.SYS_DELETE_MODULE,
	"bpf": unix.SYS_BPF, "perf_event_open": unix.SYS_PERF_EVENT_OPEN,
	"kexec_load": unix.SYS_KEXEC_LOAD, "kexec_file_load": unix.SYS_KEXEC_FILE_LOAD, "reboot": unix.SYS_REBOOT,
	"mount": unix.SYS_MOUNT, "umount2": unix.SYS_UMOUNT2, "pivot_root": unix.SYS_PIVOT_ROOT, "chroot": unix.SYS_CHROOT,
	"swapon": unix.SYS_SWAPON, "swapoff": unix.SYS_SWAPOFF,
	"fsopen": unix.SYS_FSOPEN, "fsconfig": unix.SYS_FSCONFIG, "fsmount": unix.SYS_FSMOUNT, "fspick": unix.SYS_FSPICK,
	"move_mount": unix.SYS_MOVE_MOUNT, "open_tree": unix.SYS_OPEN_TREE, "mount_setattr": unix.SYS_MOUNT_SETATTR,
	"unshare": unix.SYS_UNSHARE, "setns": unix.SYS_SETNS,
	"ptrace": unix.SYS_PTRACE, "process_vm_readv": unix.SYS_PROCESS_VM_READV, "process_vm_writev": unix.SYS_PROCESS_VM_WRITEV,
	"pidfd_getfd": unix.SYS_PIDFD_GETFD, "kcmp": unix.SYS_KCMP,
	"keyctl": unix.SYS_KEYCTL, "add_key": unix.SYS_ADD_KEY, "request_key": unix.SYS_REQUEST_KEY,
	"io_uring_setup": unix.SYS_IO_URING_SETUP, "io_uring_enter": unix.SYS_IO_URING_ENTER, "io_uring_register": unix.SYS_IO_URING_REGISTER,
	"shmget": unix.SYS_SHMGET, "shmat": unix.SYS_SHMAT, "shmctl": unix.SYS_SHMCTL, "shmdt": unix.SYS_SHMDT,
	"msgget": unix.SYS_MSGGET, "msgsnd": unix.SYS_MSGSND, "msgrcv": unix.SYS_MSGRCV, "msgctl": unix.SYS_MSGCTL,
	"semget": unix.SYS_SEMGET, "semop": unix.SYS_SEMOP, "semtimedop": unix.SYS_SEMTIMEDOP, "semctl": unix.SYS_SEMCTL,
	"mq_open": unix.SYS_MQ_OPEN, "mq_unlink": unix.SYS_MQ_UNLINK, "mq_timedsend": unix.SYS_MQ_TIMEDSEND,
	"mq_timedreceive": unix.SYS_MQ_TIMEDRECEIVE, "mq_notify": unix.SYS_MQ_NOTIFY, "mq_getsetattr": unix.SYS_MQ_GETSETATTR,
	"clone": unix.SYS_CLONE, "clone3": unix.SYS_CLONE3, "prlimit64": unix.SYS_PRLIMIT64, "ioctl": unix.SYS_IOCTL,
	"fchmod": unix.SYS_FCHMOD, "fchmodat": unix.SYS_FCHMODAT, "fchmodat2": unix.SYS_FCHMODAT2,
	"fchown": unix.SYS_FCHOWN, "fchownat": unix.SYS_FCHOWNAT,
	"setxattr": unix.SYS_SETXATTR, "lsetxattr": unix.SYS_LSETXATTR, "fsetxattr": unix.SYS_FSETXATTR,
	"removexattr": unix.SYS_REMOVEXATTR, "lremovexattr": unix.SYS_LREMOVEXATTR, "fremovexattr": unix.SYS_FREMOVEXATTR,
	"setxattrat": unix.SYS_SETXATTRAT, "removexattrat": unix.SYS_REMOVEXATTRAT, "utimensat": unix.SYS_UTIMENSAT,
	"execveat": unix.SYS_EXECVEAT, "memfd_create": unix.SYS_MEMFD_CREATE, "truncate": unix.SYS_TRUNCATE,
	"sched_setscheduler": unix.SYS_SCHED_SETSCHEDULER, "sched_setparam": unix.SYS_SCHED_SETPARAM,
	"sched_setattr": unix.SYS_SCHED_SETATTR, "sched_setaffinity": unix.SYS_SCHED_SETAFFINITY,
	"migrate_pages": unix.SYS_MIGRATE_PAGES, "move_pages": unix.SYS_MOVE_PAGES,
	"setpriority": unix.SYS_SETPRIORITY, "ioprio_set": unix.SYS_IOPRIO_SET,
	"kill": unix.SYS_KILL, "tkill": unix.SYS_TKILL, "tgkill": unix.SYS_TGKILL,
	"rt_sigqueueinfo": unix.SYS_RT_SIGQUEUEINFO, "rt_tgsigqueueinfo": unix.SYS_RT_TGSIGQUEUEINFO,
	"pidfd_send_signal": unix.SYS_PIDFD_SEND_SIGNAL, "fcntl": unix.SYS_FCNTL, "setpgid": unix.SYS_SETPGID,
	"socket": unix.SYS_SOCKET, "connect": unix.SYS_CONNECT, "bind": unix.SYS_BIND, "listen": unix.SYS_LISTEN,
	"accept": unix.SYS_ACCEPT, "accept4": unix.SYS_ACCEPT4, "socketpair": unix.SYS_SOCKETPAIR, "sendto": unix.SYS_SENDTO,
}

// number is a rule's system call number here; ok is false for a call this
// architecture does not have.
func number(name string) (nr uint32, ok bool, err error) {
	if nr, ok := syscallNumbers[name]; ok {
		return nr, true, nil
	}
	if nr, ok := archSyscalls[name]; ok {
		return nr, true, nil
	}
	for _, n := range notOnThisArch {
		if n == name {
			return 0, false, nil
		}
	}
	return 0, false, fmt.Errorf("sandbox: no system call number for %s", name)
}

// block is the filter's code for one rule: reload the number, skip the
// block for another call, test the argument, and refuse.
func block(nr uint32, r callRule) []bpf.Instruction {
	lo := func(arg int) bpf.Instruction { return bpf.LoadAbsolute{Off: uint32(offArgs + 8*arg), Size: 4} }
	hi := func(arg int) bpf.Instruction { return bpf.LoadAbsolute{Off: uint32(offArgs + 8*arg + 4), Size: 4} }
	ret := bpf.RetConstant{Val: retErrno | uint32(r.errno)}
	var test []bpf.Instruction
	switch r.when {
	case always:
	case argNonZero:
		test = []bpf.Instruction{lo(r.arg), bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: 0, SkipTrue: 2},
			hi(r.arg), bpf.JumpIf{Cond: bpf.JumpEqual, Val: 0, SkipTrue: 1}}
	case argLowNot0:
		test = []bpf.Instruction{lo(r.arg), bpf.JumpIf{Cond: bpf.JumpEqual, Val: 0, SkipTrue: 1}}
	case argBitsSet:
		test = []bpf.Instruction{lo(r.arg), bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: r.mask, SkipFalse: 1}}
	case argLowIn:
		test = []bpf.Instruction{lo(r.arg)}
		for k, v := range r.vals {
			test = append(test, bpf.JumpIf{Cond: bpf.JumpEqual, Val: v, SkipTrue: uint8(len(r.vals) - k)})
		}
		test = append(test, bpf.Jump{Skip: 1})
	case argMaskedNot:
		test = []bpf.Instruction{lo(r.arg), bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: r.mask},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: r.vals[0], SkipTrue: 1}}
	case unlessAny:
		test = unlessTest(r, lo)
	}
	out := []bpf.Instruction{bpf.LoadAbsolute{Off: offNr, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: nr, SkipFalse: uint8(len(test) + 1)}}
	return append(append(out, test...), ret)
}

// unlessTest is the test of an unlessAny rule. Every jump that lets the
// call through goes past the refusal at the block's end, so it is written
// as a jump to "end" and its distance filled in once the test is whole.
func unlessTest(r callRule, lo func(int) bpf.Instruction) []bpf.Instruction {
	var test []bpf.Instruction
	var toEnd []int
	if r.only != nil {
		vals := r.only.vals
		test = append(test, lo(r.only.arg))
		for k, v := range vals {
			// a match skips the remaining tests of only and its jump to end
			test = append(test, bpf.JumpIf{Cond: bpf.JumpEqual, Val: v, SkipTrue: uint8(len(vals) - k)})
		}
		toEnd = append(toEnd, len(test))
		test = append(test, bpf.Jump{})
	}
	for _, a := range r.unless {
		test = append(test, lo(a.arg))
		for _, v := range a.vals {
			toEnd = append(toEnd, len(test))
			test = append(test, bpf.JumpIf{Cond: bpf.JumpEqual, Val: v})
		}
		if a.clear != 0 {
			toEnd = append(toEnd, len(test))
			test = append(test, bpf.JumpIf{Cond: bpf.JumpBitsNotSet, Val: a.clear})
		}
	}
	// end is one past the refusal that follows the test
	for _, i := range toEnd {
		skip := len(test) - i // the instructions after i, then the refusal
		switch j := test[i].(type) {
		case bpf.Jump:
			j.Skip = uint32(skip)
			test[i] = j
		case bpf.JumpIf:
			j.SkipTrue = uint8(skip)
			test[i] = j
		}
	}
	return test
}

// kernel is what a filter is built for: whether Landlock scopes signals
// there.
type kernel struct {
	signalScoped bool
	// linear leaves out [dispatch] (tests compare the two).
	linear bool
}

// filter builds the BPF program for a level: the architecture check, then
// a block per rule of rules.go that applies at the level, then allow.
//
// The program is written out here, with golang.org/x/net/bpf, rather than
// assembled by a seccomp library: the pure-Go libraries allow a system
// call made through another architecture's ABI by default, and this
// filter must refuse it.
func filter(l Level, k kernel) ([]bpf.RawInstruction, error) {
	prog := []bpf.Instruction{
		bpf.LoadAbsolute{Off: offArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: auditArch, SkipTrue: 1},
		bpf.RetConstant{Val: retErrno | uint32(unix.ENOSYS)},
		bpf.LoadAbsolute{Off: offNr, Size: 4},
	}
	prog = append(prog, foreignABI...)
	var blocks []bpf.Instruction
	var ruled []uint32
	for _, r := range callRules() {
		if !r.at.has(l) || (r.unscoped && k.signalScoped) {
			continue
		}
		nr, ok, err := number(r.name)
		if err != nil {
			return nil, err
		}
		if ok {
			blocks = append(blocks, block(nr, r)...)
			ruled = append(ruled, nr)
		}
	}
	if !k.linear {
		prog = append(prog, dispatch(ruled)...)
	}
	prog = append(append(prog, blocks...), bpf.RetConstant{Val: retAllow})
	return bpf.Assemble(prog)
}

// dispatch lets a call no rule names through at once, by a binary search
// over the numbers the rules name (A holds the number); a named one goes
// on to the rules' blocks, which follow it. The kernel runs the filter
// for every system call number when it loads it (to cache the ones it
// always allows), and the linear blocks made that a third of a
// millisecond of every confined start.
func dispatch(nrs []uint32) []bpf.Instruction {
	slices.Sort(nrs)
	nrs = slices.Compact(nrs)
	var out []bpf.Instruction
	var toRules []int // jumps to the blocks, filled in at the end
	var tree func(set []uint32)
	tree = func(set []uint32) {
		if len(set) <= 4 {
			for _, v := range set {
				out = append(out, bpf.JumpIf{Cond: bpf.JumpEqual, Val: v, SkipFalse: 1})
				toRules = append(toRules, len(out))
				out = append(out, bpf.Jump{})
			}
			out = append(out, bpf.RetConstant{Val: retAllow})
			return
		}
		mid := len(set) / 2
		// A >= set[mid]: the upper half, past the jump and the lower half.
		out = append(out, bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: set[mid], SkipFalse: 1})
		over := len(out)
		out = append(out, bpf.Jump{})
		tree(set[:mid])
		out[over] = bpf.Jump{Skip: uint32(len(out) - over - 1)}
		tree(set[mid:])
	}
	tree(nrs)
	for _, i := range toRules {
		out[i] = bpf.Jump{Skip: uint32(len(out) - i - 1)}
	}
	return out
}

// loadFilter installs the filter on the calling thread, the one that will
// call execve. no_new_privs must already be set.
func loadFilter(l Level, signalScoped bool) error {
	raw, err := filter(l, kernel{signalScoped: signalScoped})
	if err != nil {
		return err
	}
	sf := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		sf[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(sf)), Filter: &sf[0]}
	const setModeFilter = 1
	if _, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, setModeFilter, 0, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("seccomp: %w", errno)
	}
	return nil
}

// seccompAvailable reports whether the kernel takes seccomp filters.
func seccompAvailable() bool {
	_, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	return err == nil
}
