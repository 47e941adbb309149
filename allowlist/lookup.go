package allowlist

import (
	"slices"
	"strings"
	"sync"
)

// The catalogue is data: its tables are composite literals, which the
// linker lays out in the binary, so that starting agentgate builds none
// of them and writes to none of their pages (each page written is copied
// for the process: building and writing them was two thirds of the
// package's 0.2 ms start-up, on every hooked call). Keep it so
// (TestCatalogueTablesCallNothing):
//
//   - make flags with Use, Refuse, Walks and WalksWhen only: the compiler
//     folds those calls into the literal, where a method on their result
//     ("Use(...).Walks(Tree)") is code run at start-up;
//   - let no package variable's initialiser call a function: that one is
//     built at start-up, and from there on the compiler stops laying out
//     any table that names another variable ("Flags: grepFlags"), since
//     the call could have changed it; build such values on first use
//     (onceValue) or in the init function below.

// builtin is the catalogue of read-only entries allowed by default, in
// the order of textEntries, sysEntries (xargs, moreSysEntries and tar
// last), gitEntries and versionEntries. It is made in init.
var builtin []*Entry

func init() {
	// xargs reads the files named on its standard input: the engine lets
	// it run only when that input is a file lister's whose trees are
	// judged like a recursive read (resolve.XargsInputs). Both checks
	// read builtin: set here, not in the initialisers.
	xargsEntry.Check = xargsCheck
	findEntry.Check = findExecCheck
	for _, v := range versions {
		versionEntries = append(versionEntries, versionEntry(v.prog, v.flag, v.ask))
	}
	more := slices.Concat([]*Entry{xargsEntry}, moreSysEntries, []*Entry{tarEntry})
	builtin = slices.Concat(textEntries, sysEntries, gitEntries, versionEntries, more)
	sysEntries = slices.Concat(sysEntries, more)
}

// onceValue is a value made on its first use, like sync.OnceValue's, but
// a variable holds it as a literal: no call at start-up (see above).
type onceValue[T any] struct {
	once sync.Once
	make func() T
	v    T
}

func (o *onceValue[T]) get() T {
	o.once.Do(func() { o.v = o.make() })
	return o.v
}

// globals are the flag tables of programs whose subcommands are entries:
// "git -C DIR --no-pager log" is judged as "git log" with the global
// flags judged by these tables.
var globals = map[string]*Entry{"git": gitGlobals, "docker": dockerGlobals, "podman": podmanGlobals, "kubectl": kubeGlobals, "gh": ghGlobals,
	"docker compose": composeGlobals, "podman compose": composeGlobals}

// Builtin returns the entries of the built-in catalogue. Change none.
func Builtin() []*Entry { return builtin }

// Judge reads argv as a command of the entry. ok is false when argv is not
// one (another program or subcommand). Otherwise it returns the call, or
// the refusal that makes the command ask.
func (e *Entry) Judge(argv []string) (c *Call, r *Refusal, ok bool) {
	if len(argv) == 0 || len(e.Words) == 0 || argv[0] != e.Words[0] {
		return nil, nil, false
	}
	rest := argv[1:]
	g := &Call{}
	// Global flags may stand after the program and after each subcommand
	// word that has its own ("docker compose -f x ps").
	for k := 1; k < len(e.Words); k++ {
		if gl := globals[strings.Join(e.Words[:k], " ")]; gl != nil && !strings.HasPrefix(e.Words[k], "-") {
			n, r := gl.scan(g, rest, true)
			if r != nil {
				if firstOperand(rest) != e.Words[k] {
					return nil, nil, false
				}
				return nil, r, true
			}
			rest = rest[n:]
		}
		if len(rest) == 0 || rest[0] != e.Words[k] {
			return nil, nil, false
		}
		rest = rest[1:]
	}
	c, r = e.Parse(rest)
	if r != nil {
		return nil, r, true
	}
	c.Paths = append(g.Paths, c.Paths...)
	c.Strings = append(g.Strings, c.Strings...)
	// Each -C is taken from the one before it, as git's chdir takes
	// them ("git -C a -C b" works in a/b; a red team's "git -C a -C b
	// diff --no-index d/ e" read a/b/d, a link to ~/.ssh, while b/d was
	// judged). An empty one changes nothing.
	for _, d := range g.Values("-C") {
		switch {
		case d == "":
		case c.Dir == "" || strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~"):
			c.Dir = d
		default:
			c.Dir = c.Dir + "/" + d
		}
	}
	return c, nil, true
}

func firstOperand(args []string) string {
	for _, w := range args {
		if !strings.HasPrefix(w, "-") {
			return w
		}
	}
	return ""
}

// Normalize returns argv with the global flags of a program with
// subcommands removed ("git -C x --no-pager push" becomes "git push"), so
// that prefix rules meet the subcommand; nil when there is nothing to
// remove or the flags cannot be read.
func Normalize(argv []string) []string {
	if len(argv) < 2 {
		return nil
	}
	gl := globals[argv[0]]
	if gl == nil {
		return nil
	}
	n, r := gl.scan(&Call{}, argv[1:], true)
	if r != nil || n == 0 {
		return nil
	}
	return append([]string{argv[0]}, argv[1+n:]...)
}

// PathWords returns the words of argv that the catalogue judges as paths:
// the operands and flag values of the entry that accepts argv, an operand
// that starts with "-" written "./-x" so that it is not taken for a flag.
// When no entry accepts argv, every word is returned. A checker of what
// words reach on disk calls it to leave patterns and strings alone
// ("grep .env src" reads src, not .env); it must not when the text holds
// a glob or xargs, as gate.Decide does not.
func PathWords(rules []Rule, argv []string) []string {
	e := judgingEntry(rules, argv)
	if e == nil {
		return argv
	}
	c, r, _ := e.Judge(argv)
	if r != nil {
		return argv
	}
	out := []string{argv[0]}
	for _, p := range c.Paths {
		if strings.HasPrefix(p, "-") {
			p = "./" + p
		}
		out = append(out, p)
		if c.Dir != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
			out = append(out, c.Dir+"/"+p)
		}
	}
	return out
}

// ListedWords are the operands of argv that a names-only program lists
// rather than reads (ls .env*, git ls-files .env, find without -exec):
// nil for any other command.
func ListedWords(rules []Rule, argv []string) []string {
	e := judgingEntry(rules, argv)
	if e == nil || !e.NamesOnly {
		return nil
	}
	c, r, _ := e.Judge(argv)
	if r != nil || len(c.Execs) > 0 {
		return nil
	}
	return c.Operands
}

// Read is argv as the catalogue entry that judges it reads it: its flags
// in order, their values and its operands. ok is false when no entry
// accepts argv (then the gate asks, and nothing else should read argv
// in its place). Checkers that need a command's options (what a
// recursive reader includes, whether it reads hidden files) read them
// here, so they and the gate never disagree on which word is a value.
func Read(rules []Rule, argv []string) (c *Call, ok bool) {
	e := judgingEntry(rules, argv)
	if e == nil {
		return nil, false
	}
	c, r, _ := e.Judge(argv)
	return c, r == nil
}

// Canonical is the flag's name as spelt in the catalogue: an
// abbreviation ("--incl") becomes the name it stands for ("--include").
func (u FlagUse) Canonical() string {
	if u.Flag == nil || slices.Contains(u.Flag.Names, u.Name) {
		return u.Name
	}
	for _, n := range u.Flag.Names {
		if strings.HasPrefix(n, u.Name) {
			return n
		}
	}
	return u.Name
}
