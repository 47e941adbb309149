// Package gitsafe keeps a repository's own configuration from turning a
// read-only git command into a way to run programs.
//
// # Threat
//
// A repository's .git/config (and any file it includes) is writable by
// an agent with a file-editing tool, and several keys in it name programs
// that "git status", "git log" or "git diff" run: core.fsmonitor on every
// index refresh, core.pager and pager.<cmd> when output is a terminal,
// diff.external and diff.<driver>.command for diffs, diff.<driver>.textconv
// for binary files, filter.<driver>.clean when git rehashes a modified
// file, gpg.program for signature placeholders and log.showSignature,
// core.hooksPath for hooks such as post-index-change.
//
// Keys that start programs or reach the network hide in many more places
// (man.*, help.*, browser.*, web.*, remote.*.uploadpack, extensions.*,
// protocol.*, credential.*, url.*.insteadOf, core.sshCommand ...), and a
// remote URL may hold a token.
//
// # Defence
//
// Two layers, for every git command the gate lets through without asking:
//
//   - [Vet] finds the repository as git does and reads every configuration
//     file it controls (config, config.worktree, includes, submodules')
//     without running anything: any key not on a documented list of inert
//     keys makes the command ask, naming the key and file:line;
//   - [Environ] overrides, in command scope (GIT_CONFIG_COUNT/KEY/VALUE,
//     which git reads after every file), what can be overridden, and sets
//     GIT_PAGER=cat and PAGER=cat, in case a key slips past the first.
//
// Configuration from the user's global and system files is the user's own
// and trusted; only what the repository controls is judged.
package gitsafe

import (
	"fmt"
	"strings"
)

// overrides are command-scope settings that neutralise program-naming keys
// without changing what the read-only commands print.
var overrides = [][2]string{
	{"core.fsmonitor", "false"},
	{"core.hooksPath", "/dev/null"},
	{"core.pager", "cat"},
	{"log.showSignature", "false"},
	{"gpg.program", "gpg"},
	{"gpg.openpgp.program", "gpg"},
	{"gpg.x509.program", "gpgsm"},
	{"gpg.ssh.program", "ssh-keygen"},
	{"status.submoduleSummary", "false"},
	// A directory shaped like a bare repository (planted in the project)
	// is used only when named by --git-dir or $GIT_DIR.
	{"safe.bareRepository", "explicit"},
}

// Environ returns environ with the git hardening added: the command-scope
// overrides appended after any the caller already set, the pager forced to
// cat, and GIT_EXTERNAL_DIFF removed.
func Environ(environ []string) []string {
	out := make([]string, 0, len(environ)+2*len(overrides)+4)
	base := 0
	for _, kv := range environ {
		name, val, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_PAGER", "PAGER", "GIT_EXTERNAL_DIFF", "GIT_CONFIG_COUNT":
			if name == "GIT_CONFIG_COUNT" {
				fmt.Sscanf(val, "%d", &base)
			}
			continue
		}
		out = append(out, kv)
	}
	if base < 0 || base > 1000 {
		base = 0
	}
	for i, kv := range overrides {
		out = append(out,
			fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", base+i, kv[0]),
			fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", base+i, kv[1]))
	}
	return append(out,
		fmt.Sprintf("GIT_CONFIG_COUNT=%d", base+len(overrides)),
		"GIT_PAGER=cat", "PAGER=cat")
}
