package e2e

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/agentgate/agentgate/sandbox"
)

// These tests prove confinement by its effect: a program allowed by a
// user rule with sandbox = "read-only" tries to write, connect, inject,
// signal and execute, and the same program under sandbox = "none" succeeds
// at each, so the tests cannot pass by breaking the program.

// requireLandlock skips where the kernel cannot confine, except in CI,
// where a kernel without Landlock is a failure: the promise is tested for
// real there.
func requireLandlock(t *testing.T) {
	t.Helper()
	if s := sandbox.Probe(); s.LandlockABI >= 6 && s.Seccomp {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("CI: this kernel cannot confine (%s); the confinement tests must run here", sandbox.Probe())
	}
	t.Skipf("this kernel cannot fully confine (%s)", sandbox.Probe())
}

const python = "/usr/bin/python3"

// confineHome is a user whose config allows the probe at two levels.
func confineHome(t *testing.T) *home {
	t.Helper()
	requireLandlock(t)
	if _, err := os.Stat(python); err != nil {
		t.Skipf("%s is needed for the probes: %v", python, err)
	}
	h := newHome(t)
	probe, err := os.ReadFile("testdata/sandbox/probe.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.work, "probe.py"), probe, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := `[[allow.rule]]
prefix = "/usr/bin/python3 probe.py confined"
sandbox = "read-only"

[[allow.rule]]
prefix = "/usr/bin/python3 probe.py open"
sandbox = "none"
`
	os.MkdirAll(filepath.Join(h.dir, "config", "agentgate"), 0o700)
	if err := os.WriteFile(filepath.Join(h.dir, "config", "agentgate", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return h
}

// probe runs one probe action through "agentgate exec" at a level
// ("confined" or "open") and returns what it printed.
func (h *home) probe(level, action string, args ...string) string {
	h.t.Helper()
	c := h.probeCmd(level, action, args...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Run(); err != nil {
		h.t.Fatalf("%s %s: %v\n%s", level, action, err, out.String())
	}
	return out.String()
}

func (h *home) probeCmd(level, action string, args ...string) *exec.Cmd {
	argv := append([]string{"exec", "--", python, "probe.py", level, action}, args...)
	c := exec.Command(agentgateBinary(h.t), argv...)
	c.Dir = h.work
	c.Env = h.env("AGENTGATE_TTY=none")
	return c
}

func TestConfinedCannotWrite(t *testing.T) {
	h := confineHome(t)
	tmp := t.TempDir() // under $TMPDIR or /tmp: agent-writable scratch
	for _, dir := range []string{h.work, h.dir, tmp, "/tmp"} {
		existing := filepath.Join(dir, "existing-"+strconv.Itoa(os.Getpid()))
		for _, level := range []string{"confined", "open"} {
			if err := os.WriteFile(existing, []byte("original"), 0o644); err != nil {
				t.Fatal(err)
			}
			created := filepath.Join(dir, "created-"+level)
			out := h.probe(level, "write", created) + h.probe(level, "write", existing) +
				h.probe(level, "mkdir", filepath.Join(dir, "dir-"+level))
			_, createErr := os.Stat(created)
			got, _ := os.ReadFile(existing)
			out += h.probe(level, "delete", existing)
			_, deleteErr := os.Stat(existing)
			if level == "confined" {
				if createErr == nil || string(got) != "original" || deleteErr != nil || strings.Contains(out, "OK ") {
					t.Errorf("confined in %s: created=%v overwritten=%v deleted=%v\n%s", dir, createErr == nil, string(got) != "original", deleteErr != nil, out)
				}
			} else if createErr != nil || string(got) == "original" || deleteErr == nil {
				t.Errorf("unconfined in %s did not write, so the test proves nothing\n%s", dir, out)
			}
			os.Remove(created)
			os.Remove(filepath.Join(dir, "dir-"+level))
			os.Remove(existing)
		}
	}
}

// Listeners the test starts on 127.0.0.1 and a Unix socket count what
// reached them once each probe has ended (pending: the kernel's queues,
// read without waiting).
func TestConfinedCannotConnect(t *testing.T) {
	h := confineHome(t)
	tcp, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	sock := filepath.Join(h.dir, "s.sock")
	ux, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ux.Close()
	reached := func() int {
		return pending(t, tcp.(*net.TCPListener)) + pending(t, udp.(*net.UDPConn)) + pending(t, ux.(*net.UnixListener))
	}
	_, tcpPort, _ := net.SplitHostPort(tcp.Addr().String())
	_, udpPort, _ := net.SplitHostPort(udp.LocalAddr().String())
	probes := [][]string{{"tcp-connect", "127.0.0.1", tcpPort}, {"tcp-fastopen", "127.0.0.1", tcpPort},
		{"udp-send", "127.0.0.1", udpPort}, {"unix-connect", sock}}
	for _, p := range probes {
		out := h.probe("confined", p[0], p[1:]...)
		if got := reached(); got > 0 || !strings.HasPrefix(out, "DENIED") {
			t.Errorf("confined %s reached a listener (%d): %s", p[0], got, out)
		}
	}
	for _, p := range probes {
		out := h.probe("open", p[0], p[1:]...)
		if got := reached(); got == 0 && p[0] != "tcp-fastopen" {
			t.Errorf("unconfined %s did not reach the listener, so the test proves nothing: %s", p[0], out)
		}
	}
}

// An fd 3 opened for writing and passed in is closed before the program
// starts.
func TestConfinedCannotWriteThroughInheritedFD(t *testing.T) {
	h := confineHome(t)
	for _, level := range []string{"confined", "open"} {
		target := filepath.Join(h.dir, "fd3-"+level)
		f, err := os.Create(target)
		if err != nil {
			t.Fatal(err)
		}
		c := h.probeCmd(level, "fd3-write")
		c.ExtraFiles = []*os.File{f}
		out, _ := c.CombinedOutput()
		f.Close()
		got, _ := os.ReadFile(target)
		if level == "confined" && (len(got) > 0 || !strings.HasPrefix(string(out), "DENIED")) {
			t.Errorf("confined wrote %q through fd 3: %s", got, out)
		}
		if level == "open" && len(got) == 0 {
			t.Errorf("unconfined did not write through fd 3, so the test proves nothing: %s", out)
		}
	}
}

// TIOCSTI would type into the user's shell; under a real pty, as its
// controlling terminal, the ioctl is refused.
func TestConfinedCannotInjectIntoTerminal(t *testing.T) {
	h := confineHome(t)
	for _, level := range []string{"confined", "open"} {
		c := h.probeCmd(level, "tiocsti")
		ptmx, err := pty.Start(c)
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		var out bytes.Buffer
		done := make(chan struct{})
		go func() { out.ReadFrom(ptmx); close(done) }()
		c.Wait()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
		ptmx.Close()
		text := out.String()
		if level == "confined" && !strings.Contains(text, "DENIED tiocsti") {
			t.Errorf("confined TIOCSTI was not refused: %q", text)
		}
		if level == "open" && !strings.Contains(text, "OK tiocsti") {
			legacy, _ := os.ReadFile("/proc/sys/dev/tty/legacy_tiocsti")
			if strings.TrimSpace(string(legacy)) != "0" {
				t.Errorf("unconfined TIOCSTI failed, so the test proves nothing: %q", text)
			}
		}
	}
}

// A process outside the sandbox cannot be signalled. A fatal signal's
// exit status is set when kill(2) returns, so ending the victim with
// SIGKILL afterwards and reading how it died answers without waiting.
func TestConfinedCannotSignalOutside(t *testing.T) {
	h := confineHome(t)
	killedBy := func(level string) (syscall.Signal, string) {
		sleeper := exec.Command("sleep", "60")
		if err := sleeper.Start(); err != nil {
			t.Fatal(err)
		}
		out := h.probe(level, "kill", strconv.Itoa(sleeper.Process.Pid))
		sleeper.Process.Signal(syscall.SIGKILL)
		sleeper.Wait()
		ws, _ := sleeper.ProcessState.Sys().(syscall.WaitStatus)
		return ws.Signal(), out
	}
	if sig, out := killedBy("confined"); sig == syscall.SIGTERM || !strings.HasPrefix(out, "DENIED") {
		t.Errorf("the confined command signalled a process outside (%v): %s", sig, out)
	}
	if sig, out := killedBy("open"); sig != syscall.SIGTERM {
		t.Errorf("unconfined kill did not reach the process (%v), so the test proves nothing: %s", sig, out)
	}
}

// A script planted in the working tree cannot be executed directly, and
// the private TMPDIR is writable but not executable.
func TestConfinedCannotExecutePlanted(t *testing.T) {
	h := confineHome(t)
	planted := filepath.Join(h.work, "planted.sh")
	if err := os.WriteFile(planted, []byte("#!/bin/sh\necho PLANTED-RAN\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out := h.probe("confined", "run-planted", planted); strings.Contains(out, "PLANTED-RAN") {
		t.Errorf("the planted script ran confined: %s", out)
	}
	if out := h.probe("open", "run-planted", planted); !strings.Contains(out, "PLANTED-RAN") {
		t.Errorf("the planted script did not run unconfined, so the test proves nothing: %s", out)
	}
	if out := h.probe("confined", "tmpdir-write"); !strings.HasPrefix(out, "OK") {
		t.Errorf("the private TMPDIR is not writable: %s", out)
	}
	if out := h.probe("confined", "tmpdir-exec"); !strings.HasPrefix(out, "DENIED") {
		t.Errorf("a file written to the private TMPDIR could be executed: %s", out)
	}
	if out := h.probe("confined", "open-tty"); !strings.HasPrefix(out, "DENIED") {
		t.Errorf("a confined command opened a terminal: %s", out)
	}
}

// Confined, even root holds no capability; unconfined root does.
func TestConfinedHasNoCapabilities(t *testing.T) {
	h := confineHome(t)
	if out := h.probe("confined", "capeff"); !strings.HasPrefix(out, "DENIED capeff: CapEff is 0") {
		t.Errorf("a confined command holds capabilities: %s", out)
	}
	if os.Geteuid() == 0 {
		if out := h.probe("open", "capeff"); !strings.HasPrefix(out, "OK") {
			t.Errorf("unconfined root has no capabilities, so the test proves nothing: %s", out)
		}
	}
}

// A workspace rule writes under the project root and nowhere else, has no
// network, and its scratch directory is removed when it ends.
func TestWorkspaceConfinement(t *testing.T) {
	h := confineHome(t)
	cfg := filepath.Join(h.dir, "config", "agentgate", "config.toml")
	old, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(old, []byte("\n[[allow.rule]]\nprefix = \"/usr/bin/python3 probe.py ws\"\nsandbox = \"workspace\"\n")...), 0o600)
	if out := h.probe("ws", "write", filepath.Join(h.work, "built.txt")); !strings.HasPrefix(out, "OK") {
		t.Errorf("a workspace command cannot write in the project: %s", out)
	}
	if out := h.probe("ws", "write", filepath.Join(h.dir, "outside.txt")); !strings.HasPrefix(out, "DENIED") {
		t.Errorf("a workspace command wrote outside the project: %s", out)
	}
	// In a repository, unwatched (as a hook runs it): the project is
	// writable and its .git is not, which only the helper's namespaces
	// keep (Landlock grants the whole tree).
	if err := os.MkdirAll(filepath.Join(h.work, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out := h.probe("ws", "write", filepath.Join(h.work, "built2.txt")); !strings.HasPrefix(out, "OK") {
		t.Errorf("a workspace command cannot write in a repository's work tree: %s", out)
	}
	if out := h.probe("ws", "write-joined", ".gi", "t/hooks/pre-commit"); !strings.HasPrefix(out, "DENIED") {
		t.Errorf("a workspace command wrote a git hook: %s", out)
	}
	os.RemoveAll(filepath.Join(h.work, ".git"))
	tcp, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	_, port, _ := net.SplitHostPort(tcp.Addr().String())
	if out := h.probe("ws", "tcp-connect", "127.0.0.1", port); !strings.HasPrefix(out, "DENIED") {
		t.Errorf("a workspace command reached the network: %s", out)
	}
	if out := h.probe("ws", "tmpdir-write"); !strings.HasPrefix(out, "OK") {
		t.Errorf("no scratch space: %s", out)
	}
	left, _ := os.ReadDir(filepath.Join(h.dir, "state", "agentgate", "tmp"))
	for _, e := range left {
		if entries, _ := os.ReadDir(filepath.Join(h.dir, "state", "agentgate", "tmp", e.Name())); len(entries) > 0 {
			t.Errorf("a workspace command's scratch directory %s was left behind with %d files", e.Name(), len(entries))
		}
	}
	// Rooted at $HOME, a workspace would let the command write there: ask
	// (denied here, with no one to ask).
	c := h.probeCmd("ws", "write", filepath.Join(h.dir, "x"))
	c.Dir = h.dir
	out, err := c.CombinedOutput()
	if code(err) != 126 || !strings.Contains(string(out), "workspace sandbox rooted at") {
		t.Errorf("a workspace rooted at $HOME was not refused: exit %d\n%s", code(err), out)
	}
}

// What Landlock does not cover, the seccomp filter does: a file's mode,
// times and attributes, datagrams to a path-named socket, System V shared
// memory, another process's limits.
func TestConfinedCannotChangeMetadataOrReachOutside(t *testing.T) {
	h := confineHome(t)
	victim := filepath.Join(h.dir, "victim.txt")
	for _, level := range []string{"confined", "open"} {
		if err := os.WriteFile(victim, []byte("v"), 0o600); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(victim)
		out := h.probe(level, "chmod", victim) + h.probe(level, "utime", victim)
		after, _ := os.Stat(victim)
		changed := after.Mode() != before.Mode() || !after.ModTime().Equal(before.ModTime())
		if level == "confined" && (changed || strings.Contains(out, "OK ")) {
			t.Errorf("confined changed a file's mode or times (%v -> %v):\n%s", before.Mode(), after.Mode(), out)
		}
		if level == "open" && !changed {
			t.Errorf("unconfined did not change the file, so the test proves nothing:\n%s", out)
		}
	}
	if out := h.probe("confined", "setxattr", victim); !strings.HasPrefix(out, "DENIED") {
		t.Errorf("confined set an extended attribute: %s", out)
	}

	sock := filepath.Join(h.dir, "d.sock")
	ln, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	h.probe("confined", "dgram-send", sock)
	if n := pending(t, ln); n > 0 {
		t.Errorf("a confined datagram reached a socket outside (%d)", n)
	}
	h.probe("open", "dgram-send", sock)
	if n := pending(t, ln); n == 0 {
		t.Error("the unconfined datagram did not arrive, so the test proves nothing")
	}

	if out := h.probe("confined", "shm", "1096109611"); !strings.HasPrefix(out, "DENIED") {
		t.Errorf("confined made a System V shared memory segment: %s", out)
	}

	victimProc := exec.Command("sleep", "60")
	if err := victimProc.Start(); err != nil {
		t.Fatal(err)
	}
	defer victimProc.Process.Kill()
	limits := func() string {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(victimProc.Process.Pid) + "/limits")
		return string(b)
	}
	before := limits()
	out := h.probe("confined", "prlimit", strconv.Itoa(victimProc.Process.Pid))
	if limits() != before || !strings.HasPrefix(out, "DENIED") {
		t.Errorf("confined changed another process's limits: %s", out)
	}
	h.probe("open", "prlimit", strconv.Itoa(victimProc.Process.Pid))
	if limits() == before {
		t.Error("unconfined did not change the limits, so the test proves nothing")
	}
}

// At a terminal a person watches the command, and agentgate is replaced
// by it (no time limit); unwatched it runs as a child, confined from a
// thread of its own. Both paths confine: the same probe cannot write.
func TestConfinedWatchedAndUnwatched(t *testing.T) {
	h := confineHome(t)
	for _, watched := range []bool{true, false} {
		target := filepath.Join(h.dir, fmt.Sprintf("written-%v", watched))
		args := []string{"exec", "--", "/usr/bin/python3 probe.py confined write " + target}
		var out string
		if watched {
			r := h.start(h.env(), args...)
			r.Wait()
			out = r.Screen()
		} else {
			out, _ = h.run(h.env("AGENTGATE_TTY=none"), args...)
		}
		if !strings.Contains(out, "DENIED write") {
			t.Errorf("watched=%v: the probe did not report a denied write:\n%s", watched, out)
		}
		if _, err := os.Stat(target); err == nil {
			t.Errorf("watched=%v: a confined command wrote outside", watched)
		}
	}
}

// A confined command cannot trace even a process of its own domain, which
// Landlock allows (a red team's command attached to the agentgate thread
// that had confined it); unconfined, tracing one's own child works.
func TestConfinedCannotTrace(t *testing.T) {
	h := confineHome(t)
	if out := h.probe("confined", "ptrace-child"); !strings.HasPrefix(out, "DENIED") {
		t.Errorf("a confined command traced a process: %s", out)
	}
	if out := h.probe("open", "ptrace-child"); !strings.HasPrefix(out, "OK") {
		t.Errorf("unconfined tracing of a child failed, so the test proves nothing: %s", out)
	}
}

// The read-only binds of a workspace command hold when its working
// directory is inside a protected directory before the binds are made
// (a red team's make, run in .git, wrote hooks/pre-commit through the
// directory it started in): the helper enters it again by name. The
// same command unprotected writes, so the test cannot pass by a broken
// command.
func TestWorkspaceBindHoldsFromInside(t *testing.T) {
	requireLandlock(t)
	bin := agentgateBinary(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	for _, protect := range []bool{true, false} {
		root := t.TempDir()
		git := filepath.Join(root, ".git")
		if err := os.MkdirAll(filepath.Join(git, "hooks"), 0o755); err != nil {
			t.Fatal(err)
		}
		spec := sandbox.Spec{Level: sandbox.Workspace, Program: sh, Root: root}
		if protect {
			spec.Protect = sandbox.Protected(root)
		}
		c := sandbox.Command(bin, spec, sh, []string{"sh", "-c", "echo x > hooks/pre-commit"}, os.Environ())
		c.Dir = git
		out, _ := c.CombinedOutput()
		_, statErr := os.Stat(filepath.Join(git, "hooks", "pre-commit"))
		if written := statErr == nil; written == protect {
			t.Errorf("protected %v: hook written %v\n%s", protect, written, out)
		}
	}
}

// A workspace command runs in a PID namespace whose first process is the
// helper: a signal agentgate forwards reaches the command through it, the
// command's status comes back (130 for SIGINT), and what the command
// left running ends with it.
func TestWorkspaceSignalsAndLeftovers(t *testing.T) {
	requireLandlock(t)
	bin := agentgateBinary(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	root := t.TempDir()
	spec := sandbox.Spec{Level: sandbox.Workspace, Program: sh, Root: root}
	// A duration no other test sleeps, and this run's own: tests of other
	// packages and the mutation check's copies run side by side.
	marker := fmt.Sprintf("27.%d", 10000+os.Getpid()%90000)
	c := sandbox.Command(bin, spec, sh, []string{"sh", "-c", "sleep " + marker + " & echo up > started; wait"}, os.Environ())
	c.Dir = root
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(root, "started")); err == nil {
			break
		}
		if i > 1000 {
			t.Fatalf("the command did not start\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = c.Process.Signal(syscall.SIGINT)
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		_ = c.Process.Kill()
		t.Fatalf("the command did not end on SIGINT\n%s", out.String())
	}
	if got := code(err); got != 130 {
		t.Errorf("exit status %d after SIGINT; want 130\n%s", got, out.String())
	}
	if found, _ := exec.Command("pgrep", "-f", "sleep "+marker).Output(); len(found) > 0 {
		t.Errorf("the command's background sleep outlived it: pids %s", found)
	}
}
