package gitsafe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// GitState are the directories and files whose contents git trusts or
// runs, as [StateDirs] finds them: a write into any of them changes what
// the next git command runs.
type GitState []string

// Holds reports the directory or file of s that p is or lies under.
func (s GitState) Holds(p string) (string, bool) {
	for _, d := range s {
		if d != "" && fsutil.Within(p, d) {
			return d, true
		}
	}
	return "", false
}

// StateDirs is the [GitState] seen from each of dirs, each repository
// read once however many of dirs lie in it: the git directory and common
// directory of the repository that holds a dir, wherever they are (a
// ".git" file's "gitdir:", a separate git directory), its hooks
// directory, where core.hooksPath moves it ("tools/hooks"), and
// [configPaths] (the configuration files, included ones, global hooks).
// environ is the environment git's configuration is read with (the
// user's global hooksPath counts); the hardening overrides are not added,
// since they set core.hooksPath themselves.
func StateDirs(dirs []string, environ []string) (GitState, error) {
	var out GitState
	seen := map[string]bool{}
	for _, dir := range dirs {
		more, key, err := stateOf(dir, environ, seen)
		if err != nil {
			return out, err
		}
		seen[key] = true
		out = append(out, more...)
	}
	return out, nil
}

// stateOf is [StateDirs] for one dir; key names its repository ("" for
// none), and one already in seen is not read again.
func stateOf(dir string, environ []string, seen map[string]bool) (state []string, key string, err error) {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, "", nil
		}
		dir = parent
	}
	repo, err := discover(dir, "", "", "")
	if errors.Is(err, errNoRepo) {
		if seen[""] {
			return nil, "", nil
		}
		// Outside a repository the person's global configuration still
		// names files and a hooks directory every repository uses.
		state, err := configPaths(dir, nil, environ)
		return state, "", err
	}
	if err != nil {
		return nil, "", err
	}
	if seen[repo.gitDir] {
		return nil, repo.gitDir, nil
	}
	state = []string{repo.gitDir}
	if repo.commonDir != repo.gitDir {
		state = append(state, repo.commonDir)
	}
	hooks, err := hooksDir(repo, environ)
	if err != nil {
		return state, repo.gitDir, err
	}
	state = append(state, hooks)
	more, err := configPaths(dir, &repo, environ)
	return append(state, more...), repo.gitDir, err
}

// configPaths are the files git reads its configuration from, seen from
// dir (the repository's, the person's global and included ones, as git
// lists them), the files include.path and includeIf.*.path name whether
// or not they exist yet (git skips a missing one, so the agent could
// create it: a red team's ~/.gitconfig.local set core.fsmonitor), and the
// hooks directories any scope's core.hooksPath names absolutely (the
// global one is every other repository's).
func configPaths(dir string, repo *repository, environ []string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	var args []string
	if repo != nil {
		args = append(args, "--git-dir="+repo.gitDir)
	}
	c := exec.CommandContext(ctx, "git", append(args, "config", "--list", "--show-origin", "--includes", "-z")...)
	c.Dir = dir
	c.Env = append(gitReadEnv(environ), "GIT_OPTIONAL_LOCKS=0")
	c.WaitDelay = time.Second
	out, err := c.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("git config did not finish in %v", Timeout)
	}
	if err != nil {
		// Exit 1 is an empty list; anything else is not known.
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			return nil, fmt.Errorf("cannot list git's configuration files: %v", err)
		}
	}
	home := getenv(environ, "HOME")
	var paths []string
	recs := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(recs); i += 2 {
		origin, kv := string(recs[i]), string(recs[i+1])
		file, ok := strings.CutPrefix(origin, "file:")
		if !ok {
			continue // command line, a blob, standard input
		}
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		paths = append(paths, physical(dir, file))
		key, value, _ := strings.Cut(kv, "\n")
		key = strings.ToLower(key)
		if progs, ok := programPaths(key, value, home, repo); ok {
			// A program or directory git runs or copies from, named
			// by its path: writing it runs code at the next git
			// command (core.fsmonitor, core.sshCommand, a filter's
			// clean, init.templateDir's hooks).
			for _, p := range progs {
				paths = append(paths, physical(dir, p))
			}
			continue
		}
		isInclude := key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path")
		if !isInclude && key != "core.hookspath" {
			continue
		}
		switch {
		case strings.HasPrefix(value, "~/") && home != "":
			value = filepath.Join(home, value[2:])
		case filepath.IsAbs(value):
		case isInclude && value != "":
			value = filepath.Join(filepath.Dir(file), value)
		default:
			continue // a relative hooksPath is the repository's own: hooksDir
		}
		paths = append(paths, physical(dir, value))
	}
	return paths, nil
}

// gitReadEnv is the environment git reads the person's configuration
// with: environ without the variables that move the repository (the
// repository is named), and without the hardening overrides, which set
// core.hooksPath themselves.
func gitReadEnv(environ []string) []string {
	var env []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "GIT_") || name == "GIT_CONFIG_GLOBAL" || name == "GIT_CONFIG_SYSTEM" || name == "GIT_CONFIG_NOSYSTEM" {
			env = append(env, kv)
		}
	}
	return env
}

// HooksDir is the hooks directory of the repository that holds dir, as
// git says, physical; "" outside a repository. environ is the
// environment git reads the configuration with.
func HooksDir(dir string, environ []string) (string, error) {
	repo, err := discover(dir, "", "", "")
	if errors.Is(err, errNoRepo) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return hooksDir(repo, environ)
}

// hooksDir is where git runs the repository's hooks from, as git itself
// says (core.hooksPath from any configuration file, relative paths taken
// from the work tree's top, as hooks run there).
func hooksDir(repo repository, environ []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	args := []string{"--git-dir=" + repo.gitDir}
	dir := repo.gitDir
	if repo.top != "" {
		args, dir = append(args, "--work-tree="+repo.top), repo.top
	}
	c := exec.CommandContext(ctx, "git", append(args, "rev-parse", "--path-format=absolute", "--git-path", "hooks")...)
	c.Dir = dir
	c.Env = append(gitReadEnv(environ), "GIT_OPTIONAL_LOCKS=0")
	c.WaitDelay = time.Second
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if ctx.Err() != nil {
		return "", fmt.Errorf("git rev-parse did not finish in %v", Timeout)
	}
	if err != nil {
		return "", fmt.Errorf("cannot ask git where its hooks are: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	p := strings.TrimSpace(string(out))
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("git named its hooks directory %q, not an absolute path", p)
	}
	return physical(dir, p), nil
}

// programKeys are configuration keys whose value is a program git runs (a
// command line) or, for init.templatedir, a directory it copies hooks
// from; "*" stands for a subsection name.
var programKeys = []string{"core.fsmonitor", "core.sshcommand", "core.pager", "core.editor", "core.askpass",
	"sequence.editor", "gpg.program", "gpg.*.program", "credential.helper", "diff.external", "diff.*.textconv",
	"diff.*.command", "filter.*.clean", "filter.*.smudge", "filter.*.process", "merge.*.driver", "pager.*",
	"alias.*", "init.templatedir", "uploadpack.packobjectshook", "core.gitproxy", "credential.*.helper"}

// programPaths are the files a program key's value names: every word of
// its command line that is a path ("!" and quotes dropped; "python3
// scripts/x.py" names scripts/x.py), relative ones from the work tree's
// top, as git runs them there; ok is false for a key not of programKeys.
func programPaths(key, value, home string, repo *repository) (paths []string, ok bool) {
	for _, k := range programKeys {
		star := strings.Index(k, "*")
		if k == key || star >= 0 && strings.HasPrefix(key, k[:star]) && strings.HasSuffix(key, k[star+1:]) && len(key) > len(k)-1 {
			ok = true
			break
		}
	}
	if !ok {
		return nil, false
	}
	words := strings.Fields(strings.TrimPrefix(strings.TrimSpace(value), "!"))
	if key == "init.templatedir" {
		words = []string{strings.TrimSpace(value)}
	}
	for _, w := range words {
		w = strings.Trim(w, "\"'")
		switch {
		case strings.HasPrefix(w, "~/") && home != "":
			paths = append(paths, filepath.Join(home, w[2:]))
		case filepath.IsAbs(w):
			paths = append(paths, w)
		case strings.Contains(w, "/") && repo != nil && repo.top != "":
			paths = append(paths, filepath.Join(repo.top, w))
		}
	}
	return paths, true
}
