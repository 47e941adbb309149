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
// neg is -n as a 32-bit pid argument (a process group for kill).
func neg(n int32) uint64 { return uint64(uint32(-n)) }

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
	// A kernel whose Landlock does not scope signals (so every rule is in
	// the filter); the command's own pid and group, which it may not name.
	const pid, pgid = 4000, 3990
	unscoped := kernel{}
	runOn := func(k kernel, l Level, data []byte) uint32 {
		t.Helper()
		raw, err := filter(l, k)
		if err != nil {
			t.Fatal(err)
		}
		return runFilter(t, raw, data)
	}
	run := func(l Level, data []byte) uint32 { t.Helper(); return runOn(unscoped, l, data) }
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
		// a pid fixed at load is another process's once reused
		{"prlimit of itself by pid", ReadOnly, seccompData(auditArch, unix.SYS_PRLIMIT64, pid, unix.RLIMIT_NOFILE), eperm},
		{"memfd_create", ReadOnly, seccompData(auditArch, unix.SYS_MEMFD_CREATE, 0, 0), enosys},
		{"memfd_create in a workspace", Workspace, seccompData(auditArch, unix.SYS_MEMFD_CREATE, 0, 0), allow},
		{"truncate", ReadOnlyNetwork, seccompData(auditArch, unix.SYS_TRUNCATE, 0x7ffd0000, 0), eperm},
		{"ftruncate (a descriptor opened for writing)", ReadOnly, seccompData(auditArch, unix.SYS_FTRUNCATE, 1, 0), allow},
		// scheduling and priority of other processes
		{"sched_setaffinity of itself", ReadOnly, seccompData(auditArch, unix.SYS_SCHED_SETAFFINITY, 0, 8, 0x7ffd0000), allow},
		{"sched_setaffinity of itself by pid", ReadOnly, seccompData(auditArch, unix.SYS_SCHED_SETAFFINITY, pid, 8, 0x7ffd0000), eperm},
		{"sched_setaffinity of another", Workspace, seccompData(auditArch, unix.SYS_SCHED_SETAFFINITY, 4242, 8, 0x7ffd0000), eperm},
		{"sched_setscheduler of another", ReadOnly, seccompData(auditArch, unix.SYS_SCHED_SETSCHEDULER, 4242, 5, 0x7ffd0000), eperm},
		{"sched_setscheduler pid with high bits", ReadOnly, seccompData(auditArch, unix.SYS_SCHED_SETSCHEDULER, 1<<32|4242, 5, 0x7ffd0000), eperm},
		{"sched_setattr of another", ReadOnlyNetwork, seccompData(auditArch, unix.SYS_SCHED_SETATTR, 4242, 0x7ffd0000, 0), eperm},
		{"sched_setparam of itself", ReadOnly, seccompData(auditArch, unix.SYS_SCHED_SETPARAM, 0, 0x7ffd0000), allow},
		{"migrate_pages of another", ReadOnly, seccompData(auditArch, unix.SYS_MIGRATE_PAGES, 4242), eperm},
		{"move_pages of another", ReadOnly, seccompData(auditArch, unix.SYS_MOVE_PAGES, 4242), eperm},
		{"nice itself", ReadOnly, seccompData(auditArch, unix.SYS_SETPRIORITY, 0, 0, 10), allow},
		{"nice itself by pid", ReadOnly, seccompData(auditArch, unix.SYS_SETPRIORITY, 0, pid, 10), eperm},
		{"renice another", ReadOnly, seccompData(auditArch, unix.SYS_SETPRIORITY, 0, 4242, 19), eperm},
		{"renice its group", ReadOnly, seccompData(auditArch, unix.SYS_SETPRIORITY, 1, 0, 19), eperm},
		{"renice every process of the user", Workspace, seccompData(auditArch, unix.SYS_SETPRIORITY, 2, 0, 19), eperm},
		{"ionice itself", ReadOnly, seccompData(auditArch, unix.SYS_IOPRIO_SET, 1, 0, 7), allow},
		{"ionice another", ReadOnly, seccompData(auditArch, unix.SYS_IOPRIO_SET, 1, 4242, 7), eperm},
		{"ionice the user's processes", ReadOnly, seccompData(auditArch, unix.SYS_IOPRIO_SET, 3, 0, 7), eperm},
		// signals, where Landlock does not scope them
		{"kill another", ReadOnly, seccompData(auditArch, unix.SYS_KILL, 4242, uint64(unix.SIGTERM)), eperm},
		{"kill every process (-1)", Workspace, seccompData(auditArch, unix.SYS_KILL, 0xffffffff, uint64(unix.SIGKILL)), eperm},
		{"kill another group", ReadOnly, seccompData(auditArch, unix.SYS_KILL, neg(4242), uint64(unix.SIGKILL)), eperm},
		{"kill its own group (0)", ReadOnly, seccompData(auditArch, unix.SYS_KILL, 0, uint64(unix.SIGTERM)), allow},
		{"kill its own group by id", ReadOnly, seccompData(auditArch, unix.SYS_KILL, neg(pgid), uint64(unix.SIGTERM)), eperm},
		{"kill itself by pid", ReadOnlyNetwork, seccompData(auditArch, unix.SYS_KILL, pid, uint64(unix.SIGABRT)), eperm},
		{"does another exist (signal 0)", ReadOnly, seccompData(auditArch, unix.SYS_KILL, 4242, 0), allow},
		{"SIGURG to another", ReadOnly, seccompData(auditArch, unix.SYS_KILL, 4242, uint64(unix.SIGURG)), allow},
		{"tgkill its own thread", ReadOnly, seccompData(auditArch, unix.SYS_TGKILL, pid, pid+3, uint64(unix.SIGABRT)), eperm},
		{"tgkill another's thread", ReadOnly, seccompData(auditArch, unix.SYS_TGKILL, 4242, 4243, uint64(unix.SIGKILL)), eperm},
		{"tgkill a Go preemption elsewhere", ReadOnly, seccompData(auditArch, unix.SYS_TGKILL, 4242, 4243, uint64(unix.SIGURG)), allow},
		{"tkill another", ReadOnly, seccompData(auditArch, unix.SYS_TKILL, 4242, uint64(unix.SIGKILL)), eperm},
		{"rt_sigqueueinfo another", ReadOnly, seccompData(auditArch, unix.SYS_RT_SIGQUEUEINFO, 4242, uint64(unix.SIGTERM)), eperm},
		{"rt_tgsigqueueinfo another", ReadOnly, seccompData(auditArch, unix.SYS_RT_TGSIGQUEUEINFO, 4242, 4243, uint64(unix.SIGTERM)), eperm},
		{"pidfd_send_signal", ReadOnly, seccompData(auditArch, unix.SYS_PIDFD_SEND_SIGNAL, 3, uint64(unix.SIGTERM)), eperm},
		{"pidfd_send_signal 0", ReadOnly, seccompData(auditArch, unix.SYS_PIDFD_SEND_SIGNAL, 3, 0), allow},
		{"F_SETOWN another", ReadOnly, seccompData(auditArch, unix.SYS_FCNTL, 3, unix.F_SETOWN, 4242), eperm},
		{"F_SETOWN another group", ReadOnly, seccompData(auditArch, unix.SYS_FCNTL, 3, unix.F_SETOWN, neg(4242)), eperm},
		{"F_SETOWN itself by pid", ReadOnly, seccompData(auditArch, unix.SYS_FCNTL, 3, unix.F_SETOWN, pid), eperm},
		{"F_SETOWN none", ReadOnly, seccompData(auditArch, unix.SYS_FCNTL, 3, unix.F_SETOWN, 0), allow},
		{"F_SETFL O_ASYNC", ReadOnly, seccompData(auditArch, unix.SYS_FCNTL, 0, unix.F_SETFL, unix.O_ASYNC|unix.O_NONBLOCK), eperm},
		{"F_SETFL O_NONBLOCK", ReadOnly, seccompData(auditArch, unix.SYS_FCNTL, 0, unix.F_SETFL, unix.O_NONBLOCK), allow},
		{"FIOASYNC", Workspace, seccompData(auditArch, unix.SYS_IOCTL, 0, fioAsync, 0x7ffd0000), eperm},
		{"setpgid into a new group", ReadOnly, seccompData(auditArch, unix.SYS_SETPGID, 0, 0), allow},
		{"setpgid into another group", ReadOnly, seccompData(auditArch, unix.SYS_SETPGID, 0, 4242), eperm},
		{"TIOCSPGRP", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCSPGRP, 0x7ffd0000), eperm},
		{"FS_IOC_SETVERSION", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 3, fsIocSetVersion, 0x7ffd0000), eperm},
		{"F_SETOWN_EX", ReadOnly, seccompData(auditArch, unix.SYS_FCNTL, 3, unix.F_SETOWN_EX, 0x7ffd0000), eperm},
		{"F_GETFL", ReadOnly, seccompData(auditArch, unix.SYS_FCNTL, 3, unix.F_GETFL), allow},
		{"F_SETFL", ReadOnly, seccompData(auditArch, unix.SYS_FCNTL, 3, unix.F_SETFL, 4242), allow},
		{"FIOSETOWN", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 3, fioSetOwn, 0x7ffd0000), eperm},
		{"TIOCGWINSZ", ReadOnly, seccompData(auditArch, unix.SYS_IOCTL, 1, unix.TIOCGWINSZ, 0x7ffd0000), allow},
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
	for _, r := range callRules() {
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
	// Where Landlock scopes signals, the filter leaves them to it (a child
	// may be signalled by its pid); the scheduling rules stay.
	scoped := kernel{signalScoped: true}
	for _, tt := range []struct {
		name string
		data []byte
		want uint32
	}{
		{"kill a child", seccompData(auditArch, unix.SYS_KILL, 4242, uint64(unix.SIGTERM)), allow},
		{"F_SETOWN", seccompData(auditArch, unix.SYS_FCNTL, 3, unix.F_SETOWN, 4242), allow},
		{"renice another", seccompData(auditArch, unix.SYS_SETPRIORITY, 0, 4242, 19), eperm},
		{"TIOCSTI", seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCSTI), eperm},
		{"TIOCSPGRP", seccompData(auditArch, unix.SYS_IOCTL, 0, unix.TIOCSPGRP, 0x7ffd0000), eperm},
		{"setpgid into another group", seccompData(auditArch, unix.SYS_SETPGID, 0, 4242), allow},
	} {
		if got := runOn(scoped, ReadOnly, tt.data); got != tt.want {
			t.Errorf("%s with signals scoped: %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

// The dispatch in front of the rules' blocks changes no answer: for every
// level, both kinds of kernel, every system call number (and x32's) and
// arguments that each rule's tests look at, the filter answers as the
// blocks alone do.
func TestDispatchAnswersAsTheBlocks(t *testing.T) {
	runRaw := func(raw []bpf.RawInstruction, data []byte) uint32 { t.Helper(); return runFilter(t, raw, data) }
	args := [][]uint64{
		{0, 0, 0, 0, 0, 0},
		{1, 1, 1, 1, 1, 1},
		{4000, 15, 0, 0, 0, 0},
		{0, uint64(unix.SIGURG), unix.F_SETOWN, 0, 0, 0},
		{neg(3990), 9, unix.O_ASYNC, 0, 0, 0},
		{unix.AF_UNIX, unix.SOCK_DGRAM, unix.CLONE_NEWUSER, 0, 0, 0},
		{1 << 40, 0x5412, 0xffffffff, 0, 0, 0},
	}
	for _, l := range []Level{ReadOnly, ReadOnlyNetwork, Workspace} {
		for _, scoped := range []bool{false, true} {
			fast, err := filter(l, kernel{signalScoped: scoped})
			if err != nil {
				t.Fatal(err)
			}
			slow, err := filter(l, kernel{signalScoped: scoped, linear: true})
			if err != nil {
				t.Fatal(err)
			}
			differ := 0
			for _, base := range []uint32{0, 0x40000000} {
				for nr := base; nr < base+1024; nr++ {
					for _, a := range args {
						d := seccompData(auditArch, nr, a...)
						if f, s := runRaw(fast, d), runRaw(slow, d); f != s {
							differ++
							if differ < 5 {
								t.Errorf("%s scoped=%v nr %d args %v: dispatch %#x, blocks %#x", l, scoped, nr, a, f, s)
							}
						}
					}
				}
			}
		}
	}
}

// runFilter runs a filter in the package's BPF interpreter on one
// seccomp_data and returns its answer.
func runFilter(t *testing.T, raw []bpf.RawInstruction, data []byte) uint32 {
	t.Helper()
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
