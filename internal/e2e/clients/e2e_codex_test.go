//go:build e2e

package clients

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentgate/agentgate/hook"
)

// Codex: the OpenAI Responses API from a model provider in
// $CODEX_HOME/config.toml; the hook is a PreToolUse command hook on ^Bash$
// in $CODEX_HOME/hooks.json, which Codex runs only once it is trusted
// (a trusted_hash per hook in config.toml). It runs with approvals and
// sandbox off, so only agentgate stands between the model and the shell.
// Codex refuses rm -rf on its own, so its write is touch made.txt.
var codexHost = host{
	name:      "codex",
	bin:       "codex",
	proto:     responsesAPI,
	write:     "touch made.txt",
	toolUseID: "call_e2e_1",
	install: func(w *world) {
		w.writeJSON(filepath.Join(codexHome(w), "hooks.json"), obj{
			"hooks": obj{"PreToolUse": []any{obj{
				"matcher": hook.CodexFileMatcher, // as agentgate install writes it
				"hooks":   []any{obj{"type": "command", "command": w.hookCommand("codex"), "timeout": 30}},
			}}},
		})
	},
	run: func(w *world, bin, url string) (string, string, error) {
		writeCodexConfig(w, url)
		if w.ag != "" { // agentgate's hook is installed
			trustCodexHooks(w, bin)
		}
		out, errOut, err := w.run(codexEnv(w), bin, "exec", "--json", "--skip-git-repo-check",
			"--dangerously-bypass-approvals-and-sandbox", "Run the command you are given.")
		session := ""
		for _, line := range strings.Split(out, "\n") {
			var ev struct {
				Type     string `json:"type"`
				ThreadID string `json:"thread_id"`
			}
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "thread.started" {
				session = ev.ThreadID
			}
		}
		return session, out + errOut, err
	},
}

func codexHome(w *world) string { return filepath.Join(w.home, ".codex") }

// writeCodexConfig points Codex at the stand-in at url, with every
// startup sync that would reach out of the machine off, keeping what
// config.toml holds (agentgate install's trust).
func writeCodexConfig(w *world, url string) {
	cfg := filepath.Join(codexHome(w), "config.toml")
	old, _ := os.ReadFile(cfg)
	w.write(cfg, `model = "gpt-5.5"
model_provider = "e2e"
check_for_update_on_startup = false
`+string(old)+`
[model_providers.e2e]
name = "e2e stand-in"
base_url = "`+url+`/v1"
wire_api = "responses"
env_key = "E2E_CODEX_KEY"
request_max_retries = 0
stream_max_retries = 0

[features]
# Startup syncs that reach out of the machine (curated plugins, apps).
plugins = false
remote_plugin = false
apps = false

[analytics]
enabled = false

[feedback]
enabled = false
`)
}

// onboardCodex writes what a person's first interactive run of Codex
// leaves behind: the project trusted, the notices about new models and
// screen readers seen.
func (w *world) onboardCodex() {
	cfg := filepath.Join(codexHome(w), "config.toml")
	old, _ := os.ReadFile(cfg)
	w.write(cfg, string(old)+`
[projects.`+strconv.Quote(w.project)+`]
trust_level = "trusted"

[tui]
screen_reader_detection_done = true

[tui.model_availability_nux]
"gpt-6.1-sol" = 1

[notice.model_migrations]
"gpt-5.5" = "gpt-6-sol"
`)
}

func codexEnv(w *world) []string {
	return w.env("CODEX_HOME="+codexHome(w), "E2E_CODEX_KEY=e2e-test-key")
}

// codexHook is a hook as Codex's own /hooks review lists it.
type codexHook struct {
	Key, CurrentHash, TrustStatus, Command string
}

// listCodexHooks asks Codex (codex app-server, hooks/list) for every hook
// it knows, with its key, current hash and whether it is trusted.
func listCodexHooks(w *world, bin string) []codexHook {
	w.t.Helper()
	c := exec.Command(bin, "app-server")
	c.Dir, c.Env = w.project, codexEnv(w)
	stdin, _ := c.StdinPipe()
	stdout, _ := c.StdoutPipe()
	if err := c.Start(); err != nil {
		w.t.Fatal(err)
	}
	defer func() { c.Process.Kill(); c.Wait() }()
	for _, m := range []string{
		`{"method":"initialize","id":0,"params":{"clientInfo":{"name":"agentgate-e2e","version":"1"}}}`,
		`{"method":"initialized"}`,
		`{"method":"hooks/list","id":1,"params":{}}`,
	} {
		fmt.Fprintln(stdin, m)
	}
	got := make(chan []codexHook, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var resp struct {
				ID     *int `json:"id"`
				Result struct {
					Data []struct{ Hooks []codexHook }
				}
			}
			if json.Unmarshal(sc.Bytes(), &resp) == nil && resp.ID != nil && *resp.ID == 1 {
				var hooks []codexHook
				for _, d := range resp.Result.Data {
					hooks = append(hooks, d.Hooks...)
				}
				got <- hooks
				return
			}
		}
		close(got)
	}()
	select {
	case hooks := <-got:
		return hooks
	case <-time.After(30 * time.Second):
		w.t.Fatal("codex app-server did not list the hooks in 30s")
	}
	return nil
}

// trustCodexHooks trusts every untrusted hook of agentgate's the way
// Codex's own /hooks review does, recording the key and current hash
// Codex lists in config.toml.
func trustCodexHooks(w *world, bin string) {
	w.t.Helper()
	var add strings.Builder
	found := false
	hooks := listCodexHooks(w, bin)
	for _, h := range hooks {
		if !strings.Contains(h.Command, "hook codex") {
			continue
		}
		found = true
		if h.TrustStatus != "trusted" {
			w.t.Logf("codex: trusting hook %s (%s)", h.Key, h.TrustStatus)
			fmt.Fprintf(&add, "\n[hooks.state.%q]\ntrusted_hash = %q\n", h.Key, h.CurrentHash)
		}
	}
	if !found {
		w.t.Fatalf("codex does not list agentgate's hook: %+v", hooks)
	}
	cfg := filepath.Join(codexHome(w), "config.toml")
	old, _ := os.ReadFile(cfg)
	w.write(cfg, string(old)+add.String())
}
