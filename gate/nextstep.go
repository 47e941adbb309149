package gate

import (
	"fmt"
	"strconv"
)

// NextStep tells the proposer of a refused command what to do about it.
// userConfig is the path of the user's config file, named in the hint.
func NextStep(d Decision, userConfig string) string {
	p := d.Primary()
	switch p.Check {
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
		prefix := SuggestPrefix(d.argv)
		if prefix == "" {
			return "this program runs other programs or code, so no prefix rule can make it safe: ask the user to approve this command interactively"
		}
		return fmt.Sprintf("to allow it, add prefix = [%s] to [allow] in %s, or run it interactively", strconv.Quote(prefix), userConfig)
	case CheckRepoConfig:
		return fmt.Sprintf("check %s in the repository's git configuration (git config --show-origin --get-regexp %s); remove it if nobody meant it, or ask the user to run the command interactively", p.Match, strconv.Quote(p.Match))
	case CheckAskRule, CheckSelfProtect, CheckSensitive:
		return "this command always needs a person's approval: ask the user to run it interactively"
	}
	return "ask the user to run it interactively"
}
