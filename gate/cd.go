package gate

import (
	"fmt"
	"path"
	"strings"
)

// CdStep is what the words of a directory change say, read once for
// every layer that follows one: the gate's text flow (which resolves
// later words from the target), split mode's leading "cd DIR", and the
// resolver, which follows the target on disk. Three readers of cd's
// options once disagreed ("cd -Pe d" was a directory named -Pe to one
// and an option cluster to bash).
type CdStep struct {
	// Target is the operand as written after quote removal; "" with Home
	// set for a cd with no operand.
	Target string
	// Home is set for "cd" alone, which goes to $HOME.
	Home bool
	// Physical is set by -P (the last of -P and -L wins, as in bash):
	// links are followed before ".." is taken.
	Physical bool
	// Unknown, when not "", says why where it goes cannot be known from
	// its words: popd, pushd other than "pushd DIR", "cd -", several
	// operands, an option
	// agentgate does not read, or a target bash would still expand.
	Unknown string
}

// ReadCd reads argv (cd, pushd or popd, by base name) as bash's cd does:
// options first ("-P", "-L", "-e", clustered as "-Pe"), "--" ending
// them, then one operand; "pushd DIR" as "cd DIR". ok is false when argv is not a directory change
// at all.
func ReadCd(argv []string) (step CdStep, ok bool) {
	if len(argv) == 0 {
		return CdStep{}, false
	}
	switch prog := path.Base(argv[0]); prog {
	case "cd":
	case "pushd":
		// "pushd DIR" goes to DIR as cd does (and pushes it); with no
		// operand, +N, -N or -n it swaps, rotates or only pushes: the
		// directory stack is not followed.
		if len(argv) != 2 || argv[1] == "" || strings.ContainsAny(argv[1][:1], "+-") {
			return CdStep{Unknown: "pushd changes the directory by its stack, which cannot be followed"}, true
		}
		return ReadCd([]string{"cd", "--", argv[1]})
	case "popd":
		return CdStep{Unknown: "popd changes the directory by its stack, which cannot be followed"}, true
	default:
		return CdStep{}, false
	}
	args := argv[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'P':
				step.Physical = true
			case 'L':
				step.Physical = false
			case 'e':
				// "-@" is not read: it is bash's only where files have
				// extended attributes (not Linux), and elsewhere cd fails.
			default:
				step.Unknown = fmt.Sprintf("cd with the option %s, which agentgate does not read, goes to a directory that cannot be followed", args[0])
				return step, true
			}
		}
		args = args[1:]
	}
	switch {
	case len(args) == 0:
		step.Home = true
	case len(args) > 1:
		step.Unknown = "cd with several arguments goes to a directory that cannot be followed"
	default:
		step.Target = args[0]
		if why := unknownCdTarget(step.Target); why != "" {
			step.Unknown = why
		}
	}
	return step, true
}

// unknownCdTarget says why a cd target cannot be known from its spelling:
// "-" (the previous directory), "~-" and "~+" (set by the shell), an
// empty word, or a glob, brace, expansion or quote still in it.
func unknownCdTarget(t string) string {
	switch {
	case t == "-" || strings.HasPrefix(t, "~-") || strings.HasPrefix(t, "~+"):
		return "cd " + t + " goes to a directory the shell keeps, which cannot be followed"
	case t == "":
		return "cd with an empty operand"
	case strings.ContainsAny(t, "*?[{}$`'\"\\"):
		return fmt.Sprintf("cd %s: the target holds a glob, brace, expansion or quote, so where it goes cannot be known", t)
	}
	return ""
}

// LooksUp reports whether bash's cd looks the target up in CDPATH (and,
// with cdable_vars, as a variable's name): a relative target that does
// not start with "." or "..".
func (s CdStep) LooksUp() bool {
	t := s.Target
	return !s.Home && t != "" && !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") &&
		t != "." && t != ".." && !strings.HasPrefix(t, "./") && !strings.HasPrefix(t, "../")
}
