package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The README's first screen gives two commands: one that builds agentgate
// and runs a real command through it, one that runs the tests. Both are
// there, and the first works here as written (with the binary this test
// run built).
func TestReadmeQuickstart(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(strings.SplitN(string(data), "```sh\n", 2)[1], "```")
	if !strings.Contains(first, "go build -o agentgate . && ./agentgate exec -- 'git status'") ||
		!strings.Contains(first, "go test -race ./...") {
		t.Fatalf("the README's first block lost its two commands:\n%s", first)
	}
	if _, err := os.Stat(filepath.Join(moduleRoot(), ".git")); err != nil {
		t.Skip("not a git checkout")
	}
	h := newHome(t)
	c := exec.Command(agentgateBinary(t), "exec", "--", "git status")
	c.Dir, c.Env = moduleRoot(), h.env("AGENTGATE_TTY=none")
	out, err := c.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "On branch") && !strings.Contains(string(out), "HEAD detached") {
		t.Errorf("./agentgate exec -- 'git status' in this checkout: %v\n%s", err, out)
	}
}
