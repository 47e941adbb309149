package gate

import (
	"path"
	"slices"
	"strings"
)

// Severity returns a warning for the person approving d when the command
// destroys broadly or irreversibly, or hands control to downloaded code:
// a recursive delete, a force-push, a download piped into a shell, a
// rewrite of git history. It is "" for everything else. Like risk notes,
// it never decides: a severe command stays approvable (unless it is
// catastrophic, which is denied before anyone is asked).
func Severity(d Decision) string { return d.severity }

// severity finds the warnings for every command in the text.
func severity(req Request, segs [][]string) string {
	var out []string
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	c := catJudge{p: req.Paths}
	download, runsCode := false, false
	for _, argv := range segs {
		if _, msg, ok := c.argv(argv); ok {
			add("catastrophic: " + msg)
		}
		prog := path.Base(argv[0])
		args := argv[1:]
		switch prog {
		case "rm":
			if flags, _ := splitFlags(args); hasFlag(flags, 'r', "--recursive") || hasFlag(flags, 'R', "") {
				add("recursive delete (rm -r): removes whole directory trees, and cannot be undone")
			}
		case "find":
			for _, a := range args {
				if a == "-delete" || a == "-exec" || a == "-execdir" {
					add("find " + a + ": acts on every file it finds, however many")
					break
				}
			}
		case "shred":
			add("shred destroys file contents beyond recovery")
		case "git":
			if w := gitSeverity(args); w != "" {
				add(w)
			}
		case "curl", "wget", "fetch", "aria2c":
			download = true
		}
		if isShell(prog) || (interpreters[prog] && prog != "sed" && prog != "awk") {
			runsCode = true
		}
	}
	fed := strings.ContainsAny(req.Text, "|`") || strings.Contains(req.Text, "$(") || strings.Contains(req.Text, "<(")
	if download && runsCode && fed {
		add("runs downloaded code: a download is fed to a shell or interpreter, so whoever controls the server controls this machine")
	}
	if _, ok := c.redirectOntoDisk(req.Text); ok {
		add("catastrophic: writes onto a disk device")
	}
	return strings.Join(out, "; ")
}

// gitSeverity warns about git commands that rewrite or discard history.
func gitSeverity(args []string) string {
	// Past git's own options (-C DIR, -c KEY=VALUE, --git-dir=...), as
	// the one list of them reads them (gitSubcommand).
	argv := append([]string{"git"}, args...)
	sub := gitSubcommand(argv)
	i := slices.Index(args, sub)
	if sub == "" || i < 0 {
		return ""
	}
	rest := args[i+1:]
	flags, ops := splitFlags(rest)
	has := func(f ...string) bool {
		for _, x := range flags {
			for _, y := range f {
				if x == y || strings.HasPrefix(x, y+"=") {
					return true
				}
			}
		}
		return false
	}
	switch sub {
	case "push":
		if has("--force", "-f", "--force-with-lease", "--mirror", "--delete", "-d", "--prune") || hasFlag(flags, 'f', "") {
			return "force-push: overwrites or deletes history on the remote, for everyone"
		}
		for _, o := range ops {
			if strings.HasPrefix(o, "+") || strings.HasPrefix(o, ":") {
				return "force-push: overwrites or deletes history on the remote, for everyone"
			}
		}
	case "rebase", "filter-branch", "filter-repo":
		return "rewrites git history (git " + sub + ")"
	case "reset":
		if has("--hard", "--merge", "--keep") {
			return "git reset --hard discards uncommitted changes for good"
		}
	case "commit":
		if has("--amend") {
			return "rewrites the last commit (git commit --amend)"
		}
	case "clean":
		if has("--force") || hasFlag(flags, 'f', "") {
			return "git clean -f deletes untracked files for good"
		}
	case "branch":
		if has("-D") || has("--delete") && has("--force") {
			return "deletes a branch whether merged or not (git branch -D)"
		}
	case "stash":
		if len(ops) > 0 && (ops[0] == "drop" || ops[0] == "clear") {
			return "discards stashed changes for good (git stash " + ops[0] + ")"
		}
	case "reflog":
		if len(ops) > 0 && (ops[0] == "expire" || ops[0] == "delete") {
			return "discards the reflog, the way back from a history rewrite"
		}
	}
	return ""
}
