package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/agentgate/agentgate/internal/e2e/harness"
)

// These tests run the real binary under a pseudo-terminal, which becomes
// its controlling terminal and so its /dev/tty: the prompt is read and
// answered the way a person would, with keystrokes.

// agentgateBinary is agentgate built from this tree (harness.Binary).
func agentgateBinary(t *testing.T) string { return harness.Binary(t) }

// ptyRun is agentgate running under a pty; slave is the terminal's name,
// to read its modes afterwards.
type ptyRun struct {
	*harness.Pty
	t     *testing.T
	slave string
}

// home is one user's world: its own config, state and session.
type home struct {
	t                    *testing.T
	dir, work, log, mark string
}

func newHome(t *testing.T) *home {
	dir := t.TempDir()
	h := &home{t: t, dir: dir, work: filepath.Join(dir, "work"), log: filepath.Join(dir, "state", "agentgate", "audit.jsonl")}
	os.MkdirAll(h.work, 0o755)
	h.mark = filepath.Join(h.work, "marker")
	return h
}

func (h *home) env(extra ...string) []string {
	return append([]string{
		"HOME=" + h.dir, "XDG_CONFIG_HOME=" + filepath.Join(h.dir, "config"), "XDG_STATE_HOME=" + filepath.Join(h.dir, "state"),
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color",
	}, extra...)
}

func (h *home) start(env []string, args ...string) *ptyRun {
	h.t.Helper()
	return h.startWith(env, "", exec.Command(agentgateBinary(h.t), args...))
}

// startWith starts c on a new pseudo-terminal, its controlling terminal,
// after typing typeAhead on it.
func (h *home) startWith(env []string, typeAhead string, c *exec.Cmd) *ptyRun {
	h.t.Helper()
	c.Dir = h.work
	c.Env = env
	ptmx, tty, err := pty.Open()
	if err != nil {
		h.t.Skipf("no pseudo-terminal: %v", err)
	}
	pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 160})
	if typeAhead != "" {
		ptmx.Write([]byte(typeAhead))
	}
	c.Stdin, c.Stdout, c.Stderr = tty, tty, tty
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := c.Start(); err != nil {
		h.t.Fatal(err)
	}
	tty.Close()
	r := &ptyRun{Pty: harness.Read(h.t, c, ptmx, 15*time.Second), t: h.t, slave: tty.Name()}
	return r
}

// cooked reports whether the terminal is back in its normal modes (line
// editing, echo, signal keys), as stty would show them.
func (r *ptyRun) cooked() bool {
	f, err := os.OpenFile(r.slave, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		r.t.Fatalf("reopen the terminal: %v", err)
	}
	defer f.Close()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), tcgets)
	if err != nil {
		r.t.Fatal(err)
	}
	return tio.Lflag&unix.ICANON != 0 && tio.Lflag&unix.ECHO != 0 && tio.Lflag&unix.ISIG != 0 && tio.Iflag&unix.ICRNL != 0
}

// records returns the escalation records of the audit log.
func (h *home) records() []map[string]any {
	h.t.Helper()
	data, err := os.ReadFile(h.log)
	if err != nil {
		h.t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			h.t.Fatal(err)
		}
		if rec["event"] == "escalation" {
			out = append(out, rec)
		}
	}
	return out
}

// lastRecord returns the last escalation record of the audit log.
func (h *home) lastRecord() map[string]any {
	h.t.Helper()
	data, err := os.ReadFile(h.log)
	if err != nil {
		h.t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		var rec map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &rec); err != nil {
			h.t.Fatalf("audit line %d: %v", i+1, err)
		}
		if rec["event"] == "escalation" {
			return rec
		}
	}
	h.t.Fatal("no escalation record")
	return nil
}

// The prompt shows the exact command with invisible characters made
// visible, the directory, the reasons and the shell's view; each of the
// four choices does what it says, and session memory applies after.
func TestPromptChoices(t *testing.T) {
	// A right-to-left override makes the command escalate (an odd
	// character) and must be shown escaped; bash reads it inside a comment.
	const command = "touch marker # \u202e"
	tests := []struct {
		keys     string
		ran      bool
		outcome  string
		status   int
		next     string // outcome of the same command next time, with no terminal
		nextRuns bool
	}{
		{"allow\r", true, "approved_once", 0, "denied_noninteractive", false},
		{"session\r", true, "approved_session", 0, "allowed_by_session", true},
		{"d", false, "denied", 126, "denied_noninteractive", false},
		{"n", false, "denied_session", 126, "denied_by_session", false},
		{"\r", false, "denied", 126, "denied_noninteractive", false},           // Enter takes the preset: Deny
		{"\x1b[B\r", true, "approved_once", 0, "denied_noninteractive", false}, // down, Enter: Allow once
		// What a person types when asked "run this command?": nothing
		// approves, the last Enter takes the highlighted Deny.
		{"yes\r\r", false, "denied", 126, "denied_noninteractive", false},
		{"y\r\r", false, "denied", 126, "denied_noninteractive", false},
		{"/session\r\r", false, "denied", 126, "denied_noninteractive", false},
		{"\x1b[A\r", false, "denied", 126, "denied_noninteractive", false}, // Up from Deny does not wrap
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.keys, "\x1b", "ESC"), func(t *testing.T) {
			h := newHome(t)
			// The pty is a Unix session of its own: --session names one
			// for the call at the terminal and the next call outside it.
			r := h.start(h.env(), "exec", "--session", "pty-test", "--", command)
			r.WaitFor("run this command?")
			r.WaitFor("Deny for this session")
			screen := r.Screen()
			for _, want := range []string{`touch marker # \u202e`, "in:       " + h.work, `U+202E`, "command: touch marker", `type "allow"`, `type "session"`, "[d]", "[n]"} {
				if !strings.Contains(screen, want) {
					t.Errorf("the prompt lacks %q:\n%s", want, screen)
				}
			}
			if strings.Contains(screen, "\u202e") {
				t.Errorf("the prompt shows a raw U+202E")
			}
			r.Send(tt.keys)
			if got := r.Wait(); got != tt.status {
				t.Errorf("exit status %d; want %d\n%s", got, tt.status, r.Screen())
			}
			if !strings.Contains(r.Screen(), "answer: ") {
				t.Errorf("the final screen does not show the answer taken:\n%s", r.Screen())
			}
			if !r.cooked() {
				t.Error("the terminal was left in raw mode")
			}
			_, err := os.Stat(h.mark)
			if ran := err == nil; ran != tt.ran {
				t.Errorf("command ran: %v; want %v", ran, tt.ran)
			}
			if got := h.lastRecord()["outcome"]; got != tt.outcome {
				t.Errorf("outcome %v; want %s", got, tt.outcome)
			}
			os.Remove(h.mark)
			c := exec.Command(agentgateBinary(t), "exec", "--session", "pty-test", "--", command)
			c.Dir = h.work
			c.Env = h.env("AGENTGATE_TTY=none")
			c.Run()
			if got := h.lastRecord()["outcome"]; got != tt.next {
				t.Errorf("next call: outcome %v; want %s", got, tt.next)
			}
			if _, err := os.Stat(h.mark); (err == nil) != tt.nextRuns {
				t.Errorf("next call ran: %v; want %v", err == nil, tt.nextRuns)
			}
		})
	}
}

func TestPromptEndings(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		h := newHome(t)
		r := h.start(h.env(), "exec", "--prompt-timeout", "1s", "--", "touch marker")
		r.WaitFor("run this command?")
		if got := r.Wait(); got != 126 {
			t.Errorf("status %d", got)
		}
		if got := h.lastRecord()["outcome"]; got != "timeout" {
			t.Errorf("outcome %v", got)
		}
		if !strings.Contains(r.Screen(), "no answer within 1s") {
			t.Errorf("screen:\n%s", r.Screen())
		}
	})
	for name, keys := range map[string]string{"ctrl-c": "\x03", "esc": "\x1b"} {
		t.Run(name, func(t *testing.T) {
			h := newHome(t)
			r := h.start(h.env(), "exec", "--", "touch marker")
			r.WaitFor("Deny for this session")
			r.Send(keys)
			if got := r.Wait(); got != 126 {
				t.Errorf("status %d", got)
			}
			if got := h.lastRecord()["outcome"]; got != "interrupted" {
				t.Errorf("outcome %v", got)
			}
			if _, err := os.Stat(h.mark); err == nil {
				t.Error("the command ran")
			}
		})
	}
	t.Run("sigterm", func(t *testing.T) {
		h := newHome(t)
		r := h.start(h.env(), "exec", "--", "touch marker")
		r.WaitFor("Deny for this session")
		r.Signal(syscall.SIGTERM)
		if got := r.Wait(); got != 126 {
			t.Errorf("status %d", got)
		}
		if !r.cooked() {
			t.Error("the terminal was left in raw mode after SIGTERM")
		}
		if got := h.lastRecord()["outcome"]; got != "interrupted" {
			t.Errorf("outcome %v", got)
		}
	})
}

func TestPromptAccessible(t *testing.T) {
	for _, tt := range []struct {
		name, keys, outcome string
		ran                 bool
	}{
		{"choose 2", "2\r", "approved_once", true},
		{"choose 1", "1\r", "denied", false},
		{"end of input", "\x04", "denied", false},
		{"nonsense then end", "yes\r\x04", "denied", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHome(t)
			r := h.start(h.env("AGENTGATE_ACCESSIBLE=1"), "exec", "--", "touch marker")
			r.WaitFor("Deny for this session")
			r.Send(tt.keys)
			status := r.Wait()
			if _, err := os.Stat(h.log); err != nil {
				t.Fatalf("no audit log (status %d); screen:\n%s", status, r.Screen())
			}
			if got := h.lastRecord()["outcome"]; got != tt.outcome {
				t.Errorf("outcome %v; want %s\n%s", got, tt.outcome, r.Screen())
			}
			if _, err := os.Stat(h.mark); (err == nil) != tt.ran {
				t.Errorf("ran %v; want %v", err == nil, tt.ran)
			}
		})
	}
}

// With prompt_challenge, allowing needs the code shown on the screen.
func TestPromptChallenge(t *testing.T) {
	for _, right := range []bool{true, false} {
		h := newHome(t)
		os.MkdirAll(filepath.Join(h.dir, "config", "agentgate"), 0o700)
		os.WriteFile(filepath.Join(h.dir, "config", "agentgate", "config.toml"), []byte("prompt_challenge = true\n"), 0o600)
		r := h.start(h.env("AGENTGATE_ACCESSIBLE=1"), "exec", "--", "touch marker")
		r.WaitFor("Deny for this session")
		r.Send("2\r")
		r.WaitFor("to confirm")
		code := regexp.MustCompile(`Type ([A-Z]{4}) to confirm`).FindStringSubmatch(r.Screen())
		if code == nil {
			t.Fatalf("no code shown:\n%s", r.Screen())
		}
		typed := code[1]
		if !right {
			typed = "ZZZZ"
		}
		r.Send(typed + "\r")
		r.Wait()
		_, err := os.Stat(h.mark)
		if (err == nil) != right {
			t.Errorf("code right=%v: ran %v", right, err == nil)
		}
	}
}

// "Always allow" writes the prefix to learned.toml; the next call runs
// without asking.
func TestPromptAlwaysAllow(t *testing.T) {
	h := newHome(t)
	r := h.start(h.env(), "exec", "--", "touch marker")
	r.WaitFor(`Always allow "touch"`)
	r.Send("always\r")
	r.WaitFor(`Add prefix = ["touch"] to learned.toml?`)
	r.Send("\x1b[B\x1b[B\r")
	if got := r.Wait(); got != 0 {
		t.Fatalf("status %d\n%s", got, r.Screen())
	}
	data, err := os.ReadFile(filepath.Join(h.dir, "config", "agentgate", "learned.toml"))
	if err != nil || !strings.Contains(string(data), `"touch",`) {
		t.Fatalf("learned.toml: %v %s", err, data)
	}
	os.Remove(h.mark)
	c := exec.Command(agentgateBinary(t), "exec", "--", "touch marker")
	c.Dir, c.Env = h.work, h.env("AGENTGATE_TTY=none")
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("after always allow: %v %s", err, out)
	}
	if _, err := os.Stat(h.mark); err != nil {
		t.Error("the learned prefix did not allow the command")
	}
}

// "Always allow" is never offered for a program that deletes; a build is
// offered confined to the project, and the rule it writes runs the build
// confined: it writes in the project, not outside it.
func TestPromptAlwaysAllowIsConfinedForBuilds(t *testing.T) {
	h := newHome(t)
	os.MkdirAll(filepath.Join(h.work, "build"), 0o755)
	r := h.start(h.env(), "exec", "--", "rm -rf build")
	r.WaitFor("Deny for this session")
	if strings.Contains(r.Screen(), "Always allow") {
		t.Errorf("the prompt offers to always allow rm:\n%s", r.Screen())
	}
	r.Send("\r")
	r.Wait()

	requireLandlock(t)
	outside := filepath.Join(h.dir, "outside")
	os.WriteFile(filepath.Join(h.work, "Makefile"), []byte("built:\n\ttouch built\n\t-touch "+outside+"\n"), 0o644)
	r = h.start(h.env(), "exec", "--", "make built")
	r.WaitFor(`Always allow "make built" confined to the project`)
	r.Send("always\r")
	r.WaitFor(`sandbox = "workspace" to learned.toml?`)
	r.Send("add\r")
	if got := r.Wait(); got != 0 {
		t.Fatalf("status %d\n%s", got, r.Screen())
	}
	data, _ := os.ReadFile(filepath.Join(h.dir, "config", "agentgate", "learned.toml"))
	if !strings.Contains(string(data), "[[allow.rule]]\nprefix = \"make built\"\nsandbox = \"workspace\"\n") {
		t.Fatalf("learned.toml:\n%s", data)
	}
	os.Remove(filepath.Join(h.work, "built"))
	os.Remove(outside)
	c := exec.Command(agentgateBinary(t), "exec", "--", "make built")
	c.Dir, c.Env = h.work, h.env("AGENTGATE_TTY=none")
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("the learned rule did not run make: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(h.work, "built")); err != nil {
		t.Error("the confined build could not write in the project")
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("the build the learned rule runs wrote outside the project")
	}
}

// With no controlling terminal (a daemonised agent, setsid), /dev/tty
// cannot be opened: the escalation is denied at once, never a wait.
func TestNoControllingTerminal(t *testing.T) {
	h := newHome(t)
	c := exec.Command(agentgateBinary(t), "exec", "--", "touch marker")
	c.Dir, c.Env = h.work, h.env()
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var stderr bytes.Buffer
	c.Stderr = &stderr
	start := time.Now()
	err := c.Run()
	if c.ProcessState.ExitCode() != 126 || time.Since(start) > 10*time.Second {
		t.Fatalf("status %d (%v) after %s: %s", c.ProcessState.ExitCode(), err, time.Since(start), stderr.String())
	}
	if !strings.Contains(stderr.String(), "no one to ask: no terminal (open /dev/tty:") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if got := h.lastRecord()["outcome"]; got != "denied_noninteractive" {
		t.Errorf("outcome %v", got)
	}
}

// On a terminal inside tmux, nothing at start-up runs "tmux info" (which
// lipgloss's colour detection would do), and the command's environment
// keeps NO_COLOR as it was.
func TestAllowPathRunsNothingElse(t *testing.T) {
	h := newHome(t)
	bin := filepath.Join(h.dir, "bin")
	os.MkdirAll(bin, 0o755)
	marker := filepath.Join(h.dir, "tmux-ran")
	os.WriteFile(filepath.Join(bin, "tmux"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
	env := h.env("TMUX=/tmp/tmux-0/default,1,0", "COLORTERM=", "PATH="+bin+":"+os.Getenv("PATH"))
	r := h.start(env, "exec", "--allow", "printenv", "--", "printenv NO_COLOR TERM")
	if got := r.Wait(); got != 1 {
		// printenv exits 1 when a variable is unset: NO_COLOR must be.
		t.Errorf("status %d; want 1 (NO_COLOR unset in the command's environment)\n%s", got, r.Screen())
	}
	if !strings.Contains(r.Screen(), "xterm-256color") {
		t.Errorf("the command did not run: %s", r.Screen())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("agentgate ran tmux at start-up")
	}
	r = h.start(h.env("NO_COLOR=yes"), "exec", "--allow", "printenv", "--", "printenv NO_COLOR")
	r.Wait()
	if !strings.Contains(r.Screen(), "yes") {
		t.Errorf("NO_COLOR=yes did not reach the command: %q", r.Screen())
	}
}

// Two escalations at once on one terminal (an agent running tool calls in
// parallel): one prompt at a time, the second waits with a notice, both
// are answered, and the terminal is left as it was.
func TestPromptTwoAtOnce(t *testing.T) {
	h := newHome(t)
	bin := agentgateBinary(t)
	script := bin + ` exec -- "touch one" & ` + bin + ` exec -- "touch two"; wait`
	r := h.startWith(h.env("XDG_RUNTIME_DIR="+h.dir), "", exec.Command("sh", "-c", script))
	r.WaitFor("Deny for this session")
	r.WaitFor("waiting for another approval on this terminal")
	r.Send("\r")
	// The second prompt appears once the first is answered.
	deadline := time.Now().Add(10 * time.Second)
	for !(strings.Contains(r.Screen(), "touch one") && strings.Contains(r.Screen(), "touch two")) {
		if time.Now().After(deadline) {
			t.Fatalf("the second prompt never appeared:\n%s", r.Screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.Send("\r")
	r.Wait()
	recs := h.records()
	if len(recs) != 2 || recs[0]["outcome"] != "denied" || recs[1]["outcome"] != "denied" {
		t.Errorf("records: %v", recs)
	}
	if strings.Count(r.Screen(), "answer: deny") != 2 {
		t.Errorf("two answers expected on screen:\n%s", r.Screen())
	}
	if !r.cooked() {
		t.Error("the terminal was left in raw mode after two prompts")
	}
}

// Keys typed before the prompt appeared (meant for the shell or the
// agent) are discarded: Down, Enter would otherwise allow once.
func TestPromptTypeAhead(t *testing.T) {
	for name, ahead := range map[string]string{"full-screen": "\x1b[B\r", "accessible": "2\n"} {
		t.Run(name, func(t *testing.T) {
			h := newHome(t)
			env := h.env()
			if name == "accessible" {
				env = h.env("AGENTGATE_ACCESSIBLE=1")
			}
			r := h.startWith(env, ahead, exec.Command(agentgateBinary(t), "exec", "--", "touch marker"))
			r.WaitFor("Deny for this session")
			r.Send("\r")
			if got := r.Wait(); got != 126 {
				t.Errorf("status %d; want 126\n%s", got, r.Screen())
			}
			if _, err := os.Stat(h.mark); err == nil {
				t.Error("type-ahead approved the command")
			}
		})
	}
}

// The plain prompt shows what the full-screen one shows: command,
// directory, reasons, the shell's view, before the numbered choices.
func TestPromptAccessibleContent(t *testing.T) {
	h := newHome(t)
	r := h.start(h.env("AGENTGATE_ACCESSIBLE=1"), "exec", "--", "touch marker && rm -r marker")
	r.WaitFor("Deny for this session")
	scr := r.Screen()
	for _, want := range []string{"command:  touch marker && rm -r marker", "in:       " + h.work, "why:", "&&", "note: rm deletes files", "the shell would run:", "1. Deny"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the plain prompt lacks %q:\n%s", want, scr)
		}
	}
	if strings.Index(scr, "in:       ") > strings.Index(scr, "1. Deny") {
		t.Errorf("the content comes after the choices:\n%s", scr)
	}
	r.Send("yes\r")
	r.WaitFor("is not one of the choices")
	r.Send("\x04")
	if got := r.Wait(); got != 126 {
		t.Errorf("status %d", got)
	}
	if !r.cooked() {
		t.Error("terminal modes not restored")
	}
}

// A 200-line command in a 40-row terminal: its last line and the choices
// are on screen.
func TestPromptLongCommand(t *testing.T) {
	h := newHome(t)
	cmd := strings.Repeat("true\n", 199) + "touch marker"
	r := h.start(h.env(), "exec", "--", cmd)
	r.WaitFor("Deny for this session")
	for _, want := range []string{"command (200 lines", "200 | touch marker", "  1 | true", "Allow once"} {
		r.WaitFor(want)
	}
	r.Send("\r")
	if got := r.Wait(); got != 126 {
		t.Errorf("status %d", got)
	}
	if !r.cooked() {
		t.Error("terminal modes not restored")
	}
}

// run runs agentgate with no terminal and returns its combined output.
func (h *home) run(env []string, args ...string) (string, int) {
	h.t.Helper()
	c := exec.Command(agentgateBinary(h.t), args...)
	c.Dir, c.Env = h.work, env
	out, _ := c.CombinedOutput()
	return string(out), c.ProcessState.ExitCode()
}

// Trusting a project file shows what it turns on and needs a deliberate
// answer at the terminal; "yes" does nothing.
func TestTrustConfirmation(t *testing.T) {
	for _, tt := range []struct {
		keys    string
		trusted bool
	}{
		{"yes\r\r", false},
		{"\r", false},
		{"trust\r", true},
		{"\x1b[B\r", true},
	} {
		h := newHome(t)
		os.MkdirAll(filepath.Join(h.work, ".git"), 0o755)
		os.WriteFile(filepath.Join(h.work, ".agentgate.toml"), []byte("[allow]\nprefix = [\"touch\"]\n"), 0o644)
		r := h.start(h.env("XDG_RUNTIME_DIR="+h.dir), "trust")
		r.WaitFor("Trust it")
		for _, want := range []string{"Trust " + h.work + "/.agentgate.toml? Trusting it turns on:", `allow without asking: touch  (line 2)`, "not proof that a person is there"} {
			if !strings.Contains(r.Screen(), want) {
				t.Errorf("the confirmation lacks %q:\n%s", want, r.Screen())
			}
		}
		r.Send(tt.keys)
		status := r.Wait()
		if (status == 0) != tt.trusted {
			t.Errorf("%q: status %d\n%s", tt.keys, status, r.Screen())
		}
		if !r.cooked() {
			t.Error("terminal modes not restored")
		}
		h.run(h.env("AGENTGATE_TTY=none"), "exec", "--", "touch marker")
		if _, err := os.Stat(h.mark); (err == nil) != tt.trusted {
			t.Errorf("%q: the project's allow rule applied: %v; want %v", tt.keys, err == nil, tt.trusted)
		}
	}
}

// Session memory can be listed and revoked; the breaker reset needs a
// confirmation.
func TestSessionCommands(t *testing.T) {
	h := newHome(t)
	r := h.start(h.env(), "exec", "--session", "pty-test", "--", "touch marker")
	r.WaitFor("Deny for this session")
	r.Send("session\r")
	if got := r.Wait(); got != 0 {
		t.Fatalf("status %d", got)
	}
	out, _ := h.run(h.env(), "session", "--session", "pty-test", "list")
	if !strings.Contains(out, "pty-test (this session)") || !strings.Contains(out, "allowed  until") || !strings.Contains(out, "touch marker") {
		t.Errorf("session list:\n%s", out)
	}
	if out, code := h.run(h.env(), "session", "revoke", "pty-test"); code != 0 || !strings.Contains(out, "revoked 1 session approvals in 1 sessions") {
		t.Errorf("revoke: %d %s", code, out)
	}
	os.Remove(h.mark)
	if _, code := h.run(h.env("AGENTGATE_TTY=none"), "exec", "--session", "pty-test", "--", "touch marker"); code != 126 {
		t.Errorf("after revoke the command ran without asking: %d", code)
	}

	for range 4 {
		h.run(h.env("AGENTGATE_TTY=none"), "exec", "--session", "pty-test", "--", "make deploy")
	}
	if got := h.lastRecord()["outcome"]; got != "breaker" {
		t.Fatalf("outcome %v", got)
	}
	r = h.start(h.env("XDG_RUNTIME_DIR="+h.dir), "session", "--session", "pty-test", "reset-breaker")
	r.WaitFor("Reset it")
	if !strings.Contains(r.Screen(), "make deploy") {
		t.Errorf("the confirmation does not show what is reset:\n%s", r.Screen())
	}
	r.Send("\x1b[B\r")
	if got := r.Wait(); got != 0 {
		t.Fatalf("reset-breaker: status %d\n%s", got, r.Screen())
	}
	h.run(h.env("AGENTGATE_TTY=none"), "exec", "--session", "pty-test", "--", "make deploy")
	if got := h.lastRecord()["outcome"]; got != "denied_noninteractive" {
		t.Errorf("after reset: outcome %v", got)
	}
}

// audit suggest --apply adds prefixes only after a confirmation.
func TestSuggestApplyConfirmation(t *testing.T) {
	for _, keys := range []string{"y\r\r", "add\r"} {
		h := newHome(t)
		var log strings.Builder
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(&log, `{"time":"2026-11-0%dT10:00:00.000Z","id":"%d","event":"escalation","command":"pytest -q","cwd":"/p","decision":"ask","outcome":"approved_once","session":"a","seq":%d,"prev":""}`+"\n", i, i, i)
		}
		fixture := filepath.Join(h.dir, "fixture.jsonl")
		os.WriteFile(fixture, []byte(log.String()), 0o600)
		r := h.start(h.env("XDG_RUNTIME_DIR="+h.dir), "audit", "suggest", "--audit-log", fixture, "--apply")
		r.WaitFor("Add them")
		if !strings.Contains(r.Screen(), "allow without asking: pytest  (approved 3 times)") {
			t.Errorf("the confirmation does not show the prefix:\n%s", r.Screen())
		}
		r.Send(keys)
		status := r.Wait()
		data, _ := os.ReadFile(filepath.Join(h.dir, "config", "agentgate", "learned.toml"))
		added := strings.Contains(string(data), `"pytest",`)
		if want := keys == "add\r"; added != want || (status == 0) != want {
			t.Errorf("%q: added %v, status %d", keys, added, status)
		}
	}
}

// A broadly destructive command gets a warning line; it stays approvable.
func TestPromptSeverity(t *testing.T) {
	h := newHome(t)
	os.MkdirAll(filepath.Join(h.work, "build"), 0o755)
	r := h.start(h.env(), "exec", "--", "rm -rf build")
	r.WaitFor("Deny for this session")
	if !strings.Contains(r.Screen(), "!! WARNING: recursive delete") {
		t.Errorf("no severity warning:\n%s", r.Screen())
	}
	r.Send("allow\r")
	if got := r.Wait(); got != 0 {
		t.Errorf("status %d", got)
	}
	if rec := h.lastRecord(); !strings.Contains(fmt.Sprint(rec["severity"]), "recursive delete") {
		t.Errorf("the record has no severity: %v", rec)
	}
}
