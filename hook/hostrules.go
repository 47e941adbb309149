package hook

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// A host matches its own deny and ask rules against the command it will
// run: after a rewrite into agentgate exec, a rule written for the
// original no longer matches (seen with Claude Code 2.1.328: a deny rule
// Bash(ls:*) let the rewritten ls run). So where the host has a rule that
// may match the original, agentgate allows without rewriting, and the
// host's rule decides as if agentgate were not there. Matching errs
// towards "may match": that only costs the rewrite.

// Where is what hostRules needs to find a host's rule files.
type Where struct {
	Home, Project string
	Getenv        func(string) string
}

func (w Where) env(k string) string {
	if w.Getenv == nil {
		return ""
	}
	return w.Getenv(k)
}

// HostRule is one of a host's own rules that agentgate takes into
// account: where it is, what it says, and whether it may match a
// command. A file the host may read differently than agentgate does
// (not valid JSON or TOML) is a rule that may match everything.
type HostRule struct {
	File, Rule string
	may        func(command string) bool
}

func (r HostRule) String() string { return r.File + ": " + r.Rule }

// May reports whether the rule may match command.
func (r HostRule) May(command string) bool { return r.may == nil || r.may(command) }

// firstMatch is the first of rules that may match command.
func firstMatch(rules []HostRule, command string) (HostRule, bool) {
	for _, r := range rules {
		if r.May(command) {
			return r, true
		}
	}
	return HostRule{}, false
}

// claudeRules are Claude Code's deny and ask rules for Bash, in the
// settings files that count.
//
// Only the user's and the managed settings count here: a project's
// settings are the agent's to write, and a deny rule (or a broken file)
// planted there must not make agentgate leave an allowed command
// unrewritten, unconfined (red team finding F9). Such a rule is no
// boundary anyway; the rewritten command is confined read-only.
func claudeRules(w Where) []HostRule {
	w.Project = ""
	return claudeRuleList(w, "deny", "ask")
}

// claudeAllows reports whether a Claude Code allow rule for Bash may
// match command: Claude Code may then run it without showing an ask.
func claudeAllows(w Where, command string) bool {
	_, ok := firstMatch(claudeRuleList(w, "allow"), command)
	return ok
}

func claudeRuleList(w Where, kinds ...string) []HostRule {
	user := filepath.Join(w.Home, ".claude")
	if d := w.env("CLAUDE_CONFIG_DIR"); filepath.IsAbs(d) {
		user = d
	}
	files := []string{filepath.Join(user, "settings.json"), "/etc/claude-code/managed-settings.json"}
	if w.Project != "" {
		files = append(files, filepath.Join(w.Project, ".claude", "settings.json"), filepath.Join(w.Project, ".claude", "settings.local.json"))
	}
	var out []HostRule
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s struct {
			Permissions map[string][]string `json:"permissions"`
		}
		if json.Unmarshal(data, &s) != nil {
			// A file Claude Code may read differently: assume its rules
			// match.
			out = append(out, HostRule{File: f, Rule: "(not valid JSON: taken to match every command)"})
			continue
		}
		for _, k := range kinds {
			for _, r := range s.Permissions[k] {
				if content, ok := bashRule(r); ok {
					out = append(out, HostRule{File: f, Rule: k + " " + r, may: func(c string) bool { return ruleMayMatch(content, c) }})
				}
			}
		}
	}
	return out
}

// bashRule returns the content of a Bash rule: "" for the whole tool.
func bashRule(r string) (string, bool) {
	r = strings.TrimSpace(r)
	if r == "Bash" {
		return "", true
	}
	if c, ok := strings.CutPrefix(r, "Bash("); ok && strings.HasSuffix(c, ")") {
		return strings.TrimSuffix(c, ")"), true
	}
	return "", false
}

// ruleMayMatch reports whether a rule's content may match command or any
// command in it: "" and "*" match all, "P:*" and "P *" prefixes, "*"
// anywhere a glob, else the exact text.
func ruleMayMatch(content, command string) bool {
	content = strings.TrimSpace(content)
	if content == "" || content == "*" || content == ":*" {
		return true
	}
	parts := append([]string{command}, splitSimple(command)...)
	prefix, isPrefix := strings.CutSuffix(content, ":*")
	var glob *regexp.Regexp
	if !isPrefix && strings.Contains(content, "*") {
		glob = regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(content), `\*`, ".*") + "$")
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		switch {
		case isPrefix && strings.HasPrefix(p, strings.TrimSpace(prefix)):
			return true
		case glob != nil && glob.MatchString(p):
			return true
		case p == content:
			return true
		}
	}
	return false
}

// splitSimple cuts command at the shell's list and pipe operators, and at
// newlines: roughly the commands a host's rule matcher looks at.
func splitSimple(command string) []string {
	return regexp.MustCompile(`&&|\|\||[;|&\n()]|\$\(|`+"`").Split(command, -1)
}

// codexRules are Codex's execpolicy rules that forbid or prompt: a
// prefix_rule may match a command when its pattern's first word is the
// first word of a command in it, in $CODEX_HOME/rules.
//
// The project's rules do not count, as for claudeRules; nor does
// agentgate's own (CodexRuleName), which matches only its marked rewrite.
func codexRules(w Where) []HostRule {
	home := w.env("CODEX_HOME")
	if !filepath.IsAbs(home) {
		home = filepath.Join(w.Home, ".codex")
	}
	word := regexp.MustCompile(`pattern\s*=\s*\[\s*(?:\[\s*)?["']([^"']+)["']`)
	var out []HostRule
	files, _ := filepath.Glob(filepath.Join(home, "rules", "*.rules"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || filepath.Base(f) == CodexRuleName && strings.HasPrefix(string(data), codexRuleHeader) {
			continue
		}
		for _, rule := range strings.Split(string(data), "prefix_rule(")[1:] {
			if !strings.Contains(rule, "forbidden") && !strings.Contains(rule, "prompt") {
				continue
			}
			text := "prefix_rule(" + strings.TrimSpace(strings.SplitN(rule, "\n", 2)[0])
			m := word.FindStringSubmatch(rule)
			if m == nil {
				out = append(out, HostRule{File: f, Rule: text})
				continue
			}
			first := m[1]
			out = append(out, HostRule{File: f, Rule: text, may: func(c string) bool { return firstWords(c)[first] }})
		}
	}
	return out
}

// geminiRules are Gemini CLI's policy rules that deny or ask for
// run_shell_command, in ~/.gemini/policies.
//
// The project's policies do not count, as for claudeRules.
func geminiRules(w Where) []HostRule {
	var out []HostRule
	files, _ := filepath.Glob(filepath.Join(w.Home, ".gemini", "policies", "*.toml"))
	for _, f := range files {
		var p struct {
			Rule []struct {
				ToolName      any    `toml:"toolName"`
				Decision      string `toml:"decision"`
				CommandPrefix any    `toml:"commandPrefix"`
				CommandRegex  string `toml:"commandRegex"`
			} `toml:"rule"`
		}
		if _, err := toml.DecodeFile(f, &p); err != nil {
			out = append(out, HostRule{File: f, Rule: "(cannot be read: taken to match every command)"})
			continue
		}
		for _, r := range p.Rule {
			if r.Decision != "deny" && r.Decision != "ask_user" {
				continue
			}
			if names := stringsOf(r.ToolName); len(names) > 0 && !contains(names, "run_shell_command") && !contains(names, "*") {
				continue
			}
			prefixes := stringsOf(r.CommandPrefix)
			text := "decision " + r.Decision
			if len(prefixes) > 0 {
				text += fmt.Sprintf(", commandPrefix %q", prefixes)
			}
			if r.CommandRegex != "" {
				text += fmt.Sprintf(", commandRegex %q", r.CommandRegex)
			}
			if len(prefixes) == 0 && r.CommandRegex == "" {
				out = append(out, HostRule{File: f, Rule: text})
				continue
			}
			regex := r.CommandRegex
			out = append(out, HostRule{File: f, Rule: text, may: func(c string) bool {
				first := firstWords(c)
				for _, pre := range prefixes {
					if f := strings.Fields(pre); len(f) == 0 || first[f[0]] {
						return true
					}
				}
				if regex != "" {
					re, err := regexp.Compile(regex)
					if err != nil || re.MatchString(c) {
						return true
					}
				}
				return false
			}})
		}
	}
	return out
}

// firstWords are the first words of the commands in command.
func firstWords(command string) map[string]bool {
	out := map[string]bool{}
	for _, p := range append([]string{command}, splitSimple(command)...) {
		if f := strings.Fields(p); len(f) > 0 {
			out[filepath.Base(f[0])] = true
		}
	}
	return out
}

func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
