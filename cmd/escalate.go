package cmd

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/inspect"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/prompt"
	"github.com/agentgate/agentgate/session"
)

// escalation is one command that did not pass the gate on its own.
type escalation struct {
	o     *ExecOptions
	req   gate.Request
	d     gate.Decision
	cfg   *config.Config
	cwd   string
	rec   audit.Record
	sess  string
	store session.Store
	// remember is false for self-protection escalations: session memory
	// and the breaker never apply to them; they ask every time.
	remember bool
}

// escalate handles an ask or a deny: session memory, the breaker, the
// mode, and the prompt, in that order.
func (o *ExecOptions) escalate(req gate.Request, d gate.Decision, cfg *config.Config, cwd string) error {
	e := &escalation{o: o, req: req, d: d, cfg: cfg, cwd: cwd,
		sess:     session.ID(firstNonEmpty(o.Session, o.Env.Getenv("AGENTGATE_SESSION"))),
		store:    session.Store{Dir: filepath.Join(o.Env.StateDir(), "sessions"), TTL: cfg.SessionTTL, Window: cfg.BreakerWindow},
		remember: d.Primary().Check != gate.CheckSelfProtect,
	}
	e.rec = o.Env.newRecord(req, d, e.sess)
	if d.Verdict() == gate.Deny {
		return e.refuse(audit.OutcomeDenied, "")
	}
	if e.remember {
		now := o.Env.Now()
		st, err := e.store.Load(e.sess)
		if err != nil {
			warnf(o.Env.Stderr, "%v", err)
		}
		if v, ok := e.store.Remembered(st, req.Text, now); ok {
			if v == session.Allowed {
				return e.run(audit.OutcomeAllowedBySession)
			}
			return e.refuse(audit.OutcomeDeniedBySession, "denied earlier in this session")
		}
		if n := e.store.RecentDenials(st, req.Text, now); n >= cfg.BreakerThreshold {
			return e.refuse(audit.OutcomeBreaker, fmt.Sprintf(
				"this command was denied %d times in this session; stop retrying it and ask the user", n))
		}
	}
	switch {
	case cfg.Mode == config.ModeBypass && !d.Sticky():
		return e.run(audit.OutcomeBypassed)
	case cfg.Mode == config.ModeReadonly:
		return e.refuse(audit.OutcomeDeniedReadonly, "mode readonly (from "+cfg.ModeSource+") runs only allowlisted commands")
	case cfg.Mode == config.ModeCI:
		return e.refuse(audit.OutcomeDeniedNonInteractive, "no one to ask: mode ci (from "+cfg.ModeSource+")")
	}
	tty, why := o.Env.terminal(o.NonInteractive)
	if tty == nil {
		return e.refuse(audit.OutcomeDeniedNonInteractive, "no one to ask: "+why)
	}
	res := o.Env.Ask(context.Background(), tty, e.question(), prompt.Options{
		Accessible: o.Env.Getenv("AGENTGATE_ACCESSIBLE") == "1" || o.Env.Getenv("TERM") == "dumb",
		Timeout:    cfg.PromptTimeout,
		Challenge:  cfg.PromptChallenge,
	})
	tty.Close()
	return e.answer(res)
}

// answer acts on the person's choice.
func (e *escalation) answer(res prompt.Result) error {
	now := e.o.Env.Now()
	switch res.Ending {
	case prompt.TimedOut:
		return e.refuse(audit.OutcomeTimeout, fmt.Sprintf("no answer within %s", e.cfg.PromptTimeout))
	case prompt.Interrupted:
		return e.refuse(audit.OutcomeInterrupted, "the prompt was interrupted")
	case prompt.Failed:
		return e.refuse(audit.OutcomeDenied, fmt.Sprintf("the prompt failed (%v)", res.Err))
	}
	if res.ChallengeFailed {
		return e.refuse(audit.OutcomeDenied, "the confirmation code did not match")
	}
	switch res.Choice {
	case prompt.AllowOnce:
		return e.run(audit.OutcomeApprovedOnce)
	case prompt.AllowSession:
		if e.remember {
			if err := e.store.Remember(e.sess, e.req.Text, session.Allowed, now); err != nil {
				warnf(e.o.Env.Stderr, "the approval was not remembered for the session: %v", err)
			}
		}
		return e.run(audit.OutcomeApprovedSession)
	case prompt.AlwaysAllow:
		prefix := e.alwaysPrefix()
		if prefix == "" {
			return e.refuse(audit.OutcomeDenied, "no safe prefix to always allow")
		}
		if err := config.AddLearned(config.LearnedPath(e.o.Env.ConfigDir()), prefix, now); err != nil {
			warnf(e.o.Env.Stderr, "the prefix %q was not saved: %v", prefix, err)
		}
		return e.run(audit.OutcomeApprovedAlways)
	case prompt.DenySession:
		if e.remember {
			if err := e.store.Remember(e.sess, e.req.Text, session.Denied, now); err != nil {
				warnf(e.o.Env.Stderr, "the denial was not remembered for the session: %v", err)
			}
		}
		return e.refuse(audit.OutcomeDeniedSession, "denied by the user for this session")
	}
	return e.refuse(audit.OutcomeDenied, "denied by the user")
}

// question is what the prompt shows.
func (e *escalation) question() prompt.Question {
	var why []string
	for _, r := range e.d.Reasons() {
		why = append(why, visible.String(r.String()))
	}
	for _, r := range e.d.Risks() {
		why = append(why, "note: "+r.Program+" "+r.Note)
	}
	shell, ok := e.rec.Shell.(inspect.Script)
	if !ok {
		shell = inspect.Parse(e.req.Text)
	}
	return prompt.Question{
		Command:      visible.String(e.req.Text),
		Cwd:          visible.String(e.cwd),
		Why:          why,
		Shell:        shell.Tree(),
		AlwaysPrefix: e.alwaysPrefix(),
	}
}

// alwaysPrefix is the narrowest prefix "Always allow" may offer: a plain
// simple command, not a sticky escalation, not an interpreter, shell or
// wrapper, and not a prefix whose default rule already has exceptions.
func (e *escalation) alwaysPrefix() string {
	argv := e.d.Argv()
	if e.d.Sticky() || len(argv) == 0 || e.d.Primary().Check != gate.CheckDefault {
		return ""
	}
	return gate.SuggestPrefix(argv)
}

// appendRecord writes a record to the audit log. A failure to forward it
// to syslog is a warning: the local record, which is what counts, exists.
func (e *escalation) appendRecord(rec audit.Record) error {
	l := audit.Log{Path: e.o.Env.AuditLog(e.o.Flags.AuditLog), MaxSize: e.cfg.AuditMaxSize, Now: e.o.Env.Now}
	if e.cfg.AuditSyslog {
		l.Syslog = &audit.Syslog{Socket: e.o.Env.Getenv("AGENTGATE_SYSLOG_SOCKET")}
	}
	err := l.Append(rec)
	var se *audit.SyslogError
	if errors.As(err, &se) {
		warnf(e.o.Env.Stderr, "%v (the local audit record was written)", err)
		return nil
	}
	return err
}

// run records the approval before anything runs (if the record cannot be
// written, nothing runs), runs the command, waits, and records its exit
// status and duration.
func (e *escalation) run(outcome string) error {
	o := e.o
	e.rec.Outcome = outcome
	if err := e.appendRecord(e.rec); err != nil {
		return &internalError{fmt.Errorf("the command was not run: its audit record could not be written: %w", err)}
	}
	p, err := o.Env.plan(e.req, e.d, false)
	if err != nil {
		return o.Env.commandError(err)
	}
	start := o.Env.Now()
	code, err := o.Env.Run(p)
	if err != nil {
		return o.Env.commandError(err)
	}
	res := e.rec
	end := o.Env.Now()
	res.Event, res.Time = audit.EventResult, end.UTC().Format(audit.TimeFormat)
	res.Reasons, res.Risks, res.Shell = nil, nil, nil
	ms := end.Sub(start).Milliseconds()
	res.ExitCode, res.DurationMS = &code, &ms
	if err := e.appendRecord(res); err != nil {
		warnf(o.Env.Stderr, "the command ran, but its result was not recorded: %v", err)
	}
	return exitStatus(code)
}

// refuse records a denial, counts it for the breaker, tells the proposer,
// and exits 126. If the record cannot be written the command is still
// refused, and the error is reported too.
func (e *escalation) refuse(outcome, context string) error {
	o := e.o
	e.rec.Outcome = outcome
	logErr := e.appendRecord(e.rec)
	if e.remember {
		if err := e.store.RecordDenial(e.sess, e.req.Text, o.Env.Now()); err != nil {
			warnf(o.Env.Stderr, "the denial was not counted for the session: %v", err)
		}
	}
	reason := e.d.Primary().String()
	if context != "" {
		reason += "; " + context
	}
	next := gate.NextStep(e.d, o.Env.UserConfig())
	if outcome == audit.OutcomeBreaker {
		next = "stop retrying this command and ask the user what to do"
	}
	if o.JSON {
		out, _ := audit.Marshal(map[string]any{"ok": false, "error": map[string]any{
			"code": "PERMISSION_DENIED", "message": reason, "command": e.req.Text,
			"outcome": outcome, "reasons": e.d.Reasons(), "risks": nonNilRisks(e.d.Risks()), "next_step": next,
		}})
		fmt.Fprintf(o.Env.Stdout, "%s\n", out)
	} else {
		fmt.Fprintf(o.Env.Stderr, "agentgate: denied: %s: %s\n", visible.String(e.req.Text), visible.String(reason))
		for _, r := range e.d.Risks() {
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
