//go:build linux && amd64

package sandbox

import (
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

const auditArch = 0xc000003e // AUDIT_ARCH_X86_64

// foreignABI refuses x32 system calls, which carry the native
// architecture's audit value with bit 30 set in the number.
var foreignABI = []bpf.Instruction{
	bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: 0x40000000, SkipFalse: 1},
	bpf.RetConstant{Val: retErrno | uint32(unix.ENOSYS)},
}

// archSyscalls are amd64's older calls that arm64 does not have.
var archSyscalls = map[string]uint32{
	"chmod": unix.SYS_CHMOD, "chown": unix.SYS_CHOWN, "lchown": unix.SYS_LCHOWN,
	"utime": unix.SYS_UTIME, "utimes": unix.SYS_UTIMES, "futimesat": unix.SYS_FUTIMESAT,
}

var notOnThisArch []string
