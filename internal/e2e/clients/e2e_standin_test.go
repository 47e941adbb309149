//go:build e2e

package clients

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agentgate/agentgate/hostcheck"
)

// A stand-in for a model API: it asks the agent for exactly one shell
// call, records what the tool result said when the next request carries
// it, and then ends the conversation. It listens on 127.0.0.1 only, and
// keeps every request body so a test can show a secret never reached it.
type standIn struct {
	t       *testing.T
	command string // the one shell command the "model" asks for
	// tool and input, when tool is set, are the one tool call the
	// "model" asks for instead of the shell (Anthropic API only).
	tool  string
	input obj

	// commandFor, when set, is the shell command of the nth call (from
	// 1) instead of command (Responses API).
	commandFor func(n int) string
	// args are more arguments of the shell call: Codex's exec_command
	// takes "shell", "login" and more besides "cmd" (Responses API).
	args obj
	// argsFor, when set, adds the arguments of the nth call (from 1) to
	// args (Responses API).
	argsFor func(n int) obj
	// callID, when set, is the call id of the nth shell call (Responses
	// API): a model API that gives one id twice.
	callID func(n int) string

	// again, when set, sees each tool result and says whether the model
	// asks for the same command once more (the retry after an
	// out-of-band approval); it may block while a person decides.
	again func(result string) bool

	mu      sync.Mutex
	bodies  []string // every request body, in order
	paths   []string // every request's method and path
	results []string // the tool results the agent sent back
	asked   int      // how many times the shell call was asked for
	calls   int      // how many shell calls the conversation may have
	seen    map[string]bool
}

// firstSight reports whether a tool call id is new to the stand-in.
func (s *standIn) firstSight(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if s.seen[id] {
		return false
	}
	s.seen[id] = true
	return true
}

// api is one host's wire protocol: answer writes the reply to a request
// body, given whether the tool call was already made.
type api func(s *standIn, w http.ResponseWriter, r *http.Request, body []byte)

func newStandIn(t *testing.T, command string, proto api, opts ...func(*standIn)) (*standIn, string) {
	t.Helper()
	s := &standIn{t: t, command: command, calls: 1}
	// Set before the server starts: its handlers read them unlocked.
	for _, o := range opts {
		o(s)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, string(body))
		s.paths = append(s.paths, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		proto(s, w, r, body)
	}))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// sawAnywhere reports whether any request the agent sent holds text.
func (s *standIn) sawAnywhere(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bodies {
		if strings.Contains(b, text) || strings.Contains(b, jsonEscaped(text)) {
			return true
		}
	}
	return false
}

func jsonEscaped(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func (s *standIn) toolResults() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.results...)
}

func (s *standIn) timesAsked() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked
}

// summary is what the stand-in saw, for failure messages.
func (s *standIn) summary() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("requests: %q\nshell call asked %d time(s)\ntool results: %q", s.paths, s.asked, s.results)
}

// record keeps the tool results a request carried; it reports whether
// the conversation ends here.
func (s *standIn) record(results []string) bool {
	if len(results) == 0 {
		return false
	}
	s.mu.Lock()
	s.results = append(s.results, results...)
	again := s.again
	s.mu.Unlock()
	if again != nil && again(results[len(results)-1]) {
		s.mu.Lock()
		s.calls++
		s.mu.Unlock()
		return false
	}
	return true
}

// ask reports whether this request gets the shell call, and its number
// (later requests without a tool result get plain text).
func (s *standIn) ask() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.asked >= s.calls {
		return 0, false
	}
	s.asked++
	return s.asked, true
}

type sse struct {
	w http.ResponseWriter
}

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

// event writes one server-sent event; an empty name writes data only.
func (e sse) event(name string, data any) {
	var buf bytes.Buffer
	if name != "" {
		fmt.Fprintf(&buf, "event: %s\n", name)
	}
	b, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(&buf, "data: %s\n\n", b)
	e.w.Write(buf.Bytes())
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

type obj = map[string]any

// anthropicAPI is the Anthropic Messages API (POST /v1/messages), the
// way Claude Code streams it: message_start, content blocks, message_delta
// with the stop reason, message_stop.
func anthropicAPI(s *standIn, w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages") {
		http.NotFound(w, r) // count_tokens and the like: Claude Code copes
		return
	}
	var req struct {
		Stream   bool `json:"stream"`
		Tools    []struct{ Name string }
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	json.Unmarshal(body, &req)
	var results []string
	if n := len(req.Messages); n > 0 {
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(req.Messages[n-1].Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results = append(results, textOf(b.Content))
			}
		}
	}
	hasBash := false
	for _, tool := range req.Tools {
		hasBash = hasBash || tool.Name == "Bash"
	}
	block := obj{"type": "text", "text": "done"}
	stop := "end_turn"
	if !s.record(results) && hasBash {
		if n, ok := s.ask(); ok {
			block = obj{"type": "tool_use", "id": fmt.Sprintf("toolu_e2e_%d", n), "name": "Bash",
				"input": obj{"command": s.command, "description": "Run the command"}}
			if s.tool != "" {
				block["name"], block["input"] = s.tool, s.input
			}
			stop = "tool_use"
		}
	}
	ctype, body := hostcheck.Message(req.Stream, block, stop)
	w.Header().Set("Content-Type", ctype)
	w.Write(body)
}

// textOf flattens a tool result's content: a string, or a list of blocks
// with text.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			parts = append(parts, b.Text)
		}
		return strings.Join(parts, "\n")
	}
	return string(raw)
}

// responsesAPI is the OpenAI Responses API (POST /v1/responses) as Codex
// streams it: response.created, the output item added and done, and
// response.completed. The shell call is the tool Codex offers for the
// model: exec_command with {"cmd": ...}.
func responsesAPI(s *standIn, w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		if strings.HasSuffix(r.URL.Path, "/models") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"object":"list","data":[],"models":[]}`)
			return
		}
		http.NotFound(w, r)
		return
	}
	var req struct {
		Tools []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"tools"`
		Input []struct {
			Type   string          `json:"type"`
			CallID string          `json:"call_id"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
	}
	json.Unmarshal(body, &req)
	// Each request carries the whole conversation: the tool results not
	// seen before are this request's.
	var results []string
	for _, in := range req.Input {
		if (in.Type == "function_call_output" || in.Type == "custom_tool_call_output") && s.firstSight(in.CallID) {
			results = append(results, textOf(in.Output))
		}
	}
	hasExec, patchType := false, ""
	for _, tool := range req.Tools {
		hasExec = hasExec || tool.Name == "exec_command"
		if tool.Name == "apply_patch" {
			patchType = tool.Type
		}
	}
	item := obj{"type": "message", "id": "msg_e2e", "role": "assistant", "status": "completed",
		"content": []any{obj{"type": "output_text", "text": "done", "annotations": []any{}}}}
	switch {
	case s.record(results):
	case s.tool == "apply_patch" && patchType != "":
		// Codex's file tool: a freeform ("custom") tool whose input is
		// the patch, or a function taking {"input": patch}.
		if n, ok := s.ask(); ok {
			patch, _ := s.input["patch"].(string)
			id, call := fmt.Sprintf("ctc_e2e_%d", n), fmt.Sprintf("call_e2e_%d", n)
			item = obj{"type": "custom_tool_call", "id": id, "call_id": call, "name": "apply_patch", "input": patch, "status": "completed"}
			if patchType != "custom" {
				args, _ := json.Marshal(obj{"input": patch})
				item = obj{"type": "function_call", "id": id, "call_id": call, "name": "apply_patch", "arguments": string(args), "status": "completed"}
			}
		}
	case hasExec:
		if n, ok := s.ask(); ok {
			call := obj{"cmd": s.command}
			if s.commandFor != nil {
				call["cmd"] = s.commandFor(n)
			}
			for k, v := range s.args {
				call[k] = v
			}
			if s.argsFor != nil {
				for k, v := range s.argsFor(n) {
					call[k] = v
				}
			}
			args, _ := json.Marshal(call)
			callID := fmt.Sprintf("call_e2e_%d", n)
			if s.callID != nil {
				callID = s.callID(n)
			}
			item = obj{"type": "function_call", "id": fmt.Sprintf("fc_e2e_%d", n), "call_id": callID,
				"name": "exec_command", "arguments": string(args), "status": "completed"}
		}
	}
	e := newSSE(w)
	resp := obj{"id": "resp_e2e", "object": "response", "status": "in_progress", "output": []any{}}
	e.event("response.created", obj{"type": "response.created", "response": resp})
	e.event("response.output_item.added", obj{"type": "response.output_item.added", "output_index": 0, "item": item})
	e.event("response.output_item.done", obj{"type": "response.output_item.done", "output_index": 0, "item": item})
	e.event("response.completed", obj{"type": "response.completed", "response": obj{
		"id": "resp_e2e", "object": "response", "status": "completed", "output": []any{item},
		"usage": obj{"input_tokens": 10, "input_tokens_details": obj{"cached_tokens": 0},
			"output_tokens": 5, "output_tokens_details": obj{"reasoning_tokens": 0}, "total_tokens": 15}}})
}

// geminiAPI is the Gemini API as Gemini CLI calls it:
// POST /v1beta/models/MODEL:streamGenerateContent?alt=sse, answered with
// a functionCall to run_shell_command. Its side requests (generateContent
// for routing and checks, countTokens) get plain text.
func geminiAPI(s *standIn, w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost || !strings.Contains(r.URL.Path, "/models/") {
		http.NotFound(w, r)
		return
	}
	if strings.HasSuffix(r.URL.Path, ":countTokens") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"totalTokens":10}`)
		return
	}
	var req struct {
		Contents []struct {
			Parts []struct {
				FunctionResponse *struct {
					Name     string          `json:"name"`
					Response json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	json.Unmarshal(body, &req)
	var results []string
	if n := len(req.Contents); n > 0 {
		for _, p := range req.Contents[n-1].Parts {
			if p.FunctionResponse != nil {
				results = append(results, string(p.FunctionResponse.Response))
			}
		}
	}
	hasShell := false
	for _, tool := range req.Tools {
		for _, f := range tool.FunctionDeclarations {
			hasShell = hasShell || f.Name == "run_shell_command"
		}
	}
	streaming := strings.HasSuffix(r.URL.Path, ":streamGenerateContent")
	part := obj{"text": "done"}
	switch {
	case !streaming && strings.Contains(string(body), `"application/json"`):
		// A utility call that wants JSON (the model router's classifier,
		// the next-speaker check): the answers that end the turn.
		part = obj{"text": `{"reasoning":"stand-in","model_choice":"flash","next_speaker":"user"}`}
	case streaming && !s.record(results) && hasShell:
		if _, ok := s.ask(); ok {
			part = obj{"functionCall": obj{"name": "run_shell_command",
				"args": obj{"command": s.command, "description": "Run the command"}}}
		}
	}
	chunk := obj{
		"candidates": []any{obj{"content": obj{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": obj{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-e2e",
	}
	if !streaming {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(chunk)
		return
	}
	newSSE(w).event("", chunk)
}

// askTool makes the stand-in ask for one call of tool with input instead
// of the shell (Anthropic API; on the Responses API, Codex's apply_patch
// with input {"patch": ...}).
func askTool(tool string, input obj) func(*standIn) {
	return func(s *standIn) { s.tool, s.input = tool, input }
}

// callsFor makes the stand-in ask for the shell command f(n) on its nth
// call (Responses API).
func callsFor(f func(n int) string) func(*standIn) {
	return func(s *standIn) { s.commandFor = f }
}

// callArgsFor adds f(n) to the arguments of the stand-in's nth shell call
// (Responses API).
func callArgsFor(f func(n int) obj) func(*standIn) {
	return func(s *standIn) { s.argsFor = f }
}

// callArgs adds arguments to the stand-in's shell call (Responses API:
// Codex's exec_command, say {"shell": "pwsh"}).
func callArgs(args obj) func(*standIn) {
	return func(s *standIn) { s.args = args }
}
