package config_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
)

var update = flag.Bool("update", false, "rewrite the generated part of config.example.toml")

// defaultsDoc documents every default entry and every pack, as comments;
// docs/catalogue.md has their flags.
func defaultsDoc() string {
	var b strings.Builder
	for _, r := range allowlist.Defaults() {
		fmt.Fprintf(&b, "#   %-22s %s\n", r.String(), r.Note)
	}
	for _, name := range allowlist.PackNames() {
		p, _ := allowlist.LookupPack(name)
		fmt.Fprintf(&b, "#\n# pack %s: %s\n", p.Name, p.Note)
		for _, e := range p.Entries {
			fmt.Fprintf(&b, "#   %-22s %s\n", e.Name(), e.Note)
		}
	}
	return b.String()
}

// sensitiveDoc documents every default sensitive pattern with its note.
func sensitiveDoc() string {
	var b strings.Builder
	for _, d := range gate.SensitiveDefaults {
		fmt.Fprintf(&b, "#   %-38s %s\n", d.Pattern, d.Note)
	}
	return b.String()
}

// config.example.toml documents every default sensitive path.
func TestExampleDocumentsSensitive(t *testing.T) {
	path := filepath.Join("..", "config.example.toml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	begin, end := strings.Index(s, "# BEGIN SENSITIVE\n"), strings.Index(s, "# END SENSITIVE")
	if begin < 0 || end < begin {
		t.Fatal("config.example.toml lacks the BEGIN/END SENSITIVE markers")
	}
	begin += len("# BEGIN SENSITIVE\n")
	if want := sensitiveDoc(); s[begin:end] != want {
		if *update {
			if err := os.WriteFile(path, []byte(s[:begin]+want+s[end:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Fatalf("config.example.toml does not document the default sensitive paths as they are; run: go test ./config -run TestExampleDocumentsSensitive -update")
	}
}

// config.example.toml documents every default entry, and it is a valid
// config file.
func TestExampleDocumentsDefaults(t *testing.T) {
	path := filepath.Join("..", "config.example.toml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	begin, end := strings.Index(s, "# BEGIN DEFAULTS\n"), strings.Index(s, "# END DEFAULTS")
	if begin < 0 || end < begin {
		t.Fatal("config.example.toml lacks the BEGIN/END DEFAULTS markers")
	}
	begin += len("# BEGIN DEFAULTS\n")
	want := defaultsDoc()
	if s[begin:end] != want {
		if *update {
			if err := os.WriteFile(path, []byte(s[:begin]+want+s[end:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Fatalf("config.example.toml does not document the default allowlist as it is; run: go test ./config -run TestExampleDocumentsDefaults -update")
	}
	dir := t.TempDir()
	user := filepath.Join(dir, "cfg")
	os.MkdirAll(user, 0o700)
	os.WriteFile(filepath.Join(user, "config.toml"), data, 0o600)
	c, err := config.Load(config.Options{Cwd: dir, Home: dir, ConfigDir: user, StateDir: filepath.Join(dir, "state")})
	if err != nil {
		t.Fatalf("config.example.toml is not a valid config: %v", err)
	}
	if c.Mode != config.ModeDefault || len(c.Rules) != len(allowlist.Defaults()) {
		t.Errorf("config.example.toml changes the configuration: mode %s, %d rules", c.Mode, len(c.Rules))
	}
}
