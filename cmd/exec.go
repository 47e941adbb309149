package cmd

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/engine"
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
	return c
}

func execRun(o *ExecOptions) error {
	eng, j, err := o.Env.judge(o.Args, &o.Flags, o.Session)
	if err != nil {
		return err
	}
	if o.PromptTimeout > 0 {
		j.Config.PromptTimeout = o.PromptTimeout
	}
	r := eng.Route(j)
	if r.Action == engine.Run && r.Outcome == "" {
		return o.Env.runAllowed(eng, j)
	}
	return o.escalate(eng, j, r)
}

// runAllowed replaces agentgate with the command the gate allowed on its
// own: nothing remains to do after it, so its signals and exit status are
// its own.
func (e *Env) runAllowed(eng *engine.Engine, j *engine.Judgement) error {
	p, err := eng.Plan(j, true)
	if err == nil && p.Sandbox != nil && p.Sandbox.Level == sandbox.Workspace {
		// A workspace command may fill its scratch directory: it runs as
		// a child, so that agentgate removes the directory afterwards.
		code, err := e.Run(p)
		if err != nil {
			return e.commandError(err)
		}
		return exitStatus(code)
	}
	if err == nil {
		err = e.Exec(p)
	}
	return e.commandError(err)
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
