// Package prompt asks a person at the terminal whether an escalated
// command may run.
//
// # Rules
//
// Everything for the human goes through the terminal (/dev/tty), never
// stdin or stdout: those belong to the command, and the agent controls
// them. Consent comes only from keys typed on that terminal. Deny is the
// first option and the preset, so Enter, end of input (which huh's
// accessible mode turns into "the preset" with no error), and every error
// of the form mean deny. A terminal does not prove a person is there: an
// agent driving a pty could answer; Options.Challenge makes it type a
// code it has to read from the screen, which raises the bar but is no
// proof either.
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

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"golang.org/x/sys/unix"
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
}

// Options control how the prompt runs.
type Options struct {
	// Accessible uses huh's plain numbered prompt (AGENTGATE_ACCESSIBLE=1,
	// TERM=dumb).
	Accessible bool
	// Timeout denies when no answer comes in time.
	Timeout time.Duration
	// Challenge makes an allow require typing a random code.
	Challenge bool
}

// Ending says how the prompt ended when no choice was made.
type Ending int

// How a prompt can end.
const (
	Answered    Ending = iota // a choice was made (possibly Deny)
	TimedOut                  // no answer within the timeout
	Interrupted               // Ctrl-C, Esc, SIGINT, SIGTERM or SIGHUP
	Failed                    // the form failed; Err says why
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

// shortcuts map keys to choices in the full-screen prompt.
var shortcuts = map[string]Choice{"d": Deny, "a": AllowOnce, "s": AllowSession, "n": DenySession, "p": AlwaysAllow}

// Ask shows q on tty and waits for an answer.
func Ask(ctx context.Context, tty *os.File, q Question, o Options) Result {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	var cancel context.CancelFunc
	if o.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	var challenge string
	if o.Challenge {
		challenge = newCode()
	}
	form, choice, pressed := Build(q, challenge != "")
	res := run(ctx, form, tty, o.Accessible, pressed)
	if res.Ending != Answered {
		return res
	}
	res.Choice = *choice
	if *pressed >= 0 {
		res.Choice = *pressed
	}
	if res.Choice == AlwaysAllow {
		if res = confirmAlways(ctx, tty, q.AlwaysPrefix, o.Accessible); res.Ending != Answered {
			return res
		}
	}
	if res.Choice.Allows() && challenge != "" {
		typed := ""
		cf := huh.NewForm(huh.NewGroup(huh.NewInput().
			Title(fmt.Sprintf("Type %s to confirm (anything else denies)", challenge)).
			Value(&typed)))
		r := run(ctx, cf, tty, o.Accessible, nil)
		if r.Ending != Answered {
			return r
		}
		if strings.TrimSpace(typed) != challenge {
			return Result{Choice: Deny, Ending: Answered, ChallengeFailed: true}
		}
	}
	return res
}

// confirmAlways shows the prefix "Always allow" would add and asks again,
// Deny first: a prefix allows every command that starts with it.
func confirmAlways(ctx context.Context, tty *os.File, prefix string, accessible bool) Result {
	if prefix == "" {
		return Result{Choice: Deny, Ending: Answered}
	}
	choice := Deny
	form := huh.NewForm(huh.NewGroup(huh.NewSelect[Choice]().
		Title(fmt.Sprintf("Add prefix = [%q] to learned.toml?", prefix)).
		Description(fmt.Sprintf("Every command starting with %q will then run without asking.", prefix)).
		Options(
			huh.NewOption("Deny", Deny),
			huh.NewOption("Allow once, do not add it", AllowOnce),
			huh.NewOption(fmt.Sprintf("Add %q and allow", prefix), AlwaysAllow),
		).
		Value(&choice)))
	r := run(ctx, form, tty, accessible, nil)
	if r.Ending == Answered {
		r.Choice = choice
	}
	return r
}

// Build makes the approval form. The returned pointers receive the
// selected option and the shortcut key pressed (-1 for none).
func Build(q Question, challenge bool) (*huh.Form, *Choice, *Choice) {
	choice := Deny
	pressed := Choice(-1)
	opts := []huh.Option[Choice]{
		huh.NewOption("Deny                      [d]", Deny),
		huh.NewOption("Allow once                [a]", AllowOnce),
		huh.NewOption("Allow for this session    [s]", AllowSession),
		huh.NewOption("Deny for this session     [n]", DenySession),
	}
	if q.AlwaysPrefix != "" {
		opts = append(opts, huh.NewOption(fmt.Sprintf("Always allow %q (adds it to learned.toml)  [p]", q.AlwaysPrefix), AlwaysAllow))
	}
	title := "agentgate: run this command?"
	if challenge {
		title += " (allowing asks for a code)"
	}
	sel := huh.NewSelect[Choice]().
		Title(title).
		Description(Describe(q)).
		Options(opts...).
		Value(&choice)
	form := huh.NewForm(huh.NewGroup(sel)).WithShowHelp(true)
	return form, &choice, &pressed
}

// Describe is the text shown above the choices.
func Describe(q Question) string {
	var b strings.Builder
	fmt.Fprintf(&b, "command:  %s\n", q.Command)
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

// run runs a form on the terminal and maps every way it can end.
func run(ctx context.Context, form *huh.Form, tty *os.File, accessible bool, pressed *Choice) Result {
	interrupted := false
	if !accessible {
		// agentgate handles SIGINT, SIGTERM and SIGHUP itself (through
		// ctx); bubbletea's own handler would race with it and can block
		// its shutdown forever.
		form = form.WithProgramOptions(tea.WithoutSignalHandler(), tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			k, ok := msg.(tea.KeyPressMsg)
			if !ok {
				return msg
			}
			switch s := k.String(); {
			case s == "esc":
				interrupted = true
				return tea.QuitMsg{}
			case len(s) == 1 && pressed != nil:
				if c, ok := shortcuts[s]; ok {
					*pressed = c
					return tea.QuitMsg{}
				}
			}
			return msg
		}))
	}
	// The form gets its own descriptor for the terminal: bubbletea closes
	// its input on shutdown while its reader goroutine may still touch it,
	// and that must not be the file the caller closes or reuses.
	own, err := dupFile(tty)
	if err != nil {
		return Result{Ending: Failed, Err: err}
	}
	defer own.Close()
	form = form.WithInput(own).WithOutput(own).WithAccessible(accessible).WithTheme(huh.ThemeFunc(huh.ThemeBase16))
	if accessible {
		return runAccessible(ctx, form, own)
	}
	err = runForm(ctx, form)
	switch {
	case interrupted:
		return Result{Ending: Interrupted}
	case ctx.Err() != nil:
		return ending(ctx)
	case errors.Is(err, huh.ErrUserAborted):
		return Result{Ending: Interrupted}
	case err != nil:
		return Result{Ending: Failed, Err: err}
	}
	return Result{Ending: Answered}
}

// runAccessible runs the plain prompt, which has no timeout or context of
// its own: on timeout or signal the terminal is closed under it, which
// ends its read.
func runAccessible(ctx context.Context, form *huh.Form, tty *os.File) Result {
	done := make(chan error, 1)
	go func() { done <- runForm(ctx, form) }()
	select {
	case err := <-done:
		if ctx.Err() != nil {
			return ending(ctx)
		}
		if err != nil {
			return Result{Ending: Failed, Err: err}
		}
		return Result{Ending: Answered}
	case <-ctx.Done():
		tty.Close()
		return ending(ctx)
	}
}

// runForm runs the form and turns a panic inside huh into an error: huh
// v2.0.3's accessible select panics on end of input after an invalid
// answer, and a panic must deny, not kill agentgate before it records.
func runForm(ctx context.Context, form *huh.Form) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the prompt failed: %v", r)
		}
	}()
	return form.RunWithContext(ctx)
}

// dupFile returns a second *os.File for the same open terminal.
func dupFile(f *os.File) (*os.File, error) {
	fd, err := unix.Dup(int(f.Fd()))
	if err != nil {
		return nil, fmt.Errorf("duplicate the terminal descriptor: %w", err)
	}
	unix.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), f.Name()), nil
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
