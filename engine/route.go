package engine

import (
	"fmt"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/session"
)

// Action is what to do with a judged command.
type Action int

const (
	// Refuse is the zero value: a Route nobody filled in never runs.
	Refuse Action = iota
	// Run runs the command.
	Run
	// Prompt asks a person; with no one to ask, the caller refuses.
	Prompt
)

func (a Action) String() string {
	switch a {
	case Run:
		return "run"
	case Prompt:
		return "prompt"
	}
	return "refuse"
}

// Route is the engine's answer for a judged command.
type Route struct {
	Action Action
	// Outcome is the audit outcome of a Run or Refuse ("" for a command
	// the gate allowed on its own: it leaves no record).
	Outcome string
	// Context says why, beyond the decision's own reason, for a Refuse.
	Context string
	// Warning is a problem worth telling the user that did not change the
	// route, such as unreadable session state.
	Warning string
	// Hold keeps a refused command as a pending request that a person can
	// approve from another terminal ("agentgate approve ID").
	Hold bool
}

// Route decides what happens to j without a person: the verdict, then an
// approval from another terminal, session memory, the breaker and the
// mode, in that order. It reads
// session state and writes nothing.
func (e *Engine) Route(j *Judgement) Route {
	d, cfg := j.Decision, j.Config
	switch d.Verdict() {
	case gate.Allow:
		return Route{Action: Run}
	case gate.Deny:
		return Route{Action: Refuse, Outcome: audit.OutcomeDenied}
	}
	// A person approved exactly this from another terminal, or in the
	// host's dialog: that answer is newer than anything session memory or
	// the breaker hold. The ci
	// and readonly modes still run nothing that asks.
	if cfg.Mode != config.ModeCI && cfg.Mode != config.ModeReadonly {
		if _, ok := e.grant(j); ok {
			return Route{Action: Run, Outcome: audit.OutcomeApprovedOutOfBand}
		}
		// A person said yes to exactly this in the host's own dialog.
		if _, ok := e.hostGrant(j); ok {
			return Route{Action: Run, Outcome: audit.OutcomeApprovedHost}
		}
	}
	var warning string
	if remembers(d) {
		now := e.Now()
		st, err := e.Sessions(cfg).Load(j.Session)
		if err != nil {
			warning = err.Error()
		}
		if v, ok := e.Sessions(cfg).Remembered(st, j.Request.Text, j.Cwd, now, func() []string { return linkedWords(j) }); ok {
			switch {
			case v != session.Allowed:
				return Route{Action: Refuse, Outcome: audit.OutcomeDeniedBySession, Context: "denied earlier in this session", Warning: warning}
			case !d.Sticky() && cfg.Mode != config.ModeCI && cfg.Mode != config.ModeReadonly:
				return Route{Action: Run, Outcome: audit.OutcomeAllowedBySession, Warning: warning}
			}
		}
		if n := e.Sessions(cfg).RecentDenials(st, j.Request.Text, now); n >= cfg.BreakerThreshold {
			return Route{Action: Refuse, Outcome: audit.OutcomeBreaker, Warning: warning, Context: fmt.Sprintf(
				"this command was denied %d times in this session; stop retrying it and ask the user", n)}
		}
	}
	switch {
	case cfg.Mode == config.ModeBypass && !d.Sticky():
		return Route{Action: Run, Outcome: audit.OutcomeBypassed, Warning: warning}
	case cfg.Mode == config.ModeReadonly:
		return Route{Action: Refuse, Outcome: audit.OutcomeDeniedReadonly, Warning: warning,
			Context: "mode readonly (from " + cfg.ModeSource + ") runs only allowlisted commands"}
	case cfg.Mode == config.ModeCI:
		return Route{Action: Refuse, Outcome: audit.OutcomeDeniedNonInteractive, Warning: warning,
			Context: "no one to ask: mode ci (from " + cfg.ModeSource + ")"}
	}
	return Route{Action: Prompt, Warning: warning}
}

// NoOneToAsk is the route when Route said Prompt but no person can be
// asked: why names the reason (--non-interactive, CI, no terminal). The
// command is kept for approval from another terminal.
func NoOneToAsk(why string) Route {
	return Route{Action: Refuse, Outcome: audit.OutcomeDeniedNonInteractive, Context: "no one to ask: " + why, Hold: true}
}

// Effective is the verdict a route stands for: what check reports.
func (r Route) Effective() gate.Verdict {
	switch r.Action {
	case Run:
		return gate.Allow
	case Prompt:
		return gate.Ask
	}
	return gate.Deny
}
