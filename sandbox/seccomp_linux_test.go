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
		{"socketpair stays", ReadOnly, seccompData(auditArch, unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_STREAM), allow},
		{"socket AF_INET", ReadOnly, seccompData(auditArch, unix.SYS_SOCKET, unix.AF_INET), eacces},
		{"socket AF_UNIX", ReadOnly, seccompData(auditArch, unix.SYS_SOCKET, unix.AF_UNIX), eacces},
		{"socket AF_NETLINK", ReadOnly, seccompData(auditArch, unix.SYS_SOCKET, unix.AF_NETLINK), eacces},
		{"socket with network", ReadOnlyNetwork, seccompData(auditArch, unix.SYS_SOCKET, unix.AF_INET), allow},
		{"socket in a workspace", Workspace, seccompData(auditArch, unix.SYS_SOCKET, unix.AF_INET), eacces},
		{"TIOCSTI", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCSTI), eperm},
		{"TIOCSTI with high bits set", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 0, 1<<32|unix.TIOCSTI), eperm},
		{"TIOCLINUX", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCLINUX), eperm},
		{"TIOCSTI with network", ReadOnlyNetwork, seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCSTI), eperm},
		{"TIOCSTI in a workspace", Workspace, seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCSTI), eperm},
		{"TIOCEXCL", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCEXCL), eperm},
		{"TCGETS (isatty)", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 1, unix.TCGETS), allow},
		{"TCSETS", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 1, unix.TCSETS), allow},
		{"chattr", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 3, fsIocSetFlags), eperm},
		{"chattr in a workspace", Workspace, seccompData(auditArch, unix.SYS_IOCTL, 3, fsIocSetFlags), allow},
		{"socketpair stream", ReadOnly, seccompData(auditArch, unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC), allow},
		{"socketpair datagram", ReadOnly, seccompData(auditArch, unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_DGRAM), eacces},
		{"socketpair seqpacket", Workspace, seccompData(auditArch, unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_NONBLOCK), eacces},
		{"socketpair datagram with network", ReadOnlyNetwork, seccompData(auditArch, unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_DGRAM), allow},
		{"send on a connected socket", ReadOnly, seccompData(auditArch, unix.SYS_SENDTO, 3, 0, 5, 0, 0, 0), allow},
		{"sendto an address", ReadOnly, seccompData(auditArch, unix.SYS_SENDTO, 3, 0, 5, 0, 0x7ffd0000, 16), eacces},
		{"sendto an address above 4 GiB", ReadOnly, seccompData(auditArch, unix.SYS_SENDTO, 3, 0, 5, 0, 0x7ffd00000000, 16), eacces},
		{"prlimit of itself", ReadOnly, seccompData(auditArch, unix.SYS_PRLIMIT64, 0, unix.RLIMIT_NOFILE), allow},
		{"prlimit of another process", Workspace, seccompData(auditArch, unix.SYS_PRLIMIT64, 4242, unix.RLIMIT_CPU), eperm},
		{"fork", ReadOnly, seccompData(auditArch, unix.SYS_CLONE, uint64(unix.SIGCHLD)), allow},
		{"a thread", ReadOnly, seccompData(auditArch, unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_THREAD|unix.CLONE_SIGHAND), allow},
		{"clone into a user namespace", ReadOnly, seccompData(auditArch, unix.SYS_CLONE, unix.CLONE_NEWUSER|uint64(unix.SIGCHLD)), eperm},
		{"clone into a network namespace", Workspace, seccompData(auditArch, unix.SYS_CLONE, unix.CLONE_NEWNET), eperm},
		{"clone3", ReadOnly, seccompData(auditArch, unix.SYS_CLONE3), enosys},
		{"fchmodat in a workspace", Workspace, seccompData(auditArch, unix.SYS_FCHMODAT), allow},
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
	// Every unconditional rule, at the levels it applies to and not at
	// the others.
	for _, r := range callRules {
		nr, ok, err := number(r.name)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || r.when != always {
			continue
		}
		for _, l := range []Level{ReadOnly, ReadOnlyNetwork, Workspace} {
			want := uint32(retAllow)
			if r.at.has(l) {
				want = retErrno | uint32(r.errno)
			}
			tests = append(tests, struct {
				name  string
				level Level
				data  []byte
				want  uint32
			}{r.name, l, seccompData(auditArch, nr), want})
		}
	}
	for _, tt := range tests {
		if got := run(tt.level, tt.data); got != tt.want {
			t.Errorf("%s at %s: %#x, want %#x", tt.name, tt.level, got, tt.want)
		}
	}
}
