// Package confirm is the one way agentgate's own state-changing
// subcommands (trust, session reset-breaker) ask a person before they
// widen what runs without asking.
//
// # Rules
//
// The question goes to the controlling terminal, /dev/tty, never stdin:
// an agent that runs "agentgate trust" writes stdin, and a "yes" piped
// into it must change nothing. The prompt shows exactly what will change,
// Deny is the first option and the preset, and the change is taken only
// by a deliberate act (Enter on it, or its whole word); keys typed before
// the question appeared are discarded. With no terminal (CI, a daemonised
// agent, AGENTGATE_TTY=none) nothing changes.
//
// A terminal is not proof that a person is there: an agent that drives a
// pseudo-terminal can answer. The prompt says so, and prompt_challenge
// makes the change also need a code read from the screen.
package confirm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/agentgate/agentgate/prompt"
)

// ErrNoTerminal: there is no terminal to ask on, so nothing changed.
var ErrNoTerminal = errors.New("no terminal to confirm on")

// DeclinedError: the person (or whatever answered) did not confirm.
type DeclinedError struct{ Why string }

func (e *DeclinedError) Error() string { return "not confirmed: " + e.Why }

// Options say where and how to ask.
type Options struct {
	// Getenv reads the environment (AGENTGATE_TTY, CI variables,
	// AGENTGATE_ACCESSIBLE, TERM).
	Getenv func(string) string
	// OpenTTY opens the controlling terminal; /dev/tty when nil.
	OpenTTY func() (*os.File, error)
	// Challenge is the config's prompt_challenge.
	Challenge bool
	// Timeout denies when no answer comes in time; 5 minutes when 0.
	Timeout time.Duration
	// Ask shows the question; prompt.Confirm when nil (tests replace it).
	Ask func(ctx context.Context, tty *os.File, c prompt.Change, o prompt.Options) prompt.Result
}

// NotProof is the line every confirmation shows.
const NotProof = "A terminal is not proof that a person is there: if an agent drives this terminal, choose Deny."

// ciVariables mark a run with nobody to ask.
var ciVariables = []string{"CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL"}

// Ask shows c on the terminal and returns nil only when it is confirmed:
// ErrNoTerminal (wrapped, with why) when there is no terminal, a
// *DeclinedError otherwise.
func Ask(ctx context.Context, c prompt.Change, o Options) error {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if getenv("AGENTGATE_TTY") == "none" {
		return fmt.Errorf("%w (AGENTGATE_TTY=none)", ErrNoTerminal)
	}
	for _, v := range ciVariables {
		if getenv(v) != "" {
			return fmt.Errorf("%w (%s is set)", ErrNoTerminal, v)
		}
	}
	open := o.OpenTTY
	if open == nil {
		open = func() (*os.File, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) }
	}
	tty, err := open()
	if err != nil {
		return fmt.Errorf("%w (%v)", ErrNoTerminal, err)
	}
	defer tty.Close()
	ask := o.Ask
	if ask == nil {
		ask = prompt.Confirm
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	c.Lines = append(append([]string(nil), c.Lines...), "", NotProof)
	res := ask(ctx, tty, c, prompt.Options{
		Accessible: getenv("AGENTGATE_ACCESSIBLE") == "1" || getenv("TERM") == "dumb",
		Timeout:    timeout,
		Challenge:  o.Challenge,
		LockDir:    prompt.DefaultLockDir(getenv),
	})
	switch {
	case res.Ending == prompt.TimedOut:
		return &DeclinedError{fmt.Sprintf("no answer within %s", timeout)}
	case res.Ending == prompt.Interrupted:
		return &DeclinedError{"the prompt was interrupted"}
	case res.Ending == prompt.Failed:
		return &DeclinedError{fmt.Sprintf("the prompt failed (%v)", res.Err)}
	case res.ChallengeFailed:
		return &DeclinedError{"the confirmation code did not match"}
	case !res.Choice.Allows():
		return &DeclinedError{"denied"}
	}
	return nil
}
