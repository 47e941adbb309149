package gitsafe

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/internal/fsutil"
)

// repository is what discovery found: the git directory of the working
// tree, the common directory it shares with other worktrees, and the top
// of the working tree (empty for a bare repository). undecided lists the
// directories met on the way up that discovery could not tell git would
// take or pass by (an error reading HEAD): their configuration is judged
// too, so that a doubt only asks more.
type repository struct {
	gitDir, commonDir, top string
	undecided              []string
}

// errNoRepo means discovery reached the root without finding a repository.
var errNoRepo = errors.New("not in a git repository")

// discover finds the repository as git does from dir: $GIT_DIR (or
// --git-dir), else upwards from dir (symbolic links resolved, as git's
// getcwd has it), at each level a ".git" directory, a ".git" file holding
// "gitdir: PATH", or the directory itself shaped like a bare repository,
// each as git's is_git_directory judges it (see [gitDirVerdict]); a
// candidate git rejects is passed by, and the walk goes on upwards. git
// with safe.bareRepository=explicit refuses a bare repository found so,
// but its configuration is judged all the same. A ".git" that is a FIFO,
// device or socket is an error: git would block on it. objectsEnv is
// $GIT_OBJECT_DIRECTORY, which git checks in place of objects/.
func discover(dir, gitDirEnv, commonEnv, objectsEnv string) (repository, error) {
	commonEnv, objectsEnv = physical(dir, commonEnv), physical(dir, objectsEnv)
	if gitDirEnv != "" {
		g := physical(dir, gitDirEnv)
		return repository{gitDir: g, commonDir: commonDir(g, commonEnv), top: physical(dir, ".")}, nil
	}
	dir = physical(dir, ".")
	var undecided []string
	// take judges one candidate: found when git takes it; an undecided
	// one is remembered and passed by.
	take := func(d string) (bool, error) {
		v, err := gitDirVerdict(d, commonEnv, objectsEnv)
		if err != nil {
			return false, err
		}
		if v == maybeRepo {
			undecided = append(undecided, d)
		}
		return v == isRepo, nil
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		dotgit := filepath.Join(d, ".git")
		fi, err := os.Lstat(dotgit)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			fi, err = os.Stat(dotgit)
		}
		switch {
		case err == nil && fi.IsDir():
			ok, err := take(dotgit)
			if err != nil {
				return repository{}, err
			}
			if ok {
				return repository{gitDir: dotgit, commonDir: commonDir(dotgit, commonEnv), top: d, undecided: undecided}, nil
			}
		case err == nil && fi.Mode().IsRegular():
			data, err := fsutil.ReadRegular(dotgit, 4096)
			if err != nil {
				return repository{}, err
			}
			target, ok := strings.CutPrefix(strings.TrimRight(string(data), "\r\n"), "gitdir: ")
			if !ok || target == "" {
				return repository{}, errors.New(dotgit + " is a file but not a \"gitdir: PATH\" link")
			}
			g := absJoin(d, target)
			return repository{gitDir: g, commonDir: commonDir(g, commonEnv), top: d, undecided: undecided}, nil
		case err == nil:
			return repository{}, &fs.PathError{Op: "read", Path: dotgit, Err: fsutil.ErrNotRegular}
		}
		ok, err := take(d)
		if err != nil {
			return repository{}, err
		}
		if ok {
			return repository{gitDir: d, commonDir: commonDir(d, commonEnv), undecided: undecided}, nil
		}
		if d == filepath.Dir(d) {
			if len(undecided) > 0 {
				// No repository, but some candidates could not be told
				// apart from one: judge them as the repository.
				return repository{gitDir: undecided[0], commonDir: commonDir(undecided[0], commonEnv), undecided: undecided[1:]}, nil
			}
			return repository{}, errNoRepo
		}
	}
}

// verdict is what git's is_git_directory would say of a directory.
type verdict int

const (
	notRepo   verdict = iota
	isRepo            // git takes it
	maybeRepo         // could not be told: judged as well, and passed by
)

// gitDirVerdict is git's is_git_directory (setup.c) on d: HEAD valid as
// validate_headref has it, and objects ($GIT_OBJECT_DIRECTORY) and refs in
// the common directory searchable (access X_OK: a directory, or an
// executable file). HEAD is valid when it is a symbolic link whose target
// starts with "refs/", or a file whose first 255 bytes start with "ref:",
// optional white space and "refs/", or with 40 hexadecimal digits (an
// object id). A HEAD or commondir that is a FIFO or device is an error:
// git would block on it or read a device.
func gitDirVerdict(d, commonEnv, objectsEnv string) (verdict, error) {
	v, err := validHead(filepath.Join(d, "HEAD"))
	if v != isRepo || err != nil {
		return v, err
	}
	c := commonEnv
	if c == "" {
		p := filepath.Join(d, "commondir")
		if _, err := os.Stat(p); err == nil {
			_, err := fsutil.ReadRegular(p, 4096)
			switch {
			case errors.Is(err, fsutil.ErrNotRegular):
				return notRepo, err // git would block reading it
			case err != nil:
				return maybeRepo, nil
			}
		}
		c = commonDir(d, "")
	}
	objects := filepath.Join(c, "objects")
	if objectsEnv != "" {
		objects = objectsEnv
	}
	if unix.Access(objects, unix.X_OK) != nil || unix.Access(filepath.Join(c, "refs"), unix.X_OK) != nil {
		return notRepo, nil
	}
	return isRepo, nil
}

// validHead is git's validate_headref on the path of a HEAD.
func validHead(p string) (verdict, error) {
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return notRepo, nil
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(p)
		if err != nil {
			return maybeRepo, nil
		}
		if strings.HasPrefix(target, "refs/") {
			return isRepo, nil
		}
		return notRepo, nil
	case fi.IsDir():
		return notRepo, nil // git's read of it fails
	case !fi.Mode().IsRegular():
		return notRepo, &fs.PathError{Op: "read", Path: p, Err: fsutil.ErrNotRegular}
	}
	f, err := fsutil.OpenRegular(p)
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist) {
		return notRepo, nil // git cannot open it either
	}
	if err != nil {
		return maybeRepo, nil
	}
	defer f.Close()
	buf := make([]byte, 255)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return maybeRepo, nil
	}
	head := string(buf[:n])
	if ref, ok := strings.CutPrefix(head, "ref:"); ok && strings.HasPrefix(strings.TrimLeft(ref, " \t\n\r"), "refs/") {
		return isRepo, nil
	}
	if len(head) >= 40 && isHex(head[:40]) {
		return isRepo, nil
	}
	return notRepo, nil
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// commonDir is $GIT_COMMON_DIR, else what gitDir/commondir names
// (relative to gitDir), else gitDir itself.
func commonDir(gitDir, env string) string {
	if env != "" {
		return env
	}
	data, err := fsutil.ReadRegular(filepath.Join(gitDir, "commondir"), 4096)
	if err != nil {
		return gitDir
	}
	c := strings.TrimRight(string(data), "\r\n")
	if c == "" {
		return gitDir
	}
	return absJoin(gitDir, c)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// physical is p (relative to dir) as the kernel resolves it: symbolic
// links followed, ".." taken after them ("link/.." is the parent of the
// link's target, not dir), by fsutil.Resolve.
func physical(dir, p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = dir + string(filepath.Separator) + p
	}
	return fsutil.Resolve(p)
}

// rawJoin joins a relative p to dir without cleaning: ".." after a
// symbolic link is left for [physical] to resolve.
func rawJoin(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return dir + string(filepath.Separator) + p
}

func absJoin(dir, p string) string {
	if p == "" {
		return ""
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// maxModuleFiles and maxModuleDepth bound the walk of .git/modules: past
// them the command asks.
const (
	maxModuleFiles = 256
	maxModuleDepth = 8
)

// configFiles lists the configuration files of the repository that git
// reads or that a command recursing into submodules reads: config and
// config.worktree of the common and the worktree git directory, and those
// of every submodule under modules/. Files that do not exist are left out.
// It fails when the walk of modules/ passes its bounds.
func (r repository) configFiles() ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	add(filepath.Join(r.commonDir, "config"))
	add(filepath.Join(r.commonDir, "config.worktree"))
	add(filepath.Join(r.gitDir, "config"))
	add(filepath.Join(r.gitDir, "config.worktree"))
	for _, base := range []string{r.commonDir, r.gitDir} {
		mods := filepath.Join(base, "modules")
		if !isDir(mods) || seen[mods] {
			continue
		}
		seen[mods] = true
		n := 0
		err := filepath.WalkDir(mods, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			n++
			if n > maxModuleFiles*8 {
				return errors.New("too many files under " + mods)
			}
			if d.IsDir() {
				if strings.Count(p[len(mods):], "/") > maxModuleDepth {
					return errors.New("submodules nested too deep under " + mods)
				}
				switch d.Name() {
				case "objects", "refs", "logs", "hooks", "info":
					return fs.SkipDir
				}
				return nil
			}
			if d.Name() == "config" || d.Name() == "config.worktree" {
				add(p)
			}
			if len(out) > maxModuleFiles {
				return errors.New("too many submodule configuration files under " + mods)
			}
			return nil
		})
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// Trusted lists the files and directories whose contents a git command
// trusts without naming them: argv is the command ("git", "-C", "sub",
// "status"; nil for a program that may run git where it runs), dir the
// directory it runs in and environ its environment (GIT_DIR, HOME,
// XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL ...). They are, for the repository
// git finds as [Vet] finds it, its configuration files
// ([repository.configFiles]), the hooks directories of the common and
// the worktree git directory and of each submodule under modules/, and
// the same of every submodule checked out with a git directory of its
// own (the index's gitlinks, read in process: "sub/.git" a directory, or
// a "gitdir:" file naming any place), which git status enters; in any
// directory, inside a repository or not, the person's global and system
// configuration files ([globalFiles]); and what any of those names that
// git reads or runs from: the files include.path and includeIf.*.path
// name (followed, as git does, up to maxIncludes, whatever their
// condition), the directory core.hooksPath names and the files a
// program key names by path ([programPaths]: a core.fsmonitor script).
// It reads the file system only (git is not run: judging must not run a
// git found on PATH). Of a configuration file outside the plain subset
// [parseSimple] reads, every word that may be a path is listed
// ([pathWords]); one that may include a file or name a hooks or
// template directory is an error, and so is an index it cannot read.
func Trusted(argv []string, dir string, environ []string) ([]string, error) {
	inv := invocation{dir: dir}
	if len(argv) > 0 {
		inv, _ = parseInvocation(argv, dir)
	}
	var out, configs []string
	// repoOf is the repository a configuration file belongs to, whose
	// work tree its relative paths are taken from: git runs hooks and
	// programs there.
	repoOf := map[string]repository{}
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	r, err := discover(inv.dir, firstNonEmpty(inv.gitDir, getenv(environ, "GIT_DIR")),
		getenv(environ, "GIT_COMMON_DIR"), getenv(environ, "GIT_OBJECT_DIRECTORY"))
	switch {
	case errors.Is(err, errNoRepo):
	case err != nil:
		return nil, err
	default:
		repos, err := checkedOut(r, environ, 0)
		if err != nil {
			return nil, err
		}
		for _, rr := range repos {
			files, err := rr.configFiles()
			if err != nil {
				return out, err
			}
			for _, base := range []string{rr.commonDir, rr.gitDir} {
				add(filepath.Join(base, "hooks"))
			}
			for _, f := range files {
				if !slices.Contains(configs, f) {
					configs = append(configs, f)
					repoOf[f] = rr
				}
			}
		}
	}
	for _, f := range globalFiles(environ, inv.dir) {
		if !slices.Contains(configs, f) {
			configs = append(configs, f)
			repoOf[f] = r
		}
	}
	home := getenv(environ, "HOME")
	// A relative core.hooksPath is taken from the top of the working
	// tree hooks run in, which --work-tree, GIT_WORK_TREE or
	// core.worktree may move: each is a base ("GIT_DIR=../o/.git
	// GIT_WORK_TREE=../o git commit" ran ../o/hk/pre-commit, bound as
	// ./hk).
	var relHooks []string
	var tildeErr error
	tops := []string{}
	if wt := workTree(argv, environ, inv.dir); wt != "" {
		tops = append(tops, wt)
	}
	// take lists what one entry names, from a file of repository cr in
	// directory base.
	take := func(e entry, cr repository, base string) {
		key := strings.ToLower(e.key)
		v, err := expandHome(e.value, home)
		if err != nil {
			tildeErr = err
			return
		}
		if progs, ok := programPaths(key, e.value, home, &cr); ok {
			for _, p := range progs {
				add(filepath.Clean(p))
				if key == "init.templatedir" {
					// The hooks a new repository (git clone, a
					// submodule's) gets, and runs at its checkout.
					add(filepath.Join(p, "hooks"))
				}
			}
			return
		}
		switch {
		case isInclude(key) && v != "":
			if t := absJoin(base, v); !slices.Contains(configs, t) {
				configs = append(configs, t)
				repoOf[t] = cr
			}
		case key == "core.hookspath" && v != "":
			top := cr.top
			if top == "" {
				top = cr.gitDir
			}
			if top != "" || filepath.IsAbs(v) {
				add(absJoin(top, v))
			}
			if !filepath.IsAbs(v) {
				relHooks = append(relHooks, v)
			}
		case key == "core.worktree" && v != "":
			tops = append(tops, physical(base, v))
		}
	}
	// The command's own configuration ("git -c core.hooksPath=DIR",
	// GIT_CONFIG_KEY_n) names files as a file's does: a hook made in
	// the directory "-c core.hooksPath" named ran after the approval.
	for _, kv := range commandConfig(argv, environ) {
		k, v, _ := strings.Cut(kv, "=")
		take(entry{k, v}, r, inv.dir)
	}
	for i := 0; i < len(configs); i++ {
		c := configs[i]
		add(c)
		if i > maxModuleFiles+maxIncludes {
			return out, fmt.Errorf("more than %d configuration files", maxModuleFiles+maxIncludes)
		}
		// A submodule's own hooks run in its checkout.
		if strings.Contains(filepath.ToSlash(c), "/modules/") {
			add(filepath.Join(filepath.Dir(c), "hooks"))
		}
		data, err := fsutil.ReadRegular(c, maxConfigSize)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return out, err
		}
		entries, ok := parseSimple(data)
		if !ok {
			// Outside the plain subset, read without git: an include
			// or hooks directory cannot be followed, and no approval
			// holds; a program is bound through every word that may
			// be a path (a quoted alias is common in a global file).
			low := bytes.ToLower(data)
			if bytes.Contains(low, []byte("include")) || bytes.Contains(low, []byte("hookspath")) || bytes.Contains(low, []byte("templatedir")) {
				return out, errors.New(c + " may name files git reads in a form read only by git")
			}
			words := pathWords(data, home, repoOf[c].top)
			if len(words) > maxPathWords {
				return out, errors.New(c + " names too many paths in a form read only by git")
			}
			for _, w := range words {
				add(w)
			}
			continue
		}
		for _, e := range entries {
			take(e, repoOf[c], filepath.Dir(c))
		}
	}
	if tildeErr != nil {
		return out, tildeErr
	}
	for _, v := range relHooks {
		for _, top := range tops {
			add(absJoin(top, v))
		}
	}
	return out, nil
}

// workTree is the working tree a git command is told to use, by its
// --work-tree option or GIT_WORK_TREE (relative to dir), physical; ""
// when neither says.
func workTree(argv, environ []string, dir string) string {
	wt := getenv(environ, "GIT_WORK_TREE")
	if len(argv) > 0 {
		opts, _, _ := allowlist.ReadGit(argv)
		for _, o := range opts {
			if o.Name == "--work-tree" && o.Value != "" {
				wt = o.Value
			}
		}
	}
	return physical(dir, wt)
}

// commandConfig is the configuration a git command is given in command
// scope, KEY=VALUE: its "-c" options and the GIT_CONFIG_COUNT,
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n of environ.
func commandConfig(argv, environ []string) []string {
	var out []string
	n, _ := strconv.Atoi(getenv(environ, "GIT_CONFIG_COUNT"))
	for i := 0; i < n && i < 1000; i++ {
		if k := getenv(environ, fmt.Sprintf("GIT_CONFIG_KEY_%d", i)); k != "" {
			out = append(out, k+"="+getenv(environ, fmt.Sprintf("GIT_CONFIG_VALUE_%d", i)))
		}
	}
	if len(argv) > 0 {
		opts, _, _ := allowlist.ReadGit(argv)
		for _, o := range opts {
			if o.Name == "-c" {
				out = append(out, o.Value)
			}
		}
	}
	return out
}

// maxPathWords bounds the paths [pathWords] may bind from one file.
const maxPathWords = 64

// pathWords are the words of a configuration file that may name a file
// a program key runs, over-collected: each word (split at blanks,
// quotes, backslashes and shell punctuation) that starts with "/" or
// "~/", or holds a "/" and is not a URL, relative ones from top
// (dropped when there is none).
func pathWords(data []byte, home, top string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(string(data), func(r rune) bool {
		return r <= ' ' || strings.ContainsRune("\"'\\=;#`$(){}|&<>,!", r)
	}) {
		switch {
		case strings.Contains(w, "://"):
		case strings.HasPrefix(w, "~/") && home != "":
			out = append(out, filepath.Join(home, w[2:]))
		case filepath.IsAbs(w):
			out = append(out, filepath.Clean(w))
		case strings.Contains(w, "/") && top != "":
			out = append(out, filepath.Join(top, w))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// globalFiles are the configuration files every git command reads
// whatever its repository, as git finds them in environ: the global one
// ($GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config, or
// ~/.config/git/config, and ~/.gitconfig) and the system one
// ($GIT_CONFIG_SYSTEM or /etc/gitconfig, unless $GIT_CONFIG_NOSYSTEM),
// whether they exist yet or not, relative ones from dir.
func globalFiles(environ []string, dir string) []string {
	home := getenv(environ, "HOME")
	var files []string
	if g := getenv(environ, "GIT_CONFIG_GLOBAL"); g != "" {
		files = append(files, g)
	} else {
		xdg := getenv(environ, "XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	if getenv(environ, "GIT_CONFIG_NOSYSTEM") == "" {
		files = append(files, firstNonEmpty(getenv(environ, "GIT_CONFIG_SYSTEM"), "/etc/gitconfig"))
	}
	var out []string
	for _, f := range files {
		if f != "/dev/null" {
			// A relative one ("HOME=../h git status") is taken
			// from where git runs.
			out = append(out, absJoin(dir, f))
		}
	}
	return out
}

// checkedOut is r and, depth first, every submodule checked out in its
// working tree with a git directory of its own, as git status enters
// them: the gitlinks of its index, read in process (an index this
// reader does not speak is an error), up to maxSubmoduleDepth.
func checkedOut(r repository, environ []string, depth int) ([]repository, error) {
	out := []repository{r}
	if r.top == "" {
		return out, nil
	}
	// The index's object format is the configuration's: read in
	// process only (objectFormat runs git for a file outside the plain
	// subset that may set it).
	if data, err := fsutil.ReadRegular(filepath.Join(r.commonDir, "config"), maxConfigSize); err == nil {
		if _, ok := parseSimple(data); !ok && mayNameFormat(data) {
			return out, errors.New(r.commonDir + "/config names the object format in a form read only by git, so its submodules are not known")
		}
	}
	links, known := readGitlinks(r, environ)
	if !known {
		return out, errors.New("the index of " + r.gitDir + " is in a form agentgate does not read, so its submodules are not known")
	}
	if len(links) > maxGitlinks {
		return out, fmt.Errorf("more than %d submodules in %s", maxGitlinks, r.top)
	}
	for _, p := range links {
		sub := filepath.Join(r.top, p)
		if _, err := os.Lstat(filepath.Join(sub, ".git")); err != nil {
			continue // not checked out
		}
		if depth >= maxSubmoduleDepth {
			return out, fmt.Errorf("submodule %s is nested more than %d deep", sub, maxSubmoduleDepth)
		}
		nested, err := discover(sub, "", "", "")
		if err != nil {
			return out, fmt.Errorf("submodule %s: %w", sub, err)
		}
		if nested.top == "" || fsutil.Resolve(nested.top) != fsutil.Resolve(sub) {
			return out, fmt.Errorf("submodule %s: its git directory cannot be read as git would read it", sub)
		}
		more, err := checkedOut(nested, nil, depth+1)
		out = append(out, more...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// WorkTree is the top of the work tree git finds from dir, as git
// discovers it; ok is false outside a repository (or in a bare one),
// where "git diff A B" compares A and B as files, as --no-index does.
func WorkTree(dir string) (top string, ok bool) {
	r, err := discover(dir, "", "", "")
	if err != nil || r.top == "" {
		return "", false
	}
	return r.top, true
}
