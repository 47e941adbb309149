package allowlist_test

import (
	"flag"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
)

var manual = flag.Bool("manual", false, "check every flag of the catalogue against the installed manual pages and --help")

// newerThanInstalled are flags of the catalogue that the manuals of the
// versions installed when it was checked (git 2.39, ripgrep 13, jq 1.6,
// coreutils 9.1, util-linux 2.38, procps 4.0.2, mawk as awk) do not list,
// each with where it comes from. A program that does not know a flag
// rejects it, so accepting it costs nothing.
var newerThanInstalled = map[string]string{
	"--rename-empty": "git 2.40", "--no-rename-empty": "git 2.40", "--default-prefix": "git 2.41", "--mailmap": "git 2.41",
	"--no-mailmap": "git 2.41", "--dd": "git 2.40", "--omit-empty": "git 2.43", "--show-ref-format": "git 2.45",
	"--no-progress": "git-blame, documented as --[no-]progress", "--exists": "git 2.43", "--include-root-refs": "git 2.46",
	"--includes": "git config get, git 2.46", "--no-includes": "git config, documented as --[no-]includes",
	"--references": "git 2.41", "--no-references": "git 2.41",
	"--no-byte-offset": "ripgrep 14", "--generate": "ripgrep 14", "--no-include-zero": "ripgrep 14", "--no-invert-match": "ripgrep 14",
	"-d": "ripgrep 14 (--max-depth), diff and others list it", "--maxdepth": "ripgrep 14", "--sort-files": "ripgrep 13, deprecated",
	"--no-sort-files": "ripgrep 13, deprecated", "--stop-on-nonmatch": "ripgrep 14", "--hostname-bin": "ripgrep 14",
	"--total": "coreutils 9.2", "--base64": "coreutils 9.2", "--raw": "coreutils 9.2 (cksum), procps 4.0.4 (uptime)",
	"-y": "grep, obsolete synonym of -i", "-X": "util-linux 2.39 (hexdump)", "--one-byte-hex": "util-linux 2.39",
	"-0": "util-linux 2.39 (rev)", "--zero": "util-linux 2.39 (rev)", "--all": "GNU which",
	"-v": "bash's test builtin", "-R": "bash's test builtin", "--raw-output0": "jq 1.7", "--stream-errors": "jq 1.7",
	"-h": "jq 1.7; zipinfo", "--help": "jq 1.7", "-V": "jq 1.7", "--build-configuration": "jq 1.7",
	"--signames": "procps 4.0.3", "-n": "ps namelist", "-Z": "ps, documented with its long form --context",
	"-r": "procps 4.0.4", "-c": "procps 4.0.4", "--container": "procps 4.0.4", "-N": "util-linux 2.39", "--nvme": "util-linux 2.39",
	"--virtio": "util-linux 2.39", "-p": "procps 4 (w)", "--pids": "procps 4 (w)",
	"-O0": "find, documented as -Olevel", "-O1": "find, documented as -Olevel", "-O2": "find, documented as -Olevel", "-O3": "find, documented as -Olevel",
	"-color": "ip, documented as -c[olor]", "-1": "zipinfo", "-m": "zipinfo",
	"--old-group-format": "diff, documented as --GTYPE-group-format", "--new-group-format": "diff, documented as --GTYPE-group-format",
	"--unchanged-group-format": "diff, documented as --GTYPE-group-format", "--changed-group-format": "diff, documented as --GTYPE-group-format",
	"--old-line-format": "diff, documented as --LTYPE-line-format", "--new-line-format": "diff, documented as --LTYPE-line-format",
	"--unchanged-line-format": "diff, documented as --LTYPE-line-format",
	"-b":                      "sed, refused: only with -i", "--binary": "sed, refused: only with -i",
}

// TestFlagsInManual checks that every flag name of every built-in entry
// appears in the program's manual page or --help text on this machine:
// flags noted "BSD:" are BSD's, newerThanInstalled lists the others, and
// find's -newerXY is documented as a pattern. The awk entries follow
// gawk's manual, so they are skipped where awk is another awk. It runs
// only with -manual, since it depends on what is installed; programs that
// are not are skipped.
func TestFlagsInManual(t *testing.T) {
	if !*manual {
		t.Skip("run with -manual")
	}
	entries := allowlist.Builtin()
	texts := map[string]string{}
	for _, e := range entries {
		page := strings.Join(e.Words, "-")
		if e.Words[0] == "[" {
			page = "test"
		}
		text, ok := texts[page]
		if !ok {
			text = manText(page) + manText(e.Words[0]) + helpText(e.Words)
			for i := len(e.Words) - 1; i > 1; i-- {
				text += manText(strings.Join(e.Words[:i], "-"))
			}
			if e.Words[0] == "git" {
				// log, show, reflog, stash, shortlog and the diff plumbing
				// share the revision and diff options of these pages.
				for _, p := range []string{"git-log", "git-diff", "git-rev-list", "git-diff-tree", "git-blame"} {
					text += manText(p)
				}
			}
			texts[page] = text
		}
		if strings.Contains(e.Note, "awk program") && !strings.Contains(text, "--sandbox") {
			t.Logf("%s: the installed awk is not gawk; skipped", e.Name())
			continue
		}
		if strings.TrimSpace(text) == "" {
			t.Logf("%s: no manual or help here; skipped", e.Name())
			continue
		}
		for _, f := range e.FlagList() {
			if strings.HasPrefix(f.Note, "BSD") || strings.Contains(f.Note, "BSD:") {
				continue
			}
			for _, n := range f.Names {
				if newerThanInstalled[n] != "" || strings.HasPrefix(n, "-newer") && len(n) == 8 {
					continue
				}
				if !mentions(text, n) {
					t.Errorf("%s: %s (%s) is not in its manual or --help", e.Name(), n, f.Note)
				}
			}
		}
	}
}

var manPages = map[string]string{}

func manText(page string) string {
	if text, ok := manPages[page]; ok {
		return text
	}
	out, err := exec.Command("man", "-P", "cat", page).Output()
	if err != nil {
		out = nil
	}
	manPages[page] = regexp.MustCompile(".\b").ReplaceAllString(string(out), "")
	return manPages[page]
}

func helpText(words []string) string {
	out, _ := exec.Command(words[0], append(append([]string{}, words[1:]...), "--help")...).CombinedOutput()
	if len(words) > 1 && words[0] == "git" {
		more, _ := exec.Command(words[0], append(append([]string{}, words[1:]...), "-h")...).CombinedOutput()
		out = append(out, more...)
	}
	return string(out)
}

func mentions(text, name string) bool {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9-])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9-])`)
	return re.MatchString(text)
}
