package engine

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/agentgate/agentgate/sandbox"
	"os"
	"os/user"
	"time"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/inspect"
)

// NewRecord fills the parts of j's escalation record that do not depend on
// its outcome.
func (e *Engine) NewRecord(j *Judgement) audit.Record {
	host, _ := os.Hostname()
	name := ""
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	return audit.Record{
		Time:      e.Now().UTC().Format(audit.TimeFormat),
		ID:        newID(),
		Event:     audit.EventEscalation,
		Command:   j.Request.Text,
		Argv:      j.Request.Argv,
		Cwd:       j.Cwd,
		Decision:  j.Decision.Verdict(),
		Reasons:   j.Decision.Reasons(),
		Risks:     NonNilRisks(j.Decision.Risks()),
		Session:   j.Session,
		Harness:   harnessOf(j),
		ToolUseID: j.ToolUseID,
		PID:       os.Getpid(),
		PPID:      os.Getppid(),
		User:      name,
		Host:      host,
		Version:   e.Version,
		Shell:     inspect.Describe(j.Request.Script.Of(j.Request.Text)),
		Severity:  gate.Severity(j.Decision),
	}
}

// NonNilRisks makes an empty risk list marshal as [] rather than null.
func NonNilRisks(r []gate.Risk) []gate.Risk {
	if r == nil {
		return []gate.Risk{}
	}
	return r
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Append writes rec to the audit log. A failure to forward it to syslog
// is returned as a warning: the local record, which is what counts,
// exists.
func (e *Engine) Append(cfg *config.Config, rec audit.Record) (warning string, err error) {
	l := audit.Log{Path: e.AuditLog, MaxSize: cfg.AuditMaxSize, Now: e.Now}
	if cfg.AuditSyslog {
		// The system's socket: no variable moves where the anchor goes.
		l.Syslog = &audit.Syslog{}
	}
	err = l.Append(rec)
	var se *audit.SyslogError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (the local audit record was written)", err), nil
	}
	return "", err
}

// Escalation is one escalated command on its way to running or being
// refused: its record, written before anything runs.
type Escalation struct {
	e   *Engine
	J   *Judgement
	Rec audit.Record
	// Warnings collects what the user should be told and did not change
	// the outcome.
	Warnings []string
}

// Escalate starts the record of an escalated command.
func (e *Engine) Escalate(j *Judgement) *Escalation {
	return &Escalation{e: e, J: j, Rec: e.NewRecord(j)}
}

// RecordLimit appends that j's command, allowed on its own, was ended at
// its time limit after running for ran, with exit status code.
func (e *Engine) RecordLimit(j *Judgement, ran time.Duration, code int) (warning string, err error) {
	rec := e.NewRecord(j)
	rec.Event, rec.Outcome = audit.EventLimit, audit.OutcomeStoppedByLimit
	ms := ran.Milliseconds()
	rec.ExitCode, rec.DurationMS = &code, &ms
	return e.Append(j.Config, rec)
}

// RecordProtected appends what j's workspace command made at protected
// paths of the project, one reason per path, and where each was moved.
func (e *Engine) RecordProtected(j *Judgement, moved []sandbox.Moved, code int) (warning string, err error) {
	rec := e.NewRecord(j)
	rec.Event, rec.Outcome = audit.EventProtected, audit.OutcomeQuarantined
	rec.ExitCode = &code
	rec.Reasons = nil
	for _, m := range moved {
		msg := fmt.Sprintf("the command made %s, a protected path (it was %s); moved to %s", m.Path, m.Was, m.To)
		if m.To == "" {
			msg = fmt.Sprintf("the command removed %s (%s); put back", m.Path, m.Was)
		}
		rec.Reasons = append(rec.Reasons, gate.Reason{Check: gate.CheckSelfProtect, Match: m.Path, Source: "workspace", Message: msg})
	}
	return e.Append(j.Config, rec)
}

func (x *Escalation) append(rec audit.Record) error {
	w, err := x.e.Append(x.J.Config, rec)
	if w != "" {
		x.Warnings = append(x.Warnings, w)
	}
	return err
}

// Approve records that the command will run, with outcome. If the record
// cannot be written the command must not run: the error says so. An
// approved_out_of_band outcome uses the person's approval up, and so does
// an approved_host one claimed with a host ticket ([Escalation.HostAsk]):
// if another run used it first, the error says so and the command must
// not run.
func (x *Escalation) Approve(outcome string) error {
	if outcome == audit.OutcomeApprovedOutOfBand {
		p, err := x.e.claim(x.J)
		if err != nil {
			return fmt.Errorf("the command was not run: the approval from another terminal was already used")
		}
		x.Rec.Pending = p.ID
		// A hook's rewrite claims it in exec: the record names the host
		// the request came from.
		if x.Rec.Harness == "" {
			x.Rec.Harness = p.Harness
		}
	}
	if outcome == audit.OutcomeApprovedHost && x.J.HostTicket != "" {
		if err := x.approveHost(); err != nil {
			return fmt.Errorf("the command was not run: %w", err)
		}
	}
	x.Rec.Outcome = outcome
	if err := x.append(x.Rec); err != nil {
		return fmt.Errorf("the command was not run: its audit record could not be written: %w", err)
	}
	return nil
}

// Finished records how an approved command ended, under the same id.
func (x *Escalation) Finished(code int, took time.Duration) {
	res := x.Rec
	res.Event, res.Time = audit.EventResult, x.e.Now().UTC().Format(audit.TimeFormat)
	res.Reasons, res.Risks, res.Shell = nil, nil, nil
	ms := took.Milliseconds()
	res.ExitCode, res.DurationMS = &code, &ms
	if err := x.append(res); err != nil {
		x.Warnings = append(x.Warnings, fmt.Sprintf("the command ran, but its result was not recorded: %v", err))
	}
}

// Denial is what a refused command tells its proposer: the agent, not the
// person. It never proposes widening a rule.
type Denial struct {
	Command  string
	Outcome  string
	Reason   string
	NextStep string
	Reasons  []gate.Reason
	Risks    []gate.Risk
	// Pending is the id a person can approve the command by from another
	// terminal ("agentgate approve ID"), when it was kept for that.
	Pending string
	// LogErr is set when the denial's audit record was not written; the
	// command is refused all the same.
	LogErr error
}

// Refuse records the refusal, counts it for the breaker, and returns what
// to tell the proposer.
func (x *Escalation) Refuse(r Route) Denial {
	j := x.J
	x.Rec.Outcome = r.Outcome
	if r.Hold && j.Unbound() {
		// An approval would never hold for the retry: say so, rather
		// than name an id that approves nothing.
		r.Hold = false
		if j.Decision.Unread() {
			r.Context += "; it cannot be approved for a later run either, since its words are not read as bash reads them: write them as plain words"
		} else {
			r.Context += "; it cannot be approved for a later run either, since where its cd goes cannot be followed: write the directory as a plain word"
		}
	}
	if r.Hold {
		p, err := x.e.hold(j, x.Rec.ID)
		if err != nil {
			x.Warnings = append(x.Warnings, fmt.Sprintf("the command was not kept for approval from another terminal: %v", err))
		} else {
			x.Rec.Pending = p.ID
		}
	}
	logErr := x.append(x.Rec)
	if remembers(j.Decision) {
		if err := x.e.Sessions(j.Config).RecordDenial(j.Session, j.Request.Text, x.e.Now()); err != nil {
			x.Warnings = append(x.Warnings, fmt.Sprintf("the denial was not counted for the session: %v", err))
		}
	}
	reason := j.Decision.Primary().String()
	if r.Context != "" {
		reason += "; " + r.Context
	}
	next := gate.NextStepAfter(j.Decision, r.Outcome)
	return Denial{Command: j.Request.Text, Outcome: r.Outcome, Reason: reason, NextStep: next,
		Reasons: j.Decision.Reasons(), Risks: NonNilRisks(j.Decision.Risks()), Pending: x.Rec.Pending, LogErr: logErr}
}
