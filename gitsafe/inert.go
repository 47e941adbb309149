package gitsafe

import (
	"strings"
)

// inertKeys are the repository configuration keys that no git command
// turns into a program run, a network connection or a read outside the
// repository. Every other key in a repository's configuration makes the
// command ask: an accept-list covers the keys nobody has thought of yet
// (man.*, help.*, browser.*, web.*, remote.*.uploadpack, extensions.* such
// as partialClone, protocol.*, credential.*, url.*.insteadOf,
// diff.submodule, core.sshCommand, sequence.editor ...).
//
// A key is written lower case; "*" stands for one subsection (a remote,
// branch or submodule name). Each was checked against git-config(1) of
// git 2.39 and against what git init, git clone, git submodule, git
// worktree and git sparse-checkout write. include.* and includeIf.* are
// not inert: they read files the repository chooses.
var inertKeys = map[string]string{
	"core.repositoryformatversion":    "git init: the repository format version",
	"core.filemode":                   "git init: whether the executable bit is tracked",
	"core.bare":                       "git init: whether there is a working tree",
	"core.logallrefupdates":           "git init: keep reflogs",
	"core.ignorecase":                 "git init on case-insensitive file systems",
	"core.precomposeunicode":          "git init on macOS: Unicode normalisation of file names",
	"core.symlinks":                   "git init where the file system has no symlinks",
	"core.autocrlf":                   "line-ending conversion, done by git itself",
	"core.eol":                        "line-ending conversion, done by git itself",
	"core.safecrlf":                   "warns about line-ending conversion",
	"core.quotepath":                  "how file names are quoted in output",
	"core.sparsecheckout":             "git sparse-checkout: only some paths are checked out",
	"core.sparsecheckoutcone":         "git sparse-checkout: cone mode",
	"index.sparse":                    "git sparse-checkout: sparse index",
	"core.worktree":                   "git submodule: where a submodule's working tree is; it must lie inside the project (checked)",
	"extensions.worktreeconfig":       "git worktree and sparse-checkout: also read config.worktree, which is judged too",
	"extensions.objectformat":         "git init --object-format: sha1 or sha256",
	"extensions.refstorage":           "git init --ref-format: files or reftable",
	"remote.*.url":                    "git clone, git remote add: where the remote is (a URL holding a user name or password is a secret; checked)",
	"remote.*.pushurl":                "where pushes go (checked like url)",
	"remote.*.fetch":                  "git clone: the fetch refspec",
	"remote.*.push":                   "the push refspec",
	"remote.*.tagopt":                 "whether fetch follows tags",
	"remote.*.prune":                  "whether fetch prunes",
	"remote.*.mirror":                 "git clone --mirror",
	"branch.*.remote":                 "git clone, git branch --track: the upstream remote",
	"branch.*.merge":                  "git clone, git branch --track: the upstream branch",
	"branch.*.rebase":                 "whether git pull rebases",
	"branch.*.pushremote":             "where git push sends the branch",
	"branch.*.description":            "git branch --edit-description: text",
	"branch.*.vscode-merge-base":      "VS Code: the branch a branch was made from (a ref name)",
	"branch.*.github-pr-owner-number": "VS Code's GitHub extension: the pull request of a branch (text)",
	"remote.*.gh-resolved":            "gh: which remote is the base repository (text)",
	"submodule.*.url":                 "git submodule init: where the submodule comes from (checked like remote urls)",
	"submodule.*.active":              "git submodule init: the submodule is in use",
	"submodule.active":                "git submodule: which submodules are in use (pathspecs)",
	"user.name":                       "the author name of new commits",
	"user.email":                      "the author email of new commits",
	"user.signingkey":                 "which key signs commits (the signing program, gpg.*, is judged on its own)",
	"commit.gpgsign":                  "whether commits are signed (by gpg.*, judged on its own)",
	"tag.gpgsign":                     "whether tags are signed (by gpg.*, judged on its own)",
	"pull.rebase":                     "whether git pull rebases",
	"pull.ff":                         "whether git pull fast-forwards",
	"push.default":                    "which branches git push sends",
	"push.autosetupremote":            "git push sets the upstream",
	"fetch.prune":                     "whether fetch prunes",
	"lfs.repositoryformatversion":     "git lfs install: a version number (filter.lfs.* keys are judged on their own)",
}

// inertSections are sections whose every key is inert.
var inertSections = map[string]string{
	"color": "colours of git's output; no value names a program",
}

// inertNote returns the note of an inert key, or "" when key (as git
// prints it: section and name lower case, subsection as written) is not
// inert.
func inertNote(key string) string {
	lower := strings.ToLower(key)
	if n, ok := inertKeys[lower]; ok {
		return n
	}
	section, rest, _ := strings.Cut(lower, ".")
	if n, ok := inertSections[section]; ok {
		return n
	}
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		if n, ok := inertKeys[section+".*."+rest[i+1:]]; ok {
			return n
		}
	}
	return ""
}

// explain says what a key that is not inert can do, when it is one of
// the known dangers; the accept-list, not this, decides.
func explain(key string) string {
	lower := strings.ToLower(key)
	section, rest, _ := strings.Cut(lower, ".")
	name := rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		name = rest[i+1:]
	}
	switch {
	case section == "include" || section == "includeif":
		return "includes a configuration file the repository chooses"
	case lower == "diff.external" || section == "diff" && (name == "textconv" || name == "command"):
		return "names a program git diff, log or show runs"
	case section == "filter":
		return "names a filter program git runs on file contents"
	case section == "core" && (name == "fsmonitor" || name == "pager" || name == "sshcommand" || name == "gitproxy" || name == "askpass" || name == "editor" || name == "hookspath"):
		return "names a program git runs"
	case section == "pager" || section == "man" || section == "help" || section == "browser" || section == "web" || section == "gpg" || section == "sequence" || section == "credential":
		return "names a program git runs"
	case section == "url" || section == "protocol" || section == "http" || section == "extensions" || name == "uploadpack" || name == "receivepack" || name == "proxy" || name == "promisor":
		return "changes how or where git connects"
	}
	return "is not on the list of keys known to be inert"
}

// neutralisedKeys are keys that name a program, but that [Environ]
// overrides in command scope for every git command agentgate runs on its
// own (git reads command scope after every file): with the override, the
// program never starts. They are findings for a command that runs without
// Environ (a hook host that runs the command itself).
var neutralisedKeys = map[string]string{
	"core.fsmonitor":          "overridden: core.fsmonitor=false",
	"core.hookspath":          "overridden: core.hooksPath=/dev/null (husky sets it)",
	"core.pager":              "overridden: core.pager=cat, and GIT_PAGER=cat",
	"log.showsignature":       "overridden: log.showSignature=false",
	"gpg.program":             "overridden: gpg.program=gpg",
	"gpg.openpgp.program":     "overridden: gpg.openpgp.program=gpg",
	"gpg.x509.program":        "overridden: gpg.x509.program=gpgsm",
	"gpg.ssh.program":         "overridden: gpg.ssh.program=ssh-keygen",
	"status.submodulesummary": "overridden: status.submoduleSummary=false",
}

// neutralisedNote is the note of a key Environ overrides, or "". pager.<cmd>
// counts: GIT_PAGER=cat overrides every pager.
func neutralisedNote(key string) string {
	lower := strings.ToLower(key)
	if n, ok := neutralisedKeys[lower]; ok {
		return n
	}
	if strings.HasPrefix(lower, "pager.") && strings.Count(lower, ".") == 1 {
		return "overridden: GIT_PAGER=cat"
	}
	return ""
}
