package hostcheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary is also the fake hosts: a script runs it with
// HOSTCHECK_FAKE set (the check gives the host an accept-listed
// environment, so the script sets it) and it behaves as one kind of host.
func TestMain(m *testing.M) {
	if mode := os.Getenv("HOSTCHECK_FAKE"); mode != "" {
		os.Exit(fakeClaude(mode))
	}
	os.Exit(m.Run())
}

// fakeClaude asks the stand-in model for a turn as Claude Code does, runs
// the shell call it gets or not as mode says, and sends the result back:
//
//	obey    the allow rule wins: the command runs, hook or not
//	hook    agentgate's question wins: the command runs only without a hook
//	never   the command never runs, hook or not (a rule the host ignores)
//	silent  the model is never asked
func fakeClaude(mode string) int {
	if mode == "silent" {
		return 1
	}
	url := os.Getenv("ANTHROPIC_BASE_URL") + "/v1/messages"
	post := func(req map[string]any) (map[string]any, error) {
		b, _ := json.Marshal(req)
		resp, err := http.Post(url, "application/json", bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		var msg map[string]any
		return msg, json.NewDecoder(resp.Body).Decode(&msg)
	}
	tools := []any{map[string]any{"name": "Bash"}}
	msg, err := post(map[string]any{"tools": tools, "messages": []any{map[string]any{"role": "user", "content": "go"}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	block := msg["content"].([]any)[0].(map[string]any)
	if block["type"] != "tool_use" {
		return 1
	}
	command := block["input"].(map[string]any)["command"].(string)
	settings, _ := os.ReadFile(filepath.Join(os.Getenv("HOME"), ".claude", "settings.json"))
	hooked := strings.Contains(string(settings), "PreToolUse")
	if mode == "obey" || (mode == "hook" && !hooked) {
		exec.Command("sh", "-c", command).Run()
	}
	result := map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": block["id"], "content": "ok"}}}
	if _, err := post(map[string]any{"tools": tools, "messages": []any{result}}); err != nil {
		return 1
	}
	return 0
}

// fake writes a host program that runs the test binary as a fake host of
// the given mode.
func fake(t *testing.T, mode string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "claude")
	script := fmt.Sprintf("#!/bin/sh\nHOSTCHECK_FAKE=%s exec '%s' \"$@\"\n", mode, self)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClaudeAllowRule: the check's outcome follows what the host did, not
// what it printed: a host whose allow rule runs the command overrides; a
// host that asks agentgate holds only when the control run shows the rule
// working without the hook; a run that never reaches the decision shows
// nothing.
func TestClaudeAllowRule(t *testing.T) {
	for _, c := range []struct {
		mode string
		want Outcome
		says string
	}{
		{"obey", Overrides, "ran \"rm -rf build\""},
		{"hook", Holds, "without the hook the same rule ran it"},
		{"never", Inconclusive, "did not run \"rm -rf build\" either"},
		{"silent", Inconclusive, "never sent the result"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			r := ClaudeAllowRule(context.Background(), Check{Program: fake(t, c.mode), Agentgate: "/nonexistent/agentgate",
				Path: os.Getenv("PATH"), Timeout: 30 * time.Second})
			if r.Outcome != c.want || !strings.Contains(r.Detail, c.says) {
				t.Errorf("%s: got %s (%s), want %s saying %q", c.mode, r.Outcome, r.Detail, c.want, c.says)
			}
		})
	}
}

// TestHostGetsNoneOfThePersonsEnvironment: the host runs with a throwaway
// home and an accept-listed environment, so a person's API key or
// settings never reach the run (or the stand-in).
func TestHostGetsNoneOfThePersonsEnvironment(t *testing.T) {
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "PERSONS-SECRET-TOKEN")
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dir := t.TempDir()
	out := filepath.Join(dir, "env")
	p := filepath.Join(dir, "claude")
	os.WriteFile(p, []byte("#!/bin/sh\nenv > '"+out+"'\n"), 0o755)
	r := ClaudeAllowRule(context.Background(), Check{Program: p, Agentgate: "/nonexistent/agentgate", Path: os.Getenv("PATH"), Timeout: 30 * time.Second})
	if r.Outcome != Inconclusive {
		t.Errorf("a host that asked nothing: %s", r.Outcome)
	}
	env, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"PERSONS-SECRET-TOKEN", "CLAUDE_CONFIG_DIR", "HOME=" + os.Getenv("HOME") + "\n"} {
		if strings.Contains(string(env), leak) {
			t.Errorf("the host's environment holds %q:\n%s", leak, env)
		}
	}
	if !strings.Contains(string(env), "ANTHROPIC_BASE_URL=http://127.0.0.1:") {
		t.Errorf("the host was not pointed at the stand-in on 127.0.0.1:\n%s", env)
	}
}

// TestBinaryHasNoHTTPStack: the stand-in speaks HTTP by hand so that
// agentgate does not link net/http, which made the binary 4 MB larger and
// every start of it (each hooked call pays two) about half a millisecond
// slower, for a check doctor runs on request.
func TestBinaryHasNoHTTPStack(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/agentgate/agentgate").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "net/http" || p == "crypto/tls" {
			t.Errorf("agentgate links %s", p)
		}
	}
}

// TestReadRequest: the stand-in reads a body framed either way a client
// may send it, and refuses what it cannot frame.
func TestReadRequest(t *testing.T) {
	for _, c := range []struct {
		raw, path, body string
		bad             bool
	}{
		{raw: "POST /v1/messages?beta=true HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", path: "/v1/messages", body: "hello"},
		{raw: "POST /v1/messages HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n2;x=y\r\nlo\r\n0\r\n\r\n", path: "/v1/messages", body: "hello"},
		{raw: "GET /v1/models HTTP/1.1\r\n\r\n", path: "/v1/models"},
		{raw: "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", bad: true},
		{raw: "POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", bad: true},
		{raw: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", bad: true},
		{raw: "POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nshort", bad: true},
		{raw: "nonsense\r\n\r\n", bad: true},
	} {
		_, path, body, err := readRequest(bufio.NewReader(strings.NewReader(c.raw)))
		if (err != nil) != c.bad || (!c.bad && (path != c.path || string(body) != c.body)) {
			t.Errorf("%q: path %q body %q err %v; want path %q body %q bad %v", c.raw, path, body, err, c.path, c.body, c.bad)
		}
	}
}
