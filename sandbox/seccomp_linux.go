//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccomp_data offsets (linux/seccomp.h): nr, arch, instruction pointer,
// then six 64-bit arguments. Both supported architectures are little
// endian, so an argument's low 32 bits come first.
const (
	offNr      = 0
	offArch    = 4
	offArg1Low = 16 + 8
)

const (
	retAllow = 0x7fff0000 // SECCOMP_RET_ALLOW
	retErrno = 0x00050000 // SECCOMP_RET_ERRNO | errno
)

// syscallNumbers maps the names of rules.go to this architecture's
// numbers (x/sys/unix has them per architecture); a name missing here
// fails filter, and so TestFilter.
var syscallNumbers = map[string]uint32{
	"init_module": unix.SYS_INIT_MODULE, "finit_module": unix.SYS_FINIT_MODULE, "delete_module": unix.SYS_DELETE_MODULE,
	"bpf": unix.SYS_BPF, "perf_event_open": unix.SYS_PERF_EVENT_OPEN,
	"kexec_load": unix.SYS_KEXEC_LOAD, "kexec_file_load": unix.SYS_KEXEC_FILE_LOAD, "reboot": unix.SYS_REBOOT,
	"mount": unix.SYS_MOUNT, "umount2": unix.SYS_UMOUNT2, "pivot_root": unix.SYS_PIVOT_ROOT, "chroot": unix.SYS_CHROOT,
	"swapon": unix.SYS_SWAPON, "swapoff": unix.SYS_SWAPOFF,
	"fsopen": unix.SYS_FSOPEN, "fsconfig": unix.SYS_FSCONFIG, "fsmount": unix.SYS_FSMOUNT, "fspick": unix.SYS_FSPICK,
	"move_mount": unix.SYS_MOVE_MOUNT, "open_tree": unix.SYS_OPEN_TREE, "mount_setattr": unix.SYS_MOUNT_SETATTR,
	"unshare": unix.SYS_UNSHARE, "setns": unix.SYS_SETNS,
	"keyctl": unix.SYS_KEYCTL, "add_key": unix.SYS_ADD_KEY, "request_key": unix.SYS_REQUEST_KEY,
	"io_uring_setup": unix.SYS_IO_URING_SETUP, "io_uring_enter": unix.SYS_IO_URING_ENTER, "io_uring_register": unix.SYS_IO_URING_REGISTER,
}

// ioctlNumbers are the refused ioctls' request numbers.
var ioctlNumbers = map[string]uint32{"TIOCSTI": unix.TIOCSTI, "TIOCLINUX": unix.TIOCLINUX}

// filter builds the BPF program for a level.
//
// The program is written out here, with golang.org/x/net/bpf, rather than
// assembled by a seccomp library: the pure-Go libraries allow a system
// call made through another architecture's ABI by default, and this
// filter must refuse it.
func filter(l Level) ([]bpf.RawInstruction, error) {
	prog := []bpf.Instruction{
		bpf.LoadAbsolute{Off: offArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: auditArch, SkipTrue: 1},
		bpf.RetConstant{Val: retErrno | uint32(unix.ENOSYS)},
		bpf.LoadAbsolute{Off: offNr, Size: 4},
	}
	prog = append(prog, foreignABI...)
	refuse := func(nr uint32, errno unix.Errno) {
		prog = append(prog,
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: nr, SkipFalse: 1},
			bpf.RetConstant{Val: retErrno | uint32(errno)})
	}
	for _, name := range refusedSyscalls {
		nr, ok := syscallNumbers[name]
		if !ok {
			return nil, fmt.Errorf("sandbox: no system call number for %s", name)
		}
		refuse(nr, unix.EPERM)
	}
	if !l.Network() {
		refuse(unix.SYS_SOCKET, unix.EACCES)
	}
	// ioctl: load the request (an unsigned int, so its low 32 bits are all
	// the kernel reads) and refuse the terminal-injecting ones.
	checks := []bpf.Instruction{bpf.LoadAbsolute{Off: offArg1Low, Size: 4}}
	for i, name := range refusedIoctls {
		checks = append(checks, bpf.JumpIf{Cond: bpf.JumpEqual, Val: ioctlNumbers[name], SkipTrue: uint8(len(refusedIoctls) - i)})
	}
	checks = append(checks, bpf.RetConstant{Val: retAllow}, bpf.RetConstant{Val: retErrno | uint32(unix.EPERM)})
	prog = append(prog, bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_IOCTL, SkipFalse: uint8(len(checks))})
	prog = append(prog, checks...)
	prog = append(prog, bpf.RetConstant{Val: retAllow})
	return bpf.Assemble(prog)
}

// loadFilter installs the filter on the calling thread, the one that will
// call execve. no_new_privs must already be set.
func loadFilter(l Level) error {
	raw, err := filter(l)
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
