package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
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
	if why := resolve.Check(resolve.Options{ReadTrees: trees, Cwd: j.Cwd, Home: j.Request.Paths.Home, Paths: j.Request.Paths,
		Environ: e.commandEnviron(d), UntrustedDirs: j.Config.UntrustedDirs,
		PathWords:   func(argv []string) []string { return allowlist.PathWords(j.Config.Rules, argv) },
		ListedWords: func(argv []string) []string { return allowlist.ListedWords(j.Config.Rules, argv) },
		Read:        func(argv []string) (*allowlist.Call, bool) { return allowlist.Read(j.Config.Rules, argv) },
	}, d.Commands(), d.Redirects()); len(why) > 0 {
		return gate.Escalate(d, why[0])
	}
	cmds := d.Commands()
	dirs := resolve.Dirs(j.Cwd, j.Request.Paths.Home, cmds)
	for i, argv := range cmds {
		if len(argv) == 0 || argv[0] != "git" {
			continue
		}
		vetGit := gitsafe.VetHardened // Plan runs git with gitsafe.Environ
		if !j.Hardened {
			vetGit = gitsafe.Vet
		}
		f, err := vetGit(argv, dirs[i], e.commandEnviron(d))
		if err != nil {
			return gate.Escalate(d, gate.Reason{Check: gate.CheckRepoConfig, Match: "git config",
				Message: fmt.Sprintf("could not judge the repository's git configuration: %v", err)})
		}
		if len(f) > 0 {
			return gate.Escalate(d, gate.Reason{Check: gate.CheckRepoConfig, Match: f[0].Key,
				Message: fmt.Sprintf("the repository's git configuration is not known to be inert: %s", f[0])})
		}
		if indexFed && slices.Contains(argv, "ls-files") {
			// xargs splits what git ls-files prints at blanks and reads
			// quotes: a name of the index with one of them (which the
			// tree that was walked may no longer hold) hands xargs'
			// command a path no check saw.
			names, err := gitsafe.IndexNames(dirs[i], e.commandEnviron(d))
			if err != nil {
				return gate.Escalate(d, gate.Reason{Check: gate.CheckSensitive, Match: "git ls-files", Source: "recursive read",
					Message: fmt.Sprintf("cannot read the names git ls-files hands xargs: %v", err)})
			}
			for _, n := range names {
				if strings.ContainsAny(n, " \t\n\r\v\f\"'\\") {
					return gate.Escalate(d, gate.Reason{Check: gate.CheckSensitive, Match: n, Source: "recursive read",
						Message: fmt.Sprintf("git ls-files lists %q, whose blank or quote xargs would split into other paths", n)})
				}
			}
		}
	}
	return d
}
