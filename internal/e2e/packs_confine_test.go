package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Pack commands run confined at "read-only+network" and still work: the
// same stdout and exit status as run directly, for each pack whose program
// is installed here.
func TestPacksWorkConfined(t *testing.T) {
	requireLandlock(t)
	h := newHome(t)
	os.MkdirAll(filepath.Join(h.dir, "config", "agentgate"), 0o700)
	cfg := "packs = [\"go\", \"cargo\", \"npm\", \"pip\", \"gh\", \"docker\", \"kubectl\"]\n"
	if err := os.WriteFile(filepath.Join(h.dir, "config", "agentgate", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	// Toolchain managers find their installs from these.
	var pass []string
	for _, k := range []string{"RUSTUP_HOME", "CARGO_HOME", "PYENV_ROOT", "GOROOT"} {
		if v := os.Getenv(k); v != "" {
			pass = append(pass, k+"="+v)
		}
	}
	if _, err := os.Stat("/root/.rustup"); err == nil && os.Getenv("RUSTUP_HOME") == "" {
		pass = append(pass, "RUSTUP_HOME=/root/.rustup")
	}
	for _, text := range []string{"go version", "go env GOOS GOARCH", "cargo --version", "npm --version", "pip --version",
		"gh --version", "docker --version", "kubectl version --client"} {
		t.Run(text, func(t *testing.T) {
			path, err := exec.LookPath(strings.Fields(text)[0])
			if err != nil {
				t.Skipf("%s is not installed", strings.Fields(text)[0])
			}
			if strings.Contains(path, "/shims/") || strings.Contains(path, "/.cargo/bin/") {
				// A toolchain proxy (pyenv, rustup) executes the real
				// program, which confinement does not allow: known, and
				// reported; a system install works.
				t.Skipf("%s is a toolchain proxy that runs programs under the home directory, which confinement does not let it execute", path)
			}
			env := h.env(append(pass, "AGENTGATE_TTY=none", "GOCACHE="+t.TempDir(), "GOPATH="+t.TempDir())...)
			check := exec.Command(agentgateBinary(t), "check", "--", text)
			check.Dir, check.Env = h.work, env
			out, _ := check.Output()
			if !strings.Contains(string(out), "decision: allow") {
				t.Fatalf("not allowed by its pack:\n%s", out)
			}
			if !strings.Contains(string(out), "sandbox:  read-only+network\n") {
				t.Skipf("not confined read-only+network here:\n%s", out)
			}
			gated := exec.Command(agentgateBinary(t), "exec", "--", text)
			gated.Dir, gated.Env = h.work, env
			direct := exec.Command("bash", "-c", text)
			direct.Dir, direct.Env = h.work, env
			var gerr, derr bytes.Buffer
			gated.Stderr, direct.Stderr = &gerr, &derr
			gout, gErr := gated.Output()
			dout, dErr := direct.Output()
			if code(dErr) != 0 || len(dout) == 0 {
				t.Skipf("does not work here even directly: exit %d, stderr %q", code(dErr), derr.String())
			}
			if code(gErr) != code(dErr) || !bytes.Equal(gout, dout) {
				t.Errorf("confined: exit %d, %q, stderr %q; direct: exit %d, %q", code(gErr), gout, gerr.String(), code(dErr), dout)
			}
		})
	}
}
