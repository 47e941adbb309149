package cmd

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/agentgate/agentgate/hook"
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
	if o.Env.doctorHosts(o.Env.Stdout) > 0 {
		return exitStatus(1)
	}
	return err
}

// doctorHosts checks every host agentgate is installed in, in the user's
// and the current project's configuration, and reports the project's own
// hooks and rules that would bypass agentgate. It returns the number of
// problems.
func (e *Env) doctorHosts(w io.Writer) (problems int) {
	self, _ := selfPath()
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
					problems += e.projectBypass(w, name, entry)
				}
				continue
			}
			fmt.Fprintf(w, "%s (%s): %s\n", name, scope, entry.Path)
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
			}
			if !hook.Hosts[name].Rewrites {
				fmt.Fprintf(w, "  note: %s cannot rewrite a command, so an allowed command runs as %s runs it, without exec's git hardening and confinement\n", name, name)
			}
			switch {
			case scope == hook.Project:
				problems += e.projectBypass(w, name, entry)
			case name == "gemini":
				problems += geminiHooksOff(w, entry.Path)
			case name == "claude":
				problems += claudeBypass(w, filepath.Dir(entry.Path))
			}
		}
	}
	return problems
}

// codexInlineHooks reports PreToolUse hooks on the shell tool written in
// a Codex config.toml rather than hooks.json: Codex runs both.
func codexInlineHooks(w io.Writer, path string) (problems int) {
	var cfg struct {
		Hooks struct {
			PreToolUse []struct {
				Matcher string `toml:"matcher"`
				Hooks   []struct {
					Command string `toml:"command"`
				} `toml:"hooks"`
			} `toml:"PreToolUse"`
		} `toml:"hooks"`
	}
	if _, err := toml.DecodeFile(path, &cfg); err != nil {
		return 0
	}
	for _, g := range cfg.Hooks.PreToolUse {
		m, err := regexp.Compile(g.Matcher)
		if err == nil && g.Matcher != "" && !m.MatchString("Bash") {
			continue
		}
		for _, h := range g.Hooks {
			if !strings.Contains(h.Command, "agentgate") {
				problems++
				fmt.Fprintf(w, "codex: problem: %s has another hook on the shell tool (%s): it can allow or rewrite a command after agentgate judged it\n", path, h.Command)
			}
		}
	}
	return problems
}

// geminiHooksOff reports Gemini CLI settings that keep agentgate's hook
// from running: hooksConfig.enabled false, or the hook named in
// hooksConfig.disabled.
func geminiHooksOff(w io.Writer, path string) (problems int) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	var s struct {
		HooksConfig struct {
			Enabled  *bool    `json:"enabled"`
			Disabled []string `json:"disabled"`
		} `json:"hooksConfig"`
	}
	if json.Unmarshal(data, &s) != nil {
		return 0
	}
	if s.HooksConfig.Enabled != nil && !*s.HooksConfig.Enabled {
		problems++
		fmt.Fprintf(w, "gemini: problem: %s sets hooksConfig.enabled false: no hook runs\n", path)
	}
	for _, d := range s.HooksConfig.Disabled {
		if strings.Contains(d, "agentgate") {
			problems++
			fmt.Fprintf(w, "gemini: problem: %s disables the hook %q in hooksConfig.disabled\n", path, d)
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

// samples are the events doctor sends each host's hook: a read-only
// command must be allowed, a destructive one must not.
func sampleEvent(host, command, dir string) []byte {
	var v any
	switch host {
	case "claude":
		v = map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": command},
			"cwd": dir, "session_id": "agentgate-doctor", "tool_use_id": "doctor", "permission_mode": "default"}
	case "codex":
		v = map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": command},
			"cwd": dir, "session_id": "agentgate-doctor", "turn_id": "doctor", "tool_use_id": "doctor"}
	case "gemini":
		v = map[string]any{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": map[string]any{"command": command},
			"cwd": dir, "session_id": "agentgate-doctor"}
	default:
		v = map[string]any{"hook_event_name": "beforeShellExecution", "command": command, "cwd": dir, "conversation_id": "agentgate-doctor"}
	}
	b, _ := json.Marshal(v)
	return b
}

// verdictOf reads a host reply back: allow, ask or deny.
func verdictOf(host string, stdout []byte, code int) string {
	if code == 2 {
		return "deny"
	}
	if code != 0 {
		return fmt.Sprintf("exit %d (the host would run the command)", code)
	}
	out := strings.TrimSpace(string(stdout))
	if out == "" {
		if host == "claude" || host == "cursor" {
			return "no answer"
		}
		return "allow"
	}
	var v struct {
		Permission string `json:"permission"`
		Decision   string `json:"decision"`
		Specific   struct {
			Decision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(out), &v) != nil {
		return "unreadable answer"
	}
	for _, d := range []string{v.Permission, v.Specific.Decision, v.Decision} {
		if d != "" {
			return d
		}
	}
	return "allow"
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
		ctx, cancel := context.WithTimeout(context.Background(), hookTimeout/2)
		c := exec.CommandContext(ctx, bin, "hook", host)
		c.Dir = dir
		c.Stdin = bytes.NewReader(sampleEvent(host, sample.command, dir))
		c.Env = append(e.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state"))
		var stdout, stderr bytes.Buffer
		c.Stdout, c.Stderr = &stdout, &stderr
		start := time.Now()
		err := c.Run()
		took := time.Since(start)
		timedOut := ctx.Err() != nil
		cancel()
		code := 0
		var ee *exec.ExitError
		switch {
		case timedOut:
		case errors.As(err, &ee):
			code = ee.ExitCode()
		case err != nil:
			fmt.Fprintf(w, "  problem: %s hook %s did not run: %v\n", bin, host, err)
			problems++
			continue
		}
		if timedOut {
			fmt.Fprintf(w, "  problem: %q got no answer within %s\n", sample.command, hookTimeout/2)
			problems++
			continue
		}
		got := verdictOf(host, stdout.Bytes(), code)
		if !sample.ok(got) {
			fmt.Fprintf(w, "  problem: %q answered %s, want %s (%s)\n", sample.command, got, sample.want, strings.TrimSpace(stderr.String()))
			problems++
			continue
		}
		fmt.Fprintf(w, "  %-14q %s in %s\n", sample.command, got, took.Round(time.Millisecond))
	}
	return problems
}

// projectBypass reports what in the current project's configuration of
// host would override or bypass agentgate.
func (e *Env) projectBypass(w io.Writer, host string, entry hook.Entry) (problems int) {
	report := func(format string, args ...any) {
		problems++
		fmt.Fprintf(w, "%s (project): problem: "+format+"\n", append([]any{host}, args...)...)
	}
	for _, c := range entry.Other {
		report("%s has another hook on the shell tool (%s): it can allow or rewrite a command after agentgate judged it", entry.Path, c)
	}
	if host == "gemini" {
		return problems + geminiHooksOff(w, entry.Path)
	}
	if host == "codex" {
		return problems + codexInlineHooks(w, filepath.Join(filepath.Dir(entry.Path), "config.toml"))
	}
	if host != "claude" {
		return problems
	}
	return problems + claudeBypass(w, filepath.Dir(entry.Path))
}

// claudeBypass reports Claude Code settings in dir that keep agentgate's
// question from a person or its hook from running.
func claudeBypass(w io.Writer, dir string) (problems int) {
	report := func(format string, args ...any) {
		problems++
		fmt.Fprintf(w, "claude: problem: "+format+"\n", args...)
	}
	for _, name := range []string{"settings.json", "settings.local.json"} {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var s struct {
			DisableAllHooks bool `json:"disableAllHooks"`
			Permissions     struct {
				DefaultMode string   `json:"defaultMode"`
				Allow       []string `json:"allow"`
			} `json:"permissions"`
		}
		if json.Unmarshal(data, &s) != nil {
			report("%s is not valid JSON", path)
			continue
		}
		if s.DisableAllHooks {
			report("%s sets disableAllHooks: agentgate's hook does not run", path)
		}
		if m := s.Permissions.DefaultMode; m == "bypassPermissions" || m == "dontAsk" {
			report("%s sets defaultMode %s: Claude Code shows no dialog, so agentgate denies what would ask", path, m)
		}
		for _, a := range s.Permissions.Allow {
			if a == "Bash" || strings.HasPrefix(a, "Bash(") {
				report("%s allows %s: Claude Code runs matching commands without showing agentgate's question", path, a)
			}
		}
	}
	return problems
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
