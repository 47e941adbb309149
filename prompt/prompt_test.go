package prompt_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/agentgate/agentgate/prompt"
)

// term is a pseudo-terminal: the prompt gets the slave side, the test
// types on the master side and reads what was drawn.
type term struct {
	t    *testing.T
	ptmx *os.File
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	lock string
}

func newTerm(t *testing.T) *term {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 120})
	tm := &term{t: t, ptmx: ptmx, tty: tty, lock: t.TempDir()}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { tty.Close(); ptmx.Close() })
	return tm
}

func (tm *term) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.out.String()
}

func (tm *term) waitFor(text string) {
	tm.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(tm.screen(), text) {
			return
		}
	}
	tm.t.Fatalf("waited for %q; the screen shows:\n%q", text, tm.screen())
}

// ask runs Ask on the terminal and types each chunk once the screen shows
// the prompt's choices, the next chunk once the screen has changed.
func (tm *term) ask(q prompt.Question, o prompt.Options, chunks ...string) prompt.Result {
	tm.t.Helper()
	if o.LockDir == "" {
		o.LockDir = tm.lock
	}
	done := make(chan prompt.Result, 1)
	go func() { done <- prompt.Ask(context.Background(), tm.tty, q, o) }()
	go func() {
		for _, c := range chunks {
			time.Sleep(200 * time.Millisecond)
			tm.ptmx.Write([]byte(c))
		}
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(10 * time.Second):
		tm.t.Fatalf("the prompt did not return; the screen shows:\n%q", tm.screen())
	}
	return prompt.Result{}
}

func (tm *term) cooked() bool {
	tio, err := unix.IoctlGetTermios(int(tm.tty.Fd()), tcgets)
	if err != nil {
		tm.t.Fatal(err)
	}
	return tio.Lflag&unix.ICANON != 0 && tio.Lflag&unix.ECHO != 0 && tio.Lflag&unix.ISIG != 0
}

var rmQuestion = prompt.Question{Command: "rm x", Cwd: "/tmp", Why: []string{"not on the allowlist"}, AlwaysPrefix: "rm"}

// Every way to answer, by keys. No single letter, no word but the whole
// one, no Up past Deny approves anything.
func TestAskKeys(t *testing.T) {
	const down, up = "\x1b[B", "\x1b[A"
	tests := []struct {
		keys   []string
		choice prompt.Choice
		ending prompt.Ending
	}{
		{[]string{"\r"}, prompt.Deny, prompt.Answered},
		{[]string{down + "\r"}, prompt.AllowOnce, prompt.Answered},
		{[]string{down + down + "\r"}, prompt.AllowSession, prompt.Answered},
		{[]string{"allow\r"}, prompt.AllowOnce, prompt.Answered},
		{[]string{"session\r"}, prompt.AllowSession, prompt.Answered},
		{[]string{"n"}, prompt.DenySession, prompt.Answered},
		{[]string{"d"}, prompt.Deny, prompt.Answered},
		{[]string{"\x04"}, prompt.Deny, prompt.Answered},
		{[]string{"\x03"}, prompt.Deny, prompt.Interrupted},
		{[]string{"\x1b"}, prompt.Deny, prompt.Interrupted},
		// What a person types expecting a yes/no question, or a filter.
		{[]string{"yes\r", "\r"}, prompt.Deny, prompt.Answered},
		{[]string{"y", "\r", "\r"}, prompt.Deny, prompt.Answered},
		{[]string{"y\r", "\r"}, prompt.Deny, prompt.Answered},
		{[]string{"/session\r", "\r"}, prompt.Deny, prompt.Answered},
		{[]string{"a", "s", "p", "\r", "\r"}, prompt.Deny, prompt.Answered},
		{[]string{"allo\r", "\r"}, prompt.Deny, prompt.Answered},
		// No wrap-around: Up from Deny stays on Deny.
		{[]string{up + "\r"}, prompt.Deny, prompt.Answered},
		{[]string{up + up + up + "\r"}, prompt.Deny, prompt.Answered},
		// Typing, then moving, clears what was typed.
		{[]string{"allow" + down + up + "\r"}, prompt.Deny, prompt.Answered},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.keys), func(t *testing.T) {
			t.Parallel() // each on its own terminal; they mostly wait
			tm := newTerm(t)
			r := tm.ask(rmQuestion, prompt.Options{Timeout: 5 * time.Second}, tt.keys...)
			if r.Choice != tt.choice || r.Ending != tt.ending {
				t.Errorf("keys %q: %v/%v; want %v/%v (err %v)", tt.keys, r.Choice, r.Ending, tt.choice, tt.ending, r.Err)
			}
			if !tm.cooked() {
				t.Errorf("keys %q: the terminal was left in raw mode", tt.keys)
			}
			if tt.ending == prompt.Answered {
				tm.waitFor("answer: " + tt.choice.String())
			}
		})
	}
}

// Keys typed before the prompt appeared are discarded: down, Enter typed
// ahead would otherwise allow once.
func TestAskDiscardsTypeAhead(t *testing.T) {
	for _, acc := range []bool{false, true} {
		tm := newTerm(t)
		ahead := "\x1b[B\r"
		if acc {
			ahead = "2\n"
		}
		tm.ptmx.Write([]byte(ahead))
		time.Sleep(100 * time.Millisecond)
		r := tm.ask(rmQuestion, prompt.Options{Timeout: 5 * time.Second, Accessible: acc}, "\r")
		if r.Choice != prompt.Deny || r.Ending != prompt.Answered {
			t.Errorf("accessible=%v: type-ahead %q gave %v/%v", acc, ahead, r.Choice, r.Ending)
		}
	}
}

// "Always allow" is reached by moving to it, and asks again with Deny
// preset.
func TestAlwaysAllowConfirmation(t *testing.T) {
	const down = "\x1b[B"
	toAlways := strings.Repeat(down, 4) + "\r"
	tests := []struct {
		keys []string
		want prompt.Choice
	}{
		{[]string{toAlways, "\r"}, prompt.Deny},
		{[]string{toAlways, down + "\r"}, prompt.AllowOnce},
		{[]string{toAlways, down + down + "\r"}, prompt.AlwaysAllow},
		{[]string{"always\r", "add\r"}, prompt.AlwaysAllow},
		{[]string{"always\r", "a", "\r", "\r"}, prompt.Deny},
		{[]string{"p", "\r", "\r"}, prompt.Deny},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.keys), func(t *testing.T) {
			t.Parallel()
			tm := newTerm(t)
			r := tm.ask(rmQuestion, prompt.Options{Timeout: 5 * time.Second}, tt.keys...)
			if r.Choice != tt.want || r.Ending != prompt.Answered {
				t.Errorf("%q: %v/%v; want %v", tt.keys, r.Choice, r.Ending, tt.want)
			}
		})
	}
}

func TestAskTimeout(t *testing.T) {
	for _, acc := range []bool{false, true} {
		tm := newTerm(t)
		r := tm.ask(rmQuestion, prompt.Options{Timeout: 700 * time.Millisecond, Accessible: acc})
		if r.Ending != prompt.TimedOut || r.Choice.Allows() {
			t.Errorf("accessible=%v: %+v; want a timeout", acc, r)
		}
		if !tm.cooked() {
			t.Errorf("accessible=%v: terminal modes not restored", acc)
		}
	}
}

func TestNoAlwaysWithoutPrefix(t *testing.T) {
	tm := newTerm(t)
	q := prompt.Question{Command: "bash -c x"}
	r := tm.ask(q, prompt.Options{Timeout: 5 * time.Second}, strings.Repeat("\x1b[B", 6)+"\r")
	if r.Choice != prompt.DenySession {
		t.Errorf("the last choice without an offered prefix is %v; want deny for this session", r.Choice)
	}
	tm = newTerm(t)
	if r := tm.ask(q, prompt.Options{Timeout: 5 * time.Second}, "always\r", "\r"); r.Choice != prompt.Deny {
		t.Errorf("typing always without an offered prefix gave %v", r.Choice)
	}
}

// Two prompts on one terminal: the second waits, says so, and its timeout
// counts from when it is shown.
func TestOnePromptPerTerminal(t *testing.T) {
	tm := newTerm(t)
	second, err := os.OpenFile(tm.tty.Name(), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	first := make(chan prompt.Result, 1)
	go func() {
		first <- prompt.Ask(context.Background(), tm.tty, rmQuestion, prompt.Options{Timeout: 5 * time.Second, LockDir: tm.lock})
	}()
	tm.waitFor("Deny for this session")
	start := time.Now()
	next := make(chan prompt.Result, 1)
	go func() {
		next <- prompt.Ask(context.Background(), second, prompt.Question{Command: "touch y"}, prompt.Options{Timeout: time.Second, LockDir: tm.lock})
	}()
	tm.waitFor(prompt.WaitingNotice)
	time.Sleep(1500 * time.Millisecond) // longer than the second prompt's timeout
	tm.ptmx.Write([]byte("\r"))
	if r := <-first; r.Choice != prompt.Deny || r.Ending != prompt.Answered {
		t.Errorf("first prompt: %+v", r)
	}
	tm.waitFor("touch y")
	r := <-next
	if r.Ending != prompt.TimedOut {
		t.Errorf("second prompt: %+v; want a timeout after it was shown", r)
	}
	if d := time.Since(start); d < 2300*time.Millisecond {
		t.Errorf("the second prompt ended after %s: its timeout counted while it waited", d)
	}
	if !tm.cooked() {
		t.Error("terminal modes not restored after two prompts")
	}
}

// A long command keeps the choices and the reasons on screen, and its
// first and last lines.
func TestLongCommandOnScreen(t *testing.T) {
	var lines []string
	for i := 1; i <= 200; i++ {
		lines = append(lines, "echo line"+strings.Repeat("x", i%7))
	}
	lines[0] = "echo FIRST"
	lines[199] = "rm -rf ~/LAST"
	q := prompt.Question{Command: strings.Join(lines, `\n`), Cwd: "/w", Why: []string{"REASON one", "REASON two"}, Shell: strings.Repeat("command: echo\n", 200)}
	tm := newTerm(t)
	r := tm.ask(q, prompt.Options{Timeout: 5 * time.Second}, "\x1b[6~\x1b[6~", "\x1b[5~", "\r")
	if r.Choice != prompt.Deny {
		t.Fatalf("%+v", r)
	}
	tm.waitFor("answer: deny")
	scr := tm.screen()
	for _, want := range []string{"command (200 lines", "  1 | echo FIRST", "200 | rm -rf ~/LAST", "REASON one", "REASON two", "Deny for this session", "rows below (PgDn)", "rows above (PgUp)"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen lacks %q", want)
		}
	}
}

// The plain prompt prints the same content as lines before the choices,
// and takes an answer by number or word; nothing else approves.
func TestAskAccessible(t *testing.T) {
	q := prompt.Question{Command: "rm -rf build", Cwd: "/work", Why: []string{"not on the allowlist", "note: rm deletes files"},
		Shell: "command: rm -rf build\n", Severity: "recursive delete", AlwaysPrefix: "rm"}
	tests := []struct {
		keys []string
		want prompt.Choice
	}{
		{[]string{"2\n"}, prompt.AllowOnce},
		{[]string{"allow\n"}, prompt.AllowOnce},
		{[]string{"1\n"}, prompt.Deny},
		{[]string{"\n"}, prompt.Deny},
		{[]string{"\x04"}, prompt.Deny},
		{[]string{"yes\n", "y\n", "/session\n"}, prompt.Deny},
		{[]string{"yes\n", "\x04"}, prompt.Deny},
		{[]string{"5\n", "1\n"}, prompt.Deny},
		{[]string{"5\n", "3\n"}, prompt.AlwaysAllow},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.keys), func(t *testing.T) {
			t.Parallel()
			tm := newTerm(t)
			r := tm.ask(q, prompt.Options{Accessible: true, Timeout: 5 * time.Second}, tt.keys...)
			if r.Choice != tt.want || r.Ending != prompt.Answered {
				t.Errorf("%q: %v/%v; want %v (%v)", tt.keys, r.Choice, r.Ending, tt.want, r.Err)
			}
			tm.waitFor("answer: ")
			scr := tm.screen()
			for _, want := range []string{"WARNING: recursive delete", "command:  rm -rf build", "in:       /work", "why:      not on the allowlist", "note: rm deletes files", "the shell would run:", "  command: rm -rf build", "4. Deny for this session", "answer: "} {
				if !strings.Contains(scr, want) {
					t.Errorf("%q: the plain prompt lacks %q:\n%s", tt.keys, want, scr)
				}
			}
			if i, j := strings.Index(scr, "in:       /work"), strings.Index(scr, "1. Deny"); i < 0 || j < i {
				t.Errorf("the content does not come before the choices:\n%s", scr)
			}
		})
	}
}

func TestChallenge(t *testing.T) {
	for _, acc := range []bool{false, true} {
		tm := newTerm(t)
		enter := "\r"
		if acc {
			enter = "\n"
		}
		r := tm.ask(rmQuestion, prompt.Options{Accessible: acc, Challenge: true, Timeout: 5 * time.Second}, "allow"+enter, "ZZZZ"+enter)
		if r.Choice.Allows() || !r.ChallengeFailed {
			t.Errorf("accessible=%v: a wrong code gave %+v", acc, r)
		}
	}
}

func TestDescribe(t *testing.T) {
	d := prompt.Describe(prompt.Question{Command: `ls\rrm`, Cwd: "/w", Why: []string{"one", "two"}, Shell: "command: ls\n"})
	for _, want := range []string{`command:  ls\rrm`, "in:       /w", "why:      one", "          two", "the shell would run:\n  command: ls"} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe lacks %q:\n%s", want, d)
		}
	}
	// A line break made visible is a line; a backslash before n is not.
	d = prompt.Describe(prompt.Question{Command: `echo a\necho \\n b`})
	if !strings.Contains(d, "command (2 lines):\n  1 | echo a\n  2 | echo \\\\n b") {
		t.Errorf("multi-line command:\n%s", d)
	}
	if prompt.Deny.Allows() || prompt.DenySession.Allows() || !prompt.AllowOnce.Allows() {
		t.Error("Allows is wrong")
	}
}

// A lock held by something that is not a prompt (a hostile process) does
// not make an escalation hang: it gives up, denying, after three times the
// timeout.
func TestLockHeldForever(t *testing.T) {
	tm := newTerm(t)
	// Another prompt's lock, held and never released.
	holder := make(chan prompt.Result, 1)
	go func() {
		holder <- prompt.Ask(context.Background(), tm.tty, rmQuestion, prompt.Options{Timeout: 10 * time.Second, LockDir: tm.lock})
	}()
	tm.waitFor("Deny for this session")
	second, err := os.OpenFile(tm.tty.Name(), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	start := time.Now()
	r := prompt.Ask(context.Background(), second, rmQuestion, prompt.Options{Timeout: 300 * time.Millisecond, LockDir: tm.lock})
	if r.Ending != prompt.TimedOut || r.Choice.Allows() {
		t.Errorf("%+v", r)
	}
	if d := time.Since(start); d < 800*time.Millisecond || d > 5*time.Second {
		t.Errorf("gave up after %s; want about 900ms", d)
	}
	tm.waitFor("gave up waiting for the other approval")
	tm.ptmx.Write([]byte("\r"))
	<-holder
}
