package main

import (
	"encoding/json"
	"path/filepath"
)

// Claude Code: the Anthropic Messages API at ANTHROPIC_BASE_URL; the hook
// is a PreToolUse command hook on Bash in ~/.claude/settings.json. It runs
// in bypassPermissions mode, so Claude Code's own permission rules stop
// nothing and only agentgate stands between the model and the shell
// (IS_SANDBOX lets that mode run as root).
var claudeHost = host{
	name:      "claude",
	bin:       "claude",
	proto:     anthropicAPI,
	write:     "rm -rf build",
	toolUseID: "toolu_e2e_1",
	install: func(w *world) {
		w.writeJSON(filepath.Join(w.home, ".claude", "settings.json"), obj{
			"hooks": obj{"PreToolUse": []any{obj{
				"matcher": "Bash",
				"hooks":   []any{obj{"type": "command", "command": w.hookCommand("claude"), "timeout": 30}},
			}}},
		})
	},
	run: func(w *world, bin, url string) (string, string, error) {
		out, errOut, err := w.run(claudeEnv(w, url), bin,
			"-p", "Run the command you are given.", "--output-format", "json",
			"--permission-mode", "bypassPermissions", "--max-turns", "4")
		var res struct {
			SessionID string `json:"session_id"`
		}
		json.Unmarshal([]byte(out), &res)
		return res.SessionID, out + errOut, err
	},
}

func claudeEnv(w *world, url string) []string {
	return w.env(
		"ANTHROPIC_BASE_URL="+url,
		"ANTHROPIC_API_KEY=e2e-test-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_ENABLE_TELEMETRY=0",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_UPDATES=1",
		"DISABLE_FEATURE_FLAGS=1",
		"DISABLE_GROWTHBOOK=1",
		"IS_SANDBOX=1",
	)
}
