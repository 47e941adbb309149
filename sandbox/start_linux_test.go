//go:build linux && (amd64 || arm64)

package sandbox

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// attackEnv makes this test binary the attacker of TestForkedChildCannotReachAgentgate.
const attackEnv = "AGENTGATE_SANDBOX_ATTACK"

func TestMain(m *testing.M) {
	if os.Getenv(attackEnv) != "" {
		attackParent()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// attackParent is a hostile command forked from a thread of agentgate:
// once told to go (a line on stdin), it tries, on every thread of its
// parent, what Landlock lets a domain do to its own (trace it, open its
// memory, signal it by pid) and prints one line per try: "ACTION TID OK"
// or "ACTION TID DENIED ERR". SIGCONT stands for a signal: it does no
// harm to a running process, and any signal by pid that gets through
// could as well be SIGKILL or SIGSTOP.
func attackParent() {
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	ppid := os.Getppid()
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", ppid))
	if err != nil {
		fmt.Println("list", ppid, "DENIED", err)
		return
	}
	report := func(action string, tid int, err error) {
		if err != nil {
			fmt.Println(action, tid, "DENIED", err)
		} else {
			fmt.Println(action, tid, "OK")
		}
	}
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		err = unix.PtraceSeize(tid)
		if err == nil {
			_ = unix.PtraceDetach(tid)
		}
		report("ptrace", tid, err)
		f, err := os.Open(fmt.Sprintf("/proc/%d/task/%d/mem", ppid, tid))
		if err == nil {
			f.Close()
		}
		report("mem", tid, err)
		report("tgkill", tid, unix.Tgkill(ppid, tid, unix.SIGCONT))
		report("kill", tid, unix.Kill(tid, unix.SIGCONT))
	}
}

// attack starts the attacker with start, lets it go once the thread it
// was started from is known (held alive by heldThread for a confined
// start), and returns its report by action and thread.
func attack(t *testing.T, start func(*exec.Cmd) error, held chan int) (map[string]map[int]string, int) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(self)
	c.Env = append(os.Environ(), attackEnv+"=1")
	in, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.Stderr = os.Stderr
	if err := start(c); err != nil {
		t.Fatal(err)
	}
	thread := 0
	if held != nil {
		thread = <-held
	}
	fmt.Fprintln(in, "go")
	b, _ := io.ReadAll(out)
	if err := c.Wait(); err != nil {
		t.Fatalf("the attacker failed: %v\n%s", err, b)
	}
	got := map[string]map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, " ", 3)
		if len(f) < 3 {
			t.Fatalf("attacker: %q", line)
		}
		tid, _ := strconv.Atoi(f[1])
		if got[f[0]] == nil {
			got[f[0]] = map[int]string{}
		}
		got[f[0]][tid] = f[2]
	}
	return got, thread
}

// A child forked from a thread of agentgate confined for it shares that
// thread's Landlock domain while the thread lives, and Landlock lets a
// domain trace and signal its own (a red team's command once attached to
// such a thread with ptrace before it ended and wrote into agentgate's
// memory). Here the thread is held alive until the attack is over, which
// the scheduler may always do, and the attack must fail on every thread
// of agentgate, that one included. The same attack from an unconfined
// child succeeds, so the test cannot pass by a broken attacker.
func TestForkedChildCannotReachAgentgate(t *testing.T) {
	if s := Probe(); s.LandlockABI < 1 || !s.Seccomp {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: this kernel cannot confine (%s)", s)
		}
		t.Skipf("this kernel cannot confine (%s)", s)
	}
	defer unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0)

	open, _ := attack(t, (*exec.Cmd).Start, nil)
	for _, action := range []string{"ptrace", "mem", "tgkill", "kill"} {
		ok := 0
		for _, r := range open[action] {
			if r == "OK" {
				ok++
			}
		}
		if ok == 0 {
			t.Fatalf("unconfined, %s reached no thread of its parent, so the test proves nothing: %v", action, open[action])
		}
	}

	held, release := make(chan int, 1), make(chan struct{})
	heldThread = func() {
		held <- unix.Gettid()
		<-release
	}
	defer func() { heldThread = nil }()
	self, _ := os.Executable()
	spec := Spec{Level: ReadOnly, Program: self}
	got, thread := attack(t, func(c *exec.Cmd) error { return StartConfined(c, spec) }, held)
	close(release)
	if thread == os.Getpid() {
		t.Errorf("the child was started from the main thread, which Go never ends")
	}
	for _, action := range []string{"ptrace", "mem", "tgkill", "kill"} {
		if _, ok := got[action][thread]; !ok {
			t.Errorf("%s: the attacker did not see the confined thread %d alive: %v", action, thread, got[action])
		}
		for tid, r := range got[action] {
			if r == "OK" {
				t.Errorf("a confined child's %s reached agentgate's thread %d (the confined one: %v)", action, tid, tid == thread)
			}
		}
	}
}
