package gate

// riskNotes explain, for the human, what an escalated command may do.
// They are notes, never rules: the decision comes from the allowlist.
// Keys are a program, or a program and its subcommand.
var riskNotes = map[string]string{
	"rm": "deletes files", "rmdir": "deletes directories", "shred": "destroys file contents",
	"mv": "moves or overwrites files", "cp": "may overwrite files", "dd": "writes raw data to files or devices",
	"truncate": "cuts files short", "mkfs": "formats a file system", "chmod": "changes permissions",
	"chown": "changes ownership", "ln": "creates links that may replace files", "tee": "writes to files",
	"sed": "can edit files in place (-i) and run commands", "awk": "can run commands and write files",
	"perl": "runs arbitrary code", "python": "runs arbitrary code", "python3": "runs arbitrary code",
	"node": "runs arbitrary code", "ruby": "runs arbitrary code", "php": "runs arbitrary code",
	"bash": "runs a shell script", "sh": "runs a shell script", "zsh": "runs a shell script",
	"eval": "runs its arguments as a command", "source": "runs a script in the shell", ".": "runs a script in the shell",
	"sudo": "runs a command as root", "doas": "runs a command as root", "su": "switches user",
	"xargs": "runs a command for each input", "env": "runs a command with a changed environment",
	"curl": "talks to the network and can write files", "wget": "downloads from the network",
	"ssh": "runs commands on another machine", "scp": "copies files over the network",
	"rsync": "copies and can delete files, also over the network", "nc": "opens network connections",
	"kill": "stops processes", "pkill": "stops processes", "killall": "stops processes",
	"shutdown": "shuts the machine down", "reboot": "reboots the machine",
	"crontab": "changes scheduled jobs", "systemctl": "controls system services",
	"docker": "controls containers, often with root rights", "kubectl": "changes a cluster",
	"terraform": "changes infrastructure", "make": "runs the build's commands",
	"npm": "can run package scripts", "npx": "downloads and runs packages", "pip": "installs packages, running their code",
	"go": "builds and runs code", "cargo": "builds and runs code",
	"git push": "publishes commits to a remote", "git reset": "can discard changes",
	"git clean": "deletes untracked files", "git checkout": "can overwrite working-tree files",
	"git restore": "can overwrite working-tree files", "git rebase": "rewrites history",
	"git commit": "records a commit", "git config": "changes git configuration, which can name programs to run",
	"git stash": "moves changes away", "git branch": "can create, delete or rename branches",
	"git rm": "deletes files", "git filter-branch": "rewrites history", "git gc": "can prune objects",
	"find": "can delete files or run programs (-delete, -exec)", "rg": "can run programs (--pre)",
}

// risks returns the risk notes for every program in segs, once each.
func risks(segs [][]string) []Risk {
	var out []Risk
	seen := map[string]bool{}
	for _, argv := range segs {
		keys := []string{argv[0]}
		if len(argv) > 1 {
			keys = append(keys, argv[0]+" "+argv[1])
		}
		for _, k := range keys {
			if note, ok := riskNotes[k]; ok && !seen[k] {
				seen[k] = true
				out = append(out, Risk{Program: k, Note: note})
			}
		}
	}
	return out
}

// RiskNote returns the risk note for a program, or a program and its
// subcommand ("git push"), if it has one.
func RiskNote(prog, sub string) (string, bool) {
	if note, ok := riskNotes[prog+" "+sub]; ok && sub != "" {
		return note, true
	}
	note, ok := riskNotes[prog]
	return note, ok
}
