package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/shparse"
	"github.com/agentgate/agentgate/prompt"
	"github.com/agentgate/agentgate/runner"
	"github.com/agentgate/agentgate/session"
)

// memoryState is what a session remembers about the command before it is
// proposed again.
type memoryState string

const (
	memNone         memoryState = "nothing remembered"
	memAllowedHere  memoryState = "allowed for the session here"
	memAllowedThere memoryState = "allowed for the session in another directory"
	memDenied       memoryState = "denied for the session"
	memBreaker      memoryState = "denied often enough to trip the breaker"
)

// agreementCommands are commands of every kind: allowed, unknown, sticky
// (sensitive, self-protection), denied, compounds; plus the adversarial
// corpus, none of which may ever run without a person.
func agreementCommands(t *testing.T) []string {
	cmds := []string{
		"ls -la", "git status", "make test", "rm -rf build", "cat ~/.ssh/id_rsa", "cat .env",
		"ls && make", "echo hi > out", "git config core.pager x", "cat ~/.config/agentgate/config.toml",
		"find . -delete", "sudo rm -rf /tmp/x", "ls; rm x",
	}
	f, err := os.Open("../gate/testdata/adversarial.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] != '"' {
			continue // comments and argv lines
		}
		q, _, _ := strings.Cut(line, "\t")
		if s, err := strconv.Unquote(q); err == nil {
			cmds = append(cmds, s)
		}
	}
	return cmds
}

// check and exec give the same answer for every command, mode and session
// memory state: check's "allow" is exactly exec running the command
// without a prompt, "ask" exactly exec prompting, "deny" exactly exec
// neither prompting nor running. And memory never runs a sticky ask, nor
// anything in the ci and readonly modes.
func TestCheckAgreesWithExec(t *testing.T) {
	cmds := agreementCommands(t)
	if testing.Short() {
		cmds = cmds[:20]
	}
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	states := []memoryState{memNone, memAllowedHere, memAllowedThere, memDenied, memBreaker}
	for i, text := range cmds {
		for _, mode := range []string{"default", "ci", "readonly", "bypass"} {
			for k, mem := range states {
				if i >= 40 && k > 1 {
					// Past the first commands, the states that can run
					// something (nothing remembered, allowed here) suffice:
					// the others only refuse, and every command pays two
					// decisions per state.
					continue
				}
				state := filepath.Join(home, fmt.Sprintf("state-%d-%s-%d", i, mode, len(mem)))
				vars := map[string]string{"HOME": home, "XDG_STATE_HOME": state, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
					"AGENTGATE_MODE": mode}
				store := session.Store{Dir: filepath.Join(state, "agentgate", "sessions"), TTL: time.Hour, Window: time.Hour}
				now := time.Now()
				switch mem {
				case memAllowedHere:
					_ = store.Remember("s1", text, proj, session.Allowed, now)
				case memAllowedThere:
					_ = store.Remember("s1", text, home, session.Allowed, now)
				case memDenied:
					_ = store.Remember("s1", text, proj, session.Denied, now)
				case memBreaker:
					for range 5 {
						_ = store.RecordDenial("s1", text, now)
					}
				}
				env, _, stderr := testEnv()
				env.Getenv = func(k string) string { return vars[k] }
				env.Getwd = func() (string, error) { return proj, nil }
				env.Policy = filepath.Join(home, "no-policy.toml")
				checkErr := checkRun(&CheckOptions{Env: env, Args: []string{text}, Session: "s1"})
				var check int
				var st exitStatus
				if errors.As(checkErr, &st) {
					check = int(st)
				} else if checkErr != nil {
					t.Fatalf("%q: check: %v", text, checkErr)
				}

				ran, prompted := false, false
				env.Exec = func(runner.Plan) error { ran = true; return nil }
				env.Run = func(runner.Plan) (int, error) { ran = true; return 0, nil }
				env.OpenTTY = func() (*os.File, error) { return os.Open(os.DevNull) }
				env.Ask = func(context.Context, *os.File, prompt.Question, prompt.Options) prompt.Result {
					prompted = true
					return prompt.Result{Choice: prompt.Deny, Ending: prompt.Answered}
				}
				_ = execRun(&ExecOptions{Env: env, Args: []string{text}, Session: "s1"})
				// A program that is not installed here was still let through.
				ran = ran || strings.Contains(stderr.String(), "cannot run ")

				where := fmt.Sprintf("%q in mode %s, %s", text, mode, mem)
				switch check {
				case exitOK:
					if !ran || prompted {
						t.Errorf("%s: check says allow; exec ran=%v prompted=%v", where, ran, prompted)
					}
				case exitAsk:
					if !prompted || ran {
						t.Errorf("%s: check says ask; exec ran=%v prompted=%v", where, ran, prompted)
					}
				case exitCheckDeny:
					if prompted || ran {
						t.Errorf("%s: check says deny; exec ran=%v prompted=%v", where, ran, prompted)
					}
				default:
					t.Errorf("%s: check exit %d", where, check)
				}
				if ran && (mode == "ci" || mode == "readonly") {
					d := gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults(), VetDir: func(string) bool { return true }})
					if d.Verdict() != gate.Allow {
						t.Errorf("%s: ran in mode %s although the gate said %s", where, mode, d.Verdict())
					}
				}
			}
		}
	}
}

// A request's text is parsed once: the gate, the resolver that judges
// what feeds xargs, and the inspector that shows the shell's reading all
// read the one parse (issue 16), for an allowed command, an asked one
// and one whose xargs input is judged. A nested shell string is a text
// of its own, parsed once too, however many layers read it (the gate's
// rules, its flow of cd and assignments, the fork-bomb rule, the
// resolver).
func TestOneParsePerRequest(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		text   string
		nested []string // the shell strings in it, each parsed once too
	}{
		{"git log --oneline | head -3", nil},
		{"rm -rf build && ls", nil},
		{"find . -type f | xargs wc -l", nil},
		{"bash -c 'ls -la'", []string{"ls -la"}},
		{"sh -c 'cd src && ls' && bash -c 'find . | xargs cat'", []string{"cd src && ls", "find . | xargs cat"}},
		{`bash -c "bash -c 'git status'"`, []string{"bash -c 'git status'", "git status"}},
	} {
		env, _, _ := testEnv()
		vars := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
		env.Getenv = func(k string) string { return vars[k] }
		env.Getwd = func() (string, error) { return home, nil }
		env.Policy = filepath.Join(home, "no-policy.toml")
		// check, its JSON form, and a hook, which reads the text once
		// to tell Codex's shell patch from a command.
		for _, door := range []string{"check", "check --json", "hook"} {
			parsed := map[string]int{}
			stop := shparse.Trace(func(text string) { parsed[text]++ })
			if door == "hook" {
				in, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
					"tool_input": map[string]string{"command": c.text}, "cwd": home, "session_id": "s1"})
				_ = hookRun(&HookOptions{Env: env, Host: "codex", Stdin: bytes.NewReader(in), Deadline: 10 * time.Second,
					Self: func() (string, error) { return "/opt/agentgate", nil }})
			} else {
				checkRun(&CheckOptions{Env: env, Args: []string{c.text}, Session: "s1", JSON: door != "check"})
			}
			stop()
			for _, want := range append([]string{c.text}, c.nested...) {
				if parsed[want] != 1 {
					t.Errorf("%s %q: %q parsed %d times, want once", door, c.text, want, parsed[want])
				}
			}
			// Other texts are the plain split's over-reading of a
			// shell string, for the deny and ask rules ("bash -c 'ls
			// -la'" split on blanks holds the text "ls").
			for text, n := range parsed {
				if n > 1 {
					t.Errorf("%s %q: %q parsed %d times in one request", door, c.text, text, n)
				}
			}
		}
	}
}
