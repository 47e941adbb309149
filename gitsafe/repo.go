package gitsafe

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

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

// Trusted lists, for the repository git finds from dir, the files and
// directories whose contents git trusts without a command naming them:
// the configuration files ([repository.configFiles]), the hooks
// directories of the common and the worktree git directory and of each
// submodule under modules/, and what the configuration names that git
// reads or runs from: the files include.path and includeIf.*.path name
// (followed, as git does, up to maxIncludes) and the directory
// core.hooksPath names. It reads the file system only (git is not run:
// judging must not run a git found on PATH); a configuration file outside
// the plain subset [parseSimple] reads that may name such a file is an
// error. Outside a repository it is empty. home expands "~/".
func Trusted(dir, home string) ([]string, error) {
	r, err := discover(dir, "", "", "")
	if errors.Is(err, errNoRepo) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	configs, err := r.configFiles()
	if err != nil {
		return configs, err
	}
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, base := range []string{r.commonDir, r.gitDir} {
		add(filepath.Join(base, "hooks"))
	}
	for i := 0; i < len(configs); i++ {
		c := configs[i]
		add(c)
		if i > maxModuleFiles+maxIncludes {
			return out, errors.New("too many configuration files for " + r.gitDir)
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
			low := bytes.ToLower(data)
			if bytes.Contains(low, []byte("include")) || bytes.Contains(low, []byte("hookspath")) {
				return out, errors.New(c + " may name files git reads in a form read only by git")
			}
			continue
		}
		for _, e := range entries {
			v := e.value
			if strings.HasPrefix(v, "~/") && home != "" {
				v = filepath.Join(home, v[2:])
			}
			switch {
			case isInclude(e.key) && v != "":
				if t := absJoin(filepath.Dir(c), v); !slices.Contains(configs, t) {
					configs = append(configs, t)
				}
			case e.key == "core.hookspath" && v != "":
				base := r.top
				if base == "" {
					base = r.gitDir
				}
				add(absJoin(base, v))
			}
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
