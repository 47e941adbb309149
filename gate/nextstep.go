package gate

import (
	"fmt"
	"strconv"
	"strings"
)

// NextStep tells the proposer of a refused command (the agent) what to
// do next: ask the user, run a narrower command, or stop retrying. It
// never proposes a rule or a setting: an agent with an editor could act
// on that, and widening the rules is the person's decision alone (see
// [SuggestRule] for the words to the person).
func NextStep(d Decision) string {
	p := d.Primary()
	switch p.Check {
	case CheckCatastrophic:
		return "this command is denied in every mode and cannot be approved; do not retry it or a variant of it, and tell the user what you wanted to do"
	case CheckDenyRule:
		return fmt.Sprintf("a deny rule in %s forbids it; do not retry it, and ask the user if it is needed", p.Source)
	case CheckText:
		return "remove the control or invisible characters, or shorten the command, and try again"
	case CheckOperator:
		return "compound and redirected commands always ask: run each command on its own, or ask the user to run it interactively"
	case CheckWords:
		return "write the command as one plain command with literal words (no variables, assignments or shell keywords), or ask the user to run it interactively"
	case CheckException:
		return fmt.Sprintf("the argument %s needs approval: drop it, or ask the user to run the command interactively", strconv.Quote(p.Match))
	case CheckDefault:
		return "it is not on the allowlist: use a command that is, or ask the user to approve this one interactively"
	case CheckRepoConfig:
		if !configKey(p.Match) {
			// A hook, a state file, a variable or word of the text
			// ("hooks/post-index-change", "xargs", "${d}"): not a key
			// git config can show.
			return fmt.Sprintf("what git would read or run here (%s) needs a person: show it to the user, and ask them to run the command interactively", p.Match)
		}
		return fmt.Sprintf("check %s in the repository's git configuration with the user (git config --show-origin --get-regexp %s), and ask them to run the command interactively", p.Match, strconv.Quote(p.Match))
	case CheckHostEnv:
		return "no approval can make this write safe, because the host would act on it before agentgate runs; do not retry it or a variant of it, and tell the user which setting you wanted, so that they can set it themselves if they mean to"
	case CheckAskRule, CheckSelfProtect, CheckSensitive:
		return "this command always needs a person's approval: ask the user to run it interactively"
	}
	return "ask the user to run it interactively"
}

// SuggestRule is the rule suggestion for the person (the prompt, check,
// audit suggest), never for the agent: the narrowest prefix that would
// let d's command run without asking, and where to add it. It is "" when
// no prefix is safe or the command is refused for another reason than
// being off the allowlist.
func SuggestRule(d Decision, userConfig string) string {
	if d.Verdict() != Ask || d.Sticky() || d.Primary().Check != CheckDefault {
		return ""
	}
	s := Suggest(d.argv)
	switch {
	case s.Withheld != "":
		return fmt.Sprintf("no rule is suggested: %s; approve each use", s.Withheld)
	case s.Prefix == "":
		return ""
	case s.Sandbox != "":
		return fmt.Sprintf("to allow it without asking, confined to the project (writes under it only, no network), add %s to %s", s.TOML(), userConfig)
	}
	return fmt.Sprintf("to allow it without asking, add %s in %s", s.TOML(), userConfig)
}

// groupSubcommands take an action word after them: the prefix must name
// the action, or it would allow the writing ones too ("git stash" would
// allow "git stash drop"; "gh pr" would allow "gh pr merge").
var groupSubcommands = map[string]bool{
	"git stash": true, "git remote": true, "git worktree": true, "git notes": true, "git submodule": true,
	"git bisect": true, "git lfs": true, "git sparse-checkout": true, "git reflog": true, "git bundle": true,
	"git maintenance": true, "git credential": true, "git symbolic-ref": true, "git update-ref": true,
	"go mod": true, "go work": true, "npm config": true, "npm cache": true, "npm pkg": true, "npm dist-tag": true,
	"npm access": true, "npm owner": true, "npm token": true, "npm profile": true, "npm team": true,
	"terraform state": true, "terraform workspace": true, "helm repo": true, "helm plugin": true,
	"brew services": true, "pip cache": true, "pip config": true, "pip3 cache": true, "pip3 config": true,
	"uv pip": true, "uv python": true, "uv tool": true, "uv cache": true, "poetry env": true, "poetry cache": true,
	"poetry config": true, "poetry self": true, "dotnet tool": true, "dotnet nuget": true, "conda env": true,
	"conda config": true, "rustup toolchain": true, "rustup target": true, "rustup component": true, "rustup override": true,
	"gh pr": true, "gh issue": true, "gh repo": true, "gh release": true, "gh run": true, "gh workflow": true,
	"gh gist": true, "gh label": true, "gh secret": true, "gh variable": true, "gh cache": true, "gh codespace": true,
	"gh project": true, "gh ruleset": true, "gh org": true, "gh ssh-key": true, "gh gpg-key": true, "gh auth": true,
	"gh config": true, "gh extension": true, "gh alias": true,
}

// noPrefixSubcommands send or run whatever their arguments say: no prefix
// of them is narrow enough to suggest.
var noPrefixSubcommands = map[string]bool{
	"gh api": true, "git config": true, "npm exec": true, "pnpm exec": true, "pnpm dlx": true, "yarn dlx": true,
	"yarn exec": true, "uv run": true, "poetry run": true, "git -c": true, "git -C": true,
}

// subcommandPrefix is SuggestPrefix for programs with subcommands.
func subcommandPrefix(argv []string) string {
	if len(argv) < 2 || !isSubcommand(argv[1]) {
		return ""
	}
	two := argv[0] + " " + argv[1]
	switch {
	case noPrefixSubcommands[two]:
		return ""
	case groupSubcommands[two]:
		if len(argv) < 3 || !isSubcommand(argv[2]) {
			return ""
		}
		return two + " " + argv[2]
	}
	return two
}

// NextStepAfter is NextStep for a refusal with a known outcome (the audit
// record's outcome): after a person chose Deny, the agent is told not to
// retry and to ask, not to ask for the approval it was just refused.
func NextStepAfter(d Decision, outcome string) string {
	switch outcome {
	case "denied", "denied_session", "denied_by_session":
		if p := d.Primary().Check; p == CheckDenyRule || p == CheckCatastrophic || p == CheckHostEnv {
			break
		}
		return "the user denied this command: do not retry it or a variant of it; ask the user what to do instead"
	case "breaker":
		return "stop retrying this command and ask the user what to do"
	case "timeout", "interrupted":
		return "no one approved it: do not retry it at once; ask the user whether it is needed"
	case "denied_readonly":
		return "only allowlisted commands run in this mode: use one, or ask the user"
	}
	return NextStep(d)
}

// configKey reports whether m reads as a git configuration key
// (section.name, or section.subsection.name without a path or an
// expansion in it), which "git config --get-regexp" can show.
func configKey(m string) bool {
	return strings.Contains(m, ".") && !strings.ContainsAny(m, "/${} \t\n`")
}
