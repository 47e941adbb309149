package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// audit log --follow prints records as they are appended, across a
// rotation of the log, each once and in order.
func TestAuditFollow(t *testing.T) {
	dir := t.TempDir()
	bin := agentgateBinary(t)
	env := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "AGENTGATE_TTY=none",
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config")}
	os.MkdirAll(filepath.Join(dir, "config", "agentgate"), 0o700)
	// A tiny max_size makes every append rotate.
	os.WriteFile(filepath.Join(dir, "config", "agentgate", "config.toml"), []byte("[audit]\nmax_size = \"1B\"\n"), 0o600)
	escalate := func(cmd string) {
		c := exec.Command(bin, "exec", "--", cmd)
		c.Env, c.Dir = env, dir
		c.Run()
	}
	escalate("touch before-follow")
	f := exec.Command(bin, "audit", "log", "--follow")
	f.Env, f.Dir = env, dir
	out, err := f.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Start(); err != nil {
		t.Fatal(err)
	}
	defer f.Process.Kill()
	lines := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// No sleep decides what is seen: one reader goes from the first record
	// to the last appended, so a record written while follow starts is
	// printed once either way, and every append rotates the log.
	want := []string{"touch before-follow", "touch first-followed", "touch second-followed"}
	escalate("touch first-followed")
	escalate("touch second-followed")
	for _, w := range want {
		select {
		case l := <-lines:
			if !strings.Contains(l, w) {
				t.Fatalf("followed %q; want %q", l, w)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no line for %q", w)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "state", "agentgate", "audit-*.jsonl"))
	if len(files) < 2 {
		t.Errorf("the log did not rotate: %v", files)
	}
}
