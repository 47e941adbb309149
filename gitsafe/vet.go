package gitsafe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/internal/fsutil"
)

// Finding is a reason to ask before running a git command: a key of the
// repository's configuration that is not known to be inert, a credential
// the command would print, or a form that opens a manual.
type Finding struct {
	// Key is the configuration key as git prints it ("diff.x.textconv"),
	// or what else was found ("--help").
	Key string
	// File and Line locate the key; Line is 0 when it could not be told.
	File string
	Line int
	// Why says what the key can do, in plain words.
	Why string
}

func (f Finding) String() string {
	switch {
	case f.File == "":
		return fmt.Sprintf("%s: %s", f.Key, f.Why)
	case f.Line == 0:
		return fmt.Sprintf("%s (%s): %s", f.Key, f.File, f.Why)
	}
	return fmt.Sprintf("%s (%s:%d): %s", f.Key, f.File, f.Line, f.Why)
}

// Timeout bounds each git child Vet starts.
var Timeout = 5 * time.Second

// Limits on what Vet reads: past them the command asks.
const (
	maxConfigSize = 1 << 20
	maxIncludes   = 32
)

// Vet judges one git command that the gate would allow without asking:
// argv is the command ("git", "log", ...), dir the directory it runs in
// and environ its environment. It finds the repository as git does (after
// "git -C DIR", $GIT_DIR, "--git-dir"), reads every configuration file the
// repository controls (config, config.worktree, what include.path and
// includeIf.*.path name, every submodule's) and reports each key that is
// not on the list of inert keys, naming file and line. It reads the files
// without running anything they name: each is read as a regular file
// (never a FIFO or device) and parsed by "git config --file - --no-includes
// --list -z" from standard input, under [Timeout].
//
// Also reported: "--help" and "git help" (they start a manual viewer), a
// remote URL holding a user name or password when the command could print
// it, and any global option Vet does not know. An error means the command
// could not be judged; the caller asks then too. Outside a repository
// there is nothing to find.
func Vet(argv []string, dir string, environ []string) ([]Finding, error) {
	return vet(argv, dir, environ, false)
}

// VetHardened is Vet for a command that will run with [Environ]: the keys
// that Environ overrides in command scope (core.fsmonitor, core.hooksPath,
// core.pager, pager.*, the gpg programs, log.showSignature,
// status.submoduleSummary) cannot start anything then, so they are not
// findings. A repository with husky's core.hooksPath does not ask for
// every git status. Everything else is judged as Vet judges it.
func VetHardened(argv []string, dir string, environ []string) ([]Finding, error) {
	return vet(argv, dir, environ, true)
}

func vet(argv []string, dir string, environ []string, hardened bool) ([]Finding, error) {
	inv, findings := parseInvocation(argv, dir)
	repo, err := discover(inv.dir, firstNonEmpty(inv.gitDir, getenv(environ, "GIT_DIR")),
		getenv(environ, "GIT_COMMON_DIR"), getenv(environ, "GIT_OBJECT_DIRECTORY"))
	if errors.Is(err, errNoRepo) {
		return findings, nil
	}
	if err != nil {
		return findings, err
	}
	files, err := repo.configFiles()
	if err != nil {
		return findings, err
	}
	// A repository without a working tree found by walking up (a bare one
	// planted in the project) is judged strictly: nothing vouches for it.
	if repo.top == "" && firstNonEmpty(inv.gitDir, getenv(environ, "GIT_DIR")) == "" {
		hardened = false
	}
	v := vetter{repo: repo, inv: inv, environ: environ, seen: map[string]bool{}, hardened: hardened}
	for _, f := range files {
		if err := v.file(f, 0); err != nil {
			return append(findings, v.out...), err
		}
	}
	if err := v.undecided(repo); err != nil {
		return append(findings, v.out...), err
	}
	if err := v.trustedIncludes(repo); err != nil {
		return append(findings, v.out...), err
	}
	v.specialFiles(repo)
	v.stateFiles(repo)
	v.alternates(repo)
	if !v.hardened {
		v.hooks(repo)
	}
	if v.inv.sub == "grep" {
		if err := v.trackedLinks(repo); err != nil {
			return append(findings, v.out...), err
		}
		// --recurse-submodules (any abbreviation) greps each
		// submodule's tracked files too, through its own working tree:
		// not judged, so it asks when there is a submodule.
		for _, a := range argv {
			if name, _, _ := strings.Cut(a, "="); len(name) >= 5 && strings.HasPrefix("--recurse-submodules", name) {
				if links, err := gitlinks(repo, environ); err != nil || len(links) > 0 {
					v.out = append(v.out, Finding{Key: "--recurse-submodules",
						Why: "git grep reads the submodules' tracked files too, through working trees that are not judged"})
				}
				break
			}
		}
	}
	if len(v.out) == 0 {
		// Only a repository whose own configuration is inert is asked for
		// its submodules: that runs git in it. A submodule's keys are
		// judged strictly: git runs submodule commands in an environment
		// of their own, and the overrides are not to be relied on there.
		v.hardened = false
		if err := v.submodules(repo, 0); err != nil {
			return append(findings, v.out...), err
		}
	}
	return append(findings, v.out...), nil
}

// undecided judges, strictly, the configuration of each directory met
// on the way up that discovery could not tell git would take: git might
// use it instead.
func (v *vetter) undecided(repo repository) error {
	hardened := v.hardened
	defer func() { v.hardened = hardened }()
	v.hardened = false
	for _, d := range repo.undecided {
		files, err := repository{gitDir: d, commonDir: commonDir(d, "")}.configFiles()
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := v.file(f, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// trustedIncludes judges the files the user's own (global and system)
// configuration includes from inside the project: the including file is
// trusted, but what it names there is the agent's to write
// ([includeIf "gitdir:~/work/"] path = ~/work/proj/.gitconfig).
func (v *vetter) trustedIncludes(repo repository) error {
	if repo.top == "" {
		return nil
	}
	home := getenv(v.environ, "HOME")
	files := globalFiles(v.environ, v.inv.dir)
	seen := map[string]bool{}
	for len(files) > 0 && len(seen) < maxIncludes {
		f := files[0]
		files = files[1:]
		if seen[f] || f == "/dev/null" {
			continue
		}
		seen[f] = true
		data, err := fsutil.ReadRegular(f, maxConfigSize)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("git configuration file %s: %w", f, err)
		}
		if !bytes.Contains(bytes.ToLower(data), []byte("include")) {
			continue // no include: no git child needed
		}
		entries, err := listConfig(data)
		if err != nil {
			return fmt.Errorf("git configuration file %s: %w", f, err)
		}
		for _, e := range entries {
			if !isInclude(strings.ToLower(e.key)) {
				continue
			}
			target, err := expandHome(e.value, home)
			if err != nil {
				return fmt.Errorf("git configuration file %s: %w", f, err)
			}
			target = rawJoin(filepath.Dir(f), target)
			if reaches(target, repo.top) || reaches(target, repo.commonDir) {
				if err := v.file(target, 1); err != nil {
					return err
				}
			} else {
				files = append(files, target) // still the user's: follow it
			}
		}
	}
	return nil
}

// specialFiles reports a FIFO, socket or device where git reads a file
// of its own (HEAD, index, packed-refs, commondir, ...): git would block
// on it, and the command with it.
func (v *vetter) specialFiles(repo repository) {
	for _, p := range []string{
		filepath.Join(repo.gitDir, "HEAD"), filepath.Join(repo.gitDir, "index"), filepath.Join(repo.gitDir, "commondir"),
		filepath.Join(repo.gitDir, "gitdir"), filepath.Join(repo.commonDir, "packed-refs"),
		filepath.Join(repo.commonDir, "info", "exclude"), filepath.Join(repo.commonDir, "info", "attributes"),
		filepath.Join(repo.commonDir, "info", "sparse-checkout"), filepath.Join(repo.commonDir, "shallow"),
	} {
		v.special(p)
	}
	if repo.top != "" {
		// The top-level files every command reads.
		for _, name := range []string{".gitignore", ".gitattributes", ".gitmodules", ".mailmap"} {
			v.special(filepath.Join(repo.top, name))
		}
		// And those of every directory git enters (a red team's FIFO as
		// sub/.gitignore blocked git status, as sub/.gitattributes git
		// diff), in a walk bounded by maxTreeEntries.
		v.treeSpecials(repo.top)
	}
	// The object store: a FIFO as objects/info/commit-graph blocked git
	// log. Its info and pack directories first, then the loose objects,
	// within maxObjectEntries.
	v.objectSpecials(filepath.Join(repo.commonDir, "objects"))
}

// Bounds of the walks for special files: past them, what is left is not
// looked at (a walk of every file on every git command would cost more
// than the hang it prevents; the command's time limit still holds when
// nobody watches).
const (
	maxTreeEntries   = 10000
	maxObjectEntries = 50000
)

// treeSpecials reports a .gitignore or .gitattributes below top that is
// not a regular file, skipping .git and node_modules, within
// maxTreeEntries.
func (v *vetter) treeSpecials(top string) {
	walkEntries([]string{top}, maxTreeEntries, func(dir string, e os.DirEntry) bool {
		name := e.Name()
		if e.IsDir() {
			return name != ".git" && name != "node_modules"
		}
		if (name == ".gitignore" || name == ".gitattributes") && dir != top {
			v.special(filepath.Join(dir, name))
		}
		return false
	})
}

// objectSpecials reports an entry of the object store that is neither a
// directory, a regular file nor a link: git opens what it finds there
// and would block on a FIFO or a device. Its info and pack directories
// come first, within maxObjectEntries.
func (v *vetter) objectSpecials(objects string) {
	walkEntries([]string{filepath.Join(objects, "info"), filepath.Join(objects, "pack"), objects}, maxObjectEntries,
		func(dir string, e os.DirEntry) bool {
			t := e.Type()
			if !t.IsDir() && !t.IsRegular() && t&os.ModeSymlink == 0 {
				p := filepath.Join(dir, e.Name())
				v.out = append(v.out, Finding{Key: rel(objects, p), File: p, Why: "is not a regular file: git would block reading it"})
			}
			return t.IsDir()
		})
}

// walkEntries reads directories breadth first from roots, each once,
// calling visit for every entry (directory entries only: no stat per
// file) until budget entries are seen; visit says whether to enter a
// directory entry.
func walkEntries(roots []string, budget int, visit func(dir string, e os.DirEntry) bool) {
	queue := roots
	seen := map[string]bool{}
	for len(queue) > 0 && budget > 0 {
		dir := queue[0]
		queue = queue[1:]
		if seen[dir] {
			continue
		}
		seen[dir] = true
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if budget--; budget <= 0 {
				break
			}
			if visit(dir, e) && e.IsDir() {
				queue = append(queue, filepath.Join(dir, e.Name()))
			}
		}
	}
}

func (v *vetter) special(p string) {
	fi, err := os.Stat(p)
	if err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		v.out = append(v.out, Finding{Key: filepath.Base(p), File: p, Why: "is not a regular file: git would block reading it"})
	}
}

// alternates reports object directories the repository borrows from
// outside its own tree (objects/info/alternates, http-alternates): git
// log and show would print another repository's contents.
func (v *vetter) alternates(repo repository) {
	objects := filepath.Join(repo.commonDir, "objects")
	for _, name := range []string{"info/alternates", "info/http-alternates"} {
		p := filepath.Join(objects, name)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		data, err := fsutil.ReadRegular(p, 64<<10)
		if err != nil {
			v.out = append(v.out, Finding{Key: name, File: p, Why: "cannot be read as a small regular file: " + err.Error()})
			continue
		}
		for n, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			alt := rawJoin(objects, line)
			if name == "info/http-alternates" || repo.top == "" || !inside(alt, repo.top) && !inside(alt, repo.commonDir) {
				v.out = append(v.out, Finding{Key: name, File: p, Line: n + 1,
					Why: "borrows objects from outside the project (" + line + "): git log and show would print another repository's contents"})
			}
		}
	}
}

// quietHooks are the hooks no command of the read-only catalogue runs:
// they run when git commits, merges, rebases, checks out, pushes,
// receives, applies mail or collects garbage. Any other hook in the
// hooks directory (post-index-change, which git status and diff run when
// they refresh the index; reference-transaction; one git adds later) is
// a finding when the command runs without [Environ]'s core.hooksPath.
var quietHooks = map[string]bool{
	"applypatch-msg": true, "pre-applypatch": true, "post-applypatch": true, "pre-commit": true,
	"pre-merge-commit": true, "prepare-commit-msg": true, "commit-msg": true, "post-commit": true,
	"pre-rebase": true, "post-checkout": true, "post-merge": true, "pre-push": true, "pre-receive": true,
	"update": true, "proc-receive": true, "post-receive": true, "post-update": true, "push-to-checkout": true,
	"pre-auto-gc": true, "post-rewrite": true, "sendemail-validate": true, "fsmonitor-watchman": true,
	"p4-changelist": true, "p4-prepare-changelist": true, "p4-post-changelist": true, "p4-pre-submit": true,
}

// hooks reports each hook of the repository's hooks directory (the
// common directory's: core.hooksPath in its configuration is a finding
// of its own) that git would run, other than [quietHooks]: a command the
// host runs itself has no core.hooksPath override, and "git status" ran
// a planted post-index-change when it refreshed the index.
func (v *vetter) hooks(repo repository) {
	for _, dir := range v.hookDirs(repo) {
		v.hooksIn(dir)
	}
}

// hookDirs are the directories git may run repo's hooks from: its own,
// and any core.hooksPath of the person's global configuration (trusted,
// but what it names is a directory like another: a post-index-change
// made there ran from a host's git status), read in process; one in a
// form only git reads is a finding.
func (v *vetter) hookDirs(repo repository) []string {
	dirs := []string{filepath.Join(repo.commonDir, "hooks")}
	home := getenv(v.environ, "HOME")
	for _, f := range globalFiles(v.environ, repo.top) {
		data, err := fsutil.ReadRegular(f, maxConfigSize)
		if err != nil || !bytes.Contains(bytes.ToLower(data), []byte("hookspath")) {
			continue
		}
		entries, ok := parseSimple(data)
		if !ok {
			v.out = append(v.out, Finding{Key: "core.hookspath", File: f,
				Why: "names a hooks directory in a form agentgate reads only through git"})
			continue
		}
		for _, e := range entries {
			if strings.ToLower(e.key) != "core.hookspath" || e.value == "" {
				continue
			}
			d, err := expandHome(e.value, home)
			if err != nil {
				continue
			}
			base := repo.top
			if base == "" {
				base = repo.gitDir
			}
			dirs = append(dirs, absJoin(base, d))
		}
	}
	return dirs
}

// hooksIn reports the hooks of dir that [vetter.hooks] describes.
func (v *vetter) hooksIn(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if quietHooks[name] || strings.HasSuffix(name, ".sample") {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || unix.Access(p, unix.X_OK) != nil {
			continue // git runs only an executable file
		}
		v.out = append(v.out, Finding{Key: "hooks/" + name, File: p,
			Why: "a hook git may run from this command (git status and diff run post-index-change when they refresh the index), and it runs without agentgate's overrides"})
	}
}

// maxGitlinks bounds the submodules judged per repository, and
// maxSubmoduleDepth how deep submodules of submodules are followed.
const (
	maxGitlinks       = 256
	maxSubmoduleDepth = 3
)

// submodules judges the configuration of every submodule checked out in
// the working tree with a git directory of its own (an old-style
// "sub/.git" directory, or a "gitdir:" file pointing anywhere): git status
// and diff recurse into them and run git there, with their configuration.
// The gitlinks come from the index ("git ls-files --stage"), read with
// the command-scope overrides and under the timeout.
func (v *vetter) submodules(repo repository, depth int) error {
	if repo.top == "" {
		return nil
	}
	paths, err := gitlinks(repo, v.environ)
	if err != nil {
		return err
	}
	for _, p := range paths {
		sub := filepath.Join(repo.top, p)
		if !fsutil.Within(sub, repo.top) {
			continue
		}
		dotgit := filepath.Join(sub, ".git")
		fi, err := os.Lstat(dotgit)
		if err != nil {
			continue // not checked out
		}
		if !fi.IsDir() && !fi.Mode().IsRegular() {
			return fmt.Errorf("submodule %s: %s is not a regular file or directory", p, dotgit)
		}
		// git status recurses through every level: one too deep to judge
		// asks (stopping quietly ran a filter four levels down).
		if depth >= maxSubmoduleDepth {
			return fmt.Errorf("submodule %s is nested more than %d deep, which is not judged", p, maxSubmoduleDepth)
		}
		nested, err := discover(sub, "", "", "")
		if err != nil {
			return fmt.Errorf("submodule %s: %w", p, err)
		}
		// The repository git finds there must be the submodule's own: a
		// .git discovery could not read (an oversized commondir) made it
		// find the superproject, and the submodule went unjudged.
		if len(nested.undecided) > 0 || nested.top == "" || fsutil.Resolve(nested.top) != fsutil.Resolve(sub) {
			return fmt.Errorf("submodule %s: its git directory %s cannot be read as git would read it", p, dotgit)
		}
		// A submodule's core.worktree must name its own checkout:
		// "worktree = ../../.." made the superproject's top its tree,
		// and git diff --submodule=diff read the top's .env by the
		// submodule's index.
		for _, dir := range uniqDirs(nested.gitDir, nested.commonDir) {
			data, err := fsutil.ReadRegular(filepath.Join(dir, "config"), maxConfigSize)
			if err != nil {
				continue
			}
			entries, err := listConfig(data)
			if err != nil {
				return fmt.Errorf("submodule %s: cannot read %s: %v", p, filepath.Join(dir, "config"), err)
			}
			for _, e := range entries {
				if strings.EqualFold(e.key, "core.worktree") && fsutil.Resolve(rawJoin(dir, e.value)) != fsutil.Resolve(sub) {
					v.out = append(v.out, Finding{Key: e.key, File: filepath.Join(dir, "config"),
						Why: "moves a submodule's working tree to " + e.value + ", which is not its checkout"})
					return nil
				}
			}
		}
		files, err := nested.configFiles()
		if err != nil {
			return err
		}
		before := len(v.out)
		for _, f := range files {
			if err := v.file(f, 0); err != nil {
				return err
			}
		}
		// git status and diff run git in the submodule too, which opens
		// its state files: a FIFO there hung git status for good.
		v.specialFiles(nested)
		v.stateFiles(nested)
		v.hooks(nested)
		if len(v.out) == before {
			if err := v.submodules(nested, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxIndexNames bounds [IndexNames].
const maxIndexNames = 200000

// lsFiles runs "git ls-files ARGS" on repo from dir, with the
// command-scope overrides and under the timeout; what names what it
// lists, for the error.
func lsFiles(repo repository, dir string, environ []string, what string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	c := exec.CommandContext(ctx, "git", append([]string{"--git-dir=" + repo.gitDir, "--work-tree=" + repo.top, "ls-files"}, args...)...)
	c.Dir = dir
	c.Env = append(Environ(environ), "GIT_OPTIONAL_LOCKS=0", "GIT_DIR="+repo.gitDir)
	c.WaitDelay = time.Second
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("git ls-files did not finish in %v", Timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot list %s: %v: %s", what, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// gitlinks lists the paths of the submodules (gitlinks) in the index.
func gitlinks(repo repository, environ []string) ([]string, error) {
	entries, err := indexEntries(repo, environ, "the submodules")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range entries {
		if !e.gitlink() {
			continue
		}
		if len(paths) >= maxGitlinks {
			return nil, fmt.Errorf("more than %d submodules", maxGitlinks)
		}
		paths = append(paths, e.name)
	}
	return paths, nil
}

// indexEntries lists the index's entries: read in process where its form
// is one [readIndex] knows, from "git ls-files --stage" otherwise (with
// the command-scope overrides and under the timeout); what names the
// list for an error.
func indexEntries(repo repository, environ []string, what string) ([]indexEntry, error) {
	if entries, known := readIndex(repo, environ); known {
		return entries, nil
	}
	out, err := lsFiles(repo, repo.top, environ, what, "--stage", "-z")
	if err != nil {
		return nil, err
	}
	var entries []indexEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		fields := strings.Fields(string(meta)) // MODE OID STAGE
		if !ok || len(fields) != 3 {
			continue
		}
		m, err := strconv.ParseUint(fields[0], 8, 32)
		if err != nil {
			continue
		}
		entries = append(entries, indexEntry{mode: uint32(m), name: string(p), oid: fields[1]})
	}
	return entries, nil
}

// trackedLinks finds the symbolic links git grep would follow: it reads
// each tracked regular file from the working tree by its path, through
// whatever the path's directories are there now. A directory of tracked
// files replaced by a link to ~/.ssh made "git grep -h ." print
// ~/.ssh/config (git diff and status check the leading directories;
// grep does not).
func (v *vetter) trackedLinks(repo repository) error {
	if repo.top == "" {
		return nil
	}
	entries, err := indexEntries(repo, v.environ, "the index")
	if err != nil {
		return err
	}
	if len(entries) > maxIndexNames {
		return fmt.Errorf("the index holds more than %d names", maxIndexNames)
	}
	dirs := map[string]bool{}
	for _, e := range entries {
		if !e.regular() {
			continue // git grep reads regular files only
		}
		// The file itself git grep does not follow (a tracked file
		// replaced by a link is skipped); its directories it does.
		parts := strings.Split(e.name, "/")
		for i := 1; i < len(parts); i++ {
			rel := strings.Join(parts[:i], "/")
			if dirs[rel] {
				continue
			}
			dirs[rel] = true
			p := filepath.Join(repo.top, rel)
			fi, err := os.Lstat(p)
			if err != nil {
				break // not checked out: git grep skips it
			}
			if fi.Mode()&os.ModeSymlink != 0 {
				v.out = append(v.out, Finding{Key: "working tree", File: p,
					Why: "a directory of tracked files is a symbolic link in the working tree, which git grep follows to read what it points to"})
				return nil
			}
		}
	}
	return nil
}

// invocation is what git's global options say about a command.
type invocation struct {
	dir, gitDir, sub string
}

// parseInvocation reads git's global options with the one list of them
// (allowlist.ReadGit) and the subcommand. An option is judged only when
// gitsafe knows what it does to the repository git reads ("-C",
// "--git-dir", "-c" with an inert key) or that it does nothing to it;
// any other, and a word the list does not know, is a finding.
func parseInvocation(argv []string, dir string) (invocation, []Finding) {
	inv := invocation{dir: dir}
	var out []Finding
	opts, i, why := allowlist.ReadGit(argv)
	for _, o := range opts {
		switch {
		case o.Name == "-C":
			if o.Value != "" {
				inv.dir = rawJoin(inv.dir, o.Value)
			}
		case o.Name == "--git-dir":
			inv.gitDir = rawJoin(inv.dir, o.Value)
		case o.Name == "-c":
			out = append(out, commandLineKey(o.Value)...)
		case inertOptions[o.Name]:
		default:
			out = append(out, Finding{Key: o.Name, Why: "a git option agentgate does not know how to judge"})
		}
	}
	if why != "" {
		out = append(out, Finding{Key: argv[i], Why: "a git option agentgate does not know how to judge (" + why + ")"})
		return inv, out
	}
	if i < len(argv) {
		inv.sub = argv[i]
		i++
	}
	if inv.sub == "help" {
		out = append(out, Finding{Key: "git help", Why: "starts a manual viewer or browser, which git configuration chooses"})
	}
	for _, a := range argv[i:] {
		if a == "--" {
			break
		}
		if a == "--help" {
			out = append(out, Finding{Key: "--help", Why: "starts a manual viewer or browser, which git configuration chooses"})
			break
		}
	}
	return inv, out
}

// inertOptions are git's global options that change nothing about which
// repository, configuration or programs git reads or runs. "git
// --version" prints the version before reading any configuration.
var inertOptions = map[string]bool{
	"--no-pager": true, "-P": true, "--no-replace-objects": true, "--literal-pathspecs": true,
	"--glob-pathspecs": true, "--noglob-pathspecs": true, "--icase-pathspecs": true,
	"--no-optional-locks": true, "--version": true, "--no-lazy-fetch": true, "--no-advice": true,
}

func commandLineKey(kv string) []Finding {
	key, _, _ := strings.Cut(kv, "=")
	if inertNote(key) == "" || strings.EqualFold(key, "core.worktree") {
		return []Finding{{Key: key, File: "-c", Why: explain(key)}}
	}
	return nil
}

type vetter struct {
	repo     repository
	inv      invocation
	environ  []string
	seen     map[string]bool
	out      []Finding
	hardened bool // the command runs with Environ's overrides
}

// file judges one configuration file and, through include.path and
// includeIf.*.path, the files it includes.
func (v *vetter) file(path string, depth int) error {
	if v.seen[path] {
		return nil
	}
	v.seen[path] = true
	if len(v.seen) > maxIncludes+8 {
		return fmt.Errorf("more than %d configuration files to read", maxIncludes)
	}
	data, err := fsutil.ReadRegular(path, maxConfigSize)
	if errors.Is(err, os.ErrNotExist) && depth > 0 {
		return nil // git skips a missing include
	}
	if err != nil {
		return fmt.Errorf("git configuration file %s: %w", path, err)
	}
	entries, err := listConfig(data)
	if err != nil {
		return fmt.Errorf("git configuration file %s: %w", path, err)
	}
	lines := locate(data)
	count := map[string]int{}
	for _, e := range entries {
		lower := strings.ToLower(e.key)
		n := count[lower]
		count[lower]++
		line := 0
		if ls := lines[lower]; n < len(ls) {
			line = ls[n]
		}
		if f, bad := v.judge(e, path); bad {
			f.File, f.Line = path, line
			v.out = append(v.out, f)
		}
		if isInclude(lower) && depth < 10 {
			target, err := expandHome(e.value, getenv(v.environ, "HOME"))
			if err != nil {
				return fmt.Errorf("git configuration file %s: %w", path, err)
			}
			if err := v.file(absJoin(filepath.Dir(path), target), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func isInclude(lowerKey string) bool {
	return lowerKey == "include.path" || strings.HasPrefix(lowerKey, "includeif.") && strings.HasSuffix(lowerKey, ".path")
}

// judge says whether one entry is a finding.
func (v *vetter) judge(e entry, path string) (Finding, bool) {
	note := inertNote(e.key)
	if note == "" && v.hardened && !strings.Contains(filepath.ToSlash(path), "/modules/") {
		// Not in a submodule's configuration (.git/modules/...): git runs
		// submodule commands in an environment of its own, and the
		// overrides are not relied on there.
		note = neutralisedNote(e.key)
	}
	if note == "" {
		return Finding{Key: e.key, Why: explain(e.key)}, true
	}
	lower := strings.ToLower(e.key)
	switch {
	case strings.HasSuffix(lower, ".url") || strings.HasSuffix(lower, ".pushurl"):
		if strings.HasPrefix(e.value, "ext::") || strings.HasPrefix(e.value, "fd::") {
			return Finding{Key: e.key, Why: "a remote helper URL that runs a program"}, true
		}
		if HasCredential(e.value) && printsURLs(v.inv.sub) {
			return Finding{Key: e.key, Why: "holds a user name or password, which git " + v.inv.sub + " can print"}, true
		}
	case lower == "core.worktree":
		// Relative to the git directory holding the file.
		wt := rawJoin(filepath.Dir(path), e.value)
		top := v.repo.top
		if top == "" || !inside(wt, top) {
			return Finding{Key: e.key, Why: "puts the working tree outside the project, where git reads and prints files"}, true
		}
		// The repository's own configuration may only name the top
		// the judgement reads: elsewhere in the project, git grep and
		// blame read a tree no check walked ("core.worktree = ../sub"
		// with a link in sub printed a file outside the project).
		// A submodule's (under .git/modules) names its checkout.
		own := filepath.Dir(path) == v.repo.commonDir || filepath.Dir(path) == v.repo.gitDir
		if own && fsutil.Resolve(wt) != fsutil.Resolve(top) {
			return Finding{Key: e.key, Why: "moves the working tree to " + wt + ", which is not the tree the checks read"}, true
		}
	}
	return Finding{}, false
}

// quietCommands never print a remote's URL.
var quietCommands = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "branch": true, "rev-parse": true,
	"ls-files": true, "blame": true, "shortlog": true, "describe": true, "grep": true, "cat-file": true,
	"ls-tree": true, "rev-list": true, "diff-tree": true, "diff-files": true, "diff-index": true,
	"show-ref": true, "merge-base": true, "name-rev": true, "reflog": true, "whatchanged": true,
}

func printsURLs(sub string) bool { return !quietCommands[sub] }

// HasCredential reports whether a remote URL holds a secret: a password,
// any user name in an http(s) or ftp(s) URL (a token is often written as
// the user name), or a query in an http(s) URL ("?access_token=").
// "git@host:path" and ssh://git@host are not secrets.
func HasCredential(raw string) bool {
	if tokenInQuery(raw) {
		return true
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.User == nil {
		// Unparsable: look for "://user:pass@" by hand.
		scheme, rest, ok := strings.Cut(raw, "://")
		if !ok || scheme == "" {
			return false
		}
		auth, _, ok := strings.Cut(rest, "@")
		return ok && !strings.Contains(auth, "/") && auth != ""
	}
	if _, hasPass := u.User.Password(); hasPass {
		return true
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ftp", "ftps":
		return u.User.Username() != ""
	}
	return false
}

// tokenInQuery reports whether an http(s) URL carries a query, where
// tokens are often put ("?access_token=...").
func tokenInQuery(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.RawQuery != ""
}

// inside reports whether p is under dir ([fsutil.Within]) both as written and as the kernel
// resolves it (symbolic links followed, as written or cleaned first, which
// git does to some paths): "../link" where link points to $HOME is not
// inside the project.
func inside(p, dir string) bool {
	d := resolve(dir)
	return fsutil.Within(filepath.Clean(p), dir) && fsutil.Within(resolve(p), d) && fsutil.Within(resolve(filepath.Clean(p)), d)
}

// reaches reports whether p is under dir in any of those readings: a
// file the project may control.
func reaches(p, dir string) bool {
	d := resolve(dir)
	return fsutil.Within(filepath.Clean(p), dir) || fsutil.Within(resolve(p), d) || fsutil.Within(resolve(filepath.Clean(p)), d)
}

// resolve is p as the kernel resolves it (fsutil.Resolve).
func resolve(p string) string { return fsutil.Resolve(p) }

// entry is one key of a configuration file.
type entry struct{ key, value string }

// listConfig parses a configuration file: one in the plain subset git
// writes in process ([parseSimple]), any other with git itself, from
// standard input, so that no path in it is opened and nothing it names
// runs: git config --list with --no-includes reads nothing else. The child runs in
// "/" with an empty environment but PATH, under Timeout.
func listConfig(data []byte) ([]entry, error) {
	if entries, ok := parseSimple(data); ok {
		return entries, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	c := exec.CommandContext(ctx, "git", "config", "--file", "-", "--no-includes", "--list", "-z")
	c.Dir = "/"
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"HOME=/nonexistent", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.bareRepository", "GIT_CONFIG_VALUE_0=explicit"}
	c.Stdin = bytes.NewReader(data)
	c.WaitDelay = time.Second
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("git config did not finish in %v", Timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("git cannot read it: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var entries []entry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		k, val, _ := strings.Cut(string(rec), "\n")
		entries = append(entries, entry{k, val})
	}
	return entries, nil
}

func getenv(environ []string, name string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], name+"="); ok {
			return v
		}
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// maxStateEntries bounds the entries of the git directory stateFiles
// looks at (objects/ and lfs/ aside); past it, the command asks.
const maxStateEntries = 20000

// stateFiles judges git's state by accept-list, as its configuration is:
// every entry of the git directory (but the object store) must be a
// directory or a regular file with one name, so that no state file is a
// link to a key or another name for one ("git bisect log" printed a
// planted .git/BISECT_LOG linking to ~/.ssh/id_rsa; packed-refs, shallow,
// info/grafts and worktrees/*/locked did the same through git log,
// show-ref and worktree list). Files that name paths (commondir, gitdir)
// must name them inside the repository; a linked worktree's own gitdir
// under worktrees/ names where that worktree is, which git only prints.
func (v *vetter) stateFiles(repo repository) {
	seen := 0
	roots := []string{repo.gitDir}
	// commondir names the shared git directory of a linked worktree,
	// which holds the worktree's own ("main/.git" for
	// "main/.git/worktrees/x"); one naming anything else is planted, and
	// what it names is not walked.
	if p := filepath.Join(repo.gitDir, "commondir"); exists(p) {
		if !inside(repo.gitDir, repo.commonDir) {
			v.out = append(v.out, Finding{Key: "commondir", File: p,
				Why: "names a path outside the repository (" + repo.commonDir + "): git would read another directory's state"})
		} else if repo.commonDir != repo.gitDir {
			roots = append(roots, repo.commonDir)
		}
	}
	for _, root := range roots {
		if root == "" {
			continue
		}
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				v.out = append(v.out, Finding{Key: rel(root, p), File: p, Why: "cannot be read: " + err.Error()})
				return filepath.SkipDir
			}
			if seen++; seen > maxStateEntries {
				v.out = append(v.out, Finding{Key: "git directory", File: root,
					Why: fmt.Sprintf("holds more than %d entries, too many to check", maxStateEntries)})
				return filepath.SkipAll
			}
			name := rel(root, p)
			if d.IsDir() {
				if name == "objects" || name == "lfs" || name == "modules" {
					return filepath.SkipDir // contents, judged apart; submodules judged as repositories
				}
				return nil
			}
			fi, err := os.Lstat(p)
			if err != nil {
				return nil
			}
			if fi.Mode()&os.ModeSocket != 0 {
				// git's fsmonitor daemon listens here; nothing reads it
				// as a file, and open(2) of a socket fails at once.
				return nil
			}
			if why := stateFileProblem(fi, true); why != "" {
				v.out = append(v.out, Finding{Key: name, File: p, Why: why})
			} else if name == "gitdir" && root == repo.gitDir {
				v.pathFile(repo, root, p, name)
			}
			return nil
		})
		if err != nil {
			v.out = append(v.out, Finding{Key: "git directory", File: root, Why: "cannot be walked: " + err.Error()})
		}
		v.objectFiles(root)
	}
}

// objectFiles judges the files of the object directory that git reads
// as text or headers, which the walk of the state skips with the
// objects: info/alternates, info/commit-graphs/commit-graph-chain,
// pack/multi-pack-index ... git quotes what it cannot parse in them ("object
// directory .git/objects/aws_secret_access_key = ... does not exist"), so
// one that is a symbolic link to a key printed the key's lines on every
// git status. A link (or a FIFO, or for info/ a hard link) there asks.
// Pack files may be hard links (git clone --local makes them), so only
// info/ is asked about hard links.
func (v *vetter) objectFiles(root string) {
	objects := filepath.Join(root, "objects")
	if fi, err := os.Lstat(objects); err != nil || !fi.IsDir() {
		return // a link or other file in its place: the state walk reports it
	}
	seen := 0
	for _, dir := range []string{"info", "pack"} {
		top := filepath.Join(objects, dir)
		if _, err := os.Lstat(top); err != nil {
			continue
		}
		err := filepath.WalkDir(top, func(p string, d os.DirEntry, err error) error {
			name := rel(root, p)
			if err != nil {
				v.out = append(v.out, Finding{Key: name, File: p, Why: "cannot be read: " + err.Error()})
				return filepath.SkipDir
			}
			if seen++; seen > maxStateEntries {
				v.out = append(v.out, Finding{Key: "objects", File: objects,
					Why: fmt.Sprintf("holds more than %d entries in info/ and pack/, too many to check", maxStateEntries)})
				return filepath.SkipAll
			}
			if d.IsDir() {
				return nil
			}
			fi, err := os.Lstat(p)
			if err != nil {
				return nil
			}
			if why := stateFileProblem(fi, dir == "info"); why != "" {
				v.out = append(v.out, Finding{Key: name, File: p, Why: why})
			}
			return nil
		})
		if err != nil {
			v.out = append(v.out, Finding{Key: "objects", File: top, Why: "cannot be walked: " + err.Error()})
		}
	}
}

// stateFileProblem says why git's reading of a state file could leak or
// block: a symbolic link (git reads, and prints or quotes, whatever it
// points to), anything but a regular file (a FIFO blocks it), or, where
// hardLinks says so, a file with other names (one may be a secret's).
// It is "" for a file git may read.
func stateFileProblem(fi os.FileInfo, hardLinks bool) string {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return "is a symbolic link: git would read and print whatever it points to"
	case !fi.Mode().IsRegular():
		return "is not a regular file: git would block reading it"
	case hardLinks && fsutil.Links(fi) > 1:
		return "is a hard link: another name for a file that may hold secrets"
	}
	return ""
}

// pathFile judges a state file that names a path: inside the repository
// (its work tree or git directory) only.
func (v *vetter) pathFile(repo repository, root, p, name string) {
	data, err := fsutil.ReadRegular(p, 4<<10)
	if err != nil {
		v.out = append(v.out, Finding{Key: name, File: p, Why: "cannot be read as a small regular file: " + err.Error()})
		return
	}
	target := strings.TrimSpace(string(data))
	if target == "" {
		return
	}
	abs := rawJoin(filepath.Dir(p), target)
	if repo.top == "" || !inside(abs, repo.top) {
		v.out = append(v.out, Finding{Key: name, File: p,
			Why: "names a path outside the repository (" + target + "): git would read another directory's state"})
	}
}

func rel(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func uniqDirs(a, b string) []string {
	if a == b || b == "" {
		return []string{a}
	}
	return []string{a, b}
}

// VetAssigned judges, strictly, what the text's own assignments (assigned,
// NAME=VALUE, for a git that runs in dir) make git read beyond the
// repository [Vet] finds: the configuration files GIT_CONFIG_GLOBAL,
// GIT_CONFIG_SYSTEM, GIT_CONFIG, XDG_CONFIG_HOME and HOME name, each
// GIT_CONFIG_KEY_n as "-c" would be judged, and any GIT_CONFIG_PARAMETERS.
// The agent chose those files, so nothing in them is the user's own: a
// key not known to be inert there is a finding, as in the repository's
// own configuration. Relative values are read from dir.
func VetAssigned(assigned []string, dir string, environ []string) ([]Finding, error) {
	var files []string
	var out []Finding
	xdgSet := false
	for _, kv := range assigned {
		if name, _, ok := strings.Cut(kv, "="); ok && name == "XDG_CONFIG_HOME" {
			xdgSet = true
		}
	}
	for _, kv := range assigned {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		path := func(p string) string {
			if p == "" || p == "/dev/null" {
				return ""
			}
			return rawJoin(dir, p)
		}
		switch {
		case name == "GIT_CONFIG_GLOBAL" || name == "GIT_CONFIG_SYSTEM" || name == "GIT_CONFIG":
			files = append(files, path(value))
		case name == "XDG_CONFIG_HOME":
			if value != "" {
				files = append(files, filepath.Join(path(value), "git", "config"))
			}
		case name == "HOME":
			if value != "" {
				files = append(files, filepath.Join(path(value), ".gitconfig"))
				if !xdgSet {
					files = append(files, filepath.Join(path(value), ".config", "git", "config"))
				}
			}
		case strings.HasPrefix(name, "GIT_CONFIG_KEY_"):
			out = append(out, commandLineKey(value)...)
		case name == "GIT_CONFIG_PARAMETERS" && value != "":
			out = append(out, Finding{Key: name, File: "environment", Why: "sets git configuration agentgate does not read"})
		}
	}
	v := vetter{environ: environ, seen: map[string]bool{}}
	for _, f := range files {
		if f == "" {
			continue
		}
		// depth 1: a file that is not there is read as empty, as git
		// reads a missing global configuration.
		if err := v.file(f, 1); err != nil {
			return append(out, v.out...), err
		}
	}
	return append(out, v.out...), nil
}

// expandHome is a path of git's configuration with its tilde expanded as
// git expands it: "~/" to home, "~NAME/" to NAME's home directory (an
// include of "~me/x.cfg" was read as a file named "~me" beside the
// including one, while git read the home's). A user who cannot be
// looked up is an error: git stops there too.
func expandHome(p, home string) (string, error) {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return p, nil
		}
		return filepath.Join(home, p[1:]), nil
	case strings.HasPrefix(p, "~"):
		name, rest, _ := strings.Cut(p[1:], "/")
		u, err := user.Lookup(name)
		if err != nil || u.HomeDir == "" {
			return "", fmt.Errorf("cannot find the home directory of %q, which %q names", name, p)
		}
		return filepath.Join(u.HomeDir, rest), nil
	}
	return p, nil
}
