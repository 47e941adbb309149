package cmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command's --help shows at least one example.
func TestEveryCommandHasAnExample(t *testing.T) {
	root := NewRootCmd(&Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		if strings.TrimSpace(c.Example) == "" || !strings.Contains(c.Example, "agentgate ") {
			t.Errorf("%q has no example in its --help", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		var out bytes.Buffer
		root := NewRootCmd(&Env{Stdout: &out, Stderr: &bytes.Buffer{}})
		root.SetArgs([]string{"completion", sh})
		if err := root.Execute(); err != nil || !strings.Contains(out.String(), "agentgate") {
			t.Errorf("%s: %v %.80q", sh, err, out.String())
		}
	}
	root := NewRootCmd(&Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	root.SetArgs([]string{"completion", "tcsh"})
	if err := root.Execute(); err == nil {
		t.Error("tcsh accepted")
	}
}

// audit log cuts a long line to the terminal's width, with a marker.
func TestCutToWidth(t *testing.T) {
	long := "2026-11-30 08:00:00  denied  conv-1  " + strings.Repeat("x", 200)
	got := cut(long, 80)
	if len(got) > 80 || !strings.HasSuffix(got, truncMarker) || !strings.HasPrefix(long, strings.TrimSuffix(got, truncMarker)) {
		t.Errorf("cut: %q", got)
	}
	if cut(long, 0) != long || cut("short", 80) != "short" {
		t.Error("a line was cut with no limit, or when it fits")
	}
	if got := sessionColumn("a-very-long-conversation-id"); len(got) != 14 || !strings.HasSuffix(got, "~") {
		t.Errorf("session column %q", got)
	}
}

// A hot command built alone (rootFor) reads its command line and says
// what it says exactly as in the whole tree: help, flags, usage errors.
func TestHotCommandsAloneAsInTheTree(t *testing.T) {
	for name := range hotCommands {
		for _, args := range [][]string{{name, "--help"}, {name, "--no-such-flag"}, {name}, {name, "--", ""}} {
			run := func(root *cobra.Command) string {
				var out, errb bytes.Buffer
				root.SetOut(&out)
				root.SetErr(&errb)
				root.SetArgs(args)
				err := root.Execute()
				return out.String() + "|" + errb.String() + "|" + fmtErr(err)
			}
			env := &Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }}
			alone, whole := run(rootFor(env, args)), run(NewRootCmd(env))
			if alone != whole {
				t.Errorf("%q: alone\n%s\nin the tree\n%s", args, alone, whole)
			}
		}
		if got := rootFor(&Env{}, []string{name}).Commands(); len(got) != 1 || got[0].Name() != name {
			t.Errorf("rootFor(%s) built %d commands", name, len(got))
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
