package resolve

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"sync"
	"syscall"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// ignoreFiles are the files ripgrep reads its ignore rules from, in every
// directory it searches and in their parents.
var ignoreFiles = []string{".ignore", ".rgignore", ".gitignore"}

// unignores reports whether an ignore file rg would read holds a
// whitelist line ("!.env"): such a line makes rg read a hidden file it
// would skip, so the walk must look at hidden files too. rg reads the
// ignore files of every directory it searches and of the directories
// above, the info/exclude of each such directory's git repository (a .git
// file leads elsewhere: see gitExclude), and git's global excludes file
// (see globalExcludes). The scan is bounded like the walk; past the bound
// it answers true.
func (r *resolver) unignores(roots []string) bool {
	if r.globalUnignores() {
		return true
	}
	budget := r.o.MaxWalk
	if budget <= 0 {
		budget = DefaultMaxWalk
	}
	for _, root := range roots {
		abs := r.lexical(root)
		fi, err := os.Stat(abs)
		if err != nil || !fi.IsDir() {
			abs = path.Dir(abs)
		}
		for d := abs; ; d = path.Dir(d) {
			if dirWhitelists(d) || r.gitExcludeWhitelists(d) {
				return true
			}
			if d == "/" || d == "." {
				break
			}
		}
		queue := []string{abs}
		for len(queue) > 0 {
			d := queue[0]
			queue = queue[1:]
			ents, err := readDir(d)
			if err != nil {
				continue
			}
			for _, e := range ents {
				if budget--; budget <= 0 {
					return true
				}
				if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
					queue = append(queue, path.Join(d, e.Name()))
				}
			}
			if d != abs && (dirWhitelists(d) || r.gitExcludeWhitelists(d)) {
				return true
			}
		}
	}
	return false
}

// specialIgnore is an ignore file rg would read above the trees it
// searches (in a directory of the way up from a root, or the info/exclude
// of such a directory's repository) that is there but no regular file, or
// "" when there is none. The walk sees the files inside the trees; a FIFO
// .gitignore in a parent, or .git/info/exclude of the repository when rg
// searches a subdirectory, held rg until its time limit.
func (r *resolver) specialIgnore(roots []string) string {
	for _, root := range roots {
		abs := r.lexical(root)
		if abs == "" {
			continue
		}
		// A directory's own files are the walk's; a file's directory is
		// looked at too, which only widens it.
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
			if abs = path.Dir(abs); abs == r.lexical(root) {
				continue // "/": nothing above
			}
		} else {
			abs = path.Dir(abs)
		}
		for d := abs; ; d = path.Dir(d) {
			for _, name := range ignoreFiles {
				if p := path.Join(d, name); special(p) {
					return p
				}
			}
			dotGit := path.Join(d, ".git")
			if special(dotGit) {
				return dotGit
			}
			if p := path.Join(dotGit, "info", "exclude"); isDir(dotGit) && special(p) {
				return p
			}
			if d == "/" || d == "." {
				break
			}
		}
	}
	return ""
}

// special reports whether p is there (links followed) and is neither a
// regular file nor a directory: a FIFO, socket or device.
func special(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

func dirWhitelists(dir string) bool {
	for _, name := range ignoreFiles {
		if fileWhitelists(path.Join(dir, name)) {
			return true
		}
	}
	return false
}

// fileWhitelists reads an ignore file (a regular file only, at most 1 MiB)
// and reports whether a line starts with "!". A file that is not there
// whitelists nothing; one that is there but is no regular file (a FIFO
// rg would block on until someone writes "!.env" into it, a directory)
// or cannot be read counts as whitelisting.
func fileWhitelists(p string) bool {
	f, err := fsutil.OpenRegular(p)
	if err != nil {
		return !absent(err)
	}
	defer f.Close()
	// A file too large to read whole, or a line longer than the scanner
	// takes, could hide a "!" line after it: taken as one.
	if fi, err := f.Stat(); err != nil || fi.Size() > 1<<20 {
		return true
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20+1)
	for sc.Scan() {
		// rg 14 strips a byte-order mark first.
		line := strings.TrimPrefix(strings.TrimSpace(sc.Text()), "\ufeff")
		if strings.HasPrefix(strings.TrimSpace(line), "!") {
			return true
		}
	}
	return sc.Err() != nil
}

// absent reports whether err says a file is not there (nor any directory
// on its way), the one failure that whitelists nothing.
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// gitExcludeWhitelists reports whether the info/exclude file rg reads for
// a git repository at dir whitelists. As ripgrep's ignore crate does
// (resolve_git_commondir in crates/ignore/src/dir.rs): a .git that is a
// directory (links followed) gives .git/info/exclude; a .git that is a
// file, as a linked work tree or a submodule has, is read for its first
// line "gitdir: PATH", and PATH/commondir for its first line, the common
// directory whose info/exclude is read. A planted .git file therefore
// leads rg to an exclude file anywhere.
//
// Read here more widely than rg does, never more narrowly: a relative
// PATH is taken both from where rg runs (rg's reading) and from dir
// (git's), likewise a relative common directory from PATH and from where
// rg runs; the exclude of PATH itself is read too. Anything odd on the
// way (a .git or commondir that is no small regular file, a first line
// too long to read) counts as whitelisting.
func (r *resolver) gitExcludeWhitelists(dir string) bool {
	dotGit := path.Join(dir, ".git")
	fi, err := os.Stat(dotGit)
	switch {
	case err != nil:
		return !absent(err)
	case fi.IsDir():
		return fileWhitelists(path.Join(dotGit, "info", "exclude"))
	case !fi.Mode().IsRegular():
		return true
	}
	line, ok := firstLine(dotGit)
	if !ok {
		return true
	}
	gitdir, found := strings.CutPrefix(line, "gitdir: ")
	if !found {
		return false // rg reads no exclude file then
	}
	for _, gd := range r.relativeBoth(gitdir, dir) {
		if fileWhitelists(path.Join(gd, "info", "exclude")) {
			return true
		}
		common, ok := firstLine(path.Join(gd, "commondir"))
		switch {
		case !ok:
			return true
		case common == "":
			continue // no commondir file: rg reads no exclude file
		}
		for _, cd := range r.relativeBoth(common, gd) {
			if fileWhitelists(path.Join(cd, "info", "exclude")) {
				return true
			}
		}
	}
	return false
}

// relativeBoth is p made absolute: as it is when absolute, else taken
// from where the command runs and from base.
func (r *resolver) relativeBoth(p, base string) []string {
	if path.IsAbs(p) {
		return []string{p}
	}
	return []string{path.Join(r.o.Cwd, p), path.Join(base, p)}
}

// firstLine is the first line of a small regular file, without its line
// end; "" and ok when the file is not there. ok is false for anything
// else that is not a regular file of at most 64 KiB whose first line
// ends within it, or that cannot be read.
func firstLine(p string) (string, bool) {
	data, err := fsutil.ReadRegular(p, 64<<10)
	if err != nil {
		return "", absent(err)
	}
	line, _, found := bytes.Cut(data, []byte("\n"))
	if !found && len(data) == 64<<10 {
		return "", false
	}
	return strings.TrimSuffix(string(line), "\r"), true
}

// excludesFileLine is how ripgrep finds core.excludesFile in a git
// configuration file (parse_excludes_file in crates/ignore/src/gitignore.rs):
// a line of any section, its key in any case.
var excludesFileLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)^[ \t]*excludesfile[ \t]*=[ \t]*(.+?)[ \t]*$`)
})

// globalUnignores reports whether git's global excludes file, which rg
// reads in every repository, whitelists; worked out once per Check. rg
// takes core.excludesFile from the first of $GIT_CONFIG_GLOBAL,
// ~/.gitconfig, $XDG_CONFIG_HOME/git/config and the system's
// configuration that sets it, else $XDG_CONFIG_HOME/git/ignore; here
// every one of them is read, whichever rg's version would pick, and a
// configuration file that is there but is no small regular file counts as
// whitelisting.
func (r *resolver) globalUnignores() bool {
	if r.global != nil {
		return *r.global
	}
	v := r.globalExcludes()
	r.global = &v
	return v
}

func (r *resolver) globalExcludes() bool {
	xdg, _ := getenv(r.o.Environ, "XDG_CONFIG_HOME")
	if xdg == "" && r.o.Home != "" {
		xdg = path.Join(r.o.Home, ".config")
	}
	var configs, excludes []string
	if v, _ := getenv(r.o.Environ, "GIT_CONFIG_GLOBAL"); v != "" {
		configs = append(configs, r.lexical(v))
	}
	if r.o.Home != "" {
		configs = append(configs, path.Join(r.o.Home, ".gitconfig"))
	}
	if xdg != "" {
		configs = append(configs, path.Join(xdg, "git", "config"))
		excludes = append(excludes, path.Join(xdg, "git", "ignore"))
	}
	if v, _ := getenv(r.o.Environ, "GIT_CONFIG_SYSTEM"); v != "" {
		configs = append(configs, r.lexical(v))
	}
	configs = append(configs, "/etc/gitconfig")
	for _, c := range configs {
		data, err := fsutil.ReadRegular(c, 1<<20)
		if err != nil {
			if absent(err) {
				continue
			}
			return true
		}
		for _, m := range excludesFileLine().FindAllSubmatch(data, -1) {
			v := string(m[1])
			excludes = append(excludes, r.lexical(v), r.lexical(strings.Trim(v, `"`)))
		}
	}
	for _, e := range excludes {
		if fileWhitelists(e) {
			return true
		}
	}
	return false
}
