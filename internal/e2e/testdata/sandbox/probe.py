# A program that tries, one at a time, what a confined command must not do.
# Usage: probe.py LABEL ACTION [ARGS...]. LABEL is ignored (it lets a
# test write one allow rule per confinement level). Prints "OK ACTION" when
# the action succeeded and "DENIED ACTION: error" when it failed.
import ctypes, fcntl, os, resource, socket, subprocess, sys, termios

libc = ctypes.CDLL(None, use_errno=True)

def check(rc):
    if rc == -1:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return rc

action, args = sys.argv[2], sys.argv[3:]

def tcp_connect(host, port):
    s = socket.create_connection((host, int(port)), timeout=3); s.sendall(b"probe"); s.close()

def tcp_fastopen(host, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.sendto(b"probe", socket.MSG_FASTOPEN, (host, int(port))); s.close()

def udp_send(host, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b"probe", (host, int(port))); s.close()

def unix_connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(path); s.sendall(b"probe"); s.close()

def write(path):
    with open(path, "w") as f: f.write("probe")

def run_planted(path):
    out = subprocess.run([path], capture_output=True, timeout=5)
    sys.stdout.write(out.stdout.decode())

def capeff():
    for line in open("/proc/self/status"):
        if line.startswith("CapEff:"):
            if int(line.split()[1], 16) != 0:
                return
            raise PermissionError("CapEff is 0")

def dgram_send(path):
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    a.sendto(b"probe", path)

def shm(key):
    check(libc.shmget(ctypes.c_int(int(key)), ctypes.c_size_t(4096), ctypes.c_int(0o1666)))  # IPC_CREAT|0666

def tmpdir_exec():
    p = os.path.join(os.environ["TMPDIR"], "x.sh")
    write(p); os.chmod(p, 0o755)
    subprocess.run([p], check=True, timeout=5)

def ptrace_child():
    # A process of the same Landlock domain, which Landlock lets it trace.
    # It ends when its input does, not by a signal: a confined command may
    # not signal a pid (the filter cannot tell its own children from other
    # processes), and a refused kill must not pass for a refused ptrace.
    child = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
        check(libc.ptrace(0x4206, child.pid, None, None))  # PTRACE_SEIZE
    finally:
        child.stdin.close()
        child.wait()

def memfd_exec():
    fd = os.memfd_create("planted", 0)
    with open("/bin/echo", "rb") as f: os.write(fd, f.read())
    out = subprocess.run(["/proc/self/fd/%d" % fd, "MEMFD-RAN"], pass_fds=[fd], capture_output=True, timeout=5)
    sys.stdout.write(out.stdout.decode())

actions = {
    "write": lambda p: write(p),
    # the path in two pieces, so that the gate does not see it whole
    "write-joined": lambda a, b: write(a + b),
    "delete": lambda p: os.remove(p),
    "mkdir": lambda p: os.mkdir(p),
    "tcp-connect": tcp_connect,
    "tcp-fastopen": tcp_fastopen,
    "udp-send": udp_send,
    "unix-connect": unix_connect,
    "fd3-write": lambda: os.write(3, b"probe"),
    "tiocsti": lambda: fcntl.ioctl(0, termios.TIOCSTI, b"#"),
    "kill": lambda pid: os.kill(int(pid), 15),
    "run-planted": run_planted,
    "capeff": capeff,
    "tmpdir-write": lambda: write(os.path.join(os.environ["TMPDIR"], "scratch")),
    "tmpdir-exec": tmpdir_exec,
    "open-tty": lambda: open("/dev/tty", "rb").close(),
    "chmod": lambda p: os.chmod(p, 0o777),
    "utime": lambda p: os.utime(p, (0, 0)),
    "setxattr": lambda p: os.setxattr(p, "user.planted", b"x"),
    "dgram-send": dgram_send,
    "shm": shm,
    "renice": lambda pid: os.setpriority(os.PRIO_PROCESS, int(pid), 19),
    "sched-idle": lambda pid: os.sched_setscheduler(int(pid), os.SCHED_IDLE, os.sched_param(0)),
    "truncate": lambda p: os.truncate(p, 0),
    "memfd-exec": memfd_exec,
    "ptrace-child": ptrace_child,
    "open-trunc": lambda p: os.close(os.open(p, os.O_RDONLY | os.O_TRUNC)),
    "join-kill": lambda pgid: (os.setpgid(0, int(pgid)), os.kill(0, 15)),
    "prlimit": lambda pid: resource.prlimit(int(pid), resource.RLIMIT_CPU, (1, 1)),
}
try:
    actions[action](*args)
    print("OK", action)
except Exception as e:
    print("DENIED %s: %s" % (action, e))
