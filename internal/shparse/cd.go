package shparse

import (
	"fmt"
	"path"
	"strings"
)

// Cd is what a directory change says, read once, in the form, for every
// layer that follows one: the gate's text flow (which resolves later
// words from the target), split mode's leading "cd DIR", and the
// resolver, which follows the target on disk. Readers of cd's words
// that were written apart once disagreed ("cd -Pe d" was a directory
// named -Pe to one and an option cluster to bash; "command -p cd /" was
// no cd at all to the flow, which judged "rm -rf usr" after it from the
// working directory).
type Cd struct {
	// Prog is the builtin: "cd", "pushd" or "popd".
	Prog string
	// Target is the operand as written after quote removal, a plain
	// variable spelled ${NAME} ([Word.Template]); "" with Home set for a
	// cd with no operand.
	Target string
	// Home is set for "cd" alone, which goes to $HOME.
	Home bool
	// Physical is set by -P (the last of -P and -L wins, as in bash):
	// links are followed before ".." is taken.
	Physical bool
	// Unknown, when not "", says why where it goes cannot be known from
	// its words: popd, pushd other than "pushd DIR", "cd -", several
	// operands, an option agentgate does not read, or a target bash
	// would still expand (a variable not yet resolved: [Cd.Under]).
	Unknown string

	// words are the builtin's words as spelled (templates), from its
	// name on: [Cd.Under] reads them again with variables put in.
	words []string
}

// ReadCd reads argv (cd, pushd or popd, by base name, after any
// "builtin", "command", "command -p" or "--" before it) as bash's cd
// does: options first ("-P", "-L", "-e", clustered as "-Pe"), "--"
// ending them, then one operand; "pushd DIR" as "cd DIR". ok is false
// when argv is not a directory change at all. It is the one reader of a
// directory change: the form's [Stmt.Cd] is it applied to a statement's
// words, and the resolver applies it to the words it judges.
func ReadCd(argv []string) (cd Cd, ok bool) {
	argv = cdWords(argv)
	if len(argv) == 0 {
		return Cd{}, false
	}
	return readCd(argv)
}

// cdWords are argv from the builtin it runs, past the words that run a
// builtin as it is: "builtin [--]", "command [-p] [--]" (command -v and
// -V only print, and are left as they are).
func cdWords(argv []string) []string {
	for len(argv) > 0 {
		switch argv[0] {
		case "builtin":
			argv = argv[1:]
			if len(argv) > 0 && argv[0] == "--" {
				argv = argv[1:]
			}
		case "command":
			argv = argv[1:]
			for len(argv) > 0 && (argv[0] == "-p" || argv[0] == "--") {
				end := argv[0] == "--"
				argv = argv[1:]
				if end {
					break
				}
			}
		default:
			return argv
		}
	}
	return argv
}

func readCd(argv []string) (cd Cd, ok bool) {
	cd.words = argv
	switch prog := path.Base(argv[0]); prog {
	case "cd":
		cd.Prog = prog
	case "pushd":
		cd.Prog = prog
		// "pushd DIR" goes to DIR as cd does (and pushes it); with no
		// operand, +N, -N or -n it swaps, rotates or only pushes: the
		// directory stack is not followed.
		if len(argv) != 2 || argv[1] == "" || strings.ContainsAny(argv[1][:1], "+-") {
			cd.Unknown = "pushd changes the directory by its stack, which cannot be followed"
			return cd, true
		}
		step, _ := readCd([]string{"cd", "--", argv[1]})
		step.Prog, step.words = prog, argv
		return step, true
	case "popd":
		cd.Prog = prog
		cd.Unknown = "popd changes the directory by its stack, which cannot be followed"
		return cd, true
	default:
		return Cd{}, false
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
				cd.Physical = true
			case 'L':
				cd.Physical = false
			case 'e':
				// "-@" is not read: it is bash's only where files have
				// extended attributes (not Linux), and elsewhere cd fails.
			default:
				cd.Unknown = fmt.Sprintf("cd with the option %s, which agentgate does not read, goes to a directory that cannot be followed", args[0])
				return cd, true
			}
		}
		args = args[1:]
	}
	switch {
	case len(args) == 0:
		cd.Home = true
	case len(args) > 1:
		cd.Unknown = "cd with several arguments goes to a directory that cannot be followed"
	default:
		cd.Target = args[0]
		if why := unknownCdTarget(cd.Target); why != "" {
			cd.Unknown = why
		}
	}
	return cd, true
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

// Under is the directory change read again with expand applied to each
// of its words first: the known values of the variables they name put
// in ("D=sub; cd $D" goes to sub). A word expand leaves a "$" in stays
// unknown.
func (c Cd) Under(expand func(word string) string) Cd {
	if expand == nil || len(c.words) == 0 {
		return c
	}
	words := make([]string, len(c.words))
	for i, w := range c.words {
		words[i] = expand(w)
	}
	out, ok := readCd(words)
	if !ok {
		// A name that expands to another program: not a cd bash runs,
		// and nothing known of where the shell is.
		return Cd{Prog: c.Prog, Unknown: "a directory change whose builtin is spelled by a variable", words: words}
	}
	return out
}

// Stack reports a pushd or popd, which change the directory stack too.
func (c Cd) Stack() bool { return c.Prog != "cd" }

// LooksUp reports whether bash's cd looks the target up in CDPATH (and,
// with cdable_vars, as a variable's name): a relative target that does
// not start with "." or "..".
func (c Cd) LooksUp() bool {
	t := c.Target
	return !c.Home && t != "" && !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") &&
		t != "." && t != ".." && !strings.HasPrefix(t, "./") && !strings.HasPrefix(t, "../")
}

// cdOf reads a simple command's words as a directory change: each word
// spelled as the flow reads it (static words after quote removal and
// brace expansion, plain variables as ${NAME}, anything else computed:
// "$?"). Nil when the statement is no directory change.
func cdOf(n *Stmt) *Cd {
	var argv []string
	for _, w := range n.Args {
		sp := w.Spelling()
		if w.Static && strings.Contains(sp, "$") {
			// A quoted "$" is a "$" ("cd '$D'" goes to a directory
			// named $D): spelled so that no variable is put in for it.
			sp = "$?"
		}
		argv = append(argv, sp)
	}
	cd, ok := ReadCd(argv)
	if !ok {
		return nil
	}
	return &cd
}

// Spelling is the word as the flow of variables reads it: its one field
// after quote removal and brace expansion when static, its template
// ([Word.Template]) when it holds plain variables, "$?" (computed when it
// runs) otherwise.
func (w *Word) Spelling() string {
	t, ok := w.Template()
	if !ok {
		return "$?"
	}
	if w.Dynamic() == "" {
		if fields, err := w.Fields(); err == nil && len(fields) == 1 {
			return fields[0]
		}
	}
	return t
}
