package confirm_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/agentgate/agentgate/confirm"
	"github.com/agentgate/agentgate/prompt"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// With no terminal, nothing is asked and nothing changes.
func TestNoTerminal(t *testing.T) {
	asked := false
	fake := func(context.Context, *os.File, prompt.Change, prompt.Options) prompt.Result {
		asked = true
		return prompt.Result{Choice: prompt.AllowOnce}
	}
	for _, e := range []map[string]string{{"AGENTGATE_TTY": "none"}, {"CI": "true"}, {"GITHUB_ACTIONS": "true"}} {
		err := confirm.Ask(context.Background(), prompt.Change{}, confirm.Options{Getenv: env(e), Ask: fake})
		if !errors.Is(err, confirm.ErrNoTerminal) || asked {
			t.Errorf("%v: %v (asked %v)", e, err, asked)
		}
	}
	err := confirm.Ask(context.Background(), prompt.Change{}, confirm.Options{Getenv: env(nil), Ask: fake,
		OpenTTY: func() (*os.File, error) { return nil, errors.New("no such device") }})
	if !errors.Is(err, confirm.ErrNoTerminal) || asked {
		t.Errorf("no /dev/tty: %v", err)
	}
}

// Every ending but a confirmation declines; the prompt gets the challenge
// and the line that a terminal proves nothing.
func TestEndings(t *testing.T) {
	for _, tt := range []struct {
		res prompt.Result
		ok  bool
	}{
		{prompt.Result{Choice: prompt.AllowOnce}, true},
		{prompt.Result{Choice: prompt.Deny}, false},
		{prompt.Result{Ending: prompt.TimedOut}, false},
		{prompt.Result{Ending: prompt.Interrupted}, false},
		{prompt.Result{Ending: prompt.Failed, Err: errors.New("x")}, false},
		{prompt.Result{Choice: prompt.AllowOnce, ChallengeFailed: true}, false},
	} {
		var got prompt.Change
		var opts prompt.Options
		fake := func(_ context.Context, _ *os.File, c prompt.Change, o prompt.Options) prompt.Result {
			got, opts = c, o
			return tt.res
		}
		err := confirm.Ask(context.Background(), prompt.Change{Title: "T", Lines: []string{"L"}}, confirm.Options{
			Getenv: env(nil), Ask: fake, Challenge: true,
			OpenTTY: func() (*os.File, error) { return os.Open(os.DevNull) }})
		if (err == nil) != tt.ok {
			t.Errorf("%+v: %v", tt.res, err)
		}
		var de *confirm.DeclinedError
		if !tt.ok && !errors.As(err, &de) {
			t.Errorf("%+v: %T", tt.res, err)
		}
		if !opts.Challenge || got.Lines[len(got.Lines)-1] != confirm.NotProof {
			t.Errorf("options %+v, lines %q", opts, got.Lines)
		}
	}
}

// On a real terminal: what will change is shown, "yes" and "y" do not
// confirm, Enter on the change or its whole word does.
func TestOnTerminal(t *testing.T) {
	for _, tt := range []struct {
		keys []string
		ok   bool
	}{
		{[]string{"\r"}, false},
		{[]string{"yes\r", "\r"}, false},
		{[]string{"y", "\r", "\r"}, false},
		{[]string{"\x1b[B\r"}, true},
		{[]string{"trust\r"}, true},
	} {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skip(err)
		}
		var screen strings.Builder
		done := make(chan struct{})
		go func() {
			buf := make([]byte, 4096)
			for {
				n, err := ptmx.Read(buf)
				screen.Write(buf[:n])
				if err != nil {
					close(done)
					return
				}
			}
		}()
		go func() {
			for _, k := range tt.keys {
				time.Sleep(200 * time.Millisecond)
				ptmx.Write([]byte(k))
			}
		}()
		err = confirm.Ask(context.Background(), prompt.Change{Title: "Trust f?", Lines: []string{"allow: make test"}, Yes: "Trust it", Word: "trust"},
			confirm.Options{Getenv: env(map[string]string{"XDG_RUNTIME_DIR": t.TempDir()}), OpenTTY: func() (*os.File, error) { return tty, nil }, Timeout: 5 * time.Second})
		if (err == nil) != tt.ok {
			t.Errorf("%q: %v", tt.keys, err)
		}
		ptmx.Close()
		<-done
		for _, want := range []string{"Trust f?", "allow: make test", "not proof that a person is there", `type "trust"`} {
			if !strings.Contains(screen.String(), want) {
				t.Errorf("%q: the screen lacks %q", tt.keys, want)
			}
		}
	}
}
