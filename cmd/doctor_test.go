package cmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/sandbox"
)

// doctor names what this kernel enforces, and fails when the configuration
// requires confinement the kernel cannot give.
func TestDoctorSandbox(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".config", "agentgate"), 0o700)
	for _, tt := range []struct {
		support sandbox.Support
		config  string
		code    int
		want    string
	}{
		{sandbox.Support{OS: "linux", LandlockABI: 7, Seccomp: true}, "", 0, "run fully confined"},
		{sandbox.Support{OS: "linux", LandlockABI: 7, Seccomp: true}, "", 0, "signal processes outside                                 Landlock ABI 6 and seccomp"},
		{sandbox.Support{OS: "linux", LandlockABI: 3, Seccomp: true}, "", 0, "signal processes outside                                 seccomp\n"},
		{sandbox.Support{OS: "linux", LandlockABI: 3, Seccomp: true}, "", 0, "run fully confined"},
		{sandbox.Support{OS: "linux", LandlockABI: 7}, "", 0, "read-only, partial: could still execute memory files"},
		{sandbox.Support{OS: "linux", LandlockABI: 7}, "", 0, "reach the network                                        NOTHING on this kernel"},
		{sandbox.Support{OS: "linux", LandlockABI: 7}, "", 0, "user rules whose sandbox level this kernel cannot keep ask"},
		{sandbox.Support{OS: "linux", Seccomp: true}, "sandbox = \"require\"\n", 1, "every auto-allowed command asks"},
		{sandbox.Support{OS: "darwin"}, "", 0, "unavailable"},
	} {
		os.WriteFile(filepath.Join(home, ".config", "agentgate", "config.toml"), []byte(tt.config), 0o600)
		env, out, _ := testEnv()
		env.Getenv = func(k string) string {
			return map[string]string{"HOME": home}[k]
		}
		env.Policy = filepath.Join(home, "none.toml")
		err := doctorRun(&DoctorOptions{Env: env, Probe: func() sandbox.Support { return tt.support }})
		code := 0
		var st exitStatus
		if errors.As(err, &st) {
			code = int(st)
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tt.code || !strings.Contains(out.String(), tt.want) {
			t.Errorf("%+v %q: exit %d, output:\n%s\nwant exit %d and %q", tt.support, tt.config, code, out, tt.code, tt.want)
		}
	}
}

// install refuses to record a binary that will not stay where it is.
func TestUnstablePath(t *testing.T) {
	home := t.TempDir()
	checkout := filepath.Join(home, "src", "agentgate")
	os.MkdirAll(filepath.Join(checkout, "cmd"), 0o755)
	os.WriteFile(filepath.Join(checkout, "go.mod"), []byte("module github.com/agentgate/agentgate\n\ngo 1.26\n"), 0o644)
	other := filepath.Join(home, "src", "tool")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/tool\n"), 0o644)
	temps := []string{"/tmp", "/scratch/me"}
	for _, tt := range []struct {
		path, want string
	}{
		{"/tmp/go-build123/b001/exe/agentgate", "temporary directory"},
		{"/scratch/me/agentgate", "temporary directory"},
		{filepath.Join(home, ".cache", "go-build", "ab", "agentgate"), "build cache"},
		{filepath.Join(checkout, "agentgate"), "source checkout"},
		{filepath.Join(checkout, "cmd", "agentgate"), "source checkout"},
		{filepath.Join(other, "agentgate"), ""},
		{"/usr/local/bin/agentgate", ""},
	} {
		if strings.HasPrefix(tt.path, home) {
			temps = []string{"/scratch/me"} // this test's own home is in /tmp
		}
		got := unstablePath(tt.path, home, temps)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.path, got, tt.want)
		}
	}
}
