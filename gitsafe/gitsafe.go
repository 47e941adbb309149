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
// # Defence
//
// Two layers, for every git command the gate lets through without asking:
//
//   - [Environ] overrides what can be overridden in command scope
//     (GIT_CONFIG_COUNT/KEY/VALUE, which git reads after every file) and
//     sets GIT_PAGER=cat and PAGER=cat, so the command still works but
//     nothing from the repository runs;
//   - [Findings] reports what cannot be overridden that way (a diff driver,
//     a filter, an external diff: setting them empty makes git run "" and
//     fail), so the caller asks a person instead of running the command.
//
// Configuration from the user's global and system files is the user's own
// and trusted; only the repository's local and worktree scopes are judged.
package gitsafe

import (
	"bytes"
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

// Finding is a repository configuration entry that names a program git
// could run and that Environ cannot override.
type Finding struct {
	Scope, Key, Value string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s = %s (%s config)", f.Key, f.Value, f.Scope)
}

// ListArgs are the arguments of the git command whose output Findings
// reads: every configuration entry with its scope, includes followed,
// NUL-separated.
var ListArgs = []string{"config", "--list", "--show-scope", "--includes", "-z"}

// Findings parses the output of "git config --list --show-scope
// --includes -z" and returns the entries of the repository's own scopes
// that name programs.
func Findings(list []byte) []Finding {
	var out []Finding
	// Records are "scope\x00key\nvalue\x00" or "scope\x00key\x00".
	fields := bytes.Split(list, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		scope := string(fields[i])
		key, value, _ := strings.Cut(string(fields[i+1]), "\n")
		if scope != "local" && scope != "worktree" {
			continue
		}
		if dangerousKey(strings.ToLower(key)) {
			out = append(out, Finding{Scope: scope, Key: key, Value: value})
		}
	}
	return out
}

// dangerousKey reports whether a (lower-cased) key names a program that
// read-only git commands may run and that cannot be overridden.
func dangerousKey(key string) bool {
	section, rest, _ := strings.Cut(key, ".")
	name := rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		name = rest[i+1:]
	}
	switch section {
	case "diff":
		return key == "diff.external" || name == "textconv" || name == "command"
	case "filter":
		return name == "clean" || name == "smudge" || name == "process"
	case "submodule":
		// Submodules have configuration of their own that this check does
		// not read, and status and diff recurse into them.
		return name == "url"
	case "core":
		return key == "core.gitproxy" || key == "core.sshcommand" || key == "core.askpass"
	}
	return false
}
