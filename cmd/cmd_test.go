package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

func testEnv() (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	e := System()
	e.Stdout, e.Stderr = &out, &errb
	e.Getenv = func(string) string { return "" }
	return e, &out, &errb
}

// exec's flags land in ExecOptions, and the command is everything after
// "--", untouched.
func TestNewCmdExec(t *testing.T) {
	tests := []struct {
		cli     string
		want    ExecOptions
		wantErr string
	}{
		{cli: "-- git status", want: ExecOptions{Args: []string{"git", "status"}}},
		{cli: "--json --non-interactive -- ls", want: ExecOptions{Args: []string{"ls"}, JSON: true, NonInteractive: true}},
		{cli: "--session s1 --prompt-timeout 30s -- ls", want: ExecOptions{Args: []string{"ls"}, Session: "s1", PromptTimeout: 30 * time.Second}},
		{cli: "--mode ci --allow make --allow go --deny rm -- ls", want: ExecOptions{Args: []string{"ls"},
			Flags: ConfigFlags{Mode: "ci", Allow: []string{"make", "go"}, Deny: []string{"rm"}}}},
		{cli: "-- --json -x", want: ExecOptions{Args: []string{"--json", "-x"}}},
		{cli: "ls", wantErr: `the command must follow "--"`},
	}
	for _, tt := range tests {
		env, _, _ := testEnv()
		var got *ExecOptions
		c := newCmdExec(env, func(o *ExecOptions) error { got = o; return nil })
		c.SetArgs(strings.Fields(tt.cli))
		c.SetOut(&bytes.Buffer{})
		c.SetErr(&bytes.Buffer{})
		err := c.Execute()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q: err %v; want %q", tt.cli, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.cli, err)
		}
		if strings.Join(got.Args, " ") != strings.Join(tt.want.Args, " ") || got.JSON != tt.want.JSON ||
			got.NonInteractive != tt.want.NonInteractive || got.Session != tt.want.Session ||
			got.PromptTimeout != tt.want.PromptTimeout || got.Flags.Mode != tt.want.Flags.Mode ||
			strings.Join(got.Flags.Allow, ",") != strings.Join(tt.want.Flags.Allow, ",") ||
			strings.Join(got.Flags.Deny, ",") != strings.Join(tt.want.Flags.Deny, ",") {
			t.Errorf("%q: options %+v; want %+v", tt.cli, *got, tt.want)
		}
	}
}

// Every exit code is decided in one place.
func TestExitCode(t *testing.T) {
	tests := []struct {
		err    error
		code   int
		stderr string
	}{
		{nil, 0, ""},
		{exitStatus(3), 3, ""},
		{exitStatus(exitDenied), 126, ""},
		{usagef("do this", "bad %s", "thing"), 2, "agentgate: error: bad thing\nagentgate: hint: do this\n"},
		{&configError{errors.New("x.toml:1:1: wrong")}, 2, "agentgate: error: x.toml:1:1: wrong\n"},
		{&internalError{errors.New("disk full")}, 125, "agentgate: error: disk full\n"},
		{errors.New(`unknown command "x" for "agentgate"`), 2, "agentgate: error: unknown command"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if got := exitCode(tt.err, &b); got != tt.code || !strings.HasPrefix(b.String(), tt.stderr) {
			t.Errorf("exitCode(%v) = %d, %q; want %d, %q", tt.err, got, b.String(), tt.code, tt.stderr)
		}
	}
}

// The terminal is only opened when nothing says no one is there, and each
// reason is named.
func TestTerminal(t *testing.T) {
	opened := 0
	e, _, _ := testEnv()
	e.OpenTTY = func() (*os.File, error) { opened++; return nil, errors.New("no tty here") }
	for _, tt := range []struct {
		env            map[string]string
		nonInteractive bool
		why            string
	}{
		{nil, true, "--non-interactive"},
		{map[string]string{"AGENTGATE_TTY": "none"}, false, "AGENTGATE_TTY=none"},
		{map[string]string{"CI": "true"}, false, "CI is set"},
		{map[string]string{"GITHUB_ACTIONS": "true"}, false, "GITHUB_ACTIONS is set"},
		{map[string]string{"GITLAB_CI": "1"}, false, "GITLAB_CI is set"},
		{map[string]string{"BUILDKITE": "1"}, false, "BUILDKITE is set"},
		{map[string]string{"JENKINS_URL": "x"}, false, "JENKINS_URL is set"},
	} {
		e.Getenv = func(k string) string { return tt.env[k] }
		tty, why := e.terminal(tt.nonInteractive)
		if tty != nil || why != tt.why {
			t.Errorf("%v: %q; want %q", tt.env, why, tt.why)
		}
	}
	if opened != 0 {
		t.Errorf("/dev/tty was opened %d times although no one could be asked", opened)
	}
	e.Getenv = func(string) string { return "" }
	if _, why := e.terminal(false); why != "no terminal (no tty here)" || opened != 1 {
		t.Errorf("open failure: %q, opened %d", why, opened)
	}
}

// An error is reported from one value: the text on stderr and the JSON
// object carry the same message, hint and exit status.
func TestReportTextAndJSONAgree(t *testing.T) {
	for _, err := range []error{
		usagef("write it so", "bad %s", "flag"),
		&internalError{errors.New("disk on fire")},
		&deniedError{msg: "not confirmed", hint: "run it at a terminal"},
		errors.New("unknown flag: --x"),
	} {
		var text, js bytes.Buffer
		codeText := report(err, &text, nil)
		codeJSON := report(err, io.Discard, &js)
		var got struct {
			Error cliError `json:"error"`
		}
		if e := json.Unmarshal(js.Bytes(), &got); e != nil {
			t.Fatalf("%v: %v: %s", err, e, js.String())
		}
		want := "agentgate: error: " + got.Error.Msg + "\n"
		if got.Error.Hint != "" {
			want += "agentgate: hint: " + got.Error.Hint + "\n"
		}
		if codeText != codeJSON || text.String() != want || got.Error.Code == "" {
			t.Errorf("%v: text %q (exit %d), JSON %s (exit %d)", err, text.String(), codeText, js.String(), codeJSON)
		}
	}
}

// An approve, trust or config change run inside a command agentgate ran
// unconfined meets agentgate's files read-only: the error says why, and
// what to do, rather than only "read-only file system".
func TestReadOnlyStateExplained(t *testing.T) {
	err := &internalError{fmt.Errorf("approve: %w", &os.PathError{Op: "open", Path: "/home/u/.local/state/agentgate/pending/.tmp-1", Err: syscall.EROFS})}
	var stderr bytes.Buffer
	if code := exitCode(err, &stderr); code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	for _, want := range []string{"read-only file system", "inside a command agentgate ran", "your own terminal"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr %q lacks %q", stderr.String(), want)
		}
	}
}
