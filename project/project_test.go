package project

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestCommands(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // "prefix | source | runs"
	}{
		{"makefile targets, not variables or other names", map[string]string{
			"Makefile": "test := no\nbuild:\n\tgo build\ntest: build lint\n\tgo test\ndeploy:\n\tship\nlint:\n",
		}, []string{"make build | Makefile:2 | go build", "make test | Makefile:4 | after build lint: go test", "make lint | Makefile:8 | (no recipe of its own)"}},
		{"GNUmakefile first, as make reads it", map[string]string{
			"GNUmakefile": "check:\n\tx\n", "Makefile": "test:\n\ty\n",
		}, []string{"make check | GNUmakefile:1 | x"}},
		{"package.json with pnpm, invisible characters shown", map[string]string{
			"package.json": `{"scripts": {"test": "jest\u202e", "lint": "eslint .", "prepare": "curl x"}}`, "pnpm-lock.yaml": "",
		}, []string{"pnpm test | package.json scripts.test | jest\\u202e", "pnpm run lint | package.json scripts.lint | eslint ."}},
		{"go.mod", map[string]string{"go.mod": "module example.com/m\n"},
			[]string{"go build | go.mod | go build of example.com/m", "go test | go.mod | go test of example.com/m", "go vet | go.mod | go vet of example.com/m"}},
		{"pyproject sections", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\n[tool.ruff]\n"},
			[]string{"pytest | pyproject.toml tool.pytest | pytest as pyproject.toml configures it", "ruff check | pyproject.toml tool.ruff | ruff check as pyproject.toml configures it"}},
		{"broken package.json", map[string]string{"package.json": "{"}, nil},
		// The red team's: what is shown must be what runs.
		{"a recipe on the target's line, and every recipe line", map[string]string{
			"Makefile": "test: ; go vet ./...\n\tgo test ./...\n\techo done\n",
		}, []string{"make test | Makefile:1 | go vet ./...; go test ./...; echo done"}},
		{"a target defined twice: nothing", map[string]string{"Makefile": "test:\n\tgo test\ntest: ; @echo EVIL\n"}, nil},
		{"a conditional: nothing", map[string]string{"Makefile": "ifeq (1,0)\ntest:\n\tgo test\nendif\n"}, nil},
		{"an include: nothing", map[string]string{"Makefile": "include evil.mk\ntest:\n\tgo test\n"}, nil},
		{"an unreadable GNUmakefile stops make's proposals", map[string]string{
			"GNUmakefile": strings.Repeat("#\n", maxFile), "Makefile": "test:\n\tgo test\n",
		}, nil},
		{"package.json: the exact key, and pre and post scripts", map[string]string{
			"package.json": `{"scripts": {"test": "jest", "pretest": "echo PRE", "posttest": "echo POST"}, "Scripts": {"test": "node --test"}}`,
		}, []string{"npm test | package.json scripts.test | pretest: echo PRE; then: jest; then posttest: echo POST"}},
		{"package.json: only a differently cased key", map[string]string{"package.json": `{"Scripts": {"test": "x"}}`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, c := range Commands(dir) {
				got = append(got, c.Prefix+" | "+c.Source+" | "+c.Runs)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// A FIFO planted as the Makefile is not read (it would block); the other
// files still are.
func TestCommandsSkipSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "Makefile"), 0o600); err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Cargo.toml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got := Commands(dir)
	if len(got) != 4 || got[0].Prefix != "cargo build" {
		t.Errorf("Commands = %+v; want the cargo proposals only", got)
	}
}

// The TOML proposals parse as rules at the workspace level.
func TestTOMLIsRules(t *testing.T) {
	text := TOML([]Command{{Prefix: "make test", Source: "Makefile:3", Runs: "go test ./..."}})
	for _, want := range []string{"# Makefile:3: go test ./...\n[[allow.rule]]\nprefix = \"make test\"\nsandbox = \"workspace\"\n", "agentgate trust"} {
		if !strings.Contains(text, want) {
			t.Errorf("TOML lacks %q:\n%s", want, text)
		}
	}
	if TOML(nil) != "" {
		t.Error("no proposals should make no text")
	}
}
