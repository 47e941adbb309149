package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentgate/agentgate/hook"
	"github.com/agentgate/agentgate/hostcheck"
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

// TestDoctorLiveOverrideIsAProblem: with --live, a host's own allow rule
// is a problem exactly when the live check saw such a rule run what
// agentgate asks about; when the check saw agentgate's question hold, or
// showed nothing, it stays a note. (What the check sees of a real host is
// hostcheck's and the end-to-end tests'; here it is given.)
func TestDoctorLiveOverrideIsAProblem(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "claude"), []byte("#!/bin/sh\necho '2.1.328 (Claude Code)'\n"), 0o755)
	s := hook.Setup{Home: home, Self: filepath.Join(bin, "agentgate"), Now: time.Now}
	if _, _, err := s.Install("claude", hook.User); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, ".claude", "settings.json")
	b, _ := os.ReadFile(path)
	var doc map[string]any
	json.Unmarshal(b, &doc)
	doc["permissions"] = map[string]any{"allow": []any{"Bash(npm test:*)"}}
	b, _ = json.Marshal(doc)
	os.WriteFile(path, b, 0o644)

	saved := liveCheckers["claude"]
	t.Cleanup(func() { liveCheckers["claude"] = saved })
	doctor := func(live bool, o hostcheck.Outcome) (string, int) {
		liveCheckers["claude"] = func(context.Context, hostcheck.Check) hostcheck.Result {
			return hostcheck.Result{Outcome: o, Detail: "given"}
		}
		env, out, _ := testEnv()
		env.Getenv = func(k string) string {
			return map[string]string{"HOME": home, "PATH": bin}[k]
		}
		n := env.doctorHosts(out, live)
		return out.String(), n
	}
	problem := "problem: " + path + " allows Bash(npm test:*): on the installed Claude Code such a rule runs what agentgate asks about"
	base, n0 := doctor(false, hostcheck.Overrides)
	over, n1 := doctor(true, hostcheck.Overrides)
	held, n2 := doctor(true, hostcheck.Holds)
	none, n3 := doctor(true, hostcheck.Inconclusive)
	switch {
	case strings.Contains(base, "live check") || strings.Contains(base, problem) || !strings.Contains(base, "'agentgate doctor --live' shows it"):
		t.Errorf("without --live no check runs and the rule is a note:\n%s", base)
	case !strings.Contains(over, problem) || n1 != n0+1:
		t.Errorf("a check that saw the rule override is a problem (%d problems, %d without):\n%s", n1, n0, over)
	case !strings.Contains(held, "still shows agentgate's question for matching commands (doctor --live)") || n2 != n0:
		t.Errorf("a check that saw the question hold leaves a note (%d problems, %d without):\n%s", n2, n0, held)
	case !strings.Contains(none, "live check (a stand-in model on 127.0.0.1, a throwaway home): inconclusive: given") || n3 != n0:
		t.Errorf("an inconclusive check is said and leaves a note (%d problems):\n%s", n3, none)
	}
}
