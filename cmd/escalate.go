package cmd

import (
	"context"
	"fmt"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/engine"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/inspect"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/prompt"
)

// escalate carries out the engine's route for a command that did not pass
// the gate on its own, asking the person at the terminal when the route
// says so.
func (o *ExecOptions) escalate(eng *engine.Engine, j *engine.Judgement, r engine.Route) error {
	x := eng.Escalate(j)
	defer func() {
		for _, w := range x.Warnings {
			warnf(o.Env.Stderr, "%s", w)
		}
	}()
	if r.Warning != "" {
		warnf(o.Env.Stderr, "%s", r.Warning)
	}
	if r.Action == engine.Prompt {
		tty, why := o.Env.terminal(o.NonInteractive)
		if tty == nil {
			r = engine.NoOneToAsk(why)
		} else {
			res := o.Env.Ask(context.Background(), tty, question(j, x.Rec), prompt.Options{
				Accessible: o.Env.Getenv("AGENTGATE_ACCESSIBLE") == "1" || o.Env.Getenv("TERM") == "dumb",
				Timeout:    j.Config.PromptTimeout,
				Challenge:  j.Config.PromptChallenge,
			})
			tty.Close()
			r = eng.Answer(j, res)
			if r.Warning != "" {
				warnf(o.Env.Stderr, "%s", r.Warning)
			}
		}
	}
	if r.Action == engine.Run {
		return o.run(eng, x, r.Outcome)
	}
	return o.refuse(x.Refuse(r))
}

// question is what the prompt shows.
func question(j *engine.Judgement, rec audit.Record) prompt.Question {
	var why []string
	for _, r := range j.Decision.Reasons() {
		why = append(why, visible.String(r.String()))
	}
	for _, r := range j.Decision.Risks() {
		why = append(why, "note: "+r.Program+" "+r.Note)
	}
	if hint := gate.SplitHint(j.Request, j.Decision); hint != "" {
		why = append(why, "for you: "+hint)
	}
	shell, ok := rec.Shell.(inspect.Script)
	if !ok {
		shell = inspect.Describe(j.Request.Script.Of(j.Request.Text))
	}
	always := engine.AlwaysRule(j.Decision)
	return prompt.Question{
		Command:       visible.String(j.Request.Text),
		Cwd:           visible.String(j.Cwd),
		Why:           why,
		Shell:         shell.Tree(),
		AlwaysPrefix:  always.Prefix,
		AlwaysSandbox: always.Sandbox,
		Severity:      gate.Severity(j.Decision),
	}
}

// run records the approval before anything runs (if the record cannot be
// written, nothing runs), runs the command, waits, and records its exit
// status and duration.
func (o *ExecOptions) run(eng *engine.Engine, x *engine.Escalation, outcome string) error {
	if err := x.Approve(outcome); err != nil {
		return &internalError{err}
	}
	p, err := eng.Plan(x.J, false)
	if err != nil {
		return o.Env.commandError(err)
	}
	start := o.Env.Now()
	code, err := o.Env.Run(p)
	code, err = o.Env.protected(eng, x.J, code, err)
	if err != nil {
		return o.Env.commandError(err)
	}
	x.Finished(code, o.Env.Now().Sub(start))
	return exitStatus(code)
}

// refuse tells the proposer and exits 126. If the record could not be
// written the command is still refused, and the error is reported too.
func (o *ExecOptions) refuse(dn engine.Denial) error {
	if o.JSON {
		out, _ := audit.Marshal(map[string]any{"ok": false, "error": map[string]any{
			"code": "PERMISSION_DENIED", "message": dn.Reason, "command": dn.Command,
			"outcome": dn.Outcome, "reasons": dn.Reasons, "risks": dn.Risks, "next_step": dn.NextStep, "pending": dn.Pending,
		}})
		fmt.Fprintf(o.Env.Stdout, "%s\n", out)
	} else {
		fmt.Fprintf(o.Env.Stderr, "agentgate: denied: %s: %s\n", visible.String(dn.Command), visible.String(dn.Reason))
		for _, r := range dn.Risks {
			fmt.Fprintf(o.Env.Stderr, "agentgate: note: %s %s\n", r.Program, r.Note)
		}
		fmt.Fprintf(o.Env.Stderr, "agentgate: hint: %s\n", dn.NextStep)
		if dn.Pending != "" {
			fmt.Fprintf(o.Env.Stderr, "agentgate: hint: a person can approve it once from another terminal: agentgate approve %s\n", dn.Pending)
		}
	}
	if dn.LogErr != nil {
		printError(o.Env.Stderr, "the audit record was not written: "+dn.LogErr.Error(),
			"check the audit log path (--audit-log, else $XDG_STATE_HOME/agentgate) is writable")
	}
	return exitStatus(exitDenied)
}
