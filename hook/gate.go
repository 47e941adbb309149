package hook

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/engine"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/visible"
)

// Gate decides hook events with the one engine.
type Gate struct {
	Engine *engine.Engine
	Config *config.Config
	// Home is the user's home directory, for protected paths.
	Home string
	// Self is the absolute path of agentgate, which a rewritten command
	// runs.
	Self string
	// Session is the session of an event whose host names none.
	Session string
	// Getenv reads the hook's environment (CLAUDE_CONFIG_DIR, CODEX_HOME,
	// CLAUDE_PROJECT_DIR), to find the host's own rules.
	Getenv func(string) string
	// ExecFlags are the hook's own judging flags (--config, --mode ...),
	// given again to the rewritten exec so that it judges the same.
	ExecFlags []string
}

// Handle answers one event from host h. It never panics: a panic answers
// deny.
func (g *Gate) Handle(h *Host, ev Event) (reply Reply) {
	defer func() {
		if r := recover(); r != nil {
			reply = Block(fmt.Sprintf("internal error: %v", r))
		}
	}()
	switch ev.Kind {
	case Pre:
		return h.Encode(ev, g.pre(h, ev))
	case PreFile:
		return h.Encode(ev, g.file(h, ev))
	case Asking:
		return h.Encode(ev, g.asking(h, ev))
	case Post, Denied:
		g.result(h, ev)
	case Stopped:
		g.stopped(h, ev)
	}
	return Reply{}
}

// stopped ends, at the end of the agent's turn, the asks the host kept
// open and never ran: Codex sends no event when the person says no in its
// approval, so the ask's record waited for a result that never came and
// its ticket stayed armed. exec takes an ask's record when it claims the
// ticket, so a record still kept at the turn's end is one that did not
// run: it ends denied_host, and its ticket is dropped.
func (g *Gate) stopped(h *Host, ev Event) {
	if h.AskVia == nil {
		return
	}
	for _, x := range g.Engine.KeptAsks(g.Config, g.session(ev), h.Name) {
		g.Engine.DropHostTicket(x.J.Session, x.J.ToolUseID)
		_ = x.End(audit.OutcomeDeniedHost, nil)
	}
}

func (g *Gate) session(ev Event) string {
	if ev.Session != "" {
		return ev.Session
	}
	return g.Session
}

// proposal is what a host's event puts to the engine: text, run where the
// event says (nothing on disk can be judged when the event names no
// directory, so an allowed command then asks), in the host's session.
func (g *Gate) proposal(h *Host, ev Event, text string) engine.Proposal {
	p := engine.Proposal{Text: text, Cwd: ev.Cwd, Home: g.Home, Session: g.session(ev), Harness: h.Name, ToolUseID: ev.ToolUseID, Script: ev.script}
	if p.Cwd == "" {
		p.Cwd, p.CwdProblem = "/", ev.CwdProblem
		if p.CwdProblem == "" {
			p.CwdProblem = "the event names none"
		}
	}
	return p
}

// pre decides a command about to run.
func (g *Gate) pre(h *Host, ev Event) Answer {
	if strings.TrimSpace(ev.Command) == "" {
		return Answer{Decision: Deny, Reason: "the command is empty"}
	}
	if strings.ContainsRune(ev.Command, 0) {
		return Answer{Decision: Deny, Reason: "the command holds a NUL byte"}
	}
	eng := g.Engine
	p := g.proposal(h, ev, ev.Command)
	// The host runs the command itself unless it can be rewritten: then
	// no gitsafe overrides, no confinement.
	p.Hardened = g.rewrites(h, ev)
	j := eng.Judge(p, g.Config)
	if found := HostEnv(h, g.where(h, ev)); len(found) > 0 {
		// Whatever the judgement, the host would run the command (and
		// this hook) with the planted variable: refuse, and say which.
		var what []string
		for _, f := range found {
			what = append(what, f.String())
		}
		j.Decision = gate.Escalate(j.Decision, gate.Reason{Check: gate.CheckHazard, Match: found[0].Key, Source: found[0].File,
			Message: "the host's project settings steer what runs: " + strings.Join(what, "; ")})
		dn := eng.Escalate(j).Refuse(engine.Route{Action: engine.Refuse, Outcome: audit.OutcomeDenied})
		s := fmt.Sprintf("agentgate denied %s: the host's project settings steer what runs: %s. Stop: no command can run until a person removes %s; do not retry, and tell the user",
			visible.String(dn.Command), visible.String(strings.Join(what, "; ")), plural(len(found), "that setting", "those settings"))
		return Answer{Decision: Deny, Reason: s}
	}
	r := eng.Route(j)
	switch {
	case r.Action == engine.Run && r.Outcome == "":
		return g.allow(h, ev, j, "")
	case r.Action == engine.Run && g.rewrites(h, ev):
		// Approved for the session or from another terminal, or
		// bypassed: the rewritten exec routes it again (claiming the
		// approval), records it and runs it, with agentgate's own files
		// read-only.
		return g.allow(h, ev, j, r.Outcome)
	case r.Action == engine.Run:
		// A host that cannot rewrite runs it: record it first (using
		// the approval up); the host runs the original.
		x := eng.Escalate(j)
		if err := x.Approve(r.Outcome); err != nil {
			return Answer{Decision: Deny, Reason: err.Error()}
		}
		_ = x.Later()
		return Answer{Decision: Allow, Reason: "agentgate: " + r.Outcome}
	case r.Action == engine.Prompt && h.AskVia != nil:
		why := g.askVia(h, ev, j)
		if why == "" {
			return g.askMarked(h, ev, j)
		}
		r = engine.NoOneToAsk(h.Name + " cannot ask a person here: " + why)
	case r.Action == engine.Prompt && h.CanAsk(ev) && !(j.Decision.Sticky() && g.hostAllows(h, ev, j)):
		x := eng.Escalate(j)
		if err := x.Approve(audit.OutcomeAskedHost); err != nil {
			return Answer{Decision: Deny, Reason: err.Error()}
		}
		_ = x.Later()
		return g.ask(h, ev, j, x)
	case r.Action == engine.Prompt && h.CanAsk(ev):
		r = engine.NoOneToAsk(h.Name + " may run it without asking: one of its own allow rules may match it")
	case r.Action == engine.Prompt:
		r = engine.NoOneToAsk(h.Name + " cannot ask a person here")
	}
	dn := eng.Escalate(j).Refuse(r)
	return Answer{Decision: Deny, Reason: denyReason(dn)}
}

// allow answers a command that runs: rewritten into agentgate exec where
// the host can rewrite.
func (g *Gate) allow(h *Host, ev Event, j *engine.Judgement, outcome string) Answer {
	a := Answer{Decision: Allow, Reason: "agentgate: allowed"}
	if outcome != "" {
		a.Reason = "agentgate: " + outcome
	}
	if note := g.unrewritten(h, ev); note != "" && h.CanAsk(ev) {
		// Kept from agentgate exec by a host rule that may match it, an
		// allowed command would run unconfined; a host rule that only
		// seems to match is the agent's to arrange (a red team's
		// '"x;curl"' against a deny rule for curl made Claude Code run
		// "awk 1 /inet/tcp/..." unconfined). The person decides, in the
		// host's dialog, where the host's own rule still applies.
		a.Decision = Ask
		a.Reason += note + "; so the person decides"
		return a
	}
	a.Reason += g.unrewritten(h, ev)
	if g.rewrites(h, ev) {
		a.Rewrite = RewriteWith(g.Self, j.Session, j.Request.Text, g.ExecFlags)
	}
	return a
}

// ask answers a command the host asks the person about. Where the host
// runs a rewrite of an ask once the person said yes, the rewrite is
// agentgate exec with a ticket for exactly this approval: the command
// runs judged again, confined as an approved command is, and recorded.
// Where the ticket cannot be kept, the host asks about and runs the
// original, as a host that cannot rewrite does.
func (g *Gate) ask(h *Host, ev Event, j *engine.Judgement, x *engine.Escalation) Answer {
	a := Answer{Decision: Ask, Reason: askReason(j)}
	if !h.AsksRewritten {
		return a
	}
	if note := g.unrewritten(h, ev); note != "" {
		a.Reason += note
		return a
	}
	if j.Unbound() {
		// No ticket can hold for the run: the host runs what the
		// person approves itself, as one that cannot rewrite does.
		a.Reason += fmt.Sprintf("; not run through agentgate exec, since where its cd goes cannot be followed: %s runs it unconfined", h.Name)
		return a
	}
	ticket, err := x.HostAsk()
	if err != nil {
		return a
	}
	a.Rewrite = g.askRewrite(j, ticket)
	return a
}

// askVia says why a host that asks only about agentgate's marked rewrite
// (Codex) would not ask a person about j ("" when it would).
func (g *Gate) askVia(h *Host, ev Event, j *engine.Judgement) string {
	if r, kept := g.keptBy(h, ev); kept {
		return fmt.Sprintf("one of its own rules may match the command (%s), so it is not rewritten", r)
	}
	if j.Unbound() {
		return "where its cd goes cannot be followed, so no approval can hold for what runs"
	}
	return h.AskVia(g.where(h, ev), g.Self, ev)
}

// askMarked answers an ask with agentgate's marked rewrite, which the
// host asks the person about: its ticket is unarmed until the host
// reports that it is asking ([Gate.asking]).
func (g *Gate) askMarked(h *Host, ev Event, j *engine.Judgement) Answer {
	x := g.Engine.Escalate(j)
	why := codexWhyOf(j.Decision)
	ticket, err := x.HostAskUnarmed(why)
	if err != nil {
		return Answer{Decision: Deny, Reason: "agentgate could not keep the approval's ticket: " + err.Error()}
	}
	if err := x.Approve(audit.OutcomeAskedHost); err != nil {
		g.Engine.DropHostTicketBySecret(ticket)
		return Answer{Decision: Deny, Reason: err.Error()}
	}
	_ = x.Later()
	return Answer{Decision: Ask, Reason: askReason(j), Rewrite: codexAskRewrite(g.Self, why, j.Session, j.Request.Text, g.ExecFlags, ticket)}
}

// asking answers a host that is about to ask someone about a command
// (Codex's PermissionRequest): agentgate's marked rewrite has its ticket
// armed, now that the host asks, where the host would still ask a person
// (AskVia, again: the turn's settings, other hooks); anywhere else it is
// refused, and its ticket dropped. Any other command is the host's to
// ask about.
func (g *Gate) asking(h *Host, ev Event) Answer {
	ticket, ok := codexMarkedTicket(g.Self, ev.Command)
	if !ok || h.AskVia == nil {
		return Answer{Decision: Pass}
	}
	refuse := func(why string) Answer {
		g.Engine.DropHostTicketBySecret(ticket)
		return Answer{Decision: Deny, Reason: "agentgate: " + h.Name + " would not ask a person about this command: " + why}
	}
	// The event carries the rewrite and no tool-use id: the ticket names
	// the call, and the command the person is asked about, which the
	// turn's settings are read for.
	call, text, ok := g.Engine.HostTicketCall(ticket, g.session(ev))
	if !ok {
		return refuse(engine.ErrNoHostTicket.Error())
	}
	asked := ev
	asked.ToolUseID, asked.Command = call, text
	if why := h.AskVia(g.where(h, ev), g.Self, asked); why != "" {
		return refuse(why)
	}
	if err := g.Engine.ArmHostTicket(ticket, g.session(ev)); err != nil {
		return refuse(err.Error())
	}
	return Answer{Decision: Pass}
}

// where locates the host's own rule files for ev.
func (g *Gate) where(h *Host, ev Event) Where {
	w := Where{Home: g.Home, Project: ev.Project, Getenv: g.Getenv}
	if d := w.env("CLAUDE_PROJECT_DIR"); h == Claude && filepath.IsAbs(d) {
		w.Project = d
	}
	return w
}

// hostAllows reports whether one of the host's allow rules may match ev's
// command, or the rewrite the host would run for an ask: the host matches
// its rules against a rewrite (TestClaudeDenyRuleHoldsAfterRewrite), and a
// rule for agentgate exec would match every rewritten ask.
func (g *Gate) hostAllows(h *Host, ev Event, j *engine.Judgement) bool {
	if h.HostAllows == nil {
		return false
	}
	w := g.where(h, ev)
	if h.HostAllows(w, ev.Command) {
		return true
	}
	if !h.AsksRewritten || !g.rewrites(h, ev) {
		return false
	}
	probe := g.askRewrite(j, strings.Repeat("a", 32))
	return h.HostAllows(w, probe)
}

// askRewrite is the command a host runs for an ask once the person said
// yes: agentgate exec, with the hook's flags and the ticket.
func (g *Gate) askRewrite(j *engine.Judgement, ticket string) string {
	flags := append(slices.Clone(g.ExecFlags), "--host-ticket="+ticket)
	return RewriteWith(g.Self, j.Session, j.Request.Text, flags)
}

// rewrites reports whether ev's command is rewritten: where the host can,
// and none of its own deny or ask rules may match the original.
func (g *Gate) rewrites(h *Host, ev Event) bool {
	if !h.Rewrites {
		return false
	}
	_, kept := g.keptBy(h, ev)
	return !kept
}

// keptBy is the host's own deny or ask rule that may match ev's command,
// which keeps it from being rewritten.
func (g *Gate) keptBy(h *Host, ev Event) (HostRule, bool) {
	if h.HostRules == nil {
		return HostRule{}, false
	}
	return firstMatch(h.HostRules(g.where(h, ev)), ev.Command)
}

// unrewritten says, after an answer's reason, that a host rule keeps the
// command from running through agentgate exec: it runs as the host runs
// it, without exec's confinement and guard ("" when it is rewritten).
func (g *Gate) unrewritten(h *Host, ev Event) string {
	if !h.Rewrites {
		return ""
	}
	r, kept := g.keptBy(h, ev)
	if !kept {
		return ""
	}
	return fmt.Sprintf("; not run through agentgate exec, since %s's own rule may match it (%s): %s runs it unconfined", h.Name, r, h.Name)
}

// Rewrite is the command a host runs instead of text: agentgate exec,
// which decides again, never prompts, and runs text with exec's
// protections, in the same session.
func Rewrite(self, session, text string) string { return RewriteWith(self, session, text, nil) }

// RewriteWith is [Rewrite] with exec flags of the hook's own, each quoted.
func RewriteWith(self, session, text string, flags []string) string {
	var b strings.Builder
	b.WriteString(quoteSelf(self))
	b.WriteString(" exec --non-interactive")
	for _, f := range flags {
		b.WriteString(" " + Quote(f))
	}
	// A session id with control characters (a NUL would cut the command
	// short) is left out: exec then judges in its own session.
	if session != "" && !strings.ContainsFunc(session, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		b.WriteString(" --session " + Quote(session))
	}
	b.WriteString(" -- ")
	b.WriteString(Quote(text))
	return b.String()
}

// Quote quotes s for any POSIX shell: single quotes, with each single
// quote written as '\”. Every byte but NUL survives unchanged.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteSelf writes agentgate's path in double quotes, as people write it,
// when nothing in it is special there; else in single quotes.
func quoteSelf(p string) string {
	if strings.ContainsAny(p, "\"$`\\!\n") {
		return Quote(p)
	}
	return `"` + p + `"`
}

// askReason is the reason chain the person sees in the host's dialog.
func askReason(j *engine.Judgement) string {
	var parts []string
	for _, r := range j.Decision.Reasons() {
		parts = append(parts, visible.String(r.String()))
	}
	for _, r := range j.Decision.Risks() {
		parts = append(parts, "note: "+r.Program+" "+r.Note)
	}
	return "agentgate: " + strings.Join(parts, "; ")
}

// denyReason is what the model is told: the reason, the next step, and
// how a person can approve it once from another terminal.
func denyReason(dn engine.Denial) string {
	s := fmt.Sprintf("agentgate denied %s: %s", visible.String(dn.Command), visible.String(dn.Reason))
	if dn.NextStep != "" {
		s += ". Next step: " + dn.NextStep
	}
	if dn.Pending != "" {
		s += fmt.Sprintf(". A person can approve it once from another terminal with \"agentgate approve %s\"; then retry the exact same command", dn.Pending)
	}
	if dn.LogErr != nil {
		s += ". (The audit record was not written: " + dn.LogErr.Error() + ")"
	}
	return s
}

// result records how an escalated command ended, from the host's result
// event, under the escalation's record id.
func (g *Gate) result(h *Host, ev Event) {
	if ev.Kind == Denied {
		// The person said no: the rewrite's ticket must not outlive it.
		g.Engine.DropHostTicket(g.session(ev), ev.ToolUseID)
	}
	// Codex ran agentgate's marked rewrite: exec claimed its ticket and
	// took the kept record, or it ran nothing (the ticket unarmed, or
	// exec inside Codex's sandbox, where it can claim nothing and write
	// nothing). Either way the ticket is used up now, by this hook, which
	// runs outside the sandbox.
	unclaimed, marked := false, false
	if ticket, ok := codexMarkedTicket(g.Self, ev.Command); ok && h.AskVia != nil && ev.Kind == Post {
		unclaimed, marked = g.Engine.HostTicketLive(ticket), true
		g.Engine.DropHostTicketBySecret(ticket)
	}
	x, ok := g.Engine.Resume(g.Config, g.session(ev), ev.ToolUseID)
	if !ok {
		return
	}
	outcome := x.Rec.Outcome
	switch {
	case ev.Kind == Denied:
		outcome = audit.OutcomeDeniedHost
	case h.AskVia != nil && outcome == audit.OutcomeAskedHost && !marked:
		// The result of another command under the same tool-use id (the
		// model's call id again, for a call the person said no to: Codex
		// sends no event for a no). It is not this ask's result: keep the
		// ask for its own.
		_ = x.Later()
		return
	case unclaimed && outcome == audit.OutcomeAskedHost:
		// The person was asked, but exec did not run the command.
		outcome = audit.OutcomeDenied
	case outcome == audit.OutcomeAskedHost:
		outcome = audit.OutcomeApprovedHost
	}
	_ = x.End(outcome, ev.ExitCode)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
