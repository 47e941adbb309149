package prompt

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Describe is the question as plain lines: what the plain (accessible)
// prompt prints before its choices, and what the full-screen prompt
// shows around them.
func Describe(q Question) string {
	var b strings.Builder
	if q.Severity != "" {
		fmt.Fprintf(&b, "WARNING: %s\n", q.Severity)
	}
	lines := commandLines(q.Command)
	if len(lines) == 1 {
		fmt.Fprintf(&b, "command:  %s\n", q.Command)
	} else {
		fmt.Fprintf(&b, "command (%d lines):\n", len(lines))
		num := len(strconv.Itoa(len(lines)))
		for i, l := range lines {
			fmt.Fprintf(&b, "  %*d | %s\n", num, i+1, l)
		}
	}
	fmt.Fprintf(&b, "in:       %s\n", q.Cwd)
	for i, w := range q.Why {
		label := "why:     "
		if i > 0 {
			label = "         "
		}
		fmt.Fprintf(&b, "%s %s\n", label, w)
	}
	if q.Shell != "" {
		b.WriteString("the shell would run:\n")
		for _, l := range strings.Split(strings.TrimSuffix(q.Shell, "\n"), "\n") {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// askPlain is the accessible prompt: plain lines, numbered choices, an
// answer read a line at a time with the terminal's own line editing.
// Enter alone and end of input deny; an answer that is no choice is
// asked again, three times at most, then denies.
func askPlain(ctx context.Context, tty *os.File, q Question, challenge string) Result {
	t := openTerminal(tty)
	if err := t.makeCooked(); err != nil {
		return Result{Ending: Failed, Err: fmt.Errorf("the terminal's modes cannot be set: %w", err)}
	}
	defer t.restore()
	title := "agentgate: run this command?"
	if challenge != "" {
		title += " (allowing asks for a code)"
	}
	fmt.Fprintf(tty, "%s\n%s\n", title, Describe(q))
	res := t.pickPlain(ctx, approvalOptions(q))
	if res.Ending != Answered {
		return res
	}
	if res.Choice == AlwaysAllow {
		if q.AlwaysPrefix == "" {
			return Result{Choice: Deny, Ending: Answered}
		}
		fmt.Fprintln(tty, q.alwaysTitle())
		if res = t.pickPlain(ctx, alwaysOptions(q.AlwaysPrefix)); res.Ending != Answered {
			return res
		}
	}
	if res.Choice.Allows() && challenge != "" {
		return t.confirmPlain(ctx, res, challenge)
	}
	return res
}

// confirmPlain asks for the challenge word after an allowing answer,
// line by line; anything but the word denies.
func (t *terminal) confirmPlain(ctx context.Context, res Result, challenge string) Result {
	fmt.Fprintf(t.f, "Type %s to confirm (anything else denies): ", challenge)
	typed, err := t.readLine(ctx)
	if err != nil {
		return endingOfLine(ctx, err)
	}
	if strings.TrimSpace(typed) != challenge {
		return Result{Choice: Deny, Ending: Answered, ChallengeFailed: true}
	}
	return res
}

// pickPlain prints numbered options and reads the answer: a number, or
// an option's word.
func (t *terminal) pickPlain(ctx context.Context, opts []option) Result {
	fmt.Fprintln(t.f, "choices:")
	for i, o := range opts {
		fmt.Fprintf(t.f, "  %d. %s\n", i+1, o.label)
	}
	for range 3 {
		fmt.Fprintf(t.f, "Choose 1-%d and press Enter (Enter alone denies): ", len(opts))
		line, err := t.readLine(ctx)
		if err != nil {
			res := endingOfLine(ctx, err)
			if res.Ending == Answered {
				fmt.Fprintf(t.f, "\nanswer: %s (end of input)\n", res.Choice)
			} else {
				fmt.Fprintf(t.f, "\nanswer: none (%s): denied\n", res.Ending)
			}
			return res
		}
		answer := strings.ToLower(strings.TrimSpace(line))
		if answer == "" {
			fmt.Fprintf(t.f, "answer: %s\n", opts[0].choice)
			return Result{Choice: opts[0].choice, Ending: Answered}
		}
		for i, o := range opts {
			if answer == strconv.Itoa(i+1) || answer == o.word {
				fmt.Fprintf(t.f, "answer: %s\n", o.choice)
				return Result{Choice: o.choice, Ending: Answered}
			}
		}
		fmt.Fprintf(t.f, "%q is not one of the choices.\n", line)
	}
	fmt.Fprintf(t.f, "answer: %s (no valid answer)\n", Deny)
	return Result{Choice: Deny, Ending: Answered}
}

// readLine reads one line in canonical mode, or ends with ctx. End of
// input (Ctrl-D on an empty line) is errHangup.
func (t *terminal) readLine(ctx context.Context) (string, error) {
	for {
		if i := bytes.IndexByte(t.pending, '\n'); i >= 0 {
			line := string(t.pending[:i])
			t.pending = t.pending[i+1:]
			return strings.TrimSuffix(line, "\r"), nil
		}
		if len(t.pending) > 4096 {
			return "", errHangup
		}
		if _, err := t.poll(ctx, 100*time.Millisecond); err != nil && err != errResize {
			return "", err
		}
	}
}

// endingOfLine: end of input on the plain prompt is an answer, the
// preset Deny (huh's accessible mode did the same); the rest as
// endingOf.
func endingOfLine(ctx context.Context, err error) Result {
	if ctx.Err() == nil && err == errHangup {
		return Result{Choice: Deny, Ending: Answered}
	}
	return endingOf(ctx, err)
}
