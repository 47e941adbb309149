// Package prompt asks a person at the terminal whether an escalated
// command may run.
//
// # Rules
//
// Everything for the human goes through the terminal (/dev/tty), never
// stdin or stdout: those belong to the command, and the agent controls
// them. Consent comes only from keys typed on that terminal, after the
// prompt is shown: what was typed before (type-ahead) is discarded.
//
// No approval by accident. Deny is the first option and the preset, so
// Enter, end of input, Esc, Ctrl-C, a signal, a timeout and every error
// mean deny. An option that lets the command run is taken only by moving
// to it and pressing Enter, or by typing its whole word ("allow",
// "session", "always") and Enter; single keys take deny options only
// ("d", "n"). Up and Down stop at the ends of the list. When the answer
// is taken, the screen shows which.
//
// One prompt per terminal at a time: a lock keyed by the terminal's
// device number makes a second escalation wait, with a one-line notice,
// and its timeout counts from when it is shown. The wait is bounded
// (three times the timeout), so a process that holds the lock cannot make
// an escalation hang; it is then denied as a timeout. The terminal's modes are
// restored on every way out.
//
// Everything is visible: the exact command (with a line count, its first
// and last lines always on screen, the middle scrollable when it does not
// fit), the working directory, the reasons, a severity warning and what
// the shell would run; the plain (accessible) prompt prints the same as
// lines before its numbered choices.
//
// A terminal does not prove a person is there: an agent driving a pty
// could answer; Options.Challenge makes it type a code it has to read
// from the screen, which raises the bar but is no proof either.
package prompt

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// Choice is the person's answer.
type Choice int

// The choices, Deny first: it is the zero value, the first option and the
// preset.
const (
	Deny Choice = iota
	AllowOnce
	AllowSession
	DenySession
	AlwaysAllow
)

func (c Choice) String() string {
	return [...]string{"deny", "allow once", "allow for this session", "deny for this session", "always allow"}[c]
}

// Allows reports whether the choice lets the command run.
func (c Choice) Allows() bool { return c == AllowOnce || c == AllowSession || c == AlwaysAllow }

// Question is what the person sees before choosing.
type Question struct {
	// Command is the exact command text, already made visible.
	Command string
	Cwd     string
	// Why lists the reason chain, in plain words, risk notes included.
	Why []string
	// Shell is the tree of what the shell would run.
	Shell string
	// AlwaysPrefix, when not empty, offers "Always allow" for this prefix.
	AlwaysPrefix string
	// AlwaysSandbox, when not empty, is the sandbox level that rule
	// carries (a build confined to the project: "workspace").
	AlwaysSandbox string
	// Severity, when not empty, is shown as a warning line above the
	// command: the command destroys broadly or irreversibly, or runs
	// downloaded code (gate.Severity). It stays approvable.
	Severity string
}

// Options control how the prompt runs.
type Options struct {
	// Accessible uses the plain numbered prompt (AGENTGATE_ACCESSIBLE=1,
	// TERM=dumb): the same content as plain lines, read a line at a time.
	Accessible bool
	// Timeout denies when no answer comes in time. It counts from when the
	// prompt is shown, not from while it waits for another prompt on the
	// same terminal.
	Timeout time.Duration
	// Challenge makes an allow require typing a random code.
	Challenge bool
	// LockDir holds the per-terminal locks; DefaultLockDir(os.Getenv)
	// when empty.
	LockDir string
}

// Ending says how the prompt ended when no choice was made.
type Ending int

// How a prompt can end.
const (
	Answered    Ending = iota // a choice was made (possibly Deny)
	TimedOut                  // no answer within the timeout
	Interrupted               // Ctrl-C, Esc, SIGINT, SIGTERM or SIGHUP
	Failed                    // the prompt failed; Err says why
)

// Result is the outcome of Ask. Choice is Deny unless Ending is Answered.
type Result struct {
	Choice Choice
	Ending Ending
	// ChallengeFailed is set when an allow was chosen but the code typed
	// did not match.
	ChallengeFailed bool
	Err             error
}

// Ask shows q on tty and waits for an answer. It waits first, with a
// notice, while another prompt holds the same terminal.
func Ask(ctx context.Context, tty *os.File, q Question, o Options) Result {
	return hold(ctx, tty, o, func(ctx context.Context, challenge string) Result {
		if o.Accessible {
			return askPlain(ctx, tty, q, challenge)
		}
		return askScreen(ctx, tty, q, challenge)
	})
}

// Change is a change agentgate itself is about to make to its own state
// (trusting a project file, resetting the breaker), for [Confirm].
type Change struct {
	// Title is the question: "Trust /w/.agentgate.toml?".
	Title string
	// Lines say exactly what will change.
	Lines []string
	// Yes labels the option that makes the change; Word is the word that
	// takes it when typed. Deny comes first and is the preset.
	Yes, Word string
}

// Confirm asks the person to confirm c, with the same rules as Ask: Deny
// first and preset, the change taken only by Enter on it or its whole
// word, one prompt per terminal, type-ahead discarded, the code of
// Options.Challenge. Result.Choice is AllowOnce when confirmed.
func Confirm(ctx context.Context, tty *os.File, c Change, o Options) Result {
	opts := []option{
		{label: "Deny", choice: Deny, key: 'd', word: "deny"},
		{label: c.Yes, choice: AllowOnce, word: c.Word},
	}
	return hold(ctx, tty, o, func(ctx context.Context, challenge string) Result {
		var res Result
		if o.Accessible {
			t := openTerminal(tty)
			if err := t.makeCooked(); err != nil {
				return Result{Ending: Failed, Err: err}
			}
			defer t.restore()
			fmt.Fprintf(tty, "%s\n", c.Title)
			for _, l := range c.Lines {
				fmt.Fprintf(tty, "  %s\n", l)
			}
			if res = t.pickPlain(ctx, opts); res.Ending == Answered && res.Choice.Allows() && challenge != "" {
				return t.confirmPlain(ctx, res, challenge)
			}
			return res
		}
		t := openTerminal(tty)
		if err := t.makeRaw(); err != nil {
			return Result{Ending: Failed, Err: err}
		}
		defer t.restore()
		if res = t.choose(ctx, &view{title: c.Title, lines: c.Lines, p: newPicker(opts)}); res.Ending == Answered && res.Choice.Allows() && challenge != "" {
			typed, r := t.typeLine(ctx, fmt.Sprintf("Type %s to confirm (anything else denies): ", challenge))
			if r.Ending != Answered {
				return r
			}
			if strings.TrimSpace(typed) != challenge {
				return Result{Choice: Deny, Ending: Answered, ChallengeFailed: true}
			}
		}
		return res
	})
}

// hold runs fn with the terminal held: signals end it, the terminal's
// lock is taken (waiting, with a notice, for another prompt), the timeout
// starts, type-ahead is discarded, and a panic denies.
func hold(ctx context.Context, tty *os.File, o Options, fn func(ctx context.Context, challenge string) Result) (res Result) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	defer func() {
		if r := recover(); r != nil {
			res = Result{Ending: Failed, Err: fmt.Errorf("the prompt failed: %v", r)}
		}
	}()
	dir := o.LockDir
	if dir == "" {
		dir = DefaultLockDir(os.Getenv)
	}
	// An honest prompt holds the terminal for at most its timeout; a few
	// of them may queue. Past that, whoever holds the lock is not a
	// prompt waiting for a person: give up rather than hang.
	unlock, err := lockTerminal(ctx, tty, dir, 3*o.Timeout)
	if errors.Is(err, errLockWait) {
		fmt.Fprintf(tty, "\ragentgate: gave up waiting for the other approval after %s: denied\r\n", 3*o.Timeout)
		return Result{Ending: TimedOut}
	}
	if err != nil {
		return Result{Ending: Interrupted}
	}
	defer unlock()
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	flushInput(tty)
	var challenge string
	if o.Challenge {
		challenge = newCode()
	}
	return fn(ctx, challenge)
}

// askScreen runs the full-screen prompt: raw keys, the frame redrawn in
// place.
func askScreen(ctx context.Context, tty *os.File, q Question, challenge string) Result {
	t := openTerminal(tty)
	if err := t.makeRaw(); err != nil {
		return Result{Ending: Failed, Err: fmt.Errorf("the terminal cannot be put in raw mode: %w", err)}
	}
	defer t.restore()
	title := "agentgate: run this command?"
	if challenge != "" {
		title += " (allowing asks for a code)"
	}
	v := &view{title: title, q: &q, p: newPicker(approvalOptions(q))}
	res := t.choose(ctx, v)
	if res.Ending != Answered {
		return res
	}
	if res.Choice == AlwaysAllow {
		if q.AlwaysPrefix == "" {
			return Result{Choice: Deny, Ending: Answered}
		}
		v = &view{
			title: q.alwaysTitle(),
			p:     newPicker(alwaysOptions(q.AlwaysPrefix)),
		}
		if res = t.choose(ctx, v); res.Ending != Answered {
			return res
		}
	}
	if res.Choice.Allows() && challenge != "" {
		typed, r := t.typeLine(ctx, fmt.Sprintf("Type %s to confirm (anything else denies): ", challenge))
		if r.Ending != Answered {
			return r
		}
		if strings.TrimSpace(typed) != challenge {
			return Result{Choice: Deny, Ending: Answered, ChallengeFailed: true}
		}
	}
	return res
}

// choose shows v until an option is taken or ctx ends, then leaves the
// frame on screen with the answer.
func (t *terminal) choose(ctx context.Context, v *view) Result {
	for {
		cols, rows := t.size()
		t.draw(v.frame(cols, rows))
		k, err := t.readKey(ctx)
		if err == errResize {
			continue
		}
		if err != nil {
			res := endingOf(ctx, err)
			v.answer = "none (" + res.Ending.String() + "): denied"
			t.draw(v.frame(cols, rows))
			t.finish()
			return res
		}
		switch k.kind {
		case keyPgDn:
			v.scroll += v.pageSize(rows)
		case keyPgUp:
			v.scroll = max(0, v.scroll-v.pageSize(rows))
		default:
			v.p.press(k)
		}
		if v.p.done {
			if v.p.interrupted {
				v.answer = "none (interrupted): denied"
			} else {
				v.answer = v.p.chosen.String()
			}
			t.draw(v.frame(cols, rows))
			t.finish()
			if v.p.interrupted {
				return Result{Ending: Interrupted}
			}
			return Result{Choice: v.p.chosen, Ending: Answered}
		}
	}
}

// typeLine reads a line typed after the label, in raw mode.
func (t *terminal) typeLine(ctx context.Context, label string) (string, Result) {
	v := &view{}
	typed := ""
	for {
		cols, rows := t.size()
		v.input = label + typed
		t.draw(v.frame(cols, rows))
		k, err := t.readKey(ctx)
		if err == errResize {
			continue
		}
		if err != nil {
			t.finish()
			return "", endingOf(ctx, err)
		}
		switch k.kind {
		case keyEnter:
			t.finish()
			return typed, Result{Ending: Answered}
		case keyEsc, keyCtrlC:
			t.finish()
			return "", Result{Ending: Interrupted}
		case keyBackspace:
			if typed != "" {
				typed = typed[:len(typed)-1]
			}
		case keyRune:
			if len(typed) < 64 {
				typed += string(k.r)
			}
		}
	}
}

func (e Ending) String() string {
	return [...]string{"answered", "no answer in time", "interrupted", "failed"}[e]
}

// endingOf maps why a read ended: the context (timeout, signal), or the
// terminal going away.
func endingOf(ctx context.Context, err error) Result {
	if ctx.Err() != nil {
		return ending(ctx)
	}
	if errors.Is(err, errHangup) {
		return Result{Ending: Interrupted}
	}
	return Result{Ending: Failed, Err: err}
}

func ending(ctx context.Context) Result {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return Result{Ending: TimedOut}
	}
	return Result{Ending: Interrupted}
}

// newCode is a short code a person can read and type: four letters from
// an alphabet without look-alikes.
func newCode() string {
	const alphabet = "ACDEFHJKMNPRTWXY"
	b := make([]byte, 4)
	for i := range b {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			n = big.NewInt(int64(time.Now().UnixNano() % int64(len(alphabet))))
		}
		b[i] = alphabet[n.Int64()]
	}
	return string(b)
}
