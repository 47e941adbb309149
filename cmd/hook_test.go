package cmd

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/hook"
)

// hookEnv is an Env whose HOME and state are a temporary directory.
func hookEnv(t *testing.T) (*Env, *bytes.Buffer, *bytes.Buffer, string) {
	t.Helper()
	env, out, errb := testEnv()
	home := t.TempDir()
	vars := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"),
		"XDG_CONFIG_HOME": filepath.Join(home, "cfg")}
	env.Getenv = func(k string) string { return vars[k] }
	env.Policy = filepath.Join(home, "no-policy.toml")
	env.Getwd = func() (string, error) { return home, nil }
	return env, out, errb, home
}

// slowReader blocks until the test ends: a host that never closes stdin.
type slowReader struct{ done chan struct{} }

func (r slowReader) Read([]byte) (int, error) { <-r.done; return 0, io.EOF }

// wrongTypes are shell events of each host whose command is not a string.
var wrongTypes = map[string]string{
	"claude": `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":["rm","-rf","/"]}}`,
	"codex":  `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":null}}`,
	"gemini": `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":{"x":1}}}`,
	"cursor": `{"hook_event_name":"beforeShellExecution","command":7,"cwd":"/"}`,
}

// Whatever the event, agentgate hook never exits 1 (hosts run the command
// on exit 1), and a refusal always says why on stderr or stdout.
func TestHookNeverExitsOne(t *testing.T) {
	done := make(chan struct{})
	defer close(done)
	for _, host := range hook.Names {
		for _, tt := range []struct {
			name  string
			stdin io.Reader
		}{
			{"empty", strings.NewReader("")},
			{"garbage", strings.NewReader("\x00\xff not json")},
			{"truncated", strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"comm`)},
			{"wrong types", strings.NewReader(wrongTypes[host])},
			{"oversize", io.LimitReader(strings.NewReader(strings.Repeat("x", hook.MaxEvent+10)), hook.MaxEvent+10)},
			{"never ends", slowReader{done}},
		} {
			env, out, errb, _ := hookEnv(t)
			o := &HookOptions{Env: env, Host: host, Stdin: tt.stdin, Deadline: 300 * time.Millisecond,
				Self: func() (string, error) { return "/opt/agentgate", nil }}
			code := exitCode(hookRun(o), errb)
			if code != 2 {
				t.Errorf("%s %s: exit %d, want 2 (stdout %q)", host, tt.name, code, out)
			}
			if !strings.Contains(errb.String(), "agentgate") {
				t.Errorf("%s %s: no reason on stderr", host, tt.name)
			}
		}
	}
}

// An unknown host or stray arguments are usage errors: exit 2, which
// blocks too.
func TestHookUsage(t *testing.T) {
	for _, args := range [][]string{{"hook"}, {"hook", "vim"}, {"hook", "claude", "extra"}, {"hook", "--bogus", "claude"}} {
		env, _, errb, _ := hookEnv(t)
		root := NewRootCmd(env)
		root.SetArgs(args)
		if code := exitCode(root.Execute(), errb); code != 2 {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}

// The hook answers a real event through the whole command: read-only
// allowed and rewritten, destructive denied for Codex with an id that
// "agentgate pending" lists.
func TestHookRun(t *testing.T) {
	env, out, errb, home := hookEnv(t)
	run := func(host, event string) int {
		out.Reset()
		errb.Reset()
		o := &HookOptions{Env: env, Host: host, Stdin: strings.NewReader(event), Deadline: 10 * time.Second,
			Self: func() (string, error) { return "/opt/agentgate", nil }}
		return exitCode(hookRun(o), errb)
	}
	if code := run("claude", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"},"cwd":"`+home+`","session_id":"s","permission_mode":"default"}`); code != 0 ||
		!strings.Contains(out.String(), `"permissionDecision":"allow"`) || !strings.Contains(out.String(), `exec --non-interactive --session 's' -- 'ls -la'`) {
		t.Errorf("claude ls: %d %s %s", code, out, errb)
	}
	if code := run("codex", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"touch made.txt"},"cwd":"`+home+`","session_id":"c"}`); code != 2 ||
		!strings.Contains(errb.String(), "agentgate approve ") {
		t.Errorf("codex touch: %d %s %s", code, out, errb)
	}
	out.Reset()
	pending := newCmdPending(env)
	pending.SetArgs(nil)
	if err := pending.Execute(); err != nil || !strings.Contains(out.String(), "touch made.txt") || !strings.Contains(out.String(), "codex c") {
		t.Errorf("pending: %v %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(home, "made.txt")); err == nil {
		t.Errorf("the hook ran the command")
	}
}

// install and uninstall take one known host and one scope.
func TestNewCmdInstall(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		project bool
		wantErr string
	}{
		{[]string{"claude"}, false, ""},
		{[]string{"codex", "--user"}, false, ""},
		{[]string{"gemini", "--project"}, true, ""},
		{[]string{"cursor", "--user", "--project"}, false, "exclusive"},
		{[]string{"vim"}, false, "takes one host"},
		{nil, false, "takes one host"},
	} {
		for _, mk := range []func(*Env, func(*InstallOptions) error) *cobra.Command{newCmdInstall, newCmdUninstall} {
			env, _, _ := testEnv()
			var got *InstallOptions
			c := mk(env, func(o *InstallOptions) error { got = o; return nil })
			c.SetArgs(tt.args)
			c.SetOut(io.Discard)
			c.SetErr(io.Discard)
			err := c.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("%s %v: err %v; want %q", c.Name(), tt.args, err, tt.wantErr)
				}
				continue
			}
			if err != nil || got.Host != tt.args[0] || got.Project != tt.project {
				t.Errorf("%s %v: %v %+v", c.Name(), tt.args, err, got)
			}
		}
	}
}
