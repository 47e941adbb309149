package resolve_test

import (
	"os"
	"testing"

	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/resolve"
)

// BenchmarkCheckLs is the cost of looking at the disk for an allowed
// "ls -d /": the program on PATH, the project root, one word.
func BenchmarkCheckLs(b *testing.B) {
	wd, _ := os.Getwd()
	home := os.Getenv("HOME")
	o := resolve.Options{Cwd: wd, Home: home, Environ: os.Environ(),
		Paths: gate.Paths{Home: home, Cwd: wd, Self: gate.DefaultSelf, Sensitive: gate.DefaultSensitive}}
	for b.Loop() {
		resolve.Check(o, [][]string{{"ls", "-d", "/"}}, nil)
	}
}
