package gate

import (
	"path"
	"slices"
	"strings"
)

// readOnlySelf are agentgate's own subcommands that only read: an
// accept-list. Anything else agentgate can do (trust, init, approve, deny,
// session revoke and reset-breaker, audit suggest --apply, install, hook,
// exec ...) changes rules, trust, sessions or the log, so proposing it
// through the gate is a sticky ask: a person decides, whatever the mode.
var readOnlySelf = map[string][]string{
	"check":      nil,
	"config":     nil,
	"doctor":     nil,
	"pending":    nil,
	"completion": nil,
	"help":       nil,
	"audit":      {"log", "stats", "verify", "suggest"},
	"session":    {"list"},
}

// answersForAPerson are subcommands that are refused outright, never
// asked about: they answer a pending request for a person, and an agent
// that could run them would approve its own commands.
var answersForAPerson = map[string]bool{"approve": true, "deny": true}

// selfCommand reports the first command in segs that runs a state-changing
// agentgate subcommand, by the program's base name, and whether it is one
// to refuse outright.
func selfCommand(segs [][]string) (cmd string, refuse, found bool) {
	for _, argv := range segs {
		if len(argv) == 0 || path.Base(argv[0]) != "agentgate" {
			continue
		}
		if len(argv) > 1 && answersForAPerson[argv[1]] {
			return strings.Join(argv, " "), true, true
		}
		if !readOnlySelfForm(argv[1:]) {
			return strings.Join(argv, " "), false, true
		}
	}
	return "", false, false
}

func readOnlySelfForm(args []string) bool {
	if len(args) == 0 {
		return true // prints usage
	}
	sub := args[0]
	switch sub {
	case "-h", "--help", "--version", "-v":
		return true
	}
	subs, ok := readOnlySelf[sub]
	if !ok {
		return false
	}
	if subs != nil {
		if len(args) < 2 || !slices.Contains(subs, args[1]) {
			return len(args) < 2 // "agentgate audit" prints usage
		}
	}
	for _, a := range args[1:] {
		if a == "--" {
			break // check -- COMMAND: the command is only judged
		}
		// audit suggest --apply writes learned rules; any spelling that
		// could mean it counts.
		if name, _, _ := strings.Cut(a, "="); len(name) >= 3 && strings.HasPrefix("--apply", name) {
			return false
		}
	}
	return true
}
