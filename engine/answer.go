package engine

import (
	"fmt"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/prompt"
	"github.com/agentgate/agentgate/session"
)

// Answer turns a person's answer to the prompt into a route, and keeps
// what the answer asks to keep: a session approval or denial, or a
// learned prefix. Problems keeping it are warnings; the answer stands.
func (e *Engine) Answer(j *Judgement, res prompt.Result) Route {
	switch res.Ending {
	case prompt.TimedOut:
		return Route{Action: Refuse, Outcome: audit.OutcomeTimeout, Context: fmt.Sprintf("no answer within %s", j.Config.PromptTimeout)}
	case prompt.Interrupted:
		return Route{Action: Refuse, Outcome: audit.OutcomeInterrupted, Context: "the prompt was interrupted"}
	case prompt.Failed:
		return Route{Action: Refuse, Outcome: audit.OutcomeDenied, Context: fmt.Sprintf("the prompt failed (%v)", res.Err)}
	}
	if res.ChallengeFailed {
		return Route{Action: Refuse, Outcome: audit.OutcomeDenied, Context: "the confirmation code did not match"}
	}
	now := e.Now()
	keep := func(verdict string) string {
		if !remembers(j.Decision) {
			return ""
		}
		var links []string
		if verdict == session.Allowed {
			links = linkedWords(j)
		}
		if err := e.Sessions(j.Config).Remember(j.Session, j.Request.Text, j.Cwd, verdict, now, links...); err != nil {
			return fmt.Sprintf("the answer was not remembered for the session: %v", err)
		}
		return ""
	}
	switch res.Choice {
	case prompt.AllowOnce:
		return Route{Action: Run, Outcome: audit.OutcomeApprovedOnce}
	case prompt.AllowSession:
		return Route{Action: Run, Outcome: audit.OutcomeApprovedSession, Warning: keep(session.Allowed)}
	case prompt.AlwaysAllow:
		s := AlwaysRule(j.Decision)
		if s.Prefix == "" {
			return Route{Action: Refuse, Outcome: audit.OutcomeDenied, Context: "no safe prefix to always allow"}
		}
		r := Route{Action: Run, Outcome: audit.OutcomeApprovedAlways}
		if err := config.AddLearned(config.LearnedPath(e.ConfigDir), s.Prefix, s.Sandbox, now); err != nil {
			r.Warning = fmt.Sprintf("the prefix %q was not saved: %v", s.Prefix, err)
		}
		return r
	case prompt.DenySession:
		return Route{Action: Refuse, Outcome: audit.OutcomeDeniedSession, Context: "denied by the user for this session", Warning: keep(session.Denied)}
	}
	return Route{Action: Refuse, Outcome: audit.OutcomeDenied, Context: "denied by the user"}
}

// AlwaysRule is the rule "Always allow" may offer (gate.Suggest): for a
// plain simple command off the allowlist, not a sticky escalation; never
// a plain prefix for a program that deletes, overwrites or runs code.
func AlwaysRule(d gate.Decision) gate.Suggestion {
	argv := d.Argv()
	if d.Sticky() || len(argv) == 0 || d.Primary().Check != gate.CheckDefault {
		return gate.Suggestion{}
	}
	return gate.Suggest(argv)
}
