package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agentgate/agentgate/sandbox"
)

// The kernel-feature matrix: the same attacks under confinement built for
// older kernels (a lower Landlock ABI, or none), standing for the kernels
// the default runs on. Each promise of the read-only level either still
// holds there, by another mechanism, or the level reports it as not kept
// (and then a user rule at that level asks: TestUnkeptLevelAsks). Each
// attack is shown to work unconfined, so the matrix cannot pass by
// breaking the probe.
func TestPromisesOnEveryKernel(t *testing.T) {
	requireLandlock(t)
	if _, err := os.Stat(python); err != nil {
		t.Skipf("%s is needed for the probes: %v", python, err)
	}
	bin := agentgateBinary(t)
	dir := t.TempDir()
	probe, err := os.ReadFile("testdata/sandbox/probe.py")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "probe.py")
	os.WriteFile(script, probe, 0o644)

	start := func(spec sandbox.Spec, action string, args ...string) (string, error) {
		spec.Program = python
		c := sandbox.Command(bin, spec, python, append([]string{python, script, "x", action}, args...), os.Environ())
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		err := c.Run()
		return out.String(), err
	}
	run := func(spec sandbox.Spec, action string, args ...string) string {
		t.Helper()
		out, err := start(spec, action, args...)
		if err != nil {
			t.Fatalf("%s at ABI %d: %v\n%s", action, spec.LandlockABI, err, out)
		}
		return out
	}
	// victim is a process outside the command; done ends it and says
	// whether the command's signal reached it. A fatal signal's exit code
	// is set when kill(2) returns, so the answer does not depend on timing.
	victim := func(ownGroup bool) (pid int, done func() (signalled bool)) {
		p := exec.Command("sleep", "60")
		p.SysProcAttr = &syscall.SysProcAttr{Setpgid: ownGroup}
		if err := p.Start(); err != nil {
			t.Fatal(err)
		}
		return p.Process.Pid, func() bool {
			p.Process.Signal(syscall.SIGKILL)
			p.Wait()
			ws, _ := p.ProcessState.Sys().(syscall.WaitStatus)
			return ws.Signaled() && ws.Signal() == syscall.SIGTERM
		}
	}
	attacks := []struct {
		could string // the promise, as sandbox.Support.Missing names it
		try   func(spec sandbox.Spec) (happened bool, out string)
	}{
		{"signal processes outside", func(spec sandbox.Spec) (bool, string) {
			pid, done := victim(false)
			out := run(spec, "kill", strconv.Itoa(pid))
			return done(), out
		}},
		// Joining another process group, then signalling "my group"
		// (kill 0). Unconfined, the probe dies with its victim.
		{"signal processes outside", func(spec sandbox.Spec) (bool, string) {
			pid, done := victim(true)
			out, _ := start(spec, "join-kill", strconv.Itoa(pid))
			return done(), out
		}},
		{"change other processes' scheduling, priority or limits", func(spec sandbox.Spec) (bool, string) {
			pid, done := victim(false)
			defer done()
			before, _ := syscall.Getpriority(syscall.PRIO_PROCESS, pid)
			out := run(spec, "renice", strconv.Itoa(pid)) + run(spec, "sched-idle", strconv.Itoa(pid))
			after, _ := syscall.Getpriority(syscall.PRIO_PROCESS, pid)
			stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			f := strings.Fields(string(stat))
			idle := len(f) > 40 && f[40] == "5" // SCHED_IDLE
			return before != after || idle, out
		}},
		{"execute memory files (memfd, execveat)", func(spec sandbox.Spec) (bool, string) {
			out := run(spec, "memfd-exec")
			return strings.Contains(out, "MEMFD-RAN"), out
		}},
		{"write files", func(spec sandbox.Spec) (bool, string) {
			p := filepath.Join(dir, "written")
			os.Remove(p)
			out := run(spec, "write", p)
			_, err := os.Stat(p)
			return err == nil, out
		}},
		{"truncate files", func(spec sandbox.Spec) (bool, string) {
			p := filepath.Join(dir, "kept")
			os.WriteFile(p, []byte("kept"), 0o644)
			out := run(spec, "truncate", p)
			st, _ := os.Stat(p)
			return st.Size() == 0, out
		}},
		{"truncate files", func(spec sandbox.Spec) (bool, string) {
			p := filepath.Join(dir, "kept")
			os.WriteFile(p, []byte("kept"), 0o644)
			out := run(spec, "open-trunc", p)
			st, _ := os.Stat(p)
			return st.Size() == 0, out
		}},
	}
	for _, a := range attacks {
		if happened, out := a.try(sandbox.Spec{Level: sandbox.None}); !happened {
			t.Errorf("unconfined, the attack %q did not work, so the matrix proves nothing:\n%s", a.could, out)
		}
	}
	kernel := sandbox.Probe()
	for _, abi := range []int{-1, 1, 2, 3, 5, 0} {
		sup := kernel
		if abi < 0 {
			sup.LandlockABI = 0
		} else if abi > 0 {
			sup.LandlockABI = abi
		}
		missing := sup.Missing(sandbox.ReadOnly)
		spec := sandbox.Spec{Level: sandbox.ReadOnly, LandlockABI: abi}
		for _, a := range attacks {
			happened, out := a.try(spec)
			if happened && !slices.Contains(missing, a.could) {
				t.Errorf("Landlock ABI %d (%s): the command could %s, which the level promises it cannot:\n%s", sup.LandlockABI, sup, a.could, out)
			}
		}
		if abi == 0 && len(missing) > 0 {
			t.Errorf("this kernel (%s) does not keep every promise: %v", sup, missing)
		}
	}
}
