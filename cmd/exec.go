package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/runner"
	"github.com/agentgate/agentgate/session"
)

// ExecOptions are the inputs of "agentgate exec".
type ExecOptions struct {
	Env            *Env
	Args           []string
	NonInteractive bool
	JSON           bool
	AuditLog       string
	Session        string
}

func newCmdExec(env *Env, runF func(*ExecOptions) error) *cobra.Command {
	o := &ExecOptions{Env: env}
	c := &cobra.Command{
		Use:   "exec [flags] -- COMMAND...",
		Short: "Run a command if it is known read-only; otherwise ask, or deny",
		Long: `Run COMMAND through the gate.

A single argument is a shell command string, run with bash; agents should
pass their command this way, as one unexpanded argument:

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
denied; 2 for a usage error; 125 when agentgate itself failed.`,
		Example: `  agentgate exec -- 'git status'
  agentgate exec --non-interactive -- 'git status && rm -rf build'
  agentgate exec --json -- 'make test'`,
		Args: func(c *cobra.Command, args []string) error {
			if c.ArgsLenAtDash() != 0 {
				return usagef(`write "--" before the command: agentgate exec -- 'git status'`, `the command must follow "--"`)
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			o.Args = args
			if runF != nil {
				return runF(o)
			}
			return execRun(o)
		},
	}
	f := c.Flags()
	f.BoolVar(&o.NonInteractive, "non-interactive", false, "never prompt: deny whatever would ask (as in CI)")
	f.BoolVar(&o.JSON, "json", false, "on denial, print a JSON error object on stdout instead of text on stderr")
	f.StringVar(&o.AuditLog, "audit-log", "", "audit log path (default $AGENTGATE_AUDIT_LOG, else $XDG_STATE_HOME/agentgate/audit.jsonl)")
	f.StringVar(&o.Session, "session", "", "session name (default $AGENTGATE_SESSION, else the terminal session)")
	return c
}

func execRun(o *ExecOptions) error {
	req, err := proposal(o.Args)
	if err != nil {
		return err
	}
	req.Rules = allowlist.Defaults()
	d := o.Env.vet(gate.Decide(req))
	if d.Verdict() == gate.Allow {
		return o.Env.runAllowed(req, d)
	}
	sess := session.ID(firstNonEmpty(o.Session, o.Env.Getenv("AGENTGATE_SESSION")))
	rec := o.Env.newRecord(req, d, sess)
	if d.Verdict() == gate.Deny {
		rec.Outcome = audit.OutcomeDenied
		return o.refuse(req, d, rec, "")
	}
	tty, why := o.Env.terminal(o.NonInteractive)
	if tty != nil {
		// The approval prompt is not built yet: until it is, a terminal
		// changes nothing and the command is denied as in CI.
		tty.Close()
		why = "the approval prompt is not available in this build"
	}
	rec.Outcome = audit.OutcomeDeniedNonInteractive
	return o.refuse(req, d, rec, "no one to ask: "+why)
}

// runAllowed replaces agentgate with the command: nothing remains to do
// after it, so its signals and exit status are its own.
func (e *Env) runAllowed(req gate.Request, d gate.Decision) error {
	p, err := e.plan(req, d, true)
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

// refuse records a denial, tells the proposer, and exits 126. If the
// record cannot be written the command is still refused, and the error
// is reported too.
func (o *ExecOptions) refuse(req gate.Request, d gate.Decision, rec audit.Record, context string) error {
	logErr := audit.Append(o.Env.AuditLog(o.AuditLog), rec)
	reason := d.Primary().String()
	if context != "" {
		reason += "; " + context
	}
	next := gate.NextStep(d, o.Env.UserConfig())
	if o.JSON {
		out, _ := audit.Marshal(map[string]any{"ok": false, "error": map[string]any{
			"code": "PERMISSION_DENIED", "message": reason, "command": req.Text,
			"outcome": rec.Outcome, "reasons": d.Reasons(), "risks": nonNilRisks(d.Risks()), "next_step": next,
		}})
		fmt.Fprintf(o.Env.Stdout, "%s\n", out)
	} else {
		fmt.Fprintf(o.Env.Stderr, "agentgate: denied: %s: %s\n", visible.String(req.Text), reason)
		for _, r := range d.Risks() {
			fmt.Fprintf(o.Env.Stderr, "agentgate: note: %s %s\n", r.Program, r.Note)
		}
		fmt.Fprintf(o.Env.Stderr, "agentgate: hint: %s\n", next)
	}
	if logErr != nil {
		printError(o.Env.Stderr, "the audit record was not written: "+logErr.Error(),
			"check the audit log path (--audit-log, AGENTGATE_AUDIT_LOG) is writable")
	}
	return exitStatus(exitDenied)
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
