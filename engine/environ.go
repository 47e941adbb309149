package engine

import (
	"path/filepath"
	"strings"

	"github.com/agentgate/agentgate/gate"
)

// A command agentgate runs on its own gets an environment built by
// accept-list: the variables read-only programs need to find their files
// and print as the person expects, and nothing else. Variables that load
// code, point a program at another configuration or add options to it
// (LD_PRELOAD, GIT_CONFIG_GLOBAL, TAR_OPTIONS, RIPGREP_CONFIG_PATH,
// LESSOPEN, PYTHONSTARTUP, NODE_OPTIONS ...) never reach it, whoever set
// them. The git check reads the same environment, so what it judged is
// what runs; the pack checks still ask when a variable that chooses what a
// pack program reads (KUBECONFIG, DOCKER_HOST) is set in the full one. A
// command a person approved runs with the full environment (less the
// shell's startup variables).

// acceptedEnv are the names every auto-allowed command keeps.
var acceptedEnv = names(`
	HOME USER LOGNAME SHELL PATH PWD OLDPWD TMPDIR
	TERM COLORTERM COLUMNS LINES NO_COLOR CLICOLOR CLICOLOR_FORCE FORCE_COLOR LS_COLORS GREP_COLORS CI
	LANG LANGUAGE TZ
	XDG_CONFIG_HOME XDG_CACHE_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_RUNTIME_DIR XDG_CONFIG_DIRS XDG_DATA_DIRS
	HTTP_PROXY HTTPS_PROXY NO_PROXY ALL_PROXY http_proxy https_proxy no_proxy all_proxy
	GOPATH GOROOT GOCACHE GOMODCACHE GOPROXY GOPRIVATE GONOPROXY GONOSUMDB GOSUMDB GOINSECURE GOOS GOARCH CGO_ENABLED
	CARGO_HOME RUSTUP_HOME RUSTUP_TOOLCHAIN CARGO_TARGET_DIR
	NVM_DIR NVM_BIN VOLTA_HOME PYENV_ROOT PYENV_VERSION RBENV_ROOT RBENV_VERSION NODENV_ROOT ASDF_DIR ASDF_DATA_DIR
	MISE_DATA_DIR VIRTUAL_ENV CONDA_PREFIX JAVA_HOME
`)

// acceptedPrefixes are families kept whole: the locale categories.
var acceptedPrefixes = []string{"LC_"}

// programEnv are names kept only for the program that needs them: gh's
// tokens reach gh, not every reader that could print its environment.
var programEnv = map[string]map[string]bool{
	"gh": names("GH_TOKEN GITHUB_TOKEN GH_ENTERPRISE_TOKEN GITHUB_ENTERPRISE_TOKEN"),
}

func names(list string) map[string]bool {
	out := map[string]bool{}
	for _, n := range strings.Fields(list) {
		out[n] = true
	}
	return out
}

// AcceptedEnviron is environ cut to the accept-list, with the extras of
// the programs named (by path or name).
func AcceptedEnviron(environ []string, programs ...string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if accepted(name, programs) && (!isLocale(name) || localeValue(value)) {
			out = append(out, kv)
		}
	}
	return out
}

func isLocale(name string) bool {
	return name == "LANG" || name == "LANGUAGE" || strings.HasPrefix(name, "LC_")
}

// localeValue reports whether a locale variable's value names a locale,
// not a file: letters, digits and "_.@-", ":" between LANGUAGE's names.
// A "/" makes gettext and setlocale read files of the caller's choosing:
// LANGUAGE=../../../../tmp/x made ls print its messages from a planted
// catalogue, whose format strings the program then runs.
func localeValue(v string) bool {
	for _, c := range v {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_.@-:", c)
		if !ok {
			return false
		}
	}
	return !strings.Contains(v, "..")
}

func accepted(name string, programs []string) bool {
	if acceptedEnv[name] {
		return true
	}
	for _, p := range acceptedPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	for _, p := range programs {
		if programEnv[filepath.Base(p)][name] {
			return true
		}
	}
	return false
}

// programs are the programs a decision runs, for AcceptedEnviron.
func programs(d gate.Decision) []string {
	var out []string
	for _, argv := range d.Commands() {
		if len(argv) > 0 {
			out = append(out, argv[0])
		}
	}
	return out
}

// commandEnviron is the environment an auto-allowed run of d gets, before
// the pins of git, the packs and confinement are added.
func (e *Engine) commandEnviron(d gate.Decision) []string {
	return AcceptedEnviron(e.Environ(), programs(d)...)
}
