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
//     not executable;
//   - has no network of any kind: the seccomp filter refuses socket(2) for
//     every address family (socketpair(2) stays allowed) and io_uring;
//     Landlock's TCP rules and its scoping of abstract Unix sockets and
//     signals are a second layer where the kernel has them;
//   - keeps no back door: every descriptor above 2 is closed on exec, and
//     the seccomp filter refuses the ioctls that push input into a
//     terminal (TIOCSTI, TIOCLINUX);
//   - holds no privilege: no_new_privs, every capability dropped
//     (effective, permitted, inheritable, ambient, and the bounding set, so
//     that a root process regains none at exec), and the seccomp filter
//     refuses module loading, bpf, perf_event_open, kexec, reboot, mount,
//     unshare, setns and the key ring; system calls made through another
//     architecture's ABI (x32, int 0x80) are refused too;
//   - cannot signal or trace processes outside its own domain (Landlock).
//
// Only installed programs execute directly: the execute right is granted
// on the resolved program, its ELF interpreter's directory, and /usr, /bin,
// /sbin, /lib*, /opt. A file planted in the working tree, $HOME or /tmp
// cannot be executed directly.
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
