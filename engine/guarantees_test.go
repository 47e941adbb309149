package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/session"
)

// TestRouteTable holds the engine's routing to its promises across
// decision kind x mode x session memory x out-of-band grant (issue 19:
// five promises survived a mutation of the code that keeps them):
//   - session memory never runs a sticky ask;
//   - an out-of-band approval is not honoured in ci or readonly;
//   - a deny is a deny whatever memory or grant says;
//   - an allow runs, with no record.
func TestRouteTable(t *testing.T) {
	kinds := map[string]gate.Decision{
		"allow":  gate.Decide(gate.Request{Text: "ls", Rules: allowlist.Defaults()}),
		"ask":    gate.Decide(gate.Request{Text: "touch x", Rules: allowlist.Defaults()}),
		"sticky": gate.Escalate(gate.Decide(gate.Request{Text: "ls", Rules: allowlist.Defaults()}), gate.Reason{Check: gate.CheckSensitive, Match: "x", Message: "x reaches a key"}),
		"deny":   gate.Decide(gate.Request{Text: "rm -rf /"}),
	}
	if !kinds["sticky"].Sticky() || kinds["deny"].Verdict() != gate.Deny || kinds["ask"].Verdict() != gate.Ask {
		t.Fatal("the decisions of the table are not what they claim")
	}
	for kind, d := range kinds {
		for _, mode := range []config.Mode{config.ModeDefault, config.ModeCI, config.ModeReadonly, config.ModeBypass} {
			for _, memory := range []string{"", session.Allowed, session.Denied} {
				for _, grant := range []bool{false, true} {
					e, _, cfg := pendingEngine(t)
					cfg.Mode, cfg.ModeSource = mode, "test"
					j := judgement(cfg, "cmd "+kind, "/p", "s1")
					j.Decision = d
					// A "yes for the session" carries what its words
					// reached when the person said it (the git files a
					// text may run with among them), as answer.go keeps
					// it: without them no answer would hold for any text,
					// and the table would not show which decisions memory
					// may run.
					var links []string
					if memory == session.Allowed {
						links = linkedWords(j)
					}
					if memory != "" {
						if err := e.Sessions(cfg).Remember("s1", j.Request.Text, "/p", memory, e.Now(), links...); err != nil {
							t.Fatal(err)
						}
					}
					if grant {
						dn := e.Escalate(j).Refuse(NoOneToAsk("test"))
						if dn.Pending != "" {
							if _, err := e.ApprovePending(dn.Pending); err != nil {
								t.Fatal(err)
							}
						}
						if memory != "" { // Refuse recorded a denial for the breaker only
							e.Sessions(cfg).Remember("s1", j.Request.Text, "/p", memory, e.Now(), links...)
						}
					}
					r := e.Route(j)
					name := kind + "/" + string(mode) + "/memory=" + memory
					if grant {
						name += "/grant"
					}
					switch {
					case kind == "allow":
						if r.Action != Run || r.Outcome != "" {
							t.Errorf("%s: %+v; an allow runs with no record", name, r)
						}
					case kind == "deny":
						if r.Action != Refuse {
							t.Errorf("%s: %+v; a deny is refused whatever memory or grant say", name, r)
						}
					case r.Action == Run && r.Outcome == audit.OutcomeAllowedBySession && kind == "sticky":
						t.Errorf("%s: session memory ran a sticky ask", name)
					case r.Action == Run && r.Outcome == audit.OutcomeApprovedOutOfBand && (mode == config.ModeCI || mode == config.ModeReadonly):
						t.Errorf("%s: an out-of-band approval ran in mode %s", name, mode)
					case r.Action == Run && (mode == config.ModeCI || mode == config.ModeReadonly):
						t.Errorf("%s: %+v; ci and readonly run nothing that asks", name, r)
					case r.Action == Run && kind == "sticky" && r.Outcome == audit.OutcomeBypassed:
						t.Errorf("%s: bypass ran a sticky ask", name)
					}
				}
			}
		}
	}
}

// An approved command must not run when its audit record cannot be
// written: Approve says so, and the caller runs nothing.
func TestApproveFailsWhenTheLogCannotBeWritten(t *testing.T) {
	e, _, cfg := pendingEngine(t)
	dir := t.TempDir()
	// A directory where the log should be: no append can succeed.
	e.AuditLog = filepath.Join(dir, "log")
	if err := os.Mkdir(e.AuditLog, 0o755); err != nil {
		t.Fatal(err)
	}
	j := judgement(cfg, "touch x", "/p", "s1")
	err := e.Escalate(j).Approve(audit.OutcomeApprovedOnce)
	if err == nil || !strings.Contains(err.Error(), "not run") {
		t.Fatalf("Approve with an unwritable log: %v; want an error saying the command was not run", err)
	}
}

// The shell a command runs in never carries BASH_ENV, ENV, exported
// functions or CDPATH from agentgate's environment.
func TestShellPlanCleansStartupVariables(t *testing.T) {
	e := &Engine{Environ: func() []string {
		return []string{"BASH_ENV=/tmp/x", "ENV=/tmp/y", "BASH_FUNC_ls%%=() { id; }", "CDPATH=/", "KEEP=1"}
	}}
	p := e.shellPlan("ls | head")
	for _, kv := range p.Env {
		for _, bad := range []string{"BASH_ENV=", "ENV=", "BASH_FUNC_", "CDPATH="} {
			if strings.HasPrefix(kv, bad) {
				t.Errorf("the shell's environment keeps %s", kv)
			}
		}
	}
	if !strings.Contains(strings.Join(p.Env, "\n"), "KEEP=1") {
		t.Errorf("the shell's environment lost an ordinary variable: %q", p.Env)
	}
}

// A command that runs on its own gets the accept-listed environment: no
// loader, git, option or interpreter variable, and a program's own extras
// only for that program; an approved one keeps the person's environment.
func TestAutoAllowedEnvironmentIsAcceptListed(t *testing.T) {
	bin := t.TempDir() // a gh for the plan to find
	os.WriteFile(filepath.Join(bin, "gh"), []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	path := "PATH=" + os.Getenv("PATH")
	environ := []string{"HOME=/h", path, "LC_ALL=C", "LD_PRELOAD=/tmp/x.so", "TAR_OPTIONS=--checkpoint-action=exec=id",
		"GIT_CONFIG_GLOBAL=/tmp/g", "RIPGREP_CONFIG_PATH=/tmp/rg", "NODE_OPTIONS=--require=/tmp/x", "GH_TOKEN=t0ken", "BASH_ENV=/tmp/b"}
	e := &Engine{Environ: func() []string { return environ }, Getenv: func(string) string { return "" }, Probe: nil}
	rules := append(allowlist.Defaults(), allowlist.Rule{Kind: allowlist.Allow, Prefix: []string{"gh", "pr", "list"}, Sandbox: "none",
		Source: allowlist.Source{Name: "/u/config.toml", Line: 1}})
	envOf := func(text string, auto bool) string {
		t.Helper()
		j := &Judgement{Request: gate.Request{Text: text}, Decision: gate.Decide(gate.Request{Text: text, Rules: rules, Split: true}),
			Config: &config.Config{Rules: rules}, Cwd: t.TempDir()}
		if auto && j.Decision.Verdict() != gate.Allow {
			t.Fatalf("%q: %s", text, j.Decision.Verdict())
		}
		p, err := e.Plan(j, auto)
		if err != nil {
			t.Fatal(err)
		}
		return "\n" + strings.Join(p.Env, "\n") + "\n"
	}
	for _, text := range []string{"tar -tf x.tar", "ls | head", "gh pr list"} {
		env := envOf(text, true)
		for _, keep := range []string{"\nHOME=/h\n", "\n" + path + "\n", "\nLC_ALL=C\n"} {
			if !strings.Contains(env, keep) {
				t.Errorf("%q lost %q: %s", text, strings.TrimSpace(keep), env)
			}
		}
		for _, drop := range []string{"LD_PRELOAD=", "TAR_OPTIONS=", "GIT_CONFIG_GLOBAL=", "RIPGREP_CONFIG_PATH=", "NODE_OPTIONS=", "BASH_ENV="} {
			if strings.Contains(env, "\n"+drop) {
				t.Errorf("%q runs with %s: %s", text, drop, env)
			}
		}
		if got := strings.Contains(env, "\nGH_TOKEN=t0ken\n"); got != (text == "gh pr list") {
			t.Errorf("%q: GH_TOKEN kept %v", text, got)
		}
	}
	if env := envOf("touch x; ls", false); !strings.Contains(env, "\nTAR_OPTIONS=") || strings.Contains(env, "\nBASH_ENV=") {
		t.Errorf("an approved command's environment: %s", env)
	}
}
