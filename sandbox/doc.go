// Package sandbox confines the commands agentgate runs without asking, so
// that the allow path stays harmless when the classifier is wrong.
//
// Confinement is applied in the process just before execve and is
// inherited by everything the command starts. It is built from Linux
// mechanisms that need no privileges: Landlock (file system, TCP, IPC
// scopes), a seccomp filter, no_new_privs and dropped capabilities.
//
// # What read-only promises
//
// A command confined at [ReadOnly]:
//
//   - writes nothing: Landlock grants reading on the file system (but not
//     on /dev, so no terminal can be opened) and writing only on /dev/null
//     and a private, empty scratch directory (TMPDIR) that is writable but
//     not executable; what Landlock does not cover, a file's mode, owner,
//     times, extended attributes and chattr flags, the seccomp filter
//     refuses;
//   - has no network of any kind: the seccomp filter refuses socket(2) for
//     every address family, connect, bind, listen, accept, a send to an
//     address, and socketpair(2) other than a connected stream pair (a
//     datagram pair could send to any path-named socket), and io_uring;
//     Landlock's TCP rules and its scoping of abstract Unix sockets and
//     signals are a second layer where the kernel has them;
//   - shares nothing with processes outside: System V and POSIX message
//     queues, semaphores and shared memory are refused, and so are
//     prlimit(2), scheduling, priority, CPU, I/O priority and memory
//     placement calls on another process, and signals and ptrace outside
//     (Landlock scopes signals from ABI 6; before that the seccomp filter
//     lets a signal reach only the command itself or its process group);
//   - keeps no back door: every descriptor above 2 is closed on exec, and
//     the seccomp filter refuses the ioctls that push input into a
//     terminal (TIOCSTI, TIOCLINUX);
//   - holds no privilege: no_new_privs, every capability dropped
//     (effective, permitted, inheritable, ambient, and the bounding set, so
//     that a root process regains none at exec), and the seccomp filter
//     refuses module loading, bpf, perf_event_open, kexec, reboot, mount,
//     unshare, setns, clone into a new namespace (a user namespace would
//     hold every capability inside it; clone3, whose flags it cannot read,
//     gets ENOSYS so the C library falls back to clone) and the key ring;
//     system calls made through another architecture's ABI (x32, int
//     0x80) are refused too;
//   - cannot signal or trace processes outside its own domain.
//
// [Support.Promises] lists each promise with the mechanisms that keep it on
// a kernel.
//
// Only installed programs execute directly: the execute right is granted
// on the resolved program, its ELF interpreter (the file, not its
// directory), and /usr, /bin, /sbin, /lib*, /opt; execveat and
// memfd_create are refused, since Landlock does not reach a memfd and one
// filled with a program would execute through /proc/self/fd.
// A file planted in the working tree, $HOME or /tmp cannot be executed
// directly.
//
// # What it does not promise
//
//   - Reading is not restricted (outside /dev): keeping secrets out of the
//     output is the decision's job (sensitive paths), not confinement's.
//   - An installed interpreter or the dynamic loader can still run planted
//     code (sh ./planted.sh, /lib64/ld-linux-x86-64.so.2 ./planted): the
//     promise rests on no writes, no network, no injection and no
//     privileges, not on what code runs.
//   - User and group names resolved over a socket (sssd, nscd) show as
//     numbers.
//   - The terminal the command inherited stays its own: it can change its
//     modes (echo off) or window size, which outlive it; it cannot type
//     into it (TIOCSTI, TIOCLINUX) or lock others out (TIOCEXCL).
//   - No resource limits: a confined command can use CPU, memory and its
//     scratch space, and a child it detaches keeps running, still
//     confined, after it ends. Scratch directories are removed at a later
//     start (or at once for a workspace command).
//   - At the workspace level a command may change the mode, times and
//     attributes of any file its user owns (builds need chmod): that level
//     is weaker than read-only in this too.
//   - On a kernel without Landlock or seccomp, or with an older Landlock
//     ABI, confinement is best effort: [Probe] says what this kernel
//     enforces, and the configuration can require full confinement.
//   - Not on other systems than Linux: there commands run unconfined.
//
// # Levels
//
// [ReadOnly] is the level of every built-in read-only rule. A user rule
// can choose [ReadOnlyNetwork] (sockets allowed; weaker), [Workspace]
// (writes and execution under the project root, extra writable paths and a
// private scratch directory; no network) or [None].
package sandbox
