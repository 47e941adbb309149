package cmd

import (
	"os/exec"
	"path/filepath"
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
