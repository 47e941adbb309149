package allowlist

import (
	"github.com/agentgate/agentgate/internal/testenv"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// A program's table is built when a command names it, not at start-up
// (issue 16: reading every flag of the catalogue was a third of each
// call's time). In a fresh process, judging "ls -la" and "git log" builds
// those entries and almost nothing else.
func TestTablesBuiltOnFirstUse(t *testing.T) {
	if os.Getenv("AGENTGATE_LAZY_CHILD") == "1" {
		for _, argv := range [][]string{{"ls", "-la"}, {"git", "log", "--oneline"}} {
			for _, e := range builtin {
				if len(e.Words) <= len(argv) && strings.Join(argv[:len(e.Words)], " ") == e.Name() {
					e.Judge(argv)
				}
			}
		}
		built := 0
		for _, e := range builtin {
			if e.index != nil {
				built++
			}
		}
		os.Stdout.WriteString("built=" + strconv.Itoa(built) + " of " + strconv.Itoa(len(builtin)) + "\n")
		return
	}
	testenv.NoRaceExitSleep()
	c := exec.Command(os.Args[0], "-test.run=^TestTablesBuiltOnFirstUse$")
	c.Env = append(os.Environ(), "AGENTGATE_LAZY_CHILD=1")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var built, total int
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "built="); ok {
			f := strings.Fields(rest)
			built, _ = strconv.Atoi(f[0])
			total, _ = strconv.Atoi(f[2])
		}
	}
	if total < 100 || built == 0 || built > 5 {
		t.Errorf("after judging ls and git log, %d of %d tables are built; want the few those name\n%s", built, total, out)
	}
}
