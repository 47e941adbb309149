package hook

import (
	"encoding/json"
	"strings"
	"testing"
)

// What a file tool writes, read from its input: the whole content, or the
// replacements applied to the file as it is; unknown where the host's own
// reading could differ.
func TestWriteChangeApply(t *testing.T) {
	for _, tc := range []struct {
		name, shape, input, now string
		want                    string
		ok                      bool
	}{
		{"write", "whole", `{"content":"A=1\n"}`, "old", "A=1\n", true},
		{"edit first", "one", `{"old_string":"x","new_string":"y"}`, "x x", "y x", true},
		{"edit all", "one", `{"old_string":"x","new_string":"y","replace_all":true}`, "x x", "y y", true},
		{"gemini allow_multiple", "one", `{"old_string":"x","new_string":"y","allow_multiple":true}`, "x x", "y y", true},
		{"not found", "one", `{"old_string":"q","new_string":"y"}`, "x", "", false},
		{"empty old, new file", "one", `{"old_string":"","new_string":"A=1"}`, "", "A=1", true},
		{"empty old, file with text", "one", `{"old_string":"","new_string":"A=1"}`, "x", "", false},
		{"multi in order", "multi", `{"edits":[{"old_string":"a","new_string":"b"},{"old_string":"b","new_string":"LD_PRELOAD"}]}`, "a", "LD_PRELOAD", true},
		{"multiplying edits stop at the bound", "multi", `{"edits":[` + strings.Repeat(`{"old_string":"x","new_string":"xxxxxxxxxxxxxxxx","replace_all":true},`, 8) + `{"old_string":"x","new_string":"x"}]}`, "x", "", false},
		{"multi, one not found", "multi", `{"edits":[{"old_string":"a","new_string":"b"},{"old_string":"z","new_string":"c"}]}`, "a", "", false},
	} {
		var in map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tc.input), &in); err != nil {
			t.Fatal(err)
		}
		shape := map[string]changeShape{"whole": wholeFile, "one": oneEdit, "multi": multiEdits}[tc.shape]
		c := decodeChange(shape, in)
		if c == nil {
			t.Errorf("%s: not decoded", tc.name)
			continue
		}
		got, ok := c.Apply(tc.now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Apply(%q) = %q, %v; want %q, %v", tc.name, tc.now, got, ok, tc.want, tc.ok)
		}
	}
	// Inputs that do not say what is written plainly are not read.
	for _, bad := range []struct {
		shape changeShape
		input string
	}{
		{wholeFile, `{"content":3}`},
		{oneEdit, `{"old_string":"x"}`},
		{multiEdits, `{"edits":[]}`},
		{multiEdits, `{"edits":[{"old_string":"x","new_string":1}]}`},
		{noChange, `{"content":"x"}`},
	} {
		var in map[string]json.RawMessage
		json.Unmarshal([]byte(bad.input), &in)
		if c := decodeChange(bad.shape, in); c != nil {
			t.Errorf("%s: decoded as %+v", bad.input, c)
		}
	}
}

// Which host reads its env from a file, whichever host writes it (a red
// team's Claude Code Write of .env set BASH_ENV for Gemini CLI), and what
// in them steers.
func TestEnvFileFindings(t *testing.T) {
	for _, tc := range []struct {
		path string
		want *Host
	}{
		{"/p/.claude/settings.json", Claude},
		{"/p/.claude/settings.local.json", Claude},
		{"/p/.CLAUDE/Settings.json", Claude},
		{"/p/settings.json", nil},
		{"/p/.env", Gemini},
		{"/p/.ENV", Gemini},
		{"/p/.gemini/.env", Gemini},
		{"/p/.codex/config.toml", nil},
	} {
		if got := envFile(tc.path); got != tc.want {
			t.Errorf("envFile(%s) = %v, want %v", tc.path, got, tc.want)
		}
	}
	for _, tc := range []struct {
		host *Host
		data string
		keys string
	}{
		{Claude, `{"env":{"LD_PRELOAD":"x","TZ":"UTC"}}`, "LD_PRELOAD"},
		{Claude, `{"env":{"TZ":"UTC"}}`, ""},
		{Claude, `{"env":{},"ENV":{"LD_PRELOAD":"x"}}`, "env"},
		{Claude, `{"env": not json`, "env"},
		{Claude, "\ufeff{\"env\":{\"LD_PRELOAD\":\"x\"}}", "LD_PRELOAD"},
		{Claude, `{"\u0065nv":{"LD\u005fPRELOAD":"x"}}`, "LD_PRELOAD"},
		{Claude, `{"\u0065nv":{"LD_PRELOAD":"x"}, /* a comment */}`, "env"},
		{Gemini, "DATABASE_URL=x\nexport\tBASH_ENV=y\n", "BASH_ENV"},
		{Gemini, "DATABASE_URL=x\n", ""},
		// dotenv's \s* before "=" spans lines (round 5).
		{Gemini, "LD_PRELOAD\n=./x.so\n", "LD_PRELOAD"},
		{Gemini, "A=1\nLD_PRELOAD\n#\n \t=./x.so\n", "LD_PRELOAD"},
		{Gemini, "LD_PRELOAD\nA=1\n", ""},
	} {
		var keys []string
		for _, f := range envFindings(tc.host, "f", []byte(tc.data)) {
			keys = append(keys, f.Key)
		}
		if got := strings.Join(keys, ","); got != tc.keys {
			t.Errorf("%s %q: findings %q, want %q", tc.host.Name, tc.data, got, tc.keys)
		}
	}
}

// What a Codex patch writes, by the path in its header: an added file
// whole, an update's added lines for a .env only; a path named twice or
// moved is not known.
func TestPatchChanges(t *testing.T) {
	patch := strings.Join([]string{
		"*** Begin Patch",
		"*** Add File: a/.env",
		"+A=1",
		"+B=2",
		"*** Update File: .env",
		"@@",
		" KEEP=1",
		"-OLD=1",
		"+NEW=1",
		"*** Update File: src/x.json",
		"+{}",
		"*** Add File: twice",
		"+1",
		"*** Add File: twice",
		"+2",
		"*** Update File: old/.env",
		"*** Move to: new/.env",
		"+C=3",
		"  *** Add File: indented/.env",
		"+D=4",
		"*** End Patch",
	}, "\n")
	got := patchChanges(patch)
	want := map[string]string{"a/.env": "A=1\nB=2\n", ".env": "now\nNEW=1", "indented/.env": "D=4\n"}
	for p, w := range want {
		c := got[p]
		if c == nil {
			t.Errorf("%s: no change", p)
			continue
		}
		if after, ok := c.Apply("now"); !ok || after != w {
			t.Errorf("%s: Apply = %q, %v; want %q", p, after, ok, w)
		}
	}
	for _, p := range []string{"src/x.json", "twice", "old/.env", "new/.env"} {
		if c := got[p]; c != nil {
			t.Errorf("%s: change %+v, want none", p, c)
		}
	}
}
