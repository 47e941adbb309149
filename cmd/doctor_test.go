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
