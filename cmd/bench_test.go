package cmd

import (
	"testing"

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
