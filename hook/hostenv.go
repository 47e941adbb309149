package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

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

// steering are the variables, prefixes and suffixes that steer what runs,
// each with what it steers. A name ending in "*" is a prefix, one starting
// with "*" a suffix. It is a list of what is known to steer, so it is
// never complete: it decides only whether the hook refuses while the
// project's settings set the variable. The commands agentgate runs get an
// environment built by accept-list whatever this says.
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
	{"PWD", "names the directory a shell starts in (and ~+)"},
	{"OLDPWD", "names the previous directory (cd -, ~-)"},
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
	// Where the hosts keep the user's own settings, which agentgate reads
	// to see the person's rules: a red team's CLAUDE_CONFIG_DIR named a
	// broken file, which made agentgate leave an allowed command
	// unrewritten, and so unconfined, with TAR_OPTIONS running a program.
	{"CLAUDE_CONFIG_DIR", "moves Claude Code's user settings, whose rules agentgate reads"},
	{"CLAUDE_PROJECT_DIR", "moves the project Claude Code's hooks see"},
	{"CODEX_HOME", "moves Codex's user configuration and rules, which agentgate reads"},
	{"GEMINI_CLI_*", "steers Gemini CLI's own settings"},
	{"ZDOTDIR", "names the directory of zsh's start-up files"},
	{"TAR_OPTIONS", "adds options to tar (--use-compress-program runs a program)"},
	{"GCONV_PATH", "makes glibc load conversion modules (code) from a directory"},
	{"LOCPATH", "makes glibc load locale data from a directory"},
	{"CURL_HOME", "moves curl's configuration (.curlrc)"},
	{"WGETRC", "names wget's configuration"},
	{"AWS_*", "steers the AWS tools (config file, credential process)"},
	{"GOENV", "names go's environment file"},
	{"LUA_INIT*", "runs Lua code at every start"},
	{"CONFIG_SITE", "names a script configure runs"},
	{"MAKEFLAGS", "adds options to every make"},
	{"MFLAGS", "adds options to make"},
	{"GNUMAKEFLAGS", "adds options to GNU make"},
	{"EXINIT", "runs editor commands at vi's start"},
	{"VIMINIT", "runs editor commands at vim's start"},
	{"MYVIMRC", "names vim's start-up file"},
	{"INPUTRC", "names readline's start-up file"},
	{"OPENSSL_CONF", "names OpenSSL's configuration (which can load engines: code)"},
	{"KUBECONFIG", "names kubectl's configuration (exec credential plugins run programs)"},
	{"DOCKER_*", "steers docker (host, configuration, credential helpers)"},
	{"GEM_*", "steers Ruby's gem paths"},
	{"BUNDLE_*", "steers bundler"},
	{"YARN_*", "steers yarn (scripts, registry)"},
	{"PNPM_*", "steers pnpm"},
	{"COMPOSER_*", "steers composer (scripts, plugins)"},
	{"R_PROFILE*", "names R's start-up file"},
	{"R_ENVIRON*", "names R's environment file"},
	{"HOSTALIASES", "renames hosts for the resolver"},
	{"NETRC", "names the credentials file of curl and others"},
	// A red team's: each names a program run in place of another.
	{"RUSTC", "runs a program in place of rustc"},
	{"RUSTDOC", "runs a program in place of rustdoc"},
	{"CC", "runs a program in place of the C compiler (make, cgo, pip builds)"},
	{"CXX", "runs a program in place of the C++ compiler"},
	{"CPP", "runs a program in place of the C preprocessor"},
	{"LD", "runs a program in place of the linker"},
	{"AR", "runs a program in place of ar"},
	{"BROWSER", "runs a program to open a URL"},
	{"SUDO_ASKPASS", "runs a program to ask for sudo's password"},
	{"GOPROXY", "makes go fetch modules from another server"},
	{"GOPRIVATE", "makes go fetch modules without the checksum database"},
	{"GONOSUMDB", "makes go fetch modules without the checksum database"},
	// By their form: variables that add options, flags or start-up code
	// to some program, or preload into it (CFLAGS=-wrapper runs a
	// program from gcc; MAVEN_OPTS, GRADLE_OPTS, SBT_OPTS, DENO_*, ...).
	{"*_OPTIONS", "adds options to a program"},
	{"*_OPTS", "adds options to a program"},
	{"*FLAGS", "adds flags to a program or a build"},
	{"*_PRELOAD", "preloads code into a program"},
	{"*_WRAPPER", "runs a program in place of another"},
	{"*_CONFIG_DIR", "moves a program's configuration"},
	{"*_CONFIG_FILE", "names a program's configuration"},
	{"*_CONFIG_PATH", "names a program's configuration"},
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
		} else if p, ok := strings.CutPrefix(s.name, "*"); ok {
			if strings.HasSuffix(k, p) {
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
	add := func(file string, keys []string) { out = append(out, steeringKeys(file, keys)...) }
	switch h {
	case Claude:
		// The project's settings are where Claude Code was started, which
		// may be any directory above the one a command runs in.
		for _, dir := range projectDirs(w) {
			for _, name := range []string{"settings.json", "settings.local.json"} {
				f := filepath.Join(dir, ".claude", name)
				if data, err := os.ReadFile(f); err == nil {
					out = append(out, envFindings(Claude, f, data)...)
				}
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
					out = append(out, envFindings(Gemini, f, data)...)
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

// steeringKeys are the findings for the keys a file sets that steer, in
// the order of their names.
func steeringKeys(file string, keys []string) []EnvFinding {
	sort.Strings(keys)
	var out []EnvFinding
	for _, k := range keys {
		if why, ok := Steers(k); ok {
			out = append(out, EnvFinding{File: file, Key: k, Why: why})
		}
	}
	return out
}

// claudeEnv is the "env" object of a Claude Code settings file, read as
// JavaScript's JSON.parse reads it: its keys exactly. Go's decoder into a
// struct matches field names without regard to case, so a red team's
// {"env":{"BASH_ENV":...},"ENV":null} gave agentgate an empty env while
// Claude Code exported BASH_ENV. A key that differs from "env" only in
// case, or a file that is not valid JSON, is reported (bad) instead:
// what the host takes from it is not known.
func claudeEnv(data []byte) (env map[string]json.RawMessage, bad string) {
	var top map[string]json.RawMessage
	// A reader that skips a byte order mark would see the object behind it.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if json.Unmarshal(data, &top) != nil {
		// "\u0065nv" is "env" to a reader that gets further than Go's.
		if bytes.Contains(bytes.ToLower(data), []byte(`env`)) || bytes.Contains(data, []byte(`\u`)) {
			return nil, "may set variables, but the file is not valid JSON to agentgate"
		}
		return nil, ""
	}
	for k := range top {
		if k != "env" && strings.EqualFold(k, "env") {
			return nil, fmt.Sprintf("has a key %q beside \"env\", which one JSON reader may take for the other", k)
		}
	}
	raw, ok := top["env"]
	if !ok || string(raw) == "null" {
		return nil, ""
	}
	if json.Unmarshal(raw, &env) != nil {
		return nil, "has an \"env\" that is not an object agentgate can read"
	}
	return env, ""
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
	// As the dotenv package Gemini CLI loads .env with reads it (v16):
	// "\r\n" and a lone "\r" end lines too, "export" may be followed by
	// any white space, and "KEY: value" sets KEY as "KEY=value" does. A
	// red team's "FOO=1\rBASH_ENV=...", "BASH_ENV: ..." and
	// "export<TAB>BASH_ENV=..." passed a reading by "\n", "=" and
	// "export ". Every line that could set a key counts, even one inside
	// a quoted multi-line value: reading more keys only refuses more.
	// JavaScript's "^" under the m flag starts a line after U+2028 and
	// U+2029 too, and its \s takes Unicode's spaces, \v and U+FEFF (a
	// red team's "FOO='bar'<U+2028>BASH_ENV=..." and "<NBSP>LD_PRELOAD=..."
	// were keys to dotenv, not to RE2).
	text := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n").Replace(string(data))
	// dotenv's \s* between a key and its "=" spans lines too:
	// "LD_PRELOAD\n=./x.so" sets LD_PRELOAD (a red team's, which a
	// reading line by line took for no key). A line that is a key alone
	// counts when any line starts with "=": the lines between may be
	// blank, or be taken out by the patch or edit judged (a Codex update's
	// "-" lines are not replayed), so they are not looked at.
	var keys, alone []string
	equals := false
	for _, line := range strings.Split(text, "\n") {
		if m := dotenvLine().FindStringSubmatch(line); m != nil {
			keys = append(keys, m[1])
		} else if m := dotenvKeyAlone().FindStringSubmatch(line); m != nil {
			alone = append(alone, m[1])
		} else if dotenvEquals().MatchString(line) {
			equals = true
		}
	}
	if equals {
		keys = append(keys, alone...)
	}
	return keys
}

// dotenvKeyAlone is a line holding a key and nothing else; dotenvEquals
// a line whose first character but blanks is "=".
var (
	dotenvKeyAlone = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^` + jsSpace + `*(?:export` + jsSpace + `+)?([\w.-]+)` + jsSpace + `*$`)
	})
	dotenvEquals = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^` + jsSpace + `*=`)
	})
)

// dotenvLine is a line that sets a key, in dotenv's grammar (keys are
// word characters, "." and "-"), a little wider: a colon with no blank
// after it counts too.
var dotenvLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^` + jsSpace + `*(?:export` + jsSpace + `+)?([\w.-]+)` + jsSpace + `*(?:=|:)`)
})

// jsSpace is JavaScript's \s.
const jsSpace = `[\t\n\v\f\r \x{00A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]`
