//go:build e2e

package clients

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Gemini CLI: the Gemini API at GOOGLE_GEMINI_BASE_URL with an API key;
// the hook is a BeforeTool command hook on run_shell_command in
// ~/.gemini/settings.json. It runs with --yolo, so only agentgate stands
// between the model and the shell.
var geminiHost = host{
	name:      "gemini",
	bin:       "gemini",
	proto:     geminiAPI,
	write:     "rm -rf build",
	toolUseID: "", // BeforeTool events carry no id of the call
	install: func(w *world) {
		settings := geminiSettings()
		settings["hooks"] = obj{"BeforeTool": []any{obj{
			"matcher": "run_shell_command",
			"hooks":   []any{obj{"type": "command", "command": w.hookCommand("gemini"), "timeout": 30000}},
		}}}
		w.writeJSON(filepath.Join(w.home, ".gemini", "settings.json"), settings)
	},
	run: func(w *world, bin, url string) (string, string, error) {
		w.mergeGeminiSettings()
		out, errOut, err := w.run(geminiEnv(w, url), bin, "-p", "Run the command you are given.", "-o", "json", "--yolo", "-m", "gemini-2.5-flash")
		var res struct {
			SessionID string `json:"session_id"`
		}
		json.Unmarshal([]byte(out), &res)
		return res.SessionID, out + errOut, err
	},
}

// geminiSettings selects API-key auth and turns telemetry, usage
// statistics and update checks off.
// mergeGeminiSettings puts geminiSettings into the world's Gemini settings,
// beside the hook install wrote.
func (w *world) mergeGeminiSettings() {
	path := filepath.Join(w.home, ".gemini", "settings.json")
	settings := obj{}
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &settings)
	}
	for k, v := range geminiSettings() {
		settings[k] = v
	}
	w.writeJSON(path, settings)
}

// geminiEnv is the environment Gemini CLI runs with against the stand-in.
func geminiEnv(w *world, url string) []string {
	return w.env(
		"GEMINI_API_KEY=e2e-test-key",
		"GOOGLE_GEMINI_BASE_URL="+url,
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"GEMINI_CLI_NO_RELAUNCH=true",
	)
}

func geminiSettings() obj {
	return obj{
		"security":  obj{"auth": obj{"selectedType": "gemini-api-key"}},
		"privacy":   obj{"usageStatisticsEnabled": false},
		"telemetry": obj{"enabled": false},
		"general":   obj{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
	}
}
