package allowlist_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
)

// helpPrograms are programs of the catalogue whose --help lists every
// long option with its value in one format ("--file=FILE", "--label
// LABEL", "--color[=WHEN]", "--binary"; rg's "--glob <GLOB>").
var helpPrograms = []string{"grep", "ls", "cat", "head", "tail", "wc", "sort", "uniq", "cut", "diff", "du", "df",
	"date", "stat", "nl", "tr", "comm", "join", "paste", "fold", "fmt", "od", "base64", "md5sum", "sha256sum",
	"readlink", "realpath", "basename", "dirname", "id", "uname", "env", "printenv", "tac", "expand", "unexpand", "pr", "rg"}

var helpOption = regexp.MustCompile(`(--[A-Za-z0-9][A-Za-z0-9-]*)(\[=[^\]\s]+\]|=[^\s,]+| [A-Z][A-Z_]+\b| <[^>\s]+>)?`)

// helpArity reads prog --help: each long option, and whether it takes a
// value ("=" required, "[=" optional, none).
func helpArity(t *testing.T, prog string) map[string]string {
	c := exec.Command(prog, "--help")
	c.Env = []string{"LANG=C", "LC_ALL=C", "PATH=/usr/bin:/bin"}
	out, err := c.Output()
	if err != nil && len(out) == 0 {
		return nil
	}
	arity := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		// Option lines are indented a little; descriptions, which may
		// start with a flag's name too, more.
		if indent := len(line) - len(trimmed); !strings.HasPrefix(trimmed, "-") || indent == 0 || indent > 8 {
			continue
		}
		// The option column ends at the first run of two spaces.
		col, _, _ := strings.Cut(trimmed, "  ")
		for _, m := range helpOption.FindAllStringSubmatch(col, -1) {
			a := "none"
			switch {
			case strings.HasPrefix(m[2], "[="):
				a = "optional"
			case m[2] != "":
				a = "required"
			}
			// Listed both bare and with a value ("--check,
			// --check=quiet"; "--time" and "--time=WORD"): optional.
			if old, ok := arity[m[1]]; ok && old != a {
				a = "optional"
			}
			arity[m[1]] = a
		}
	}
	return arity
}

// Every long flag of a catalogue entry takes a value exactly when the
// program's own --help says it does (issue 16: a reading that gives a
// switch a value eats the next word, the pattern or an --exclude, and
// the gate's reading and the program's part ways).
func TestHelpArity(t *testing.T) {
	checked := 0
	for _, prog := range helpPrograms {
		if _, err := exec.LookPath(prog); err != nil {
			continue
		}
		arity := helpArity(t, prog)
		if len(arity) == 0 {
			continue
		}
		for _, e := range allowlist.Builtin() {
			if len(e.Words) != 1 || e.Words[0] != prog {
				continue
			}
			for _, f := range e.FlagList() {
				for _, n := range f.Names {
					help, ok := arity[n]
					if !ok || !strings.HasPrefix(n, "--") {
						continue
					}
					checked++
					want := "none"
					switch {
					case f.Value != "" && f.Optional && !contains(f.Bare, n):
						want = "optional"
					case f.Value != "" && !contains(f.Bare, n):
						want = "required"
					}
					if help != want {
						t.Errorf("%s %s: the catalogue reads its value as %s, %s --help as %s (spec %q)", prog, n, want, prog, help, f.Spec())
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Skip("none of the GNU programs is installed here")
	}
	t.Logf("%d long flags checked against --help", checked)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
