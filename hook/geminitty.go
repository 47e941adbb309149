package hook

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// geminiCanAsk: Gemini CLI shows its own confirmation for a hook's
// "ask", in every approval mode, yolo included (the hook's ask forces
// ASK_USER over the policy engine's answer); but in a headless run
// nothing answers it and the run waits for ever. The event does not say
// which run it is, so the hook looks at the Gemini CLI process that
// started it, as Gemini itself decides (isHeadlessMode and
// promptInteractive in 0.61.0): a run is interactive when neither CI nor
// GITHUB_ACTIONS is "true" in its environment, its standard input and
// output are terminals, and its arguments hold no prompt or query. The
// agent cannot change any of these: they are its host's own process, not
// files it writes. Anything unread or unknown (another OS, an argument
// this reading does not know, no Gemini ancestor) answers no, and an ask
// stays a denial with an id to approve from another terminal.
func geminiCanAsk(Event) bool {
	pid := os.Getppid()
	for range 6 {
		if pid <= 1 {
			return false
		}
		id := strconv.Itoa(pid)
		if args, ok := geminiArgs(id); ok {
			return geminiInteractive(id, args)
		}
		f, ok := fsutil.StatFields(id)
		if !ok || len(f) < 2 {
			return false
		}
		pid, _ = strconv.Atoi(f[1]) // field 4: the parent
	}
	return false
}

// geminiArgs are the arguments of Gemini CLI when pid is its process:
// node running .../gemini-cli/bundle/gemini.js (or an installed "gemini"
// script), or a binary named gemini.
func geminiArgs(pid string) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/cmdline")
	if err != nil {
		return nil, false
	}
	argv := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	for i, a := range argv {
		if i > 0 && strings.HasPrefix(a, "-") {
			continue // node's own flags (--max-old-space-size=...)
		}
		base := filepath.Base(a)
		if base == "gemini" || base == "gemini.js" || strings.Contains(a, "/gemini-cli/") && strings.HasSuffix(base, ".js") {
			return argv[i+1:], true
		}
		if i > 0 {
			return nil, false // node running another script
		}
	}
	return nil, false
}

// geminiValueFlags are Gemini CLI's flags whose value is the next word
// and that keep a run interactive; -i's value is the first prompt of an
// interactive session. geminiSwitches take no value. Any other argument
// (yargs reads "--p=x" as -p, "-yp=x" as -y and -p) counts as headless.
var (
	geminiValueFlags = map[string]bool{"-m": true, "--model": true, "--approval-mode": true, "-i": true, "--prompt-interactive": true}
	geminiSwitches   = map[string]bool{"-y": true, "--yolo": true, "-s": true, "--sandbox": true, "-d": true, "--debug": true,
		"--screen-reader": true, "--skip-trust": true}
)

func geminiInteractive(pid string, args []string) bool {
	if !geminiArgsInteractive(args) {
		return false
	}
	env, err := os.ReadFile("/proc/" + pid + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range strings.Split(string(env), "\x00") {
		if kv == "CI=true" || kv == "GITHUB_ACTIONS=true" {
			return false
		}
	}
	return isTerminal("/proc/"+pid+"/fd/0") && isTerminal("/proc/"+pid+"/fd/1")
}

// geminiArgsInteractive reports whether Gemini CLI's arguments keep a run
// interactive: no -p/--prompt, no query, no ACP mode; a word this
// reading does not know as a flag's value counts as a query.
func geminiArgsInteractive(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-p" || a == "--prompt" || strings.HasPrefix(a, "--prompt=") || strings.HasPrefix(a, "-p=") ||
			a == "--acp" || a == "--experimental-acp" || a == "--":
			return false
		case geminiValueFlags[a]:
			i++
		case geminiSwitches[a]:
		default:
			return false // a query, a prompt in disguise, or unknown
		}
	}
	return true
}

// isTerminal reports whether the descriptor link names a terminal.
func isTerminal(fd string) bool {
	t, err := os.Readlink(fd)
	return err == nil && (strings.HasPrefix(t, "/dev/pts/") || strings.HasPrefix(t, "/dev/tty"))
}
