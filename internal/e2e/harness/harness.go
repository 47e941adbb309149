// Package harness is what the end-to-end test packages share: the
// agentgate binary they run, built once per test process as the README
// builds it, and the repository's top.
package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// ModuleRoot is the repository's top, from this file's own path: the
// tests run with their own working directories.
func ModuleRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// Binary is agentgate built from this tree, once per process: as the
// README builds it, CGO_ENABLED=0, a static binary with no loader for a
// planted LD_PRELOAD to steer.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agentgate-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "agentgate")
		build := exec.Command("go", "build", "-o", binPath, ".")
		build.Dir, build.Env = ModuleRoot(), append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = &buildError{err, string(out)}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }
