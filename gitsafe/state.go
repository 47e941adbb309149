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
)

// StateDirs are the directories of the repository that holds dir whose
// files git trusts or runs: its git directory and common directory,
// wherever they are (a ".git" file's "gitdir:", a separate git
// directory), and its hooks directory, where core.hooksPath moves it
// ("tools/hooks"): a write into any of them changes what the next git
// command runs. None when dir is in no repository. environ is the
// environment git's configuration is read with (the user's global
// hooksPath counts); the hardening overrides are not added, since they
// set core.hooksPath themselves.
func StateDirs(dir string, environ []string) ([]string, error) {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, nil
		}
		dir = parent
	}
	repo, err := discover(dir, "", "", "")
	if errors.Is(err, errNoRepo) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := []string{repo.gitDir}
	if repo.commonDir != repo.gitDir {
		out = append(out, repo.commonDir)
	}
	hooks, err := hooksDir(repo, environ)
	if err != nil {
		return out, err
	}
	return append(out, hooks), nil
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
	var env []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "GIT_") || name == "GIT_CONFIG_GLOBAL" || name == "GIT_CONFIG_SYSTEM" || name == "GIT_CONFIG_NOSYSTEM" {
			env = append(env, kv)
		}
	}
	c.Env = append(env, "GIT_OPTIONAL_LOCKS=0")
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
