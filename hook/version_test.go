package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestTestedVersionsArePinned: the versions doctor names as the ones the
// end-to-end tests drive are the ones the tests install.
func TestTestedVersionsArePinned(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "internal", "e2e", "testdata", "e2e", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	for host, npm := range map[string]string{"claude": "@anthropic-ai/claude-code", "codex": "@openai/codex", "gemini": "@google/gemini-cli"} {
		if got, want := Tested[host].Version, pkg.Dependencies[npm]; got != want {
			t.Errorf("%s: doctor names %q as tested, package.json pins %s %q", host, got, npm, want)
		}
	}
	if len(Tested) != 3 {
		t.Errorf("Tested names %d hosts; this test checks 3", len(Tested))
	}
}
