package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentgate/agentgate/runner"
)

// BenchmarkExecLs is one allowed call of exec in the process, without the
// process start bench/overhead.sh measures: config, judgement, the checks
// of the file system, the plan (the program is not run).
func BenchmarkExecLs(b *testing.B) {
	home := b.TempDir()
	for i := 0; i < b.N; i++ {
		env, _, _ := testEnv()
		env.Getenv = func(k string) string { return map[string]string{"HOME": home, "AGENTGATE_TTY": "none"}[k] }
		env.Getwd = func() (string, error) { return home, nil }
		env.Exec = func(runner.Plan) error { return nil }
		// AGENTGATE_TTY=none is unwatched: the command would run as a
		// child, through Run.
		env.Run = func(runner.Plan) (int, error) { return 0, nil }
		if err := execRun(&ExecOptions{Env: env, Args: []string{"ls"}}); err != nil && err != exitStatus(0) {
			b.Fatal(err)
		}
	}
}

// BenchmarkHookGitStatus is one hooked call of git status in a fresh
// repository, in the process: event decoding, config, judgement with the
// repository's configuration vetted, the answer. bench/hook.sh measures
// the whole process against a Go program's start.
func BenchmarkHookGitStatus(b *testing.B) {
	home := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", home).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v %s", err, out)
	}
	event := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"},"cwd":"` + home + `","session_id":"s","permission_mode":"default"}`
	for i := 0; i < b.N; i++ {
		env, out, errb := testEnv()
		vars := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_CONFIG_HOME": filepath.Join(home, "cfg")}
		env.Getenv = func(k string) string { return vars[k] }
		env.Getwd = func() (string, error) { return home, nil }
		o := &HookOptions{Env: env, Host: "claude", Stdin: strings.NewReader(event), Deadline: 10 * time.Second,
			Self: func() (string, error) { return "/opt/agentgate", nil }}
		if code := exitCode(hookRun(o), errb); code != 0 || !strings.Contains(out.String(), `"permissionDecision":"allow"`) {
			b.Fatalf("exit %d: %s %s", code, out, errb)
		}
	}
}

// BenchmarkCheckGitGrep is one check of git grep in a repository of
// 10,000 tracked files, in the process: every path of the index is
// judged where git grep reads it (names, index form, hard links), which
// is what this costs beside bench/hook.sh's small repository.
func BenchmarkCheckGitGrep(b *testing.B) {
	home := b.TempDir()
	repo := filepath.Join(home, "repo")
	for d := range 100 {
		dir := filepath.Join(repo, "src", "pkg"+strconv.Itoa(d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			if err := os.WriteFile(filepath.Join(dir, "file"+strconv.Itoa(f)+".go"), []byte("package x\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		c := exec.Command("git", args...)
		c.Dir = repo
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env, out, _ := testEnv()
		vars := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_CONFIG_HOME": filepath.Join(home, "cfg")}
		env.Getenv = func(k string) string { return vars[k] }
		env.Getwd = func() (string, error) { return repo, nil }
		checkRun(&CheckOptions{Env: env, Args: []string{"git grep foo"}, Session: "s1"})
		if !strings.Contains(out.String(), "decision: allow") {
			b.Fatalf("git grep was not allowed: %s", out)
		}
	}
}
