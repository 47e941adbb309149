package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/resolve"
)

// VetWorld runs the checks of an allowed command that need to look at the
// world rather than the text: what its words reach on disk (package
// resolve) and, for git, the repository's configuration (gitsafe.Vet).
// It can only turn an allow into an ask.
func (e *Engine) VetWorld(j *Judgement) gate.Decision {
	d := j.Decision
	if d.Verdict() != gate.Allow {
		return d
	}
	trees, blind, xargs, indexFed := resolve.XargsInputs(j.Request.Script.Of(j.Request.Text))
	if xargs && blind {
		return gate.Escalate(d, gate.Reason{Check: gate.CheckSensitive, Match: "xargs", Source: "recursive read",
			Message: "xargs (or find -exec) opens the files it is handed, and what hands them here is not a file lister agentgate can judge (find, ls, rg --files, git ls-files with literal words)"})
	}
	why, dirs := resolve.CheckDirs(resolve.Options{ReadTrees: trees, Literal: d.Globless(), Cwd: j.Cwd, Home: j.Request.Paths.Home, Paths: j.Request.Paths,
		Environ: e.commandEnviron(d), UntrustedDirs: j.Config.UntrustedDirs,
		PathWords:   func(argv []string) []string { return allowlist.PathWords(j.Config.Rules, argv) },
		ListedWords: func(argv []string) []string { return allowlist.ListedWords(j.Config.Rules, argv) },
		Read:        func(argv []string) (*allowlist.Call, bool) { return allowlist.Read(j.Config.Rules, argv) },
	}, d.Commands(), d.Redirects())
	if len(why) > 0 {
		return gate.Escalate(d, why[0])
	}
	cmds := d.Commands()
	// dirs are every directory a git command may run in, as the check
	// followed the text's cd: a cd in a pipeline leaves the shell where
	// it was (resolve.Dirs).
	for i, argv := range cmds {
		if len(argv) == 0 || argv[0] != "git" {
			continue
		}
		vetGit := gitsafe.VetHardened // Plan runs git with gitsafe.Environ
		if !j.Hardened {
			vetGit = gitsafe.Vet
		}
		for k, dir := range dirs[i] {
			if k < len(dirs[i])-1 && !inRepo(dir) {
				// A directory the text started in or passed through,
				// where git finds no repository: git reads no
				// configuration or index there ("cd proj && git diff"
				// from outside any repository). The last one is vetted
				// whatever it holds: finding its repository is vet's,
				// and was done twice for every git command.
				continue
			}
			gargv, why := gitArgv(argv, j.Request.Paths.Home, dir, d.Globless())
			if why != "" {
				return gate.Escalate(d, gate.Reason{Check: gate.CheckRepoConfig, Match: "git", Message: why})
			}
			f, err := vetGit(gargv, dir, e.commandEnviron(d))
			if err != nil {
				return gate.Escalate(d, gate.Reason{Check: gate.CheckRepoConfig, Match: "git config",
					Message: fmt.Sprintf("could not judge the repository's git configuration: %v", err)})
			}
			if len(f) > 0 {
				return gate.Escalate(d, gate.Reason{Check: gate.CheckRepoConfig, Match: f[0].Key,
					Message: fmt.Sprintf("the repository's git configuration is not known to be inert: %s", f[0])})
			}
			if why, ok := e.trackedReads(j, gargv, dir, d, indexFed); !ok {
				return gate.Escalate(d, why)
			}
		}
	}
	return d
}

// escalatedGit is the reason a command that asks anyway runs git in a
// repository whose configuration is not known to be inert: the person
// must see it, and no approval given before it was planted may run it (a
// red team's "git status > st.txt", allowed for the session or approved
// out of band while .git/config was clean, ran a core.fsmonitor planted
// afterwards: an approved command runs without the command-scope
// overrides, and its judgement had stopped at its first reason). It is a
// new reason, so an earlier grant or session answer no longer matches.
// Each git of the text is vetted in every directory it may run in.
func (e *Engine) escalatedGit(j *Judgement) []gate.Reason {
	segs := j.Decision.Segments()
	if !runsGit(segs) {
		return nil
	}
	dirs, _ := resolve.Dirs(j.Cwd, j.Request.Paths.Home, segs)
	// The text's own assignments choose what git reads too
	// ("GIT_DIR=../other/.git git status", "XDG_CONFIG_HOME=cfg git
	// status", export or env alike): a red team's, answered while the
	// files they name were clean, ran a core.fsmonitor planted in them
	// afterwards. gitRuns vets each.
	runs, assigned := gitRuns(segs, dirs, e.commandEnviron(j.Decision), j.Request.Paths.Home, j.Decision.Globless())
	// Every reason is kept, not the first: one that stood when the
	// person answered (a word of the plain split read as a GIT_DIR that
	// is not there) must not hide one planted since.
	var out []gate.Reason
	seen := map[string]bool{}
	add := func(r gate.Reason) {
		if k := reasonKey(r); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	for _, r := range runs {
		if r.why != "" {
			add(gate.Reason{Check: gate.CheckRepoConfig, Match: "git", Message: r.why})
		}
		f, err := gitsafe.Vet(r.argv, r.dir, r.env)
		if err == nil && len(f) == 0 && len(assigned) > 0 {
			f, err = gitsafe.VetAssigned(assigned, r.dir, r.env)
		}
		if err != nil {
			add(gate.Reason{Check: gate.CheckRepoConfig, Match: "git config",
				Message: fmt.Sprintf("could not judge the repository's git configuration: %v", err)})
		}
		for _, x := range f {
			add(gate.Reason{Check: gate.CheckRepoConfig, Match: x.Key,
				Message: fmt.Sprintf("the repository's git configuration is not known to be inert: %s", x)})
		}
	}
	return out
}

// gitRun is one way a git of the text may run: its words, the directory
// it runs in and its environment.
type gitRun struct {
	argv []string
	dir  string
	env  []string
	// why, when set, says why the repository this git runs in cannot be
	// judged (a glob in its global options: [gitArgv]).
	why string
}

// gitRuns are the ways each git of segs (the plain split; segDirs the
// directories each part may run in, [resolve.Dirs]) may run with env:
// in each of its directories, with env alone, with each of the text's
// assignments that choose what git reads ([gitAssignments]), and with
// all of them at once (GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath
// GIT_CONFIG_VALUE_0=DIR names a directory only together). escalatedGit
// vets these and gitBinding binds them: one reading of where the text's
// git runs. assigned are the assignments.
//
// Each git's words are read as bash hands them to git ([gitArgv]: "-C
// ~/repo" is the home's repo, home being the home directory; globless
// says whether the text's words hold no glob).
func gitRuns(segs, segDirs [][]string, env []string, home string, globless bool) (runs []gitRun, assigned []string) {
	envs := [][]string{env}
	assigned = gitAssignments(segs)
	for _, kv := range assigned {
		envs = append(envs, append(slices.Clip(env), kv))
	}
	if len(assigned) > 1 {
		envs = append(envs, append(slices.Clip(env), assigned...))
	}
	for i, argv := range segs {
		if len(argv) == 0 || filepath.Base(argv[0]) != "git" || i >= len(segDirs) {
			continue
		}
		for _, d := range segDirs[i] {
			gargv, why := gitArgv(argv, home, d, globless)
			for _, env := range envs {
				runs = append(runs, gitRun{argv: gargv, dir: d, env: env, why: why})
			}
		}
	}
	return runs, assigned
}

// gitChoiceUnread is the name of a variable that chooses what git reads
// (GIT_*, XDG_CONFIG_HOME) which a text that runs git sets to a value
// agentgate cannot read, or "": "GIT_DIR=$PWD/../o/.git git status",
// "d=..; GIT_DIR=$d", "GIT_DIR=$(...)", "read -r GIT_DIR", "export
// GIT_DIR" of an inherited value (a red team's, each approved while the
// files it would name were clean, ran a key planted in them afterwards).
// Vetting cannot follow such a value, so no approval of the text holds
// for a later run. The name's presence counts, in the text with its
// quotes and backslashes taken out, unless it is read ("$GIT_DIR") or
// given a literal value ("GIT_DIR=.git", which escalatedGit vets).
func gitChoiceUnread(j *Judgement) string {
	segs := j.Decision.Segments()
	if !runsGit(segs) {
		return ""
	}
	if name := gitChoiceHidden(segs); name != "" {
		return name
	}
	found := ""
	gate.NameUses(j.Request.Text, func(name string, read bool, rest string) bool {
		if read || !strings.HasPrefix(name, "GIT_") && name != "XDG_CONFIG_HOME" {
			return true
		}
		// A literal value ("GIT_DIR=.git") is vetted by escalatedGit;
		// anything else is not known: no value ("read -r GIT_DIR",
		// "export GIT_DIR"), one with an expansion, or one inside a
		// parameter operator ("${GIT_DIR:=...}", "${GIT_DIR=x}").
		value, assigned := strings.CutPrefix(rest, "=")
		if end := strings.IndexAny(value, " \t\n;&|()<>"); end >= 0 {
			value = value[:end]
		}
		if !assigned || value == "" || strings.ContainsAny(value, "$`{}") {
			found = name
			return false
		}
		return true
	})
	return found
}

// runsGit reports whether a command of segs (the plain split) is git.
func runsGit(segs [][]string) bool {
	return slices.ContainsFunc(segs, func(argv []string) bool { return len(argv) > 0 && filepath.Base(argv[0]) == "git" })
}

// gitChoiceHidden is the word of segs (the plain split of a text that
// runs git) through which the text may choose what git reads with a
// value that names no GIT_* variable in the text, or "": a sourced or
// evaluated file (". ./e.sh" exporting GIT_DIR), an xargs that hands git
// or env its words, a word agentgate cannot read handed to env or a
// wrapper before git ("env \"$l\" git status" in a read loop), or to
// git's own options ("git --git-dir=$(cat p)"). A red team's, each
// approved while the repository it named was clean, ran the
// core.fsmonitor planted there afterwards.
func gitChoiceHidden(segs [][]string) string {
	for _, argv := range segs {
		if len(argv) == 0 {
			continue
		}
		switch filepath.Base(argv[0]) {
		case ".", "source", "eval":
			return argv[0]
		}
		gi := slices.IndexFunc(argv, func(w string) bool { return filepath.Base(w) == "git" })
		if gi < 0 {
			continue
		}
		_, sub, _ := allowlist.ReadGit(argv[gi:])
		if filepath.Base(argv[0]) == "xargs" {
			// Its input is put where the replace string stands, or
			// after the last word: git's options, or env's
			// assignments, when the text names no subcommand.
			if gi+sub >= len(argv) || slices.ContainsFunc(argv[1:gi], func(w string) bool {
				return strings.HasPrefix(w, "-I") || strings.HasPrefix(w, "-i") || strings.HasPrefix(w, "-J") || strings.HasPrefix(w, "--replace")
			}) {
				return "xargs"
			}
		}
		for _, w := range argv[:min(len(argv), gi+sub+1)] {
			if strings.ContainsAny(w, "$`") || strings.Contains(w, "{}") {
				return w
			}
		}
	}
	return ""
}

// gitAssignments are the words of segs that assign a variable choosing
// which repository or configuration git reads: GIT_*, HOME and
// XDG_CONFIG_HOME, however the text sets them (before the command,
// through env, by export).
func gitAssignments(segs [][]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, argv := range segs {
		for _, w := range argv {
			name, _, ok := strings.Cut(w, "=")
			if !ok || seen[w] {
				continue
			}
			if name == "HOME" || name == "XDG_CONFIG_HOME" || strings.HasPrefix(name, "GIT_") && gate.ValidName(name) {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// worktreeReaders are the git subcommands that read the working tree's
// files by the paths the index holds.
var worktreeReaders = map[string]bool{"git grep": true, "git diff": true, "git diff-files": true, "git diff-index": true}

// trackedReads judges the paths the index holds where git reads them
// from the working tree: git grep reads every tracked file, git diff each
// changed one, and git ls-files hands them to xargs. git reads whatever
// path an index holds, and the agent can write the index: an entry
// "src/../../.ssh/id_rsa" or ".env" made git diff print the key or the
// secrets (a red team's). A path git itself never adds asks; one that is
// sensitive or protected asks when it is read (git grep: always; git
// diff: when the file changed), unless the working tree's file is the
// index's own object: then it tells nothing "git show :PATH" does not
// (a tracked, unchanged .env.example).
func (e *Engine) trackedReads(j *Judgement, argv []string, dir string, d gate.Decision, indexFed bool) (gate.Reason, bool) {
	c, ok := allowlist.Read(j.Config.Rules, argv)
	if !ok || c.Entry == nil {
		return gate.Reason{}, true
	}
	name := c.Entry.Name()
	listed := indexFed && name == "git ls-files"
	// git status -v -v prints the working tree's diff too.
	verbose := 0
	for _, u := range c.Flags {
		if u.Flag != nil && slices.Contains(u.Flag.Names, "--verbose") {
			verbose++
		}
	}
	statusDiff := name == "git status" && verbose >= 2
	if !listed && !statusDiff && (!worktreeReaders[name] || c.Has("--cached", "--staged")) {
		return gate.Reason{}, true
	}
	return e.judgeIndex(j, name, listed, gitCwd(argv, dir), d, 0)
}

// gitArgv is argv as git receives it from bash, for the checks that read
// the repository it runs in: a word's leading "~" or "~+" expanded to
// the home or dir (every other tilde asks at the gate: gate/tilde.go).
// Read as written, "git -C ~/repo diff" had gitsafe look for a
// repository at DIR/~/repo, find none, and vet the project's instead,
// while git ran the diff.external of ~/repo (a red team's printed a
// key). why is not "" when one of git's global options, or the
// subcommand, holds a glob bash may expand ("git -C su? diff"): the
// repository git runs in is then not known.
func gitArgv(argv []string, home, dir string, globless bool) (out []string, why string) {
	_, sub, _ := allowlist.ReadGit(argv)
	out = slices.Clone(argv)
	for i := 1; i < len(out); i++ {
		w := out[i]
		if !globless && i <= sub && strings.ContainsAny(w, "*?[") && why == "" {
			why = fmt.Sprintf("git's word %s holds a glob, so the repository git runs in, and so its configuration, cannot be judged", w)
		}
		switch {
		case w == "~" || strings.HasPrefix(w, "~/"):
			out[i] = home + w[1:]
		case w == "~+" || strings.HasPrefix(w, "~+/"):
			out[i] = dir + w[2:]
		}
	}
	return out, why
}

// gitCwd is the directory git works in: dir moved by the -C options
// before the subcommand ("git -C other diff" reads other's index), read
// with the one list of git's global options (allowlist.ReadGit).
func gitCwd(argv []string, dir string) string {
	opts, _, _ := allowlist.ReadGit(argv)
	for _, o := range opts {
		if o.Name != "-C" || o.Value == "" {
			continue
		}
		// As git's chdir takes it: links followed, ".." after each
		// ("-C lnk/.." is the parent of lnk's target, which a lexical
		// join read as the working directory itself).
		if filepath.IsAbs(o.Value) {
			dir = fsutil.Resolve(o.Value)
		} else {
			dir = fsutil.Resolve(dir + string(filepath.Separator) + o.Value)
		}
	}
	return dir
}

// maxIndexDepth bounds how deep judgeIndex follows submodules.
const maxIndexDepth = 3

// judgeIndex judges the paths of the index of the repository at dir as
// trackedReads says, and those of its checked-out submodules, whose
// indexes git diff --submodule=diff and git status read too (a red
// team's submodule index named ../../../.ssh/id_rsa).
func (e *Engine) judgeIndex(j *Judgement, name string, listed bool, dir string, d gate.Decision, depth int) (gate.Reason, bool) {
	top, paths, err := gitsafe.TrackedPaths(dir, e.commandEnviron(d))
	if err != nil {
		return gate.Reason{Check: gate.CheckSensitive, Match: name, Source: "recursive read",
			Message: fmt.Sprintf("cannot read the paths of the index %s reads: %v", name, err)}, false
	}
	compiled := j.Request.Paths.Compile()
	names := make([]string, 0, len(paths))
	for _, tp := range paths {
		// xargs splits what git ls-files prints at blanks and reads
		// quotes: a name of the index with one of them (which the tree
		// that was walked may no longer hold) hands xargs' command a
		// path no check saw.
		if listed && (strings.ContainsAny(tp.Name, " \t\n\r\v\f\"'\\") || strings.HasPrefix(tp.Name, "-") || strings.Contains(tp.Name, "/-")) {
			return gate.Reason{Check: gate.CheckSensitive, Match: tp.Name, Source: "recursive read",
				Message: fmt.Sprintf("git ls-files lists %q, whose blank, quote or leading dash xargs would hand on as other paths or as an option", tp.Name)}, false
		}
		if !tp.Plain {
			return gate.Reason{Check: gate.CheckSensitive, Match: tp.Name, Source: "recursive read",
				Message: fmt.Sprintf("the index holds %q, a path git never adds, which %s reads from the working tree", tp.Name, name)}, false
		}
		abs := filepath.Join(top, tp.Name)
		if check, pat, ok := compiled.MatchPath(abs); ok && !tp.InIndex(top) {
			return gate.Reason{Check: check, Match: tp.Name, Source: "recursive read",
				Message: fmt.Sprintf("%s reads %s from the working tree, which may hold secrets or is protected (%s)", name, tp.Name, pat)}, false
		}
		names = append(names, tp.Name)
	}
	// A file with other names may be a hard link to a key: such files
	// are judged as a reader's operands are (resolve), whatever their
	// name ("ln ~/.ssh/id_rsa hl" tracked as hl).
	if linked := fsutil.HardLinked(top, names); len(linked) > 0 {
		if why := resolve.Check(resolve.Options{Cwd: top, Home: j.Request.Paths.Home, Paths: j.Request.Paths},
			[][]string{append([]string{"cat"}, linked...)}, nil); len(why) > 0 {
			return why[0], false
		}
	}
	for _, tp := range paths {
		if !tp.Gitlink || listed {
			continue
		}
		sub := filepath.Join(top, tp.Name)
		if _, err := os.Lstat(filepath.Join(sub, ".git")); err != nil {
			continue // not checked out
		}
		if depth+1 >= maxIndexDepth {
			return gate.Reason{Check: gate.CheckSensitive, Match: tp.Name, Source: "recursive read",
				Message: fmt.Sprintf("%s reads submodules nested more than %d deep, whose indexes are not judged", name, maxIndexDepth)}, false
		}
		if why, ok := e.judgeIndex(j, name, false, sub, d, depth+1); !ok {
			return why, false
		}
	}
	return gate.Reason{}, true
}

// inRepo reports whether git may find a repository from dir: a work
// tree, or dir shaped like a git directory.
func inRepo(dir string) bool {
	if _, ok := gitsafe.WorkTree(dir); ok {
		return true
	}
	return gitDirShaped(dir)
}

// gitDirShaped reports whether dir looks like a git directory itself (a
// bare repository: HEAD and objects), which git may use though no work
// tree is found from it.
func gitDirShaped(dir string) bool {
	_, err1 := os.Stat(filepath.Join(dir, "HEAD"))
	_, err2 := os.Stat(filepath.Join(dir, "objects"))
	return err1 == nil || err2 == nil
}
