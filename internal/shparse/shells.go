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

// RunsText is the shell text a program runs that is not "bash -c": the
// words of eval (joined, as eval joins them), trap's action, and the -c
// or --command of su, runuser, sg's second operand and script. The
// catastrophic rules and the deny rules read it as they read a -c string:
// "eval rm -rf ~" and "trap 'rm -rf ~' EXIT" deleted a home in bypass.
func RunsText(argv []string) (string, bool) {
	args := argv[1:]
	switch path.Base(argv[0]) {
	case "eval":
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		return strings.Join(args, " "), len(args) > 0
	case "trap":
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			if args[0] == "--" {
				args = args[1:]
				break
			}
			args = args[1:]
		}
		return firstOf(args)
	case "su", "runuser", "script", "sudo":
		for i, a := range args {
			if (a == "-c" || a == "--command" || a == "--session-command") && i+1 < len(args) {
				return args[i+1], true
			}
			for _, p := range []string{"--command=", "--session-command=", "-c"} {
				if v, ok := strings.CutPrefix(a, p); ok && v != "" && (p != "-c" || !strings.HasPrefix(a, "--")) {
					return v, true
				}
			}
		}
	case "git":
		// git -c alias.NAME='!TEXT' NAME runs TEXT in a shell.
		for i, a := range args {
			v := a
			if a == "-c" && i+1 < len(args) {
				v = args[i+1]
			} else if !strings.HasPrefix(a, "-c") || len(a) <= 2 {
				continue
			} else {
				v = a[2:]
			}
			if k, val, ok := strings.Cut(v, "="); ok && strings.HasPrefix(strings.ToLower(k), "alias.") && strings.HasPrefix(val, "!") {
				return val[1:], true
			}
		}
	case "sg":
		// sg [-] GROUP [-c] COMMAND; ast-grep's sg starts with an
		// option ("sg -p PATTERN"), and runs nothing.
		if len(args) > 0 && args[0] == "-" {
			args = args[1:]
		}
		if len(args) >= 2 && !strings.HasPrefix(args[0], "-") {
			if args[1] == "-c" && len(args) >= 3 {
				return args[2], true
			}
			return args[1], true
		}
	}
	return "", false
}

func firstOf(args []string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	return args[0], true
}
