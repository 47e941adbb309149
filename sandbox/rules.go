package sandbox

// The confinement as data: what each level may execute, write, and which
// system calls the seccomp filter refuses. apply_linux.go turns these into
// Landlock rules and a BPF program.

// execDirs are where installed programs live: the only places, besides
// the resolved program and its ELF interpreter's directory, from which a
// confined command may execute a file.
var execDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"}

// readableDevices are the devices a confined command may open. /dev is
// otherwise closed: no terminal, no disk, no input device is opened anew
// (descriptors 0-2 the command inherited keep working). /dev/null is also
// writable.
var readableDevices = []string{"/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// refusedSyscalls are refused at every confined level, with EPERM: they
// load code into the kernel, change mounts or namespaces, or reach the
// kernel key ring; io_uring would bypass the per-call filter.
var refusedSyscalls = []string{
	"init_module", "finit_module", "delete_module", // kernel modules
	"bpf", "perf_event_open", // kernel programs and tracing
	"kexec_load", "kexec_file_load", "reboot", // replacing or stopping the kernel
	"mount", "umount2", "pivot_root", "chroot", "swapon", "swapoff", // mounts
	"fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr", // the new mount API
	"unshare", "setns", // namespaces
	"keyctl", "add_key", "request_key", // the key ring
	"io_uring_setup", "io_uring_enter", "io_uring_register", // io_uring runs system calls past the filter
}

// refusedIoctls push input into a terminal: a confined command could type
// a command into the user's shell with them.
var refusedIoctls = []string{"TIOCSTI", "TIOCLINUX"}
