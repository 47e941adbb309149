package resolve

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
	"github.com/agentgate/agentgate/internal/fsutil"
)

// opt is one option of a call, as the catalogue read it.
type opt struct {
	name  string // "-r", "--recursive" (the catalogue's own spelling)
	value string
}

// has reports whether opts hold one of names.
func has(opts []opt, names ...string) bool {
	for _, o := range opts {
		if slices.Contains(names, o.name) {
			return true
		}
	}
	return false
}

// listFromFile asks for a command told to read the names of the files to
// read from a file: the gate cannot see that list. The catalogue says
// which flags do ([allowlist.Lists]); a command it cannot read is taken
// to use one when any word may be one.
func (r *resolver) listFromFile(argv []string) {
	w := ""
	if c, ok := r.readCall(argv); ok {
		w = c.Lists()
	} else if m, ok := allowlist.MayList(argv); ok {
		w = m
	}
	if w != "" {
		prog := path.Base(argv[0])
		r.add(gate.Reason{Check: gate.CheckSensitive, Match: w, Source: "list of files",
			Message: fmt.Sprintf("%s reads the names of the files to open from a file (%s), which the gate cannot see", prog, w)})
	}
}

// readCall is argv as the catalogue reads it.
func (r *resolver) readCall(argv []string) (*allowlist.Call, bool) {
	if r.o.Read == nil {
		return allowlist.Read(defaultRules(), argv)
	}
	return r.o.Read(argv)
}

// defaultRules are the catalogue's, for a resolver given no reading.
var defaultRules = sync.OnceValue(allowlist.Defaults)

// recursive judges the trees a recursive reader would read: exactly
// those the call declares ([allowlist.Call.Walk]). A command the
// catalogue cannot read (a user's rule allowed it) is walked at its
// widest, hidden files and links followed: of a program that may walk,
// every word is a root; of any other, every word that names a directory.
func (r *resolver) recursive(argv []string) {
	var roots []string
	var only nameFilter
	hidden := true
	c, ok := r.readCall(argv)
	var w allowlist.Walk
	switch {
	case ok:
		w, roots = c.Walk()
		if w == 0 {
			return
		}
		// With git -C the operands are relative to -C's directory.
		if c.Dir != "" {
			for i, op := range roots {
				if !filepath.IsAbs(op) && !strings.HasPrefix(op, "~") {
					roots[i] = filepath.Join(c.Dir, op)
				}
			}
		}
		if w&allowlist.Tree == 0 && !r.impliedNoIndex(roots) {
			return
		}
		opts := make([]opt, 0, len(c.Flags))
		for _, u := range c.Flags {
			opts = append(opts, opt{name: u.Canonical(), value: u.Value})
		}
		switch c.Entry.Name() {
		case "grep", "egrep", "fgrep":
			only = grepIncludes(opts)
		case "rg":
			hidden, only = rgHidden(opts)
		}
	default:
		may := allowlist.MayWalk(argv)
		if may == 0 {
			// A command the catalogue cannot read, of a program none of
			// whose entries declares a walk, was allowed by a user's
			// rule. Where the catalogue describes the program (and
			// subcommand) in other modes, the rule took a known reader
			// past what the catalogue knows of it: "tar -cf - ." reads
			// the whole tree, .env included, though tar's entries (-t)
			// walk nothing. It is walked at its widest too, over the
			// trees its words name. A program the catalogue does not
			// describe at all ("ruff check .", "git add .", "go test
			// .") is the rule's alone: the person who wrote it judged
			// that program, and walking "." would ask about every such
			// command in a project holding a .env.
			if !allowlist.Describes(argv) {
				return
			}
			// Every part of a word that may be a path (the word, a
			// value after "=" or in a ":" list, a value glued to short
			// flags: "tar -C/ ...") and names a directory that exists
			// is a root. A word that names nothing, or a file, is no
			// root (a file is judged as a word already). No "." is
			// added when no word names it: where such a program starts
			// is not known, and a program known to start at "."
			// declares Dot in the catalogue and is walked below.
			roots = r.directoryWords(argv[1:])
			if len(roots) == 0 {
				return
			}
			w = allowlist.Tree | allowlist.Follows
			break
		}
		w = allowlist.Tree | allowlist.Follows
		for _, word := range argv[1:] {
			if _, v, eq := strings.Cut(word, "="); eq && strings.HasPrefix(word, "-") {
				roots = append(roots, v)
			} else if !strings.HasPrefix(word, "-") {
				roots = append(roots, word)
			}
		}
		if len(roots) == 0 || may&allowlist.Dot != 0 {
			roots = append(roots, ".")
		}
	}
	if path.Base(argv[0]) == "rg" {
		if p := r.specialIgnore(roots); p != "" {
			r.add(gate.Reason{Check: gate.CheckSensitive, Match: p, Source: "recursive read",
				Message: fmt.Sprintf("rg reads the ignore files of the directories above the trees it searches, and %s is a special file: reading it may block or never end", p)})
		}
		if !hidden && r.unignores(roots) {
			hidden = true
		}
	}
	r.walkRoots(roots, hidden, w&allowlist.Follows != 0, only)
}

// directoryWords are the parts of words that may be paths
// ([gate.PathCandidates]) and name a directory that exists, links
// followed.
func (r *resolver) directoryWords(words []string) []string {
	var out []string
	for _, w := range words {
		for _, c := range gate.PathCandidates(w) {
			if abs := r.lexical(c); abs != "" && isDir(abs) && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// rgHidden is whether rg reads hidden files, and the filter its globs
// make. rg skips hidden files unless told, or unless an ignore file
// un-ignores them ("!.env" in a planted .ignore: see unignores). A glob
// or type that selects files overrides the skipping: "rg KEY -g '*.env'"
// reads .env, "-t sh" reads .bashrc.
func rgHidden(opts []opt) (bool, nameFilter) {
	u := 0
	for _, o := range opts {
		if o.name == "-u" || o.name == "--unrestricted" {
			u++
		}
	}
	hidden := u >= 2 || has(opts, "--hidden", "-.", "--ignore-file", "--no-ignore", "--no-ignore-dot",
		"--no-ignore-vcs", "--no-ignore-parent", "--no-ignore-exclude", "--no-ignore-files", "--no-ignore-global")
	only := rgGlobs(opts)
	if len(only.suffixes) > 0 || only.positive || has(opts, "-t", "--type") {
		hidden = true
	}
	return hidden, only
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
