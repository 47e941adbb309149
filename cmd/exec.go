package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/runner"
	"github.com/agentgate/agentgate/session"
)

// ExecOptions are the inputs of "agentgate exec".
type ExecOptions struct {
	Env            *Env
	Args           []string
	Flags          ConfigFlags
	NonInteractive bool
	JSON           bool
	Session        string
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
	o.Flags.register(f)
	f.BoolVar(&o.NonInteractive, "non-interactive", false, "never prompt: deny whatever would ask (as in CI)")
	f.BoolVar(&o.JSON, "json", false, "on denial, print a JSON error object on stdout instead of text on stderr")
	f.StringVar(&o.Session, "session", "", "session name (default $AGENTGATE_SESSION, else the terminal session)")
	return c
}

func execRun(o *ExecOptions) error {
	req, err := proposal(o.Args)
	if err != nil {
		return err
	}
	cfg, err := o.Env.loadConfig(&o.Flags)
	if err != nil {
		return err
	}
	cwd, _ := o.Env.Getwd()
	req.Rules, req.Paths = cfg.Rules, cfg.Paths(o.Env.home(), cwd)
	d := o.Env.vet(gate.Decide(req))
	if d.Verdict() == gate.Allow {
		return o.Env.runAllowed(req, d)
	}
	sess := session.ID(firstNonEmpty(o.Session, o.Env.Getenv("AGENTGATE_SESSION")))
	rec := o.Env.newRecord(req, d, sess)
	switch {
	case d.Verdict() == gate.Deny:
		rec.Outcome = audit.OutcomeDenied
		return o.refuse(req, d, rec, "")
	case cfg.Mode == config.ModeBypass && !d.Sticky():
		rec.Outcome = audit.OutcomeBypassed
		return o.runApproved(req, d, rec)
	case cfg.Mode == config.ModeReadonly:
		rec.Outcome = audit.OutcomeDeniedReadonly
		return o.refuse(req, d, rec, "mode readonly (from "+cfg.ModeSource+") runs only allowlisted commands")
	case cfg.Mode == config.ModeCI:
		rec.Outcome = audit.OutcomeDeniedNonInteractive
		return o.refuse(req, d, rec, "no one to ask: mode ci (from "+cfg.ModeSource+")")
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

// runApproved records the approval before anything runs (if the record
// cannot be written, nothing runs), runs the command, waits, and records
// its exit status and duration.
func (o *ExecOptions) runApproved(req gate.Request, d gate.Decision, rec audit.Record) error {
	log := o.Env.AuditLog(o.Flags.AuditLog)
	if err := audit.Append(log, rec); err != nil {
		return &internalError{fmt.Errorf("the command was not run: its audit record could not be written: %w", err)}
	}
	p, err := o.Env.plan(req, d, false)
	if err != nil {
		return o.Env.commandError(err)
	}
	start := o.Env.Now()
	code, err := o.Env.Run(p)
	if err != nil {
		return o.Env.commandError(err)
	}
	res := rec
	res.Event, res.Time = audit.EventResult, o.Env.Now().UTC().Format(audit.TimeFormat)
	res.Reasons, res.Risks = nil, nil
	ms := o.Env.Now().Sub(start).Milliseconds()
	res.ExitCode, res.DurationMS = &code, &ms
	if err := audit.Append(log, res); err != nil {
		warnf(o.Env.Stderr, "the command ran, but its result was not recorded: %v", err)
	}
	return exitStatus(code)
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
	logErr := audit.Append(o.Env.AuditLog(o.Flags.AuditLog), rec)
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
