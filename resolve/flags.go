package resolve

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
	"github.com/agentgate/agentgate/internal/fsutil"
)

// opt is one option of a command line, as getopt reads it.
type opt struct {
	name  string // "-r", "--recursive"
	value string
}

// getopt splits words into options and operands the way GNU getopt does:
// short options bundle ("-rn"), a short option taking a value takes the
// rest of its bundle or the next word, "--long=value" or "--long value"
// for long options taking one, "--" ends the options, and operands may
// come between options. withArg are the short letters taking a value,
// longArg the long options that do.
func getopt(words []string, withArg string, longArg map[string]bool) (opts []opt, operands []string) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			return opts, append(operands, words[i+1:]...)
		case strings.HasPrefix(w, "--"):
			name, val, hasVal := strings.Cut(w, "=")
			if !hasVal && takesValue(name, longArg) && i+1 < len(words) {
				i++
				val = words[i]
			}
			opts = append(opts, opt{name, val})
		case strings.HasPrefix(w, "-") && len(w) > 1:
			for j := 1; j < len(w); j++ {
				c := string(w[j])
				if strings.Contains(withArg, c) {
					val := w[j+1:]
					if val == "" && i+1 < len(words) {
						i++
						val = words[i]
					}
					opts = append(opts, opt{"-" + c, val})
					break
				}
				opts = append(opts, opt{"-" + c, ""})
			}
		default:
			operands = append(operands, w)
		}
	}
	return opts, operands
}

// takesValue reports whether the long option name takes a value: by its
// full name, or as the unique abbreviation getopt_long accepts ("--dir"
// for "--directories", whose value "recurse" is in the next word).
func takesValue(name string, longArg map[string]bool) bool {
	if longArg[name] {
		return true
	}
	if len(name) < 3 {
		return false
	}
	match := ""
	for l := range longArg {
		if strings.HasPrefix(l, name) {
			if match != "" {
				return false // ambiguous: the program refuses it
			}
			match = l
		}
	}
	return match != ""
}

// has reports whether opts hold one of names; a long name also matches
// its abbreviations of at least four characters ("--rec" for
// "--recursive"), as getopt_long and git accept them.
func has(opts []opt, names ...string) bool {
	for _, o := range opts {
		for _, n := range names {
			if o.name == n || strings.HasPrefix(n, "--") && len(o.name) >= 4 && strings.HasPrefix(n, o.name) {
				return true
			}
		}
	}
	return false
}

// listFromFile asks for programs told to read the names of the files to
// read from a file: the gate cannot see that list.
func (r *resolver) listFromFile(prog string, words []string) {
	prog = path.Base(prog)
	// xargs -a in any spelling ("-ra list", "--arg=list"), as the
	// catalogue reads xargs: a bundle hid it from a test of the word.
	if prog == "xargs" {
		if c, _, _, ok := allowlist.XargsRead(append([]string{prog}, words...)); ok {
			for _, u := range c.Flags {
				if u.Flag != nil && slices.Contains(u.Flag.Names, "--arg-file") {
					r.add(gate.Reason{Check: gate.CheckSensitive, Match: u.Name, Source: "list of files",
						Message: "xargs reads the names of the files to open from a file (-a), which the gate cannot see"})
					return
				}
			}
		}
	}
	for i, w := range words {
		name, _, _ := strings.Cut(w, "=")
		bad := ""
		switch {
		// rg takes no abbreviation, and its own --files lists files.
		case prog != "rg" && abbreviates(name, "--files0-from", "--files-from", "--arg-file") &&
			!(isGrep(prog) && strings.HasPrefix("--file", name)): // grep --file reads patterns, judged as a path
			bad = name
		case (prog == "file") && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--"):
			if opts, _ := getopt(words[i:i+1], "efFmP", nil); has(opts, "-f") {
				bad = "-f"
			}
		case (prog == "tar" || prog == "bsdtar" || prog == "gtar") && (strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "T") || i == 0 && !strings.HasPrefix(w, "-") && strings.Contains(w, "T")):
			bad = "-T"
		case prog == "xargs" && strings.HasPrefix(w, "-a"):
			bad = "-a"
		case prog == "find" && (w == "-files0-from" || strings.HasPrefix(w, "-files0-from=")):
			// find's starting points from a file: what it lists, and what
			// an xargs behind it opens, is named there.
			bad = "-files0-from"
		}
		if bad != "" {
			r.add(gate.Reason{Check: gate.CheckSensitive, Match: w, Source: "list of files",
				Message: fmt.Sprintf("%s reads the names of the files to open from a file (%s), which the gate cannot see", prog, bad)})
			return
		}
	}
}

// abbreviates reports whether name is one of the long options or, as GNU
// getopt_long accepts, a prefix of one ("--files0" or "--f" for
// "--files0-from"). It errs towards a match: a prefix another option of
// the program shares costs a question.
func abbreviates(name string, longs ...string) bool {
	if len(name) < 3 || !strings.HasPrefix(name, "--") {
		return false
	}
	for _, l := range longs {
		if strings.HasPrefix(l, name) {
			return true
		}
	}
	return false
}

// Options of the recursive readers: short letters taking a value and long
// options taking one (from each program's manual).
var (
	grepArg  = "efmABCdDX"
	grepLong = map[string]bool{"--regexp": true, "--file": true, "--max-count": true, "--after-context": true,
		"--before-context": true, "--context": true, "--directories": true, "--devices": true, "--include": true,
		"--exclude": true, "--exclude-from": true, "--exclude-dir": true, "--label": true, "--binary-files": true}
	rgArg  = "eEfgjmMABCrtTd"
	rgLong = map[string]bool{"--regexp": true, "--file": true, "--glob": true, "--iglob": true, "--threads": true,
		"--max-count": true, "--max-columns": true, "--after-context": true, "--before-context": true, "--context": true,
		"--replace": true, "--type": true, "--type-not": true, "--max-depth": true, "--encoding": true,
		"--type-add": true, "--ignore-file": true, "--pre": true, "--pre-glob": true, "--sort": true, "--sortr": true,
		"--max-filesize": true, "--path-separator": true, "--context-separator": true, "--field-match-separator": true,
		"--colors": true, "--color": true, "--engine": true, "--dfa-size-limit": true, "--regex-size-limit": true}
	diffArg  = "CDFILSUWxX"
	diffLong = map[string]bool{"--label": true, "--exclude": true, "--exclude-from": true, "--starting-file": true,
		"--from-file": true, "--to-file": true, "--ignore-matching-lines": true, "--show-function-line": true,
		"--ifdef": true, "--tabsize": true, "--width": true, "--context": true, "--unified": true, "--color": true,
		"--palette": true, "--horizon-lines": true, "--line-format": true, "--old-line-format": true,
		"--new-line-format": true, "--unchanged-line-format": true}
)

// options are the options and operands of prog's words: as the
// catalogue reads them when it accepts the command (one reading: a word
// the gate took for a flag's value is one here too; "--binary" is grep's
// -U, not an abbreviation of --binary-files taking the next word), else
// by getopt with the tables above.
// catalogued reports which reading it was: only the catalogue's may
// narrow a walk (an include filter), since getopt's tables do not hold
// every option a program has.
func (r *resolver) options(prog string, words []string, withArg string, longArg map[string]bool) (opts []opt, operands []string, catalogued bool) {
	if r.o.Read != nil {
		if c, ok := r.o.Read(append([]string{prog}, words...)); ok {
			opts := make([]opt, 0, len(c.Flags))
			for _, u := range c.Flags {
				opts = append(opts, opt{name: u.Canonical(), value: u.Value})
			}
			return opts, c.Operands, true
		}
	}
	opts, operands = getopt(words, withArg, longArg)
	return opts, operands, false
}

// readCall is argv as the catalogue reads it, when the resolver was
// given the catalogue.
func (r *resolver) readCall(argv []string) (*allowlist.Call, bool) {
	if r.o.Read == nil {
		return nil, false
	}
	return r.o.Read(argv)
}

// recursive judges the trees a recursive reader would read.
func (r *resolver) recursive(prog string, words, argv []string) {
	var roots []string
	var only nameFilter
	hidden, follow := true, false
	switch path.Base(prog) {
	case "grep", "egrep", "fgrep":
		opts, operands, catalogued := r.options(prog, words, grepArg, grepLong)
		rec := has(opts, "-r", "-R", "--recursive", "--dereference-recursive")
		for _, o := range opts {
			if (o.name == "-d" || has([]opt{o}, "--directories")) && len(o.value) >= 2 && strings.HasPrefix("recurse", o.value) {
				rec = true
			}
		}
		if !rec {
			return
		}
		follow = has(opts, "-R", "--dereference-recursive")
		roots = patternOperands(opts, operands)
		if catalogued {
			only = grepIncludes(opts)
		}
	case "rg":
		opts, operands, catalogued := r.options(prog, words, rgArg, rgLong)
		u := 0
		for _, o := range opts {
			if o.name == "-u" || has([]opt{o}, "--unrestricted") {
				u++
			}
		}
		// rg skips hidden files unless told, or unless an ignore file
		// un-ignores them ("!.env" in a planted .ignore): then it is
		// judged as reading them.
		hidden = u >= 2 || has(opts, "--hidden", "-.", "--ignore-file", "--no-ignore", "--no-ignore-dot",
			"--no-ignore-vcs", "--no-ignore-parent", "--no-ignore-exclude", "--no-ignore-files", "--no-ignore-global")
		follow = has(opts, "-L", "--follow")
		// A glob or type that selects files overrides rg's skipping of
		// hidden ones: "rg KEY -g '*.env'" reads .env, "-t sh" reads
		// .bashrc. Then the walk looks at hidden entries too.
		only = rgGlobs(opts)
		if len(only.suffixes) > 0 || only.positive || has(opts, "-t", "--type") {
			hidden = true
		}
		if !catalogued {
			only = nameFilter{}
		}
		if has(opts, "--files", "--type-list") && len(operands) == 0 {
			roots = []string{"."}
		} else {
			roots = patternOperands(opts, operands)
		}
	case "diff":
		opts, operands, _ := r.options(prog, words, diffArg, diffLong)
		// --from-file and --to-file name a file or directory compared
		// with every operand: it is read like an operand.
		for _, o := range opts {
			if has([]opt{o}, "--from-file", "--to-file") && o.value != "" {
				operands = append(operands, o.value)
			}
		}
		// Without -r, diff still reads every top-level file of two
		// directories (and, with -N, those only one has): a directory
		// operand is read like a tree.
		if !has(opts, "-r", "--recursive") && !anyDir(r.lexicalAll(operands)) {
			return
		}
		roots = operands
	case "zcat", "gzip", "gunzip":
		// -r reads every file of a directory operand's tree.
		opts, operands, _ := r.options(prog, words, "S", map[string]bool{"--suffix": true})
		if !has(opts, "-r", "--recursive") {
			return
		}
		roots = operands
	case "git":
		// The subcommand as the catalogue reads it, after git's global
		// options: "git -P diff --no-index /srv ~" is a diff, and with
		// -C its operands are relative to -C's directory.
		var opts []opt
		var operands []string
		if c, ok := r.readCall(append([]string{prog}, words...)); ok {
			if c.Entry == nil || c.Entry.Name() != "git diff" {
				return
			}
			for _, u := range c.Flags {
				opts = append(opts, opt{name: u.Canonical(), value: u.Value})
			}
			for _, op := range c.Operands {
				if c.Dir != "" && !filepath.IsAbs(op) && !strings.HasPrefix(op, "~") {
					op = filepath.Join(c.Dir, op)
				}
				operands = append(operands, op)
			}
		} else {
			if len(words) < 1 || words[0] != "diff" {
				return
			}
			opts, operands = getopt(words[1:], "", map[string]bool{})
		}
		if !has(opts, "--no-index") && !r.impliedNoIndex(operands) {
			return
		}
		roots = operands
	default:
		return
	}
	if path.Base(prog) == "rg" && !hidden && r.unignores(roots) {
		hidden = true
	}
	r.walkRoots(roots, hidden, follow, only)
}

// nameFilter is what an include filter lets a recursive reader read:
// with active set, only files whose names end with one of suffixes (taken
// without regard to case, which only widens it). Only filters of the
// form "*SUFFIX", with no other pattern character, narrow a walk: for
// them grep's fnmatch and rg's gitignore globs agree with a plain suffix
// test, whatever they match against (base name, path, or any tail of it).
// Any other include pattern could match a secret's name, so it leaves the
// walk as wide as it was.
type nameFilter struct {
	suffixes []string
	// names are whole names a filter selects ("rg x -g Makefile"): a
	// glob with no pattern character matches the name itself.
	names    []string
	active   bool
	positive bool // rg: a glob that selects files was given, simple or not
}

// skips reports whether a file of this name is certainly not read.
func (f nameFilter) skips(name string) bool {
	if !f.active {
		return false
	}
	for _, s := range f.suffixes {
		if len(name) >= len(s) && strings.EqualFold(name[len(name)-len(s):], s) {
			return false
		}
	}
	for _, n := range f.names {
		if strings.EqualFold(name, n) {
			return false
		}
	}
	return true
}

// globSuffix is SUFFIX of a pattern "*SUFFIX" with no other pattern
// character, no path separator, no rg alternation or negation, and no
// white space (rg's gitignore globs drop trailing blanks, so "*.key "
// selects server.key).
func globSuffix(pat string) (string, bool) {
	rest, ok := strings.CutPrefix(pat, "*")
	if !ok || rest == "" || strings.ContainsAny(rest, "*?[]{}\\/!, \t\r\n\v\f") {
		return "", false
	}
	return rest, true
}

// grepIncludes is the filter of grep's --include options. GNU grep reads
// a file no --include or --exclude matches unless the first of those
// options is --include, and the last matching one wins: so when the
// first is --include, a file matching no include is not read, whatever
// the excludes say.
func grepIncludes(opts []opt) nameFilter {
	var f nameFilter
	first := true
	for _, o := range opts {
		isInclude := o.name == "--include" || o.name != "--exclude" && has([]opt{o}, "--include")
		isExclude := o.name == "--exclude" || has([]opt{o}, "--exclude-from")
		switch {
		case isInclude:
			if first {
				f.active = true
			}
			first = false
			suffix, ok := globSuffix(o.value)
			if !ok {
				return nameFilter{}
			}
			f.suffixes = append(f.suffixes, suffix)
		case isExclude:
			first = false
		}
	}
	return f
}

// rgGlobs is the filter of rg's -g/--glob/--iglob options: with one glob
// that selects files (not "!..."), rg reads only files some selecting glob
// matches; "!" globs only take more away.
func rgGlobs(opts []opt) nameFilter {
	var f nameFilter
	simple := true
	for _, o := range opts {
		if o.name != "-g" && !has([]opt{o}, "--glob", "--iglob") || strings.HasPrefix(o.value, "!") {
			continue
		}
		f.positive = true
		if suffix, ok := globSuffix(o.value); ok {
			f.suffixes = append(f.suffixes, suffix)
		} else if o.value != "" && !strings.ContainsAny(o.value, "*?[]{}\\/!, \t\r\n\v\f") {
			f.names = append(f.names, o.value)
		} else {
			simple = false
		}
	}
	f.active = f.positive && simple
	if !simple {
		f.suffixes, f.names = nil, nil
	}
	return f
}

// patternOperands are the file operands of grep and rg: all operands when
// the pattern came with -e or -f, else all but the first; "." when none.
func patternOperands(opts []opt, operands []string) []string {
	if !has(opts, "-e", "-f", "--regexp", "--file") && len(operands) > 0 {
		operands = operands[1:]
	}
	if len(operands) == 0 {
		return []string{"."}
	}
	return operands
}

func isGrep(prog string) bool {
	switch prog {
	case "grep", "egrep", "fgrep", "rg":
		return true
	}
	return false
}

// impliedNoIndex reports whether git diff compares its operands as files,
// as --no-index does: git does so outside a work tree, and for two paths
// when one of them lies outside it ("git diff EMPTY ~" reads the home
// directory's tree).
func (r *resolver) impliedNoIndex(operands []string) bool {
	var paths []string
	for _, w := range operands {
		if p := r.lexical(w); p != "" {
			// Physical, as git's work tree top is.
			if _, err := os.Lstat(p); err == nil {
				paths = append(paths, fsutil.Resolve(p))
			}
		}
	}
	if len(paths) == 0 {
		return false
	}
	top, ok := gitsafe.WorkTree(r.o.Cwd)
	if !ok {
		return true
	}
	for _, p := range paths {
		if p != top && !strings.HasPrefix(p, top+"/") {
			return true
		}
	}
	return false
}
