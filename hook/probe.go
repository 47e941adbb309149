package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// What doctor asks of an installed hook: each host's event is written
// here, beside the code that reads it, and so is the reading of its
// answer.

// Sample is host's event for its shell tool about to run command in dir,
// as the host would send it.
func Sample(host, command, dir string) []byte {
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

// Verdict reads host's reply back, as the host would: allow, ask or deny,
// or what else the host makes of it.
func Verdict(host string, stdout []byte, code int) string {
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

// ProbeResult is one run of an installed hook.
type ProbeResult struct {
	Verdict  string
	Took     time.Duration
	Stderr   string
	TimedOut bool
	// Err is a hook that could not be run at all.
	Err error
}

// Probe runs "bin hook HOST" on the sample event of command in dir, with
// env, as the host would, and reads its answer.
func Probe(host, bin, command, dir string, env []string, timeout time.Duration) ProbeResult {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c := exec.CommandContext(ctx, bin, "hook", host)
	c.Dir, c.Env = dir, env
	c.Stdin = bytes.NewReader(Sample(host, command, dir))
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	start := time.Now()
	err := c.Run()
	r := ProbeResult{Took: time.Since(start), Stderr: strings.TrimSpace(stderr.String()), TimedOut: ctx.Err() != nil}
	code := 0
	var ee *exec.ExitError
	switch {
	case r.TimedOut:
		return r
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		r.Err = err
		return r
	}
	r.Verdict = Verdict(host, stdout.Bytes(), code)
	return r
}

// Bypasses lists what, beside the hook file at path, would keep a person
// from seeing agentgate's question or its hook from running: Claude
// Code's disableAllHooks and a default mode with no dialog; Gemini CLI's
// hooks turned off or agentgate's disabled; another Codex hook on the
// shell tool in config.toml.
func Bypasses(host, path string) []string {
	switch host {
	case "claude":
		problems, _ := claudeSettings(filepath.Dir(path))
		return problems
	case "gemini":
		return geminiHooksOff(path)
	case "codex":
		return codexInlineHooks(filepath.Join(filepath.Dir(path), "config.toml"))
	}
	return nil
}

// AllowRules lists the host's own allow rules for the shell tool in the
// settings beside path, each as "FILE allows RULE": Claude Code's Bash
// allow rules, which on 2.1.328 (the version the end-to-end tests drive,
// in TestClaudeAllowRuleKeepsAgentgatesAsk) still show agentgate's
// question. Whether they do on the installed version is what "doctor
// --live" shows (package hostcheck).
func AllowRules(host, path string) []string {
	if host != "claude" {
		return nil
	}
	_, rules := claudeSettings(filepath.Dir(path))
	return rules
}

func claudeSettings(dir string) (out, allows []string) {
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
			out = append(out, path+" is not valid JSON")
			continue
		}
		if s.DisableAllHooks {
			out = append(out, path+" sets disableAllHooks: agentgate's hook does not run")
		}
		if m := s.Permissions.DefaultMode; m == "bypassPermissions" || m == "dontAsk" {
			out = append(out, fmt.Sprintf("%s sets defaultMode %s: Claude Code shows no dialog, so agentgate denies what would ask", path, m))
		}
		for _, a := range s.Permissions.Allow {
			if a == "Bash" || strings.HasPrefix(a, "Bash(") {
				allows = append(allows, path+" allows "+a)
			}
		}
	}
	return out, allows
}

func geminiHooksOff(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var s struct {
		HooksConfig struct {
			Enabled  *bool    `json:"enabled"`
			Disabled []string `json:"disabled"`
		} `json:"hooksConfig"`
	}
	if json.Unmarshal(data, &s) != nil {
		return nil
	}
	var out []string
	if s.HooksConfig.Enabled != nil && !*s.HooksConfig.Enabled {
		out = append(out, path+" sets hooksConfig.enabled false: no hook runs")
	}
	for _, d := range s.HooksConfig.Disabled {
		if strings.Contains(d, "agentgate") {
			out = append(out, fmt.Sprintf("%s disables the hook %q in hooksConfig.disabled", path, d))
		}
	}
	return out
}

func codexInlineHooks(path string) []string {
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
		return nil
	}
	var out []string
	for _, g := range cfg.Hooks.PreToolUse {
		m, err := regexp.Compile(g.Matcher)
		if err == nil && g.Matcher != "" && !m.MatchString("Bash") {
			continue
		}
		for _, h := range g.Hooks {
			if !strings.Contains(h.Command, "agentgate") {
				out = append(out, fmt.Sprintf("%s has another hook on the shell tool (%s): it can allow or rewrite a command after agentgate judged it", path, h.Command))
			}
		}
	}
	return out
}
