package cmd

import (
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentgate/agentgate/hook"
	"github.com/agentgate/agentgate/hostcheck"
)

// doctorAll runs doctor's own checks and then the hosts' checks, and
// fails when either found a problem.
func doctorAll(o *DoctorOptions) error {
	if self, err := selfPath(); err == nil {
		fmt.Fprintf(o.Env.Stdout, "binary: %s\n", linkage(self))
	}
	err := doctorRun(o)
	var st exitStatus
	if err != nil && !errors.As(err, &st) {
		return err
	}
	if o.Env.doctorHosts(o.Env.Stdout, o.Live) > 0 {
		return exitStatus(1)
	}
	return err
}

// doctorHosts checks every host agentgate is installed in, in the user's
// and the current project's configuration, and reports the project's own
// hooks and rules that would bypass agentgate. It returns the number of
// problems. With live, a host whose rules doctor has something to say
// about is run against a stand-in model (package hostcheck), and what the
// run shows decides whether those rules are problems or notes.
func (e *Env) doctorHosts(w io.Writer, live bool) (problems int) {
	self, _ := selfPath()
	checks := liveChecks{run: live}
	s := e.setup(self)
	problem := func(format string, args ...any) {
		problems++
		fmt.Fprintf(w, "  problem: "+format+"\n", args...)
	}
	cwd, _ := e.Getwd()
	for _, name := range hook.Names {
		// The host's project settings set the hook's and the shell's
		// environment: the hook refuses every command while they steer.
		for _, f := range hook.HostEnv(hook.Hosts[name], hook.Where{Home: e.home(), Project: cwd, Getenv: e.Getenv}) {
			problems++
			fmt.Fprintf(w, "%s (project): problem: %s: the hook refuses every command until it is removed\n", name, f)
		}
		for _, scope := range []hook.Scope{hook.User, hook.Project} {
			entry, err := s.Inspect(name, scope)
			if err != nil {
				fmt.Fprintf(w, "%s (%s):\n", name, scope)
				problem("%v", err)
				continue
			}
			var found []string
			for _, c := range entry.Events {
				if c != "" {
					found = append(found, c)
				}
			}
			if len(found) == 0 {
				if scope == hook.User {
					fmt.Fprintf(w, "%s: not installed (agentgate install %s)\n", name, name)
				}
				if scope == hook.Project {
					problems += e.projectBypass(w, name, entry, checks)
				}
				continue
			}
			fmt.Fprintf(w, "%s (%s): %s\n", name, scope, entry.Path)
			if scope == hook.User {
				e.hostVersion(w, name)
			}
			checks.host(e, w, name, found[0])
			for ev, c := range entry.Events {
				if c == "" {
					problem("no agentgate entry for %s: run 'agentgate install %s%s'", ev, name, scopeFlag(scope))
				}
			}
			problems += e.checkHook(w, name, found[0])
			if name == "codex" {
				trust, err := s.CodexTrusted(scope)
				if err != nil {
					problem("%v", err)
				}
				for _, t := range trust {
					problem("%s: run 'agentgate install codex%s' again, or trust it in codex's /hooks", t, scopeFlag(scope))
				}
				if scope == hook.User {
					// The rule names the agentgate the hook runs (a
					// copy, where install made one).
					rs := s
					rs.Self = hookBinary(found[0])
					if p := rs.CodexRuleProblem(); p != "" {
						problem("%s", p)
					}
					if p := hook.PowerShell(hook.Where{Home: e.home(), Getenv: e.Getenv}); p != "" {
						fmt.Fprintf(w, "  note: a PowerShell is installed (%s), which Codex runs a command through without its rules: what agentgate asks about is denied with an id to approve from another terminal\n", p)
					}
				}
			}
			h := hook.Hosts[name]
			if !h.Rewrites {
				fmt.Fprintf(w, "  note: %s cannot rewrite a command, so an allowed command runs as %s runs it, without exec's git hardening and confinement\n", name, name)
			} else if scope == hook.User && h.HostRules != nil {
				// The host's own deny and ask rules: what they may match
				// is not rewritten, so that they keep matching what runs.
				for _, r := range h.HostRules(hook.Where{Home: e.home(), Project: cwd, Getenv: e.Getenv}) {
					fmt.Fprintf(w, "  note: %s: commands this rule may match are not rewritten into agentgate exec; allowed or approved, they run as %s runs them, unconfined\n", r, name)
				}
			}
			switch {
			case scope == hook.Project:
				problems += e.projectBypass(w, name, entry, checks)
			case name == "gemini" || name == "claude":
				problems += bypasses(w, name, entry.Path, checks)
			}
		}
	}
	return problems
}

func scopeFlag(s hook.Scope) string {
	if s == hook.Project {
		return " --project"
	}
	return ""
}

// hookBinary is the program a hook command runs: its first word,
// unquoted.
func hookBinary(command string) string {
	f := strings.Fields(command)
	if len(f) < 3 {
		return ""
	}
	return strings.Trim(strings.Join(f[:len(f)-2], " "), `'"`)
}

// checkHook runs the installed hook command's binary with a read-only and
// a destructive sample event, each in a throwaway state directory so that
// nothing reaches the real audit log or session memory.
func (e *Env) checkHook(w io.Writer, host, command string) (problems int) {
	bin := hookBinary(command)
	info, err := os.Stat(bin)
	switch {
	case bin == "" || !filepath.IsAbs(bin):
		fmt.Fprintf(w, "  problem: the hook does not run agentgate by an absolute path (%s): run 'agentgate install %s'\n", command, host)
		return 1
	case err != nil:
		fmt.Fprintf(w, "  problem: %s does not exist (%v): the host would run the command unchecked; run 'agentgate install %s'\n", bin, err, host)
		return 1
	case info.IsDir() || info.Mode()&0o111 == 0:
		fmt.Fprintf(w, "  problem: %s is not executable: run 'agentgate install %s'\n", bin, host)
		return 1
	}
	dir, err := os.MkdirTemp("", "agentgate-doctor-")
	if err != nil {
		fmt.Fprintf(w, "  problem: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	for _, sample := range []struct {
		command string
		ok      func(string) bool
		want    string
	}{
		{"ls", func(v string) bool { return v == "allow" }, "allow"},
		{"rm -rf build", func(v string) bool { return v == "deny" || v == "ask" }, "deny or ask"},
	} {
		r := hook.Probe(host, bin, sample.command, dir, append(e.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state")), hookTimeout/2)
		switch {
		case r.Err != nil:
			fmt.Fprintf(w, "  problem: %s hook %s did not run: %v\n", bin, host, r.Err)
			problems++
			continue
		case r.TimedOut:
			fmt.Fprintf(w, "  problem: %q got no answer within %s\n", sample.command, hookTimeout/2)
			problems++
			continue
		case !sample.ok(r.Verdict):
			fmt.Fprintf(w, "  problem: %q answered %s, want %s (%s)\n", sample.command, r.Verdict, sample.want, r.Stderr)
			problems++
			continue
		}
		got, took := r.Verdict, r.Took
		fmt.Fprintf(w, "  %-14q %s in %s\n", sample.command, got, took.Round(time.Millisecond))
	}
	return problems
}

// projectBypass reports what in the current project's configuration of
// host would override or bypass agentgate.
func (e *Env) projectBypass(w io.Writer, host string, entry hook.Entry, checks liveChecks) (problems int) {
	for _, c := range entry.Other {
		problems++
		fmt.Fprintf(w, "%s (project): problem: %s has another hook on the shell tool (%s): it can allow or rewrite a command after agentgate judged it\n", host, entry.Path, c)
	}
	return problems + bypasses(w, host, entry.Path, checks)
}

// bypasses prints hook.Bypasses of host's file at path as problems, and
// the host's own allow rules for the shell tool: problems only where a
// live check showed such a rule running what agentgate asks about.
func bypasses(w io.Writer, host, path string, checks liveChecks) (problems int) {
	for _, b := range hook.Bypasses(host, path) {
		problems++
		fmt.Fprintf(w, "%s: problem: %s\n", host, b)
	}
	r, ran := checks.results[host]
	title := hook.Hosts[host].Title
	for _, a := range hook.AllowRules(host, path) {
		switch {
		case ran && r.Outcome == hostcheck.Overrides:
			problems++
			fmt.Fprintf(w, "%s: problem: %s: on the installed %s such a rule runs what agentgate asks about, unasked (doctor --live); remove the rule or narrow it to read-only commands\n", host, a, title)
		case ran && r.Outcome == hostcheck.Holds:
			fmt.Fprintf(w, "%s: note: %s: the installed %s still shows agentgate's question for matching commands (doctor --live)\n", host, a, title)
		default:
			fmt.Fprintf(w, "%s: note: %s: %s %s still shows agentgate's question for matching commands; a later version that let the rule skip it would run them unasked ('agentgate doctor --live' shows it on the installed version)\n", host, a, title, hook.Tested[host].Version)
		}
	}
	return problems
}

// liveChecks runs each host's live check once, when asked to, and keeps
// its result for the host's rules in every scope.
type liveChecks struct {
	run     bool
	results map[string]hostcheck.Result
}

// liveCheckers are the hosts a live check exists for.
var liveCheckers = map[string]func(context.Context, hostcheck.Check) hostcheck.Result{
	"claude": hostcheck.ClaudeAllowRule,
}

// host runs host's live check, if there is one and it has not run, with
// the agentgate the installed hook command runs, and prints its result.
func (c *liveChecks) host(e *Env, w io.Writer, host, command string) {
	check, ok := liveCheckers[host]
	if !c.run || !ok {
		return
	}
	if _, done := c.results[host]; done {
		return
	}
	if c.results == nil {
		c.results = map[string]hostcheck.Result{}
	}
	_, program, _ := hook.InstalledVersion(host, e.Getenv("PATH"))
	if program == "" {
		c.results[host] = hostcheck.Result{Detail: hook.Tested[host].Command + " is not on PATH"}
	} else {
		c.results[host] = check(context.Background(), hostcheck.Check{Program: program, Agentgate: hookBinary(command), Path: e.Getenv("PATH")})
	}
	r := c.results[host]
	fmt.Fprintf(w, "  live check (a stand-in model on 127.0.0.1, a throwaway home): %s: %s\n", r.Outcome, r.Detail)
}

// linkage says whether the agentgate at path is statically linked. A
// dynamically linked one runs what LD_PRELOAD names before its first line,
// and an agent's host can set that from project settings; a build with
// CGO_ENABLED=0 has no loader at all.
func linkage(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return "not an ELF file here (" + err.Error() + ")"
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return "note: dynamically linked (" + path + "): a planted LD_PRELOAD would load code into it; build it with CGO_ENABLED=0 go build"
		}
	}
	return "statically linked, no loader to steer"
}

// hostVersion says which version of the host is installed, against the
// version agentgate's end-to-end tests drive: what doctor's notes say of
// the host's rules and dialog was shown on that version, and only a run
// of the tests shows it on another.
func (e *Env) hostVersion(w io.Writer, name string) {
	t, known := hook.Tested[name]
	if !known {
		return
	}
	v, p, ok := hook.InstalledVersion(name, e.Getenv("PATH"))
	switch {
	case p == "":
		fmt.Fprintf(w, "  note: %s is not on PATH: agentgate's tests drive %s %s\n", t.Command, t.Command, t.Version)
	case !ok:
		fmt.Fprintf(w, "  note: %s --version printed no version: agentgate's tests drive %s %s\n", p, t.Command, t.Version)
	case v == t.Version:
		fmt.Fprintf(w, "  host: %s %s, the version agentgate's end-to-end tests drive\n", t.Command, v)
	default:
		fmt.Fprintf(w, "  note: %s %s is installed; agentgate's end-to-end tests drive %s: what this report says of %s's rules, dialog and hook protocol was shown on %s, not on this version\n",
			t.Command, v, t.Version, t.Command, t.Version)
	}
}
