package hook

import (
	"encoding/json"
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

// claudeRules reports whether a Claude Code deny or ask rule for Bash,
// in any settings file Claude Code reads, may match command.
//
// Only the user's and the managed settings count here: a project's
// settings are the agent's to write, and a deny rule (or a broken file)
// planted there must not make agentgate leave an allowed command
// unrewritten, unconfined (red team finding F9). Such a rule is no
// boundary anyway; the rewritten command is confined read-only.
func claudeRules(w Where, command string) bool {
	w.Project = ""
	return claudeRuleMatch(w, command, "deny", "ask")
}

// claudeAllows reports whether a Claude Code allow rule for Bash may
// match command: Claude Code may then run it without showing an ask.
func claudeAllows(w Where, command string) bool {
	return claudeRuleMatch(w, command, "allow")
}

func claudeRuleMatch(w Where, command string, kinds ...string) bool {
	user := filepath.Join(w.Home, ".claude")
	if d := w.env("CLAUDE_CONFIG_DIR"); filepath.IsAbs(d) {
		user = d
	}
	files := []string{filepath.Join(user, "settings.json"), "/etc/claude-code/managed-settings.json"}
	if w.Project != "" {
		files = append(files, filepath.Join(w.Project, ".claude", "settings.json"), filepath.Join(w.Project, ".claude", "settings.local.json"))
	}
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
			return true
		}
		var rules []string
		for _, k := range kinds {
			rules = append(rules, s.Permissions[k]...)
		}
		for _, r := range rules {
			if content, ok := bashRule(r); ok && ruleMayMatch(content, command) {
				return true
			}
		}
	}
	return false
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

// codexRules reports whether a Codex execpolicy rule that forbids or
// prompts may match command: a prefix_rule whose pattern's first word is
// the first word of a command in it, in $CODEX_HOME/rules or the
// project's .codex/rules.
//
// The project's rules do not count, as for claudeRules.
func codexRules(w Where, command string) bool {
	w.Project = ""
	home := w.env("CODEX_HOME")
	if !filepath.IsAbs(home) {
		home = filepath.Join(w.Home, ".codex")
	}
	dirs := []string{filepath.Join(home, "rules")}
	if w.Project != "" {
		dirs = append(dirs, filepath.Join(w.Project, ".codex", "rules"))
	}
	first := firstWords(command)
	word := regexp.MustCompile(`pattern\s*=\s*\[\s*(?:\[\s*)?["']([^"']+)["']`)
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*.rules"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			for _, rule := range strings.Split(string(data), "prefix_rule(")[1:] {
				if !strings.Contains(rule, "forbidden") && !strings.Contains(rule, "prompt") {
					continue
				}
				m := word.FindStringSubmatch(rule)
				if m == nil || first[m[1]] {
					return true
				}
			}
		}
	}
	return false
}

// geminiRules reports whether a Gemini CLI policy rule that denies or
// asks for run_shell_command may match command, in ~/.gemini/policies or
// the project's .gemini/policies.
//
// The project's policies do not count, as for claudeRules.
func geminiRules(w Where, command string) bool {
	w.Project = ""
	dirs := []string{filepath.Join(w.Home, ".gemini", "policies")}
	if w.Project != "" {
		dirs = append(dirs, filepath.Join(w.Project, ".gemini", "policies"))
	}
	first := firstWords(command)
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*.toml"))
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
				return true
			}
			for _, r := range p.Rule {
				if r.Decision != "deny" && r.Decision != "ask_user" {
					continue
				}
				if names := stringsOf(r.ToolName); len(names) > 0 && !contains(names, "run_shell_command") && !contains(names, "*") {
					continue
				}
				prefixes := stringsOf(r.CommandPrefix)
				if len(prefixes) == 0 && r.CommandRegex == "" {
					return true
				}
				for _, pre := range prefixes {
					if f := strings.Fields(pre); len(f) == 0 || first[f[0]] {
						return true
					}
				}
				if r.CommandRegex != "" {
					re, err := regexp.Compile(r.CommandRegex)
					if err != nil || re.MatchString(command) {
						return true
					}
				}
			}
		}
	}
	return false
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
