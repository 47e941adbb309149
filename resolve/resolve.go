// Package resolve judges what the words of a command reach in the file
// system, for a command the gate would allow. The gate (package gate)
// reads only the text; this package looks at the disk.
//
// # Threat
//
// An agent that can write files in the project plants what the text does
// not show: a symlink "notes.txt" to ~/.ssh/id_ed25519, a directory whose
// tree holds a key or a link leaving it, a program "ls" in a directory on
// a relative PATH entry, a file named "--files0-from=list". A check of the
// text alone is beaten by each.
//
// # What is judged
//
// For every simple command and every input redirect target:
//
//   - every word that may name a file (the word, a value after "=", a
//     value glued to short flags) is made absolute ("~", "~user", $HOME,
//     "..", "//") and walked component by component as the kernel does:
//     every symlink on the way and every step of its target is matched
//     against the self-protected and sensitive patterns; /proc/PID/root,
//     /proc/self/cwd and the like reach what they point at; a private
//     file with a second name (a hard-linked key), a file with a second
//     name that is a secret of the home or the project, and a FIFO ask;
//   - a glob is expanded, under a budget, and each name is judged as a
//     word (a file named like a flag included);
//   - a program that reads a list of file names from a file
//     (--files0-from, --files-from, file -f, tar -T) asks: the list is
//     not visible;
//   - a recursive reader (grep -r/-R, rg, diff -r, git diff --no-index)
//     asks when the tree it would read holds a sensitive file, a symlink
//     leaving the tree, a special file, or a .git config holding a
//     credential, found by a bounded walk that covers what the reader
//     reads; past the bound it asks;
//   - the program itself asks when PATH holds a relative or empty entry
//     before it is found, or when it (or its symlink's target) lies in an
//     agent-writable directory (see [Options.AgentWritable]).
//
// Check and run are not simultaneous: a file can change between the two.
// This package closes what can be seen at decision time.
package resolve

import (
	"fmt"
	"os"
	"os/user"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/internal/shparse"
)

// Options are what a judgment needs besides the command.
type Options struct {
	// Cwd is where the command runs, Home the user's home directory.
	Cwd, Home string
	// Paths are the self-protected and sensitive patterns.
	Paths gate.Paths
	// Environ is the environment the command runs with (PATH, TMPDIR).
	Environ []string
	// UntrustedDirs are more agent-writable directories (config
	// untrusted_dirs), "~/" allowed.
	UntrustedDirs []string
	// MaxWalk bounds the entries a recursive reader's tree walk visits;
	// 0 means DefaultMaxWalk.
	MaxWalk int
	// PathWords, when set, returns the program and those of its words
	// that name files (the catalogue knows a grep pattern or a find -name
	// value is not a path); nil judges every word as a path. The program,
	// list-from-file flags and recursive reads are judged on the whole
	// argv either way.
	PathWords func(argv []string) []string
	// ListedWords are the operands a names-only program lists rather
	// than reads (allowlist.ListedWords).
	ListedWords func(argv []string) []string
	// Read, when set, is argv as the catalogue reads it
	// (allowlist.Read); ok is false when the catalogue does not accept
	// it. Options of recursive readers are then taken from it, not from
	// a reading of resolve's own.
	Read func(argv []string) (c *allowlist.Call, ok bool)
	// Literal says bash expands no glob of the commands' words: each
	// reaches its program as it is (a quoted '*' included). Otherwise a
	// glob word is also read as the names it expands to.
	Literal bool
	// ReadTrees are trees the command reads in full, hidden files
	// included, although no word names their files (what feeds xargs:
	// [XargsInputs]).
	ReadTrees []string

	projectRoot string // computed once per Check
}

// DefaultMaxWalk is the default bound of a tree walk.
const DefaultMaxWalk = 20000

// Check judges the commands of an allowed decision (argv lists) and the
// files its input redirects open, and returns the reasons to ask, most
// important first; none means nothing was found. It never returns an
// allow: the caller escalates with the first reason.
func Check(o Options, commands [][]string, redirects []string) []gate.Reason {
	why, _ := CheckDirs(o, commands, redirects)
	return why
}

// CheckDirs is [Check], and also returns the directories each command
// may run in ([Dirs]), as the check followed them: a caller that goes on
// to judge the commands where they run (git's repository) reads the same
// directories, without following the text's cd again.
func CheckDirs(o Options, commands [][]string, redirects []string) ([]gate.Reason, [][]string) {
	r := newResolver(o)
	r.cdLookup = cdMayLookUp(commands)
	// Each cd is followed once: for the directories of the commands after
	// it and, on the way, for what its own target reaches.
	dirs, complete := r.dirs(commands)
	if !complete {
		r.add(gate.Reason{Check: gate.CheckSensitive, Match: "cd", Source: "resolved path",
			Message: fmt.Sprintf("where the text's cd goes cannot be followed (pushd, a target with a glob or an expansion, or more than %d places)", maxDirs)})
	}
	all := []string{o.Cwd}
	for i, argv := range commands {
		if len(argv) == 0 {
			continue
		}
		for _, d := range dirs[i] {
			r.at(d)
			if !slices.Contains(all, d) {
				all = append(all, d)
			}
			if !changesDir(argv) {
				r.command(argv, 0)
			}
		}
	}
	for _, d := range all {
		r.at(d)
		for _, t := range redirects {
			r.path(t, t, false)
		}
	}
	if len(o.ReadTrees) > 0 {
		r.dashNames(o.ReadTrees)
		r.splitNames(o.ReadTrees)
		r.walkRoots(o.ReadTrees, true, false, nameFilter{})
	}
	return r.out, dirs
}

// command judges one command's words on disk, and then the commands it
// runs itself: xargs' command and find's -exec commands read their own
// operands too ("ls | xargs grep -r KEY ~" reads the home whatever ls
// lists, and GNU xargs runs its command even with no input).
func (r *resolver) command(argv []string, depth int) {
	r.program(argv[0])
	words := r.expandGlobs(argv[1:])
	// What the program reads is read from its argv as it receives it,
	// word by word: as written when bash expands no glob of it (a quoted
	// "-g '*'" is one word: the glob's matches put after it made "rg -g
	// '*' KEY" read as a search of a missing path, and the tree it reads
	// went unjudged, a red team's), and with each glob replaced by its
	// matches when bash may expand it, both readings then.
	readings := [][]string{argv}
	if !r.o.Literal {
		readings = append(readings, append([]string{argv[0]}, r.bashGlobs(argv[1:])...))
	}
	for _, rd := range readings {
		r.listFromFile(rd)
	}
	paths := words
	if r.o.PathWords != nil {
		if pw := r.o.PathWords(argv); len(pw) > 0 {
			paths = r.expandGlobs(pw[1:])
		}
	}
	var listed []string
	if r.o.ListedWords != nil {
		listed = r.expandGlobs(r.o.ListedWords(argv))
	}
	for _, w := range paths {
		for _, c := range gate.PathCandidates(w) {
			r.path(w, c, slices.Contains(listed, w))
		}
	}
	r.suffixed(argv[0], paths)
	if !r.o.Literal {
		r.expandedReading(argv)
	}
	for _, rd := range readings {
		r.flagFiles(rd[1:])
		r.recursive(rd)
	}
	if depth >= 4 {
		return
	}
	for _, inner := range r.runs(argv) {
		if len(inner) > 0 {
			r.command(inner, depth+1)
		}
	}
}

// expandedReading judges argv as the program receives it when bash
// expands its globs, with the catalogue's reading of that argv, not of
// the words as written. A match changes the reading in two ways:
//
//   - named like a flag, it is one ("grep [-]f -e k", with files -f and
//     -e there, read patterns from -e and printed k, a link to a key that
//     the reading as written took for a pattern): it asks, before a "--";
//   - several matches shift the words after them ("grep [=z] a.txt",
//     with files = and z, searched z for "="): each word the expanded
//     argv reads as a path is judged as one, and so is every match of a
//     glob one of whose matches is, since bash's order (the locale's
//     collation) decides which lands where.
func (r *resolver) expandedReading(argv []string) {
	var exp []string
	var from []int // the index in argv of the glob each word came from, or -1
	steps := MaxGlobSteps
	options := true
	for i, w := range argv[1:] {
		if w == "--" {
			options = false
		}
		var matches []string
		if strings.ContainsAny(w, "*?[") {
			var ok bool
			if matches, ok = expandGlob(r.lexical(w), &steps); !ok {
				r.add(gate.Reason{Check: gate.CheckSensitive, Match: w, Source: "glob",
					Message: fmt.Sprintf("the glob %s matches too many names to check (more than %d steps)", quote(w), MaxGlobSteps)})
				return
			}
		}
		if len(matches) == 0 {
			exp, from = append(exp, w), append(from, -1)
			continue
		}
		sort.Strings(matches)
		for _, m := range matches {
			m = r.asWritten(w, m)
			if options && strings.HasPrefix(m, "-") && m != "-" {
				r.add(gate.Reason{Check: gate.CheckSensitive, Match: w, Source: "glob",
					Message: fmt.Sprintf("the glob %s matches %s, a file named like a flag, which bash hands the program as one", quote(w), quote(m))})
				return
			}
			exp, from = append(exp, m), append(from, i)
		}
	}
	if r.o.PathWords == nil {
		return // every word was judged as a path
	}
	rd := append([]string{argv[0]}, exp...)
	pw := r.o.PathWords(rd)
	if len(pw) == 0 {
		return
	}
	var listed []string
	if r.o.ListedWords != nil {
		listed = r.o.ListedWords(rd)
	}
	read := map[string]bool{}
	for _, w := range pw[1:] {
		read[w] = true
	}
	globRead := map[int]bool{}
	for k, w := range exp {
		if read[w] && from[k] >= 0 {
			globRead[from[k]] = true
		}
	}
	for k, w := range exp {
		if read[w] || from[k] >= 0 && globRead[from[k]] {
			for _, c := range gate.PathCandidates(w) {
				r.path(w, c, slices.Contains(listed, w))
			}
		}
	}
}

// openSuffixes are what a program adds to an operand that names nothing
// before it opens it: gzip -d, gunzip and zcat try NAME.gz, NAME-z ...
// ("zcat -f kk" printed a planted kk.gz that was a link to a key), and
// unzip NAME.zip and NAME.ZIP (a FIFO there held "unzip -l q").
var openSuffixes = map[string][]string{
	"zcat":   gzipSuffixes,
	"gzip":   gzipSuffixes,
	"gunzip": gzipSuffixes,
	"unzip":  {".zip", ".ZIP"},
}

// gzipSuffixes are gzip 1.x's (open_input_file and get_suffix), wider.
var gzipSuffixes = []string{".gz", ".z", "-z", ".Z", "-gz", "_z", ".tgz", ".taz"}

// suffixed judges, for a program that opens NAME plus a suffix when NAME
// is not there, each such name of its path words, as the word itself is.
func (r *resolver) suffixed(prog string, words []string) {
	for _, sfx := range openSuffixes[path.Base(prog)] {
		for _, w := range words {
			if w == "" || w == "-" || strings.HasPrefix(w, "-") {
				continue
			}
			r.path(w, w+sfx, false)
		}
	}
}

// flagFiles judges a word that looks like a flag but stands after an
// operand, and names a file that exists, as that file: BSD's programs
// (macOS) end their options at the first operand, as awk does everywhere,
// so "cat notes -v" reads a planted "./-v" there, which may be a link to
// a key. Only a file that exists is looked at: GNU's reading, a flag,
// costs nothing more.
func (r *resolver) flagFiles(words []string) {
	operand := false
	for _, w := range words {
		switch {
		case w == "--":
			return // what follows is operands, judged as such
		case !strings.HasPrefix(w, "-") || w == "-":
			operand = true
		case operand:
			p := "./" + w
			if abs := r.lexical(p); abs != "" {
				if _, err := os.Lstat(abs); err == nil {
					r.path(w, p, false)
				}
			}
		}
	}
}

// runs are the commands argv runs itself, as the catalogue reads it:
// xargs' command (the names it reads are judged as xargs' input trees),
// find's -exec and -execdir commands without their "{}" (the files found
// are the trees find walks).
func (r *resolver) runs(argv []string) [][]string {
	switch path.Base(argv[0]) {
	case "xargs":
		if start, _, ok := allowlist.XargsCommand(argv); ok {
			return [][]string{argv[start:]}
		}
	case "find":
		c, ok := r.readCall(argv)
		if !ok {
			return nil
		}
		// -execdir runs its command in each found file's directory: a
		// relative path there is not the one judged from here ("find
		// src/d -execdir cat ../../k {} +" read a planted link k).
		inDir := slices.Contains(argv, "-execdir") || slices.Contains(argv, "-okdir")
		var out [][]string
		for _, e := range c.Execs {
			var inner []string
			for _, w := range e {
				if w != "{}" {
					inner = append(inner, w)
				}
			}
			if inDir && len(inner) > 0 && r.o.PathWords != nil {
				for _, w := range r.o.PathWords(inner)[1:] {
					if !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~") {
						r.add(gate.Reason{Check: gate.CheckSensitive, Match: w, Source: "find -execdir",
							Message: fmt.Sprintf("find -execdir runs %s in each found file's directory, where the relative path %s is not the one judged", inner[0], quote(w))})
					}
				}
			}
			out = append(out, inner)
		}
		return out
	}
	return nil
}

type resolver struct {
	o        Options
	out      []gate.Reason
	seen     map[string]bool
	deadline time.Time
	secrets  map[fileID]bool // homeSecrets, once built
	global   *bool           // globalUnignores, once worked out

	projSecrets *secretSet // projectSecrets, once built

	// cdLookup is set when the text may make cd look a bare target up
	// elsewhere (cdMayLookUp): such a cd cannot be followed.
	cdLookup bool
}

// cdMayLookUp reports whether the text may make "cd NAME" go somewhere
// other than ./NAME: it sets CDPATH or cdable_vars (any word naming
// them), or runs a builtin that can set a variable or a shell option
// under a name spelled some other way (export CD$'\x50'ATH=sub), or a
// command whose name is not a plain word (sh?pt -s cdable_v?rs).
// "CDPATH=sub; cd d; cat notes" read sub/d/notes, a link to a key, while
// d/notes was judged (a red team's). The engine removes CDPATH from the
// environment it runs commands with.
func cdMayLookUp(segs [][]string) bool {
	for _, argv := range segs {
		if len(argv) > 0 {
			switch path.Base(argv[0]) {
			case "shopt", "export", "declare", "typeset", "readonly", "local", "set", "read", "eval", "source", ".",
				"mapfile", "readarray", "printf", "enable", "let", "unset":
				return true
			}
			if strings.ContainsAny(argv[0], "*?[$'\"\\`{") {
				return true
			}
		}
		for _, w := range argv {
			if strings.Contains(w, "CDPATH") || strings.Contains(w, "cdable_vars") {
				return true
			}
		}
	}
	return false
}

// at moves the resolver to dir: relative words are taken from there.
func (r *resolver) at(dir string) { r.o.Cwd, r.o.Paths.Cwd = dir, dir }

func (r *resolver) add(why gate.Reason) {
	key := string(why.Check) + "\x00" + why.Match + "\x00" + why.Message
	if r.seen[key] || len(r.out) >= 16 {
		return
	}
	r.seen[key] = true
	r.out = append(r.out, why)
}

// maxDirs bounds the directories a text's cd commands are followed to.
const maxDirs = 8

// Dirs returns, for each command, every directory it may run in: the one
// the text starts in and each that an earlier cd of the text goes to. A
// cd in a pipeline, a subshell or behind a failed test leaves the shell
// where it was, and a list of commands does not say which ran where:
// "cd sub | true; cat notes" read ./notes, a link to a key, while
// sub/notes was judged (a red team's). So every later command is judged,
// and its git vetted, in all of them. complete is false when the cds go
// to more directories than are followed.
func Dirs(cwd, home string, commands [][]string) (dirs [][]string, complete bool) {
	r := &resolver{o: Options{Cwd: cwd, Home: home}, seen: map[string]bool{}, cdLookup: cdMayLookUp(commands)}
	return r.dirs(commands)
}

// dirs is [Dirs], with the reasons to ask that each cd's target gives
// (read where it is taken from) added to r.
func (r *resolver) dirs(commands [][]string) (dirs [][]string, complete bool) {
	cur := []string{r.o.Cwd}
	complete = true
	dirs = make([][]string, len(commands))
	for i, argv := range commands {
		dirs[i] = cur
		if len(argv) == 0 || !changesDir(argv) {
			continue
		}
		if !followable(argv) {
			// Where it goes is not known: the directories of the later
			// commands are not either ("pushd +1", "cd su*", "cd
			// $(echo sub)" went there, while the words after them were
			// judged here: a red team's).
			complete = false
		}
		next := slices.Clone(cur)
		for _, d := range cur {
			r.at(d)
			r.changeDir(argv)
			if r.o.Cwd == d || slices.Contains(next, r.o.Cwd) {
				continue
			}
			if len(next) >= maxDirs {
				complete = false
				continue
			}
			next = append(next, r.o.Cwd)
		}
		cur = next
	}
	return dirs, complete
}

// followable reports whether a cd's target can be known from its words
// (shparse.ReadCd, the form's reading): cd with one plain word (or
// none), not pushd or popd, not "cd -", no option agentgate does not
// read, no glob, brace, expansion or quote left in the target.
func followable(argv []string) bool {
	step, ok := shparse.ReadCd(argv)
	return ok && step.Unknown == ""
}

// changesDir reports whether argv changes the shell's directory
// (shparse.ReadCd: "command -p cd" does).
func changesDir(argv []string) bool {
	_, ok := shparse.ReadCd(argv)
	return ok
}

// changeDir follows "cd DIR" between the parts of a compound (split
// mode runs them in one shell), so that later words are resolved where
// they run. A directory that cannot be known ("cd -", pushd, popd) asks.
func (r *resolver) changeDir(argv []string) bool {
	step, ok := shparse.ReadCd(argv)
	if !ok {
		return false
	}
	if step.Unknown != "" {
		r.add(gate.Reason{Check: gate.CheckSensitive, Match: strings.Join(argv, " "), Source: "resolved path", Message: step.Unknown})
		return true
	}
	target, physical := step.Target, step.Physical
	if step.Home {
		target = r.o.Home
	}
	if r.cdLookup && step.LooksUp() {
		r.add(gate.Reason{Check: gate.CheckSensitive, Match: strings.Join(argv, " "), Source: "resolved path",
			Message: fmt.Sprintf("cd %s may go to another directory: the text sets CDPATH or a shell option (cdable_vars), which cd looks its target up in", target)})
		return true
	}
	// bash's cd is logical unless -P: "link/.." is taken away as text
	// before any link is followed, so "cd link/.." stays where it is,
	// whatever link points to (a red team's "cd link/.. && cat w" was
	// judged in link's parent and printed a key from here). Only when
	// that directory does not exist does bash go the physical way.
	abs := r.lexical(target)
	dir := ""
	if !physical && abs != "" && dotDotPrefixesAreDirs(abs) {
		if fi, err := os.Stat(path.Clean(abs)); err == nil && fi.IsDir() {
			dir = path.Clean(abs)
		}
	}
	if dir == "" {
		// The physical way is the kernel's: the text as it is, ".."
		// taken after each link, and every component must exist.
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
			if visited, err := walkLinks(abs); err == nil && len(visited) > 0 {
				dir = visited[len(visited)-1]
			}
		}
	}
	if dir == "" {
		// cd fails and the shell stays where it is (after ";", the
		// next command runs here).
		r.path(target, target, false)
		return true
	}
	r.path(target, dir, false)
	r.o.Cwd = dir
	r.o.Paths.Cwd = r.o.Cwd
	return true
}

// dotDotPrefixesAreDirs reports whether what stands before each ".." of
// abs is a directory, as bash's logical cd requires: "cd sub/nope/.."
// and "cd sub/file/.." fail (and the shell stays where it is), though
// the text cleans to "sub" (a red team's "cd sub/nope/.. ; cat w" was
// judged in sub and printed a key from here).
func dotDotPrefixesAreDirs(abs string) bool {
	parts := strings.Split(abs, "/")
	cur := ""
	for _, c := range parts {
		switch c {
		case "", ".":
			continue
		case "..":
			if cur != "" {
				if fi, err := os.Stat(cur); err != nil || !fi.IsDir() {
					return false
				}
			}
			cur = path.Dir(cur)
			if cur == "." {
				cur = ""
			}
			continue
		}
		cur = cur + "/" + c
	}
	return true
}

// path judges one candidate c of word w: every path the lookup of c
// passes through.
//
// A listed word is an operand a names-only program lists (ls .env): it
// does not read it, so neither a FIFO nor a hard link matters, and a
// secret's name is no read; a directory of secrets still is.
func (r *resolver) path(w, c string, listed bool) {
	abs := r.lexical(c)
	if abs == "" {
		return
	}
	if gate.NetDevice(path.Clean(abs)) {
		r.add(gate.Reason{Check: gate.CheckSensitive, Match: w, Source: "resolved path",
			Message: fmt.Sprintf("%s names a network connection (bash's /dev/tcp, gawk's /inet)", quote(w))})
	}
	visited, err := walkLinks(abs)
	if err != nil {
		r.add(gate.Reason{Check: gate.CheckSensitive, Match: w, Source: "resolved path",
			Message: fmt.Sprintf("cannot tell what %s reaches: %v", quote(w), err)})
	}
	if n := len(visited); n > 0 && isFIFO(visited[n-1]) && !listed {
		r.add(gate.Reason{Check: gate.CheckWords, Match: w, Source: "resolved path",
			Message: fmt.Sprintf("%s is a FIFO: reading it blocks until someone writes", quote(w))})
	}
	if n := len(visited); n > 0 && !listed {
		if why := r.hardLinkWhy(visited[n-1]); why != "" {
			r.add(gate.Reason{Check: gate.CheckSensitive, Match: w, Source: "resolved path",
				Message: fmt.Sprintf("%s %s", quote(w), why)})
		}
	}
	visited = append(visited, path.Clean(abs))
	for _, p := range visited {
		for _, q := range procAliases(p) {
			if check, pat, ok := r.o.Paths.MatchPath(q); ok && !(listed && check == gate.CheckSensitive && r.o.Paths.NamePattern(pat)) {
				msg := fmt.Sprintf("%s reaches %s, which may hold secrets (%s): reading it sends them to the model", quote(w), q, pat)
				if check == gate.CheckSelfProtect {
					msg = fmt.Sprintf("%s reaches %s, a protected file that changes how commands run (%s)", quote(w), q, pat)
				}
				r.add(gate.Reason{Check: check, Match: w, Rule: pat, Source: "resolved path", Message: msg})
				return
			}
		}
	}
}

// lexical makes c absolute without cleaning it (".." after a symlink is
// the symlink target's parent, so it is left to walkLinks): "~", "~user",
// "~+", $HOME and ${HOME} expanded, a relative path taken from Cwd.
func (r *resolver) lexical(c string) string {
	if c == "" {
		return ""
	}
	home := r.o.Home
	switch {
	case c == "$HOME" || c == "${HOME}" || c == "~":
		return home
	case strings.HasPrefix(c, "$HOME/"):
		return home + c[5:]
	case strings.HasPrefix(c, "${HOME}/"):
		return home + c[7:]
	case strings.HasPrefix(c, "~+/") || c == "~+":
		return r.o.Cwd + c[2:]
	case c == "$PWD" || c == "${PWD}":
		// Where the part runs, as ~+ is ("cat $PWD/link1": a red
		// team's word the resolver did not read).
		return r.o.Cwd
	case strings.HasPrefix(c, "$PWD/"):
		return r.o.Cwd + c[4:]
	case strings.HasPrefix(c, "${PWD}/"):
		return r.o.Cwd + c[6:]
	case strings.HasPrefix(c, "~/"):
		return home + c[1:]
	case strings.HasPrefix(c, "~"):
		name, rest, _ := strings.Cut(c[1:], "/")
		if u, err := user.Lookup(name); err == nil && u.HomeDir != "" {
			return u.HomeDir + "/" + rest
		}
		return home + "/" + rest // judged as this home, as the gate does
	case strings.HasPrefix(c, "/"):
		return c
	}
	return r.o.Cwd + "/" + c
}

// walkLinks is fsutil.Walk as one list: every symlink on the way and
// every path its targets lead to, the final path last.
func walkLinks(abs string) ([]string, error) {
	via, final, err := fsutil.Walk(abs)
	if err != nil {
		return via, err
	}
	return append(via, final), nil
}

// procAliases returns p and, for a path under /proc/PID/task/TID/, the
// same path under /proc/PID/: a thread's files are its process's.
func procAliases(p string) []string {
	out := []string{p}
	parts := strings.Split(p, "/")
	if len(parts) >= 5 && parts[1] == "proc" && parts[3] == "task" {
		out = append(out, "/"+path.Join(append([]string{"proc", parts[2]}, parts[5:]...)...))
	}
	return out
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// getenv returns the last value of name in environ.
func getenv(environ []string, name string) (string, bool) {
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

func isFIFO(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&os.ModeNamedPipe != 0
}
