// Package clients holds the end-to-end tests that drive the real agent
// clients (Claude Code, Codex, Gemini CLI and the Claude Agent SDK)
// against a stand-in model API. They build only with the e2e tag, after
// 'npm ci' in ../testdata/e2e (.ci/run does both):
//
//	go test -race -tags e2e ./internal/e2e/clients
//
// Without the tag, 'go test ./...' lists this package as having no test
// files: that line is what says they did not run.
package clients
