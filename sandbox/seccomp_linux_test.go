//go:build linux && (amd64 || arm64)

package sandbox

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompData lays out struct seccomp_data for x/net/bpf's interpreter.
// The kernel's filter loads 32-bit words in native order (little endian
// here: an argument's low word first); the interpreter loads them big
// endian, as in a packet. So each 32-bit word is written big endian, in
// the little-endian word order, and the filter reads the same values it
// reads in the kernel. (The pty test of TIOCSTI checks the real kernel.)
func seccompData(arch, nr uint32, args ...uint64) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[0:], nr)
	binary.BigEndian.PutUint32(b[4:], arch)
	for i, a := range args {
		binary.BigEndian.PutUint32(b[16+8*i:], uint32(a))
		binary.BigEndian.PutUint32(b[16+8*i+4:], uint32(a>>32))
	}
	return b
}

// The filter, run in x/net/bpf's interpreter on the system calls a
// confined command could make.
func TestFilter(t *testing.T) {
	run := func(l Level, data []byte) uint32 {
		t.Helper()
		raw, err := filter(l)
		if err != nil {
			t.Fatal(err)
		}
		prog, ok := bpf.Disassemble(raw)
		if !ok {
			t.Fatal("the filter does not disassemble")
		}
		vm, err := bpf.NewVM(prog)
		if err != nil {
			t.Fatal(err)
		}
		v, err := vm.Run(data)
		if err != nil {
			t.Fatal(err)
		}
		return uint32(v)
	}
	allow, eperm, eacces, enosys := uint32(retAllow), retErrno|uint32(unix.EPERM), retErrno|uint32(unix.EACCES), retErrno|uint32(unix.ENOSYS)
	tests := []struct {
		name  string
		level Level
		data  []byte
		want  uint32
	}{
		{"read", ReadOnly, seccompData(auditArch, unix.SYS_READ), allow},
		{"socketpair stays", ReadOnly, seccompData(auditArch, unix.SYS_SOCKETPAIR, unix.AF_UNIX), allow},
		{"socket AF_INET", ReadOnly, seccompData(auditArch, unix.SYS_SOCKET, unix.AF_INET), eacces},
		{"socket AF_UNIX", ReadOnly, seccompData(auditArch, unix.SYS_SOCKET, unix.AF_UNIX), eacces},
		{"socket AF_NETLINK", ReadOnly, seccompData(auditArch, unix.SYS_SOCKET, unix.AF_NETLINK), eacces},
		{"socket with network", ReadOnlyNetwork, seccompData(auditArch, unix.SYS_SOCKET, unix.AF_INET), allow},
		{"socket in a workspace", Workspace, seccompData(auditArch, unix.SYS_SOCKET, unix.AF_INET), eacces},
		{"TIOCSTI", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCSTI), eperm},
		{"TIOCSTI with high bits set", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 0, 1<<32|unix.TIOCSTI), eperm},
		{"TIOCLINUX", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCLINUX), eperm},
		{"TIOCSTI with network", ReadOnlyNetwork, seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCSTI), eperm},
		{"TCGETS (isatty)", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 1, unix.TCGETS), allow},
		{"another architecture", ReadOnly, seccompData(0x40000003 /* AUDIT_ARCH_I386 */, 1), enosys},
		{"another architecture's socket", ReadOnlyNetwork, seccompData(0x40000003, 359), enosys},
	}
	if auditArch == 0xc000003e {
		tests = append(tests, struct {
			name  string
			level Level
			data  []byte
			want  uint32
		}{"x32 socket", ReadOnlyNetwork, seccompData(auditArch, 0x40000000|unix.SYS_SOCKET), enosys})
	}
	for _, name := range refusedSyscalls {
		for _, l := range []Level{ReadOnly, ReadOnlyNetwork, Workspace} {
			tests = append(tests, struct {
				name  string
				level Level
				data  []byte
				want  uint32
			}{name, l, seccompData(auditArch, syscallNumbers[name]), eperm})
		}
	}
	for _, tt := range tests {
		if got := run(tt.level, tt.data); got != tt.want {
			t.Errorf("%s at %s: %#x, want %#x", tt.name, tt.level, got, tt.want)
		}
	}
}
