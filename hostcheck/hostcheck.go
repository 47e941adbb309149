// Package hostcheck shows, on the host version installed here, what one
// of the host's own settings does to agentgate's answer: doctor's live
// checks. A check runs the installed host program in a throwaway home and
// project, with agentgate's hook installed as "agentgate install" writes
// it, against a stand-in model that listens on 127.0.0.1 and asks for one
// shell command. What counts is the effect (did the command run?), not
// what the host printed.
//
// Nothing of the person's own setup reaches the run: the host gets a new
// HOME and XDG directories, and an environment built from an accept-list
// (PATH and the locale), so neither the person's API keys nor their
// settings, audit log or session memory are read or written.
package hostcheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentgate/agentgate/hook"
)

// Outcome is what a live check showed.
type Outcome int

const (
	// Inconclusive: the run did not get as far as the host deciding on
	// the command (it failed, timed out, or never asked for the call).
	Inconclusive Outcome = iota
	// Holds: the host asked for the command, agentgate asked, and the
	// command did not run although the host's rule allows it.
	Holds
	// Overrides: the host's rule ran the command agentgate asked about.
	Overrides
)

func (o Outcome) String() string {
	switch o {
	case Holds:
		return "holds"
	case Overrides:
		return "overrides"
	}
	return "inconclusive"
}

// Result is the outcome of a check and what it rests on, for a person.
type Result struct {
	Outcome Outcome
	// Detail says what was seen: the command, the rule, and for an
	// inconclusive run why.
	Detail string
}

// Check is one live check's inputs.
type Check struct {
	// Program is the host's program, an absolute path.
	Program string
	// Agentgate is the agentgate the installed hook runs, an absolute
	// path: the check installs it in the throwaway home.
	Agentgate string
	// Path is the PATH the host runs with (it finds node there).
	Path string
	// Timeout bounds each run of the host; 0 means 60 s.
	Timeout time.Duration
}

// The command the stand-in model asks for, and the rule that allows it:
// an ordinary rule of the kind people write, and a command agentgate
// asks about (a recursive delete) whose effect is plain to see in a
// throwaway project.
const (
	claudeCommand = "rm -rf build"
	claudeRule    = "Bash(rm:*)"
)

// ClaudeAllowRule shows whether a Claude Code allow rule for Bash lets a
// command agentgate asks about run without agentgate's question. Two
// runs: with agentgate's hook and the rule, the command must not run for
// Holds; and a control without the hook, where the same rule must run
// it, so that a Holds is not a rule the host ignored for another reason.
func ClaudeAllowRule(ctx context.Context, c Check) Result {
	dir, err := os.MkdirTemp("", "agentgate-live-")
	if err != nil {
		return Result{Detail: err.Error()}
	}
	defer os.RemoveAll(dir)
	var (
		hooked = run{c: c, dir: filepath.Join(dir, "hooked"), hook: true}
		bare   = run{c: c, dir: filepath.Join(dir, "bare")}
	)
	ran, why := hooked.claude(ctx)
	if why != "" {
		return Result{Detail: why}
	}
	if ran {
		return Result{Outcome: Overrides, Detail: fmt.Sprintf("with agentgate's hook and the allow rule %s, Claude Code ran %q, which agentgate asks about", claudeRule, claudeCommand)}
	}
	ran, why = bare.claude(ctx)
	switch {
	case why != "":
		return Result{Detail: "the control run without agentgate's hook: " + why}
	case !ran:
		return Result{Detail: fmt.Sprintf("without agentgate's hook the allow rule %s did not run %q either, so the run shows nothing about the rule", claudeRule, claudeCommand)}
	}
	return Result{Outcome: Holds, Detail: fmt.Sprintf("with the allow rule %s, Claude Code still asked agentgate and did not run %q; without the hook the same rule ran it", claudeRule, claudeCommand)}
}

// ClaudeOffline is the environment that keeps Claude Code from reaching
// anything but its model API: no telemetry, error reports, updates or
// feature flags (the end-to-end tests use it too).
var ClaudeOffline = []string{
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	"CLAUDE_CODE_ENABLE_TELEMETRY=0",
	"DISABLE_TELEMETRY=1",
	"DISABLE_ERROR_REPORTING=1",
	"DISABLE_AUTOUPDATER=1",
	"DISABLE_UPDATES=1",
	"DISABLE_FEATURE_FLAGS=1",
	"DISABLE_GROWTHBOOK=1",
}

// run is one run of a host in its own home and project.
type run struct {
	c    Check
	dir  string
	hook bool
}

func (r run) home() string    { return filepath.Join(r.dir, "home") }
func (r run) project() string { return filepath.Join(r.dir, "project") }

// claude runs Claude Code once; it reports whether the command ran, or
// why the run shows nothing.
func (r run) claude(ctx context.Context) (ran bool, inconclusive string) {
	marker := filepath.Join(r.project(), "build", "out.o")
	if err := writeFile(marker, "object\n"); err != nil {
		return false, err.Error()
	}
	settings := filepath.Join(r.home(), ".claude", "settings.json")
	if r.hook {
		s := hook.Setup{Home: r.home(), Project: r.project(), Self: r.c.Agentgate, Timeout: 30 * time.Second, Now: time.Now}
		if _, _, err := s.Install("claude", hook.User); err != nil {
			return false, "installing the hook in the throwaway home: " + err.Error()
		}
	}
	if err := addClaudeAllow(settings, claudeRule); err != nil {
		return false, err.Error()
	}
	m := &model{command: claudeCommand}
	url, stop, err := m.serve()
	if err != nil {
		return false, err.Error()
	}
	defer stop()
	env := append(append(r.env(), ClaudeOffline...),
		"ANTHROPIC_BASE_URL="+url,
		"ANTHROPIC_API_KEY=agentgate-live-check",
	)
	out, err := r.exec(ctx, env, r.c.Program, "-p", "Run the command you are given.",
		"--output-format", "json", "--permission-mode", "default", "--max-turns", "4")
	if !m.answered() {
		return false, fmt.Sprintf("Claude Code never sent the result of the shell call the stand-in model asked for (%v): %s", err, tail(out))
	}
	_, statErr := os.Lstat(marker)
	return errors.Is(statErr, os.ErrNotExist), ""
}

// env is the host's environment: an accept-list, nothing of the
// person's own keys or settings.
func (r run) env() []string {
	h := r.home()
	return []string{
		"HOME=" + h,
		"PATH=" + r.c.Path,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"XDG_CONFIG_HOME=" + filepath.Join(h, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(h, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(h, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(h, ".local", "share"),
		"NO_COLOR=1",
		"DO_NOT_TRACK=1",
		"NO_UPDATE_NOTIFIER=1",
	}
}

// exec runs the host in the project, in a process group of its own that
// is killed whole at the timeout, with no terminal and no input.
func (r run) exec(ctx context.Context, env []string, program string, args ...string) (string, error) {
	t := r.c.Timeout
	if t <= 0 {
		t = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = r.project(), env, nil
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("did not finish in %v", t)
	}
	return out.String(), err
}

// addClaudeAllow adds rule to the allow list of the Claude Code settings
// at path, keeping what is there.
func addClaudeAllow(path, rule string) error {
	doc := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
	}
	perms, _ := doc["permissions"].(map[string]any)
	if perms == nil {
		perms = map[string]any{}
	}
	allow, _ := perms["allow"].([]any)
	perms["allow"] = append(allow, rule)
	doc["permissions"] = perms
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, string(b)+"\n")
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

// tail is the end of a host's output, for a person.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 400 {
		s = "..." + s[len(s)-400:]
	}
	return s
}

// model is the stand-in for the Anthropic Messages API: the first
// request that offers the Bash tool gets one call of command, and a
// request that carries that call's result ends the conversation.
type model struct {
	command string

	mu     sync.Mutex
	asked  bool
	result bool
}

func (m *model) answered() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.result
}

// serve starts the stand-in on 127.0.0.1 and returns its URL.
func (m *model) serve() (url string, stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go m.conn(c)
		}
	}()
	return "http://" + l.Addr().String(), func() { l.Close() }, nil
}

// conn answers one request on c and closes it. The stand-in speaks just
// enough HTTP/1.1 for a client that sends a body with Content-Length or
// chunked, and reads a reply framed by Content-Length and
// "Connection: close": net/http would add 4 MB to agentgate and half a
// millisecond to every start of it, for one check doctor runs on request
// (TestBinaryHasNoHTTPStack).
func (m *model) conn(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	method, path, body, err := readRequest(bufio.NewReader(c))
	if err != nil {
		return
	}
	status, ctype, reply := "404 Not Found", "text/plain", []byte("not found\n")
	if method == "POST" && strings.HasSuffix(path, "/v1/messages") {
		status = "200 OK"
		ctype, reply = m.answer(body)
	}
	fmt.Fprintf(c, "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", status, ctype, len(reply))
	c.Write(reply)
}

// maxBody bounds a request the stand-in reads.
const maxBody = 16 << 20

// readRequest reads one request: its method, path (without the query)
// and body.
func readRequest(r *bufio.Reader) (method, path string, body []byte, err error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", "", nil, err
	}
	f := strings.Fields(line)
	if len(f) != 3 {
		return "", "", nil, fmt.Errorf("bad request line %q", line)
	}
	method, path, _ = f[0], f[1], f[2]
	path, _, _ = strings.Cut(path, "?")
	length, chunked := -1, false
	for {
		h, err := r.ReadString('\n')
		if err != nil {
			return "", "", nil, err
		}
		h = strings.TrimRight(h, "\r\n")
		if h == "" {
			break
		}
		k, v, _ := strings.Cut(h, ":")
		v = strings.TrimSpace(v)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "content-length":
			if length, err = strconv.Atoi(v); err != nil || length < 0 || length > maxBody {
				return "", "", nil, fmt.Errorf("bad content-length %q", v)
			}
		case "transfer-encoding":
			chunked = strings.EqualFold(v, "chunked")
		}
	}
	switch {
	case chunked:
		body, err = readChunked(r)
	case length > 0:
		body = make([]byte, length)
		_, err = io.ReadFull(r, body)
	}
	return method, path, body, err
}

// readChunked reads a chunked body.
func readChunked(r *bufio.Reader) ([]byte, error) {
	var body []byte
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		size, _, _ := strings.Cut(strings.TrimSpace(line), ";")
		n, err := strconv.ParseInt(size, 16, 64)
		if err != nil || n < 0 || int64(len(body))+n > maxBody {
			return nil, fmt.Errorf("bad chunk size %q", line)
		}
		if n == 0 {
			// Trailers, then the blank line.
			for {
				t, err := r.ReadString('\n')
				if err != nil || strings.TrimSpace(t) == "" {
					return body, err
				}
			}
		}
		chunk := make([]byte, n+2) // the chunk and its CRLF
		if _, err := io.ReadFull(r, chunk); err != nil {
			return nil, err
		}
		body = append(body, chunk[:n]...)
	}
}

// answer is the reply to a Messages API request: its content type and
// body.
func (m *model) answer(body []byte) (ctype string, reply []byte) {
	var req struct {
		Stream bool `json:"stream"`
		Tools  []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	json.Unmarshal(body, &req)
	hasBash := false
	for _, t := range req.Tools {
		hasBash = hasBash || t.Name == "Bash"
	}
	result := false
	if n := len(req.Messages); n > 0 {
		var blocks []struct {
			Type string `json:"type"`
		}
		json.Unmarshal(req.Messages[n-1].Content, &blocks)
		for _, b := range blocks {
			result = result || b.Type == "tool_result"
		}
	}
	block := map[string]any{"type": "text", "text": "done"}
	stop := "end_turn"
	m.mu.Lock()
	switch {
	case result && m.asked:
		m.result = true
	case hasBash && !m.asked:
		m.asked = true
		block = map[string]any{"type": "tool_use", "id": "toolu_agentgate_live", "name": "Bash",
			"input": map[string]any{"command": m.command, "description": "Run the command"}}
		stop = "tool_use"
	}
	m.mu.Unlock()
	return Message(req.Stream, block, stop)
}

// Message is an Anthropic Messages API reply of one content block (a
// text or a tool_use with its input), streamed as Claude Code asks for it
// (message_start, the block, message_delta, message_stop) or as one JSON
// message: its content type and body. The end-to-end tests' stand-in
// answers with it too.
func Message(stream bool, block map[string]any, stop string) (ctype string, reply []byte) {
	msg := map[string]any{"id": "msg_agentgate_live", "type": "message", "role": "assistant", "model": "stand-in",
		"content": []any{block}, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}
	if !stream {
		b, _ := json.Marshal(msg)
		return "application/json", b
	}
	var w bytes.Buffer
	event := func(name string, data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(&w, "event: %s\ndata: %s\n\n", name, b)
	}
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"], start["stop_reason"] = []any{}, nil
	event("message_start", map[string]any{"type": "message_start", "message": start})
	if block["type"] == "text" {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
	} else {
		input, _ := json.Marshal(block["input"])
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
	}
	event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	event("message_stop", map[string]any{"type": "message_stop"})
	return "text/event-stream", w.Bytes()
}
