package shparse

import (
	"path"
	"strings"
)

// IsShell reports a program that runs shell text: bash, sh, zsh, dash
// and the others, by base name.
func IsShell(prog string) bool {
	switch path.Base(prog) {
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "busybox", "ash", "yash", "posh", "csh", "tcsh", "pwsh", "rbash":
		return true
	}
	return false
}

// ShellText is the text a shell runs with -c ("bash -c TEXT", "sh -xc
// TEXT"); ok is false for any other command. The gate, the resolver and
// the form ([Stmt.Nested]) follow shell strings with it.
func ShellText(argv []string) (string, bool) {
	if len(argv) == 0 || !IsShell(argv[0]) {
		return "", false
	}
	return ShellCText(argv)
}

// ShellCText is the text argv runs with -c, however its options are
// spelled, whatever argv[0] is: "bash -c T", "bash -lc T", "sh -xc T",
// "bash -o errexit -c T", "bash -O extglob -c T", "bash --norc -c T",
// "bash -c -- T" (a red team's "bash -lc 'rm -rf ~'" was a plain ask,
// which bypass ran).
func ShellCText(argv []string) (string, bool) {
	c := false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--" || a == "-":
			if c && i+1 < len(argv) {
				return argv[i+1], true
			}
			return "", false
		case strings.HasPrefix(a, "--"):
			if a == "--rcfile" || a == "--init-file" {
				i++
			}
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
			opts := a[1:]
			if strings.ContainsRune(opts, 'c') && a[0] == '-' {
				c = true
			}
			if strings.ContainsAny(opts, "oO") {
				i++ // -o NAME, -O NAME
			}
		default:
			if c {
				return a, true
			}
			return "", false // a script file
		}
	}
	return "", false
}
