package gitsafe

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// repository is what discovery found: the git directory of the working
// tree, the common directory it shares with other worktrees, and the top
// of the working tree (empty for a bare repository).
type repository struct {
	gitDir, commonDir, top string
}

// errNoRepo means discovery reached the root without finding a repository.
var errNoRepo = errors.New("not in a git repository")

// discover finds the repository as git does from dir: $GIT_DIR (or
// --git-dir), else upwards from dir, at each level a ".git" directory, a
// ".git" file holding "gitdir: PATH", or the directory itself shaped like
// a bare repository. git with safe.bareRepository=explicit refuses the
// last, but its configuration is judged all the same. A ".git" that is a
// FIFO, device or socket is an error: git would block on it.
func discover(dir, gitDirEnv, commonEnv string) (repository, error) {
	if gitDirEnv != "" {
		g := absJoin(dir, gitDirEnv)
		return repository{gitDir: g, commonDir: commonDir(g, absJoin(dir, commonEnv)), top: dir}, nil
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		dotgit := filepath.Join(d, ".git")
		fi, err := os.Lstat(dotgit)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			fi, err = os.Stat(dotgit)
		}
		switch {
		case err == nil && fi.IsDir() && looksLikeGitDir(dotgit):
			return repository{gitDir: dotgit, commonDir: commonDir(dotgit, ""), top: d}, nil
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
			return repository{gitDir: g, commonDir: commonDir(g, ""), top: d}, nil
		case err == nil && !fi.IsDir():
			return repository{}, &fs.PathError{Op: "read", Path: dotgit, Err: fsutil.ErrNotRegular}
		}
		if looksLikeGitDir(d) {
			return repository{gitDir: d, commonDir: commonDir(d, "")}, nil
		}
		if d == filepath.Dir(d) {
			return repository{}, errNoRepo
		}
	}
}

// looksLikeGitDir is git's is_git_directory: a HEAD, and objects and refs
// directories (in the common directory of a linked worktree).
func looksLikeGitDir(d string) bool {
	if _, err := os.Lstat(filepath.Join(d, "HEAD")); err != nil {
		return false
	}
	c := commonDir(d, "")
	return isDir(filepath.Join(c, "objects")) && isDir(filepath.Join(c, "refs"))
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
