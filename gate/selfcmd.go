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

// terminalDrivers give the command they run a terminal of their own, and
// can type into it: "(sleep 1; printf 'allow\r') | script -qc 'agentgate
// approve ID' /dev/null" approved an agent's own request in bypass mode.
// A command under one is a sticky ask in every mode: agentgate asks a
// person on a terminal, and one the agent drives is no person.
var terminalDrivers = map[string]bool{"script": true, "expect": true, "unbuffer": true, "tmux": true, "screen": true,
	"socat": true, "empty": true, "dtach": true, "abduco": true, "zpty": true, "ttyrec": true, "asciinema": true}

// selfCommand reports the first command in segs that runs a state-changing
// agentgate subcommand, or drives a terminal, and whether it is one to
// refuse outright. agentgate is looked for at any position, not only
// first, so that a runner or a string that hides it counts ("script -c
// 'agentgate approve ID'", whose plain split reads the string's words).
func selfCommand(segs [][]string) (cmd string, refuse, found bool) {
	// approve and deny, as a command of their own (behind a wrapper too:
	// the segments unwrap sudo and env), are refused outright.
	for _, argv := range segs {
		if len(argv) > 1 && path.Base(argv[0]) == "agentgate" && answersForAPerson[argv[1]] {
			return strings.Join(argv, " "), true, true
		}
	}
	for _, argv := range segs {
		if len(argv) > 0 && terminalDrivers[path.Base(argv[0])] {
			return strings.Join(argv, " "), false, true
		}
		if ptyModule(argv) {
			return strings.Join(argv, " "), false, true
		}
		for i, w := range argv {
			if path.Base(w) != "agentgate" {
				continue
			}
			rest := argv[i+1:]
			if i == 0 {
				if !readOnlySelfForm(rest) {
					return strings.Join(argv, " "), false, true
				}
				break // "agentgate check -- CMD": CMD is only judged
			}
			// Further in: a runner or a string that may run it.
			if len(rest) > 0 && !readOnlySelfForm(rest) {
				return strings.Join(argv, " "), false, true
			}
		}
	}
	return "", false, false
}

// ptyModule reports an interpreter whose code names a pseudo-terminal
// module (python's pty, node-pty, Perl's IO::Pty, Ruby's PTY): the same
// driving, in a few lines of code.
func ptyModule(argv []string) bool {
	if len(argv) < 2 {
		return false
	}
	prog := path.Base(argv[0])
	if !strings.HasPrefix(prog, "python") && prog != "node" && prog != "perl" && prog != "ruby" && prog != "deno" && prog != "bun" {
		return false
	}
	for _, a := range argv[1:] {
		l := strings.ToLower(a)
		if strings.Contains(l, "pty") {
			return true
		}
	}
	return false
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
