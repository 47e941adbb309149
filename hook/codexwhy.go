package hook

import (
	"strings"

	"github.com/agentgate/agentgate/gate"
)

// Codex's approval shows, for a command one of its prompt rules matches,
// "`COMMAND` requires approval: JUSTIFICATION", the justification of the
// longest matching rule, the last loaded among equals
// (codex-rs/core/src/exec_policy.rs, derive_prompt_reason), and not the
// model's own justification of the call, which it shows only where no
// rule's reason is given (codex-rs/core/src/tools/runtimes/unified_exec.rs,
// start_approval_async: the requirement's reason, or else the call's
// justification). Read in codex-rs's source and seen with the 0.169.0
// binary (internal/e2e/clients/e2e_codex_why_test.go). A hook
// cannot hand Codex a text of its own, but its rewrite picks which rule
// matches: so install writes one rule per reason class, each with the
// class's words as its justification, and the marked rewrite names its
// class in a word the rule matches, before the ticket:
// "<agentgate> exec --host-why=CLASS --host-ticket T ...". Exec checks
// the class against the one its ticket was given with, and runs nothing
// else for it.

// CodexWhy is one class of reason agentgate asks about a command, as
// Codex's approval shows it.
type CodexWhy struct {
	// Key names the class in the rewrite: --host-why=Key.
	Key string
	// Text is what Codex shows after "requires approval:".
	Text string
}

// codexWhys are the classes, in the order a judgement is tried against
// them: the first that fits is shown.
var codexWhys = []CodexWhy{
	{"catastrophic", "it could destroy the home directory, a disk or the system"},
	{"network-code", "it runs code downloaded from the network: whoever controls the server controls this machine"},
	{"destroys", "it deletes or discards for good (a recursive delete, shred, find -delete or -exec, git reset --hard, git clean -f ...): it cannot be undone"},
	{"history", "it rewrites git history (a force-push, a rebase, an amended commit), on a remote for everyone"},
	{"self", "it could change agentgate's own files or a configuration that decides what runs (agentgate's, the agent's, git's)"},
	{"secrets", "it names a path that may hold secrets (keys, credentials, tokens)"},
	{"repo-config", "a configuration in this project could make a program it runs run other code"},
	{"ask-rule", "an ask rule in agentgate's configuration matches it"},
	{"unreadable", "agentgate cannot read exactly what it would run (a parse error, hidden characters, expansions)"},
	{"compound", "it chains commands, redirects output or runs a substitution, which agentgate asks about"},
	{"sandbox", "it cannot be confined here as its rule says"},
	{"unlisted", "it is not on agentgate's list of commands known only to read"},
}

// CodexWhys are the classes install writes a rule for, in a fixed order.
func CodexWhys() []CodexWhy { return append([]CodexWhy(nil), codexWhys...) }

// KnownCodexWhy reports whether key names a class.
func KnownCodexWhy(key string) bool {
	for _, w := range codexWhys {
		if w.Key == key {
			return true
		}
	}
	return false
}

// codexWhyOf is the class Codex's approval shows for d: its severity
// first (what the command would do), then the checks that asked, in the
// order of codexWhys; "unlisted" when none fits.
func codexWhyOf(d gate.Decision) string {
	checks := map[gate.Check]bool{}
	for _, r := range d.Reasons() {
		checks[r.Check] = true
	}
	sev := map[string]bool{}
	for _, w := range strings.Split(gate.Severity(d), "; ") {
		switch {
		case w == "":
		case strings.HasPrefix(w, "catastrophic"):
			sev["catastrophic"] = true
		case strings.HasPrefix(w, "runs downloaded code"):
			sev["network-code"] = true
		case strings.HasPrefix(w, "force-push") || strings.HasPrefix(w, "rewrites"):
			sev["history"] = true
		default:
			sev["destroys"] = true
		}
	}
	switch {
	case checks[gate.CheckCatastrophic] || sev["catastrophic"]:
		return "catastrophic"
	case sev["network-code"]:
		return "network-code"
	case sev["destroys"]:
		return "destroys"
	case sev["history"]:
		return "history"
	case checks[gate.CheckSelfProtect] || checks[gate.CheckHostEnv]:
		return "self"
	case checks[gate.CheckSensitive]:
		return "secrets"
	case checks[gate.CheckRepoConfig] || checks[gate.CheckHazard]:
		return "repo-config"
	case checks[gate.CheckAskRule]:
		return "ask-rule"
	case checks[gate.CheckText] || checks[gate.CheckWords] || checks[gate.CheckInternal]:
		return "unreadable"
	case checks[gate.CheckOperator]:
		return "compound"
	case checks[gate.CheckSandbox]:
		return "sandbox"
	}
	return "unlisted"
}
