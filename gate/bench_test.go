package gate_test

import (
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

// benchCommands mix what agents send: mostly allowed reads, some
// compounds, exceptions and commands not on the allowlist.
var benchCommands = []string{
	"git status", "git log --oneline -20", "ls -la src", "cat README.md", "rg -n TODO --type go",
	"find . -name '*.go' -type f", "git diff HEAD~1 -- cmd/", "head -n 50 main.go", "wc -l *.go",
	"go test ./...", "git status && git diff", "npm run build 2>&1 | tail -20", "find . -delete",
	"rm -rf build", "sort -o out.txt in.txt", "cat $HOME/.bashrc",
}

func BenchmarkDecide(b *testing.B) {
	rules := allowlist.Defaults()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		gate.Decide(gate.Request{Text: benchCommands[i%len(benchCommands)], Rules: rules})
	}
}

func BenchmarkDecideAllowed(b *testing.B) {
	rules := allowlist.Defaults()
	b.ReportAllocs()
	for b.Loop() {
		gate.Decide(gate.Request{Text: "git log --oneline -20", Rules: rules})
	}
}

// BenchmarkDecideDefaultConfig adds what a default configuration adds to
// every decision: the self-protected and sensitive path checks, with the
// patterns compiled for each decision, as one agentgate process does.
func BenchmarkDecideDefaultConfig(b *testing.B) {
	rules := allowlist.Defaults()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		gate.Decide(gate.Request{Text: benchCommands[i%len(benchCommands)], Rules: rules, Paths: defaultPaths})
	}
}

// BenchmarkDecideCompiledPaths is the same with the patterns compiled
// once, as a caller judging many commands would.
func BenchmarkDecideCompiledPaths(b *testing.B) {
	rules := allowlist.Defaults()
	paths := defaultPaths.Compile()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		gate.Decide(gate.Request{Text: benchCommands[i%len(benchCommands)], Rules: rules, Paths: paths})
	}
}
