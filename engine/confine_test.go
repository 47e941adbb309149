package engine_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/engine"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/sandbox"
)

func testEngine(s sandbox.Support) *engine.Engine {
	return &engine.Engine{
		Getenv: func(string) string { return "" }, Environ: func() []string { return nil }, Now: time.Now,
		StateDir: "/nonexistent", Vet: func(j *engine.Judgement) gate.Decision { return j.Decision },
		Probe: func() sandbox.Support { return s },
	}
}

func userRule(prefix, level string) allowlist.Rule {
	return allowlist.Rule{Kind: allowlist.Allow, Prefix: strings.Fields(prefix), Sandbox: level,
		Source: allowlist.Source{Name: "/home/u/.config/agentgate/config.toml", Line: 3}}
}

// The level a command runs under: built-ins read-only, user rules their own
// (default none), never below the floor; a split compound at its loosest.
func TestConfinement(t *testing.T) {
	rules := append(allowlist.Defaults(), userRule("make test", ""), userRule("go test", "workspace"), userRule("gh pr list", "read-only+network"))
	for _, tt := range []struct {
		cmd   string
		floor sandbox.Level
		want  sandbox.Level
	}{
		{"ls -la", "", sandbox.ReadOnly},
		{"git status", "", sandbox.ReadOnly},
		{"make test", "", sandbox.None},
		{"make test", sandbox.ReadOnly, sandbox.ReadOnly},
		{"go test ./...", "", sandbox.Workspace},
		{"go test ./...", sandbox.ReadOnlyNetwork, sandbox.ReadOnlyNetwork},
		{"gh pr list", "", sandbox.ReadOnlyNetwork},
		{"ls && make test", "", sandbox.None},
		{"ls && gh pr list", "", sandbox.ReadOnlyNetwork},
	} {
		cfg := &config.Config{Rules: rules, Compound: "split", MinRuleSandbox: tt.floor}
		j := testEngine(sandbox.Support{OS: "linux", LandlockABI: 7, Seccomp: true}).Judge(engine.Proposal{Text: tt.cmd, Cwd: "/home/u/proj", Home: "/home/u", Session: "s", Hardened: true}, cfg)
		if j.Decision.Verdict() != gate.Allow {
			t.Errorf("%q: %s, want allow", tt.cmd, j.Decision.Verdict())
			continue
		}
		if got, _ := engine.Confinement(j); got != tt.want {
			t.Errorf("%q with floor %q: level %q, want %q", tt.cmd, tt.floor, got, tt.want)
		}
	}
}

// sandbox = "require" turns an auto-allow into an ask on a kernel that
// cannot fully confine; best effort runs it.
func TestSandboxRequire(t *testing.T) {
	weak := sandbox.Support{OS: "linux", LandlockABI: 7}
	for _, require := range []bool{false, true} {
		cfg := &config.Config{Rules: allowlist.Defaults(), SandboxRequire: require, SandboxSource: "policy.toml"}
		j := testEngine(weak).Judge(engine.Proposal{Text: "ls", Cwd: "/home/u/proj", Home: "/home/u", Session: "s", Hardened: true}, cfg)
		if require && (j.Decision.Verdict() != gate.Ask || j.Decision.Primary().Check != gate.CheckSandbox ||
			!strings.Contains(j.Decision.Primary().Message, "it could still execute memory files")) {
			t.Errorf("require on a weak kernel: %s %v", j.Decision.Verdict(), j.Decision.Reasons())
		}
		if !require && j.Decision.Verdict() != gate.Allow {
			t.Errorf("best effort on a weak kernel: %s %v", j.Decision.Verdict(), j.Decision.Reasons())
		}
	}
	// seccomp keeps the signal and truncation promises of older Landlocks
	cfg := &config.Config{Rules: allowlist.Defaults(), SandboxRequire: true}
	if j := testEngine(sandbox.Support{OS: "linux", LandlockABI: 3, Seccomp: true}).Judge(engine.Proposal{Text: "ls", Cwd: "/p", Home: "/h", Session: "s", Hardened: true}, cfg); j.Decision.Verdict() != gate.Allow {
		t.Errorf("require on Landlock ABI 3 with seccomp: %v", j.Decision.Reasons())
	}
	full := sandbox.Support{OS: "linux", LandlockABI: 7, Seccomp: true}
	if j := testEngine(full).Judge(engine.Proposal{Text: "ls", Cwd: "/p", Home: "/h", Session: "s", Hardened: true}, cfg); j.Decision.Verdict() != gate.Allow {
		t.Errorf("require on a full kernel: %v", j.Decision.Reasons())
	}
}

// A user rule that names a sandbox level asks where the kernel cannot keep
// the level's promises; a rule without one, and the built-ins, run.
func TestUnkeptLevelAsks(t *testing.T) {
	noSeccomp := sandbox.Support{OS: "linux", LandlockABI: 7}
	rules := append(allowlist.Defaults(), userRule("make test", ""), userRule("go test", "workspace"), userRule("gh pr list", "read-only+network"))
	for _, tt := range []struct {
		cmd  string
		want gate.Verdict
	}{
		{"ls", gate.Allow},
		{"make test", gate.Allow},
		{"go test ./...", gate.Ask},
		{"gh pr list", gate.Ask},
	} {
		cfg := &config.Config{Rules: rules, Compound: "split"}
		j := testEngine(noSeccomp).Judge(engine.Proposal{Text: tt.cmd, Cwd: "/home/u/proj", Home: "/home/u", Session: "s", Hardened: true}, cfg)
		if j.Decision.Verdict() != tt.want {
			t.Errorf("%q without seccomp: %s %v, want %s", tt.cmd, j.Decision.Verdict(), j.Decision.Reasons(), tt.want)
		}
		if tt.want == gate.Ask && !strings.Contains(j.Decision.Primary().Message, "cannot be kept on this kernel") {
			t.Errorf("%q: the reason does not say why: %v", tt.cmd, j.Decision.Reasons())
		}
		j = testEngine(sandbox.Support{OS: "linux", LandlockABI: 7, Seccomp: true}).Judge(engine.Proposal{Text: tt.cmd, Cwd: "/home/u/proj", Home: "/home/u", Session: "s", Hardened: true}, cfg)
		if j.Decision.Verdict() != gate.Allow {
			t.Errorf("%q on a full kernel: %s %v", tt.cmd, j.Decision.Verdict(), j.Decision.Reasons())
		}
	}
}

// A proposal that is not Hardened (a host runs the command itself, or a
// file tool) is judged strictly: the git keys gitsafe would neutralise
// when agentgate runs the command ask. The zero value is that strict one.
func TestProposalStrictUnlessHardened(t *testing.T) {
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Skipf("git: %v %s", err, out)
	}
	cfgPath := filepath.Join(repo, ".git", "config")
	old, _ := os.ReadFile(cfgPath)
	os.WriteFile(cfgPath, append(old, []byte("[core]\n\tpager = less -R\n")...), 0o644)
	cfg := &config.Config{Rules: allowlist.Defaults(), Compound: "split"}
	e := testEngine(sandbox.Support{OS: "linux", LandlockABI: 7, Seccomp: true})
	e.Vet = nil // the real checks of the world
	for _, hardened := range []bool{true, false} {
		j := e.Judge(engine.Proposal{Text: "git log", Cwd: repo, Home: t.TempDir(), Session: "s", Hardened: hardened}, cfg)
		if got, want := j.Decision.Verdict(), map[bool]gate.Verdict{true: gate.Allow, false: gate.Ask}[hardened]; got != want {
			t.Errorf("hardened=%v: %s %v, want %s", hardened, got, j.Decision.Reasons(), want)
		}
	}
}

// A workspace rule's extra writable paths may not hold the home, the
// shell's startup files, the agents' settings or agentgate's own files: a
// red team widened a trusted rule with writable = [HOME] and wrote
// ~/.bashrc. Such a rule asks; a cache directory is fine.
func TestWritableMayNotHoldProtected(t *testing.T) {
	for _, tt := range []struct {
		writable string
		want     gate.Verdict
	}{
		{"/home/u/.cache/go-build", gate.Allow},
		{"/srv/out", gate.Allow},
		{"/home/u", gate.Ask},
		{"/home", gate.Ask},
		{"/home/u/.config", gate.Ask},
		{"/home/u/.config/agentgate", gate.Ask},
		{"/home/u/.ssh", gate.Ask},
		{"/home/u/.claude", gate.Ask},
	} {
		r := userRule("go test", "workspace")
		r.Writable = []string{tt.writable}
		cfg := &config.Config{Rules: append(allowlist.Defaults(), r), Compound: "split"}
		j := testEngine(sandbox.Support{OS: "linux", LandlockABI: 7, Seccomp: true}).Judge(engine.Proposal{Text: "go test ./...", Cwd: "/home/u/proj", Home: "/home/u", Session: "s", Hardened: true}, cfg)
		if got := j.Decision.Verdict(); got != tt.want {
			t.Errorf("writable %s: %s (%s), want %s", tt.writable, got, j.Decision.Primary().Message, tt.want)
		}
	}
}
