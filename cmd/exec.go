package cmd

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/engine"
	"github.com/agentgate/agentgate/hook"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/runner"
	"github.com/agentgate/agentgate/sandbox"
)

// ExecOptions are the inputs of "agentgate exec".
type ExecOptions struct {
	Env            *Env
	Args           []string
	Flags          ConfigFlags
	NonInteractive bool
	JSON           bool
	Session        string
	PromptTimeout  time.Duration
	// HostTicket is the secret of an approval given in a host's own
	// dialog, which a hook's rewrite carries (engine.Escalation.HostAsk).
	HostTicket string
	// HostWhy is the reason class the hook's rewrite names for its host
	// to show (Codex's approval shows the justification of the rule it
	// matches). It changes nothing that runs; the ticket approves only
	// the rewrite with the class it was given with.
	HostWhy string
}

func newCmdExec(env *Env, runF func(*ExecOptions) error) *cobra.Command {
	o := &ExecOptions{Env: env}
	c := &cobra.Command{
		Use:   "exec [flags] -- COMMAND...",
		Short: "Run a command if it is known read-only; otherwise ask, or deny",
		Long: `Run COMMAND through the gate.

A single argument is a shell command string; agents should pass their
command this way, as one unexpanded argument:

  agentgate exec -- 'git log --oneline -5'

Several arguments are an argv, run directly with no shell, so no word of
it is an operator:

  agentgate exec -- git log --oneline -5

Known read-only commands (see 'agentgate check' and config.example.toml)
run at once, with nothing added to their output. Anything else escalates:
a person at the terminal is asked; with no one to ask (--non-interactive,
a CI variable, no /dev/tty) the command is denied with exit status 126.
Every escalation is appended to the audit log.

Exit status: the command's own (128+N if killed by signal N); 126 when
denied; 2 for a usage or configuration error; 125 when agentgate itself
failed.`,
		Example: `  agentgate exec -- 'git status'
  agentgate exec --non-interactive -- 'git status && rm -rf build'
  agentgate exec --json -- 'make test'
  agentgate exec --allow 'make test' -- 'make test'`,
		Args: requireDash,
		RunE: func(c *cobra.Command, args []string) error {
			o.Args = args
			if runF != nil {
				return runF(o)
			}
			return execRun(o)
		},
	}
	f := c.Flags()
	o.Flags.register(f)
	f.BoolVar(&o.NonInteractive, "non-interactive", false, "never prompt: deny whatever would ask (as in CI)")
	f.BoolVar(&o.JSON, "json", false, "on denial, print a JSON error object on stdout instead of text on stderr")
	f.StringVar(&o.Session, "session", "", "session name (default: the terminal session)")
	f.DurationVar(&o.PromptTimeout, "prompt-timeout", 0, "deny when the prompt gets no answer in this time (default from config, else 5m)")
	// Written by a hook into the command it hands its host, never by a
	// person: hidden from the help.
	f.StringVar(&o.HostTicket, "host-ticket", "", "the approval a person gave in the host's dialog (written by the hook)")
	_ = f.MarkHidden("host-ticket")
	f.StringVar(&o.HostWhy, "host-why", "", "the reason class the host's dialog showed with the ticket (written by the hook)")
	_ = f.MarkHidden("host-why")
	return c
}

func execRun(o *ExecOptions) error {
	if o.HostWhy != "" && (o.HostTicket == "" || !hook.KnownCodexWhy(o.HostWhy)) {
		return usagef("--host-why is written by agentgate's hook, with --host-ticket", "--host-why %q names no reason class agentgate's hook writes, or comes without --host-ticket", visible.String(o.HostWhy))
	}
	eng, j, err := o.Env.judge(o.Args, &o.Flags, o.Session, o.HostTicket)
	if err != nil {
		return err
	}
	j.HostWhy = o.HostWhy
	if o.PromptTimeout > 0 {
		j.Config.PromptTimeout = o.PromptTimeout
	}
	r := eng.Route(j)
	if r.Action == engine.Run && r.Outcome == "" {
		_, unwatched := o.Env.unwatched(o.NonInteractive)
		return o.Env.runAllowed(eng, j, unwatched)
	}
	return o.escalate(eng, j, r)
}

// runAllowed runs the command the gate allowed on its own. Watched (a
// person at a terminal, who can stop it), agentgate is replaced by it:
// nothing remains to do after it, so its signals and exit status are its
// own. Unwatched (a hook, CI, --non-interactive), it runs as a child with
// command_timeout as its limit, and one that reaches it is ended and
// recorded. A workspace command runs as a child either way, so that
// agentgate removes its scratch directory afterwards.
func (e *Env) runAllowed(eng *engine.Engine, j *engine.Judgement, unwatched bool) error {
	p, err := eng.Plan(j, true)
	if err != nil {
		return e.commandError(err)
	}
	workspace := p.Sandbox != nil && p.Sandbox.Level == sandbox.Workspace
	if !workspace && !unwatched {
		return e.commandError(e.Exec(p))
	}
	if unwatched {
		p.Limit = j.Config.CommandTimeout
	}
	started := e.Now()
	code, err := e.Run(p)
	code, err = e.protected(eng, j, code, err)
	var le *runner.LimitError
	if errors.As(err, &le) {
		printError(e.Stderr, fmt.Sprintf("%s: %v", visible.String(j.Request.Text), err),
			fmt.Sprintf("the command ran unwatched for longer than command_timeout (%s, from %s); run it at a terminal, or bound it (head, timeout)",
				j.Config.CommandTimeout, j.Config.CommandTimeoutSource))
		if w, rerr := eng.RecordLimit(j, e.Now().Sub(started), code); rerr != nil {
			warnf(e.Stderr, "the audit record of the limit was not written: %v", rerr)
		} else if w != "" {
			warnf(e.Stderr, "%s", w)
		}
		return exitStatus(code)
	}
	if err != nil {
		return e.commandError(err)
	}
	return exitStatus(code)
}

// commandError maps a failure to start the command to the shell's status.
func (e *Env) commandError(err error) error {
	var nf *runner.NotFoundError
	if errors.As(err, &nf) {
		printError(e.Stderr, "cannot run "+nf.Error(), "")
		return exitStatus(nf.ExitStatus())
	}
	if err != nil {
		return &internalError{err}
	}
	return nil
}

// protected reports a workspace command that made something at a
// protected path of the project, which agentgate moved aside, and records
// it. The command ran; its status stands, except that a success becomes
// 1: what it left is not what it would have left. It returns what is left
// of err to handle (a time limit).
func (e *Env) protected(eng *engine.Engine, j *engine.Judgement, code int, err error) (int, error) {
	var pe *runner.ProtectedError
	if !errors.As(err, &pe) {
		return code, err
	}
	printError(e.Stderr, visible.String(pe.Error()),
		"a command confined to the project may not create or replace these (git, the agents and direnv run what they hold); look at what was moved aside, and put it back yourself if you meant it")
	if w, rerr := eng.RecordProtected(j, pe.Moved, code); rerr != nil {
		warnf(e.Stderr, "the audit record of the moved paths was not written: %v", rerr)
	} else if w != "" {
		warnf(e.Stderr, "%s", w)
	}
	if code == 0 {
		code = 1
	}
	return code, pe.Cause
}
