package hook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// A host exports the environment its project-scope settings name to the
// hook processes it starts and to the shell it runs commands in (seen with
// Claude Code 2.1.328: the "env" object of .claude/settings.json and
// .claude/settings.local.json, reloaded mid-session, reaches both, with
// HOME, XDG_* and TMPDIR filtered and nothing else). Those files are the
// agent's to write. A variable there that steers agentgate, git, the
// shell, the loader or an interpreter changes what an approved or
// auto-allowed command does after agentgate judged it (BASH_ENV runs a
// script before the rewritten exec starts; GIT_CONFIG_GLOBAL names a
// planted textconv; LD_PRELOAD loads code into agentgate itself), so the
// hook refuses every command while one is set, naming the file and key.

// EnvFinding is one variable a host's project-scope settings set that
// steers a program.
type EnvFinding struct {
	File, Key string
	// Why names what the variable steers.
	Why string
}

func (f EnvFinding) String() string {
	return fmt.Sprintf("%s sets %s, which %s", f.File, f.Key, f.Why)
}

// steering are the variables and prefixes that steer what runs, each with
// what it steers. A name ending in "*" is a prefix.
var steering = []struct{ name, why string }{
	{"AGENTGATE_*", "steers agentgate itself (mode, config, log, session)"},
	{"GIT_*", "steers git (its configuration, pager, ssh command, directories)"},
	{"BASH_ENV", "names a script bash runs before every command"},
	{"ENV", "names a script sh runs at start"},
	{"BASH_FUNC_*", "defines shell functions that replace commands"},
	{"SHELLOPTS", "sets shell options"},
	{"BASHOPTS", "sets shell options"},
	{"PROMPT_COMMAND", "runs a command in interactive shells"},
	{"PS4", "is expanded (and can run commands) when tracing"},
	{"IFS", "changes how the shell splits words"},
	{"CDPATH", "changes where cd goes"},
	{"LD_*", "steers the dynamic loader (code loaded into every program)"},
	{"DYLD_*", "steers the macOS loader"},
	{"PATH", "chooses which program a command name runs"},
	{"HOME", "moves the home directory and every file found under it"},
	{"XDG_*", "moves agentgate's and other programs' configuration and state"},
	{"TMPDIR", "moves temporary files"},
	{"SHELL", "chooses the shell programs start"},
	{"PYTHON*", "steers Python (start-up file, module path)"},
	{"NODE_OPTIONS", "adds options (--require: code) to every Node.js"},
	{"NODE_PATH", "steers Node.js's module path"},
	{"NPM_CONFIG_*", "steers npm (scripts, registry)"},
	{"PERL5*", "steers Perl (options, module path)"},
	{"PERLLIB", "steers Perl's module path"},
	{"RUBYOPT", "steers Ruby's options"},
	{"RUBYLIB", "steers Ruby's module path"},
	{"JAVA_TOOL_OPTIONS", "adds options to every JVM"},
	{"_JAVA_OPTIONS", "adds options to every JVM"},
	{"JDK_JAVA_OPTIONS", "adds options to the java launcher"},
	{"GOFLAGS", "adds flags to every go command"},
	{"GOTOOLCHAIN", "makes go download and run another toolchain"},
	{"CARGO_*", "steers cargo (build wrappers, registries)"},
	{"RUSTC_WRAPPER", "runs a program in place of rustc"},
	{"PIP_*", "steers pip (index, config)"},
	{"UV_*", "steers uv (index, config)"},
	{"PAGER", "runs a program to show output"},
	{"MANPAGER", "runs a program to show manuals"},
	{"LESSOPEN", "runs a program on every file less shows"},
	{"LESSCLOSE", "runs a program after less"},
	{"EDITOR", "runs a program to edit"},
	{"VISUAL", "runs a program to edit"},
	{"RIPGREP_CONFIG_PATH", "adds flags to every rg (--pre runs programs)"},
	{"GREP_OPTIONS", "adds flags to grep"},
	{"SSH_*", "steers ssh (agent socket, askpass program)"},
	{"GNUPGHOME", "moves GnuPG's keys and configuration"},
}

// inert are names a steering prefix covers that only set an output
// format or a build flavour, common in projects' .env files.
var inert = map[string]bool{"PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true, "PYTHONIOENCODING": true}

// Steers reports whether a variable named key steers a program, and what.
func Steers(key string) (string, bool) {
	k := strings.ToUpper(key)
	if inert[k] {
		return "", false
	}
	for _, s := range steering {
		if p, ok := strings.CutSuffix(s.name, "*"); ok {
			if strings.HasPrefix(k, p) {
				return s.why, true
			}
		} else if k == s.name {
			return s.why, true
		}
	}
	return "", false
}

// HostEnv lists the steering variables the project-scope settings of host
// h set for the project at w.Project. A settings file that cannot be read
// as the host reads it is a finding too: what the host takes from it is
// not known.
func HostEnv(h *Host, w Where) []EnvFinding {
	if w.Project == "" || h == nil {
		return nil
	}
	var out []EnvFinding
	add := func(file string, keys []string) {
		sort.Strings(keys)
		for _, k := range keys {
			if why, ok := Steers(k); ok {
				out = append(out, EnvFinding{File: file, Key: k, Why: why})
			}
		}
	}
	switch h {
	case Claude:
		// The project's settings are where Claude Code was started, which
		// may be any directory above the one a command runs in.
		for _, dir := range projectDirs(w) {
			for _, name := range []string{"settings.json", "settings.local.json"} {
				f := filepath.Join(dir, ".claude", name)
				data, err := os.ReadFile(f)
				if err != nil {
					continue
				}
				var s struct {
					Env map[string]json.RawMessage `json:"env"`
				}
				if json.Unmarshal(data, &s) != nil {
					if bytes.Contains(data, []byte(`"env"`)) {
						out = append(out, EnvFinding{File: f, Key: "env", Why: "may set variables, but the file is not valid JSON to agentgate"})
					}
					continue
				}
				keys := make([]string, 0, len(s.Env))
				for k := range s.Env {
					keys = append(keys, k)
				}
				add(f, keys)
			}
		}
	case Gemini:
		// Gemini CLI loads the first .env it finds from the working
		// directory up (.gemini/.env before .env in each directory) into
		// its own environment, which its hooks and shell inherit.
		for dir := w.Project; ; dir = filepath.Dir(dir) {
			if dir == w.Home {
				break
			}
			for _, f := range []string{filepath.Join(dir, ".gemini", ".env"), filepath.Join(dir, ".env")} {
				if data, err := os.ReadFile(f); err == nil {
					add(f, dotenvKeys(data))
				}
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	case Codex:
		// Codex's shell_environment_policy.set adds variables to the
		// commands it runs; it reads .codex/config.toml in every directory
		// from the project root down to where it works (a red team's, one
		// directory up, set BASH_ENV while the hook looked only here).
		for _, dir := range projectDirs(w) {
			// (add appends to out itself: call first, then append.)
			bad := codexEnv(filepath.Join(dir, ".codex", "config.toml"), add)
			out = append(out, bad...)
		}
	}
	return out
}

// projectDirs are the directories whose project settings a host may read
// for w: the project and every directory above it, up to (not including)
// the home directory, whose settings are the user's own, or the root.
func projectDirs(w Where) []string {
	var out []string
	for dir := filepath.Clean(w.Project); ; dir = filepath.Dir(dir) {
		if w.Home != "" && dir == filepath.Clean(w.Home) {
			break
		}
		out = append(out, dir)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return out
}

// codexEnv reads one Codex config file's shell_environment_policy.set:
// its keys go to add; a file that is not TOML to agentgate but names the
// policy is a finding of its own.
func codexEnv(f string, add func(string, []string)) []EnvFinding {
	data, err := os.ReadFile(f)
	if err != nil {
		return nil
	}
	var c struct {
		Policy struct {
			Set map[string]any `toml:"set"`
		} `toml:"shell_environment_policy"`
	}
	if _, err := toml.Decode(string(data), &c); err != nil {
		if bytes.Contains(data, []byte("shell_environment_policy")) {
			return []EnvFinding{{File: f, Key: "shell_environment_policy", Why: "may set variables, but the file is not valid TOML to agentgate"}}
		}
		return nil
	}
	keys := make([]string, 0, len(c.Policy.Set))
	for k := range c.Policy.Set {
		keys = append(keys, k)
	}
	add(f, keys)
	return nil
}

// dotenvKeys are the names a .env file sets: KEY=VALUE lines, with an
// optional "export ".
func dotenvKeys(data []byte) []string {
	var keys []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		line = strings.TrimPrefix(line, "export ")
		if line == "" || line[0] == '#' {
			continue
		}
		if k, _, ok := strings.Cut(line, "="); ok {
			keys = append(keys, strings.TrimSpace(k))
		}
	}
	return keys
}
