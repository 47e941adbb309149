package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/internal/shparse"
	"github.com/agentgate/agentgate/resolve"
	"github.com/agentgate/agentgate/sandbox"
	"github.com/agentgate/agentgate/session"
)

// Engine is the escalation policy with everything it touches outside its
// arguments. Callers fill the fields; tests replace them.
type Engine struct {
	Getenv  func(string) string
	Environ func() []string
	Now     func() time.Time
	// StateDir holds session state; ConfigDir the learned prefixes.
	StateDir, ConfigDir string
	// UserConfig is the user's config file, named in hints to the person.
	UserConfig string
	// ExtraConfig is a config file named by --config or
	// AGENTGATE_CONFIG ("" when none): guarded as agentgate's own.
	ExtraConfig string
	// AuditLog is the audit log's path.
	AuditLog string
	// Version is agentgate's version, written into records.
	Version string
	// Vet looks at the world for an allowed decision and can only turn it
	// into an ask; nil means [VetWorld].
	Vet func(j *Judgement) gate.Decision
	// Probe says what this kernel can confine; nil means [sandbox.Probe].
	Probe func() sandbox.Support
}

// A Proposal is one command put to the engine, with everything its
// judgement depends on besides the configuration and the process's
// environment: one value that every door (exec, check, each hook and its
// file tools) fills, rather than positional strings and copies of the
// engine with a field changed.
type Proposal struct {
	// Text is the command as the proposer wrote it; Argv, when set, is
	// the argv it runs as directly (Text is then its quoted join).
	Text string
	Argv []string
	// Cwd is the directory the command runs in. CwdProblem, when not
	// empty, says why it is not known: whatever the gate allows asks.
	Cwd, CwdProblem string
	// Home is the user's home directory.
	Home string
	// Session is the session the command belongs to.
	Session string
	// Harness names the caller: "exec", or a hook's host ("" is exec).
	Harness string
	// ToolUseID is the host's id of the tool call, for a hook.
	ToolUseID string
	// Hardened is true when an allowed command runs through
	// [Engine.Plan], with gitsafe's overrides and confinement. A host
	// that runs the command itself (it cannot be rewritten), or a file
	// tool, is not: then the git keys those neutralise must ask too. The
	// zero value is the strict one.
	Hardened bool
	// HostTicket is the secret a hook handed to its rewrite of a command
	// the host asked the person about (exec's --host-ticket): the
	// approval it stands for runs the command once, judged the same.
	HostTicket string
	// Script is Text's parse when the door already made it (a hook reads
	// the text to tell a shell patch from a command); nil or another
	// text's, and the engine parses Text itself.
	Script *shparse.Script
}

// Judgement is one command judged: the request, the decision, and the
// context it was made in.
type Judgement struct {
	Request  gate.Request
	Decision gate.Decision
	Config   *config.Config
	// Cwd is the directory the command runs in.
	Cwd string
	// Session is the session the command belongs to.
	Session string
	// Harness names the caller: "exec", or a hook's host.
	Harness string
	// ToolUseID is the host's id of the tool call, for a hook.
	ToolUseID string
	// Hardened is the proposal's: an allowed command runs through Plan.
	Hardened bool
	// HostTicket is the proposal's.
	HostTicket string
	// HostWhy is the reason class the rewrite named for the host to show
	// with it (exec's --host-why): it decides nothing, and a ticket given
	// with another class approves nothing.
	HostWhy string

	// binding is what the files its words reach are now, read once per
	// judgement ([resolvedWords]): routing, holding, ticketing and the
	// checks of every waiting approval read the same reading.
	binding *[]string
	// gitUnread is set when the text chooses what git reads with a value
	// agentgate cannot read ([gitChoiceUnread]): no approval holds.
	gitUnread bool
}

// Judge decides p under cfg: the pure decision, then the checks that look
// at the world.
func (e *Engine) Judge(p Proposal, cfg *config.Config) *Judgement {
	cwd, home := p.Cwd, p.Home
	// The text is parsed here, once: the gate, the resolver and the
	// inspector the prompt and the record show all read this parse.
	sc := p.Script
	if sc == nil || sc.Text != p.Text {
		sc = shparse.Of(p.Text)
	}
	req := gate.Request{Text: p.Text, Argv: p.Argv, Script: sc}
	req.Rules, req.Paths, req.Split = cfg.Rules, cfg.Paths(home, cwd), cfg.Compound == "split"
	req.Paths.Vars = environMap(e.Environ())
	req.Lift = cfg.LiftCatastrophic
	// Where a planted link takes a destructive verb's target ("lnk/.."
	// with lnk -> ~/sub is the home).
	req.Paths.Physical = func(p string) string {
		if _, err := os.Lstat(p); err != nil || !filepath.IsAbs(p) {
			return "" // nothing there to delete or move
		}
		_, r, err := fsutil.Walk(p)
		if err != nil {
			return ""
		}
		return r
	}
	// Compiled once for the request: the gate, the resolver and the
	// vetter match the same patterns (building them was a fifth of an
	// allowed call's time).
	req.Paths = req.Paths.Compile()
	// Files and variables that would make a catalogue program (a pack's,
	// "git remote -v") run another one or connect elsewhere. A variable
	// is looked for in the full environment, though the command would
	// run without it: KUBECONFIG or DOCKER_HOST chooses what the person
	// means the command to read, so its absence at the run would answer
	// another question.
	req.Hazards = func(argv []string) []string {
		return allowlist.Hazards(cfg.Rules, argv, allowlist.HazardEnv{Cwd: cwd, Home: home, Getenv: e.Getenv})
	}
	// git in another directory (git -C DIR, cd DIR && git ...): VetWorld
	// judges the repository where each git command runs, so the gate
	// need not ask for it.
	req.VetDir = vouchLater
	harness := p.Harness
	if harness == "" {
		harness = "exec"
	}
	j := &Judgement{Request: req, Config: cfg, Cwd: cwd, Session: p.Session, Harness: harness, ToolUseID: p.ToolUseID,
		Hardened: p.Hardened, HostTicket: p.HostTicket}
	j.Decision = gate.Decide(req)
	if j.Decision.Verdict() == gate.Allow && p.CwdProblem != "" {
		// Where the command runs is not known, so neither is what its
		// words name: an allowed command asks, for that reason.
		j.Decision = gate.Escalate(j.Decision, gate.Reason{Check: gate.CheckInternal, Match: "cwd",
			Message: "the directory the command runs in is not known: " + p.CwdProblem})
		return j
	}
	if j.Decision.Verdict() == gate.Ask && !j.Decision.Sticky() && p.CwdProblem == "" {
		// What the person is asked about is read on disk too: a word
		// that reaches a key behind a part that asks for another reason
		// must be named in the question and keep it sticky ("cat
		// notes.txt; touch done", notes.txt a link to the key, ran in
		// bypass mode).
		if why := resolve.Escalated(diskOptions(j), j.Decision.Segments()); len(why) > 0 {
			j.Decision = gate.Stick(j.Decision, why[0])
		} else if why, ok := xargsReach(j); ok {
			j.Decision = gate.Stick(j.Decision, why)
		}
	}
	if j.Decision.Verdict() == gate.Ask && p.CwdProblem == "" {
		// Whatever else it asks for, and however sticky: an approval
		// from another terminal or the host's dialog matches the
		// reasons it saw, so a git setting planted after it must be a
		// reason of its own ("git --git-dir=.git status > st.txt",
		// approved while .git/config was clean, ran a core.fsmonitor
		// planted afterwards: its self-protection ask was sticky, and
		// the vetting stopped there).
		why := e.escalatedGit(j)
		for i := len(why) - 1; i >= 0; i-- {
			j.Decision = gate.Stick(j.Decision, why[i])
		}
		if name := gitChoiceUnread(j); name != "" {
			j.gitUnread = true
			msg := fmt.Sprintf("sets %s to a value agentgate cannot read before it runs git", name)
			if !strings.HasPrefix(name, "GIT_") && name != "XDG_CONFIG_HOME" {
				msg = fmt.Sprintf("runs git where %q may choose what git reads with a value agentgate cannot read (a sourced or evaluated file, xargs input, a variable or substitution)", name)
			}
			j.Decision = gate.Stick(j.Decision, gate.Reason{Check: gate.CheckRepoConfig, Match: name,
				Message: msg + ": which repository and configuration git reads is not known, so no approval can hold for a later run"})
		}
	}
	if j.Decision.Verdict() == gate.Allow {
		vet := e.Vet
		if vet == nil {
			vet = e.VetWorld
		}
		j.Decision = vet(j)
		j.Decision = e.vetConfinement(j, home)
	}
	return j
}

// Sessions is the session store under the engine's state directory, with
// cfg's TTL and breaker window: the one "agentgate session" reads and
// changes, and the one routing consults.
func (e *Engine) Sessions(cfg *config.Config) session.Store {
	return session.Store{Dir: e.StateDir + "/sessions", TTL: cfg.SessionTTL, Window: cfg.BreakerWindow}
}

// remembers reports whether session memory and the breaker apply: not to
// self-protection escalations, which ask every time.
func remembers(d gate.Decision) bool {
	return d.Primary().Check != gate.CheckSelfProtect
}

// environMap is the environment the command will run with, by name, for
// judging words that start with a variable.
func environMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// vouchLater is the gate's VetDir: every directory git runs in is judged
// by VetWorld (gitsafe.Vet where resolve.Dirs says git runs), which can
// only turn the allow into an ask.
func vouchLater(string) bool { return true }

// xargsReach is why an asked text whose xargs (or find -exec) opens what
// a lister hands it must stay asked in every mode: the lister's trees
// hold a secret or a protected file, or what feeds it cannot be judged.
// The names come from the disk, not the text, so no word shows them: a
// red team's "ls -A | xargs -I{} cat {}" asked only for the unread "{}",
// and bypass mode printed .env.
func xargsReach(j *Judgement) (gate.Reason, bool) {
	trees, blind, xargs, _ := resolve.XargsInputs(j.Request.Script.Of(j.Request.Text))
	if !xargs {
		return gate.Reason{}, false
	}
	if blind {
		return gate.Reason{Check: gate.CheckSensitive, Match: "xargs", Source: "recursive read",
			Message: "xargs (or find -exec) opens the files it is handed, and what hands them here cannot be judged"}, true
	}
	o := diskOptions(j)
	o.ReadTrees = trees
	if why := resolve.Check(o, nil, nil); len(why) > 0 {
		return why[0], true
	}
	return gate.Reason{}, false
}
