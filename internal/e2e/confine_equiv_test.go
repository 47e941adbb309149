package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureRepo is a small repository with history, a change and nested
// directories, for the built-in rules to read.
func fixtureRepo(t *testing.T, dir string) {
	t.Helper()
	run := func(args ...string) {
		c := exec.Command("git", args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a",
			"GIT_COMMITTER_EMAIL=a@example.com", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q", "-b", "main")
	write("a.txt", "hello\nworld\n")
	write("src/b.txt", "hello from b\n")
	run("add", ".")
	run("commit", "-qm", "first")
	write("a.txt", "hello\nthere\nworld\n")
	write("src/deep/c.txt", "hello deep\n")
	run("commit", "-qam", "second")
	write("a.txt", "hello\nchanged\n")
}

// The built-in rules still work confined: stdout and exit status are the
// same as the command run directly, on a fixture repository.
func TestBuiltinsWorkConfined(t *testing.T) {
	requireLandlock(t)
	h := newHome(t)
	fixtureRepo(t, h.work)
	big := make([]byte, 10<<20)
	rand.Read(big)
	sortInput := []byte(hex.EncodeToString(big)) // 20 MB of hex...
	for i := 64; i < len(sortInput); i += 65 {
		sortInput[i] = '\n' // ...in lines of 64, so sort needs temporary files
	}
	cmds := []string{"git status", "git log -p", "git diff", "git show", "git blame src/b.txt", "ls -la", "grep -r hello .",
		"find . -type f", "wc -l a.txt src/b.txt", "sort -S 1M", "rg --sort path hello .", "cat a.txt", "git diff --stat HEAD~1"}
	for _, text := range cmds {
		t.Run(text, func(t *testing.T) {
			program := strings.Fields(text)[0]
			if _, err := exec.LookPath(program); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatalf("%s is not installed; .ci/run installs it", program)
				}
				t.Skipf("%s is not installed", program)
			}
			check := exec.Command(agentgateBinary(t), "check", "--", text)
			check.Dir, check.Env = h.work, h.env("AGENTGATE_TTY=none")
			if out, err := check.Output(); err != nil || !strings.Contains(string(out), "sandbox:  read-only\n") {
				t.Skipf("not auto-allowed and confined read-only by the built-in rules here (%v):\n%s", err, out)
			}
			stdin := func() *bytes.Reader {
				if text == "sort -S 1M" {
					return bytes.NewReader(sortInput)
				}
				return bytes.NewReader(nil)
			}
			gated := exec.Command(agentgateBinary(t), "exec", "--", text)
			gated.Dir, gated.Env, gated.Stdin = h.work, h.env("AGENTGATE_TTY=none", "TMPDIR="+t.TempDir()), stdin()
			direct := exec.Command("bash", "-c", text)
			direct.Dir, direct.Env, direct.Stdin = h.work, h.env("TMPDIR="+t.TempDir()), stdin()
			var gerr, derr bytes.Buffer
			gated.Stderr, direct.Stderr = &gerr, &derr
			gout, gErr := gated.Output()
			dout, dErr := direct.Output()
			if code(gErr) != code(dErr) || !bytes.Equal(gout, dout) {
				t.Errorf("confined: exit %d, %d bytes, stderr %q; direct: exit %d, %d bytes, stderr %q",
					code(gErr), len(gout), gerr.String(), code(dErr), len(dout), derr.String())
			}
			if len(dout) == 0 {
				t.Errorf("the command printed nothing, so the comparison proves little")
			}
		})
	}
}

func code(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
