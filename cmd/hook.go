package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/hook"
	"github.com/agentgate/agentgate/session"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// HookOptions are the inputs of "agentgate hook HOST".
type HookOptions struct {
	Env   *Env
	Host  string
	Flags ConfigFlags
	// Stdin is the host's event.
	Stdin io.Reader
	// Deadline bounds the whole decision: past it the answer is deny,
	// well inside the timeout install gives the host.
	Deadline time.Duration
	// Self returns agentgate's absolute path, for the rewrite.
	Self func() (string, error)
}

// hookDeadline is the default internal deadline; install gives hosts
// hookTimeout, three times as long.
const (
	hookDeadline = 10 * time.Second
	hookTimeout  = 30 * time.Second
)

func newCmdHook(env *Env, runF func(*HookOptions) error) *cobra.Command {
	o := &HookOptions{Env: env, Stdin: os.Stdin, Deadline: hookDeadline, Self: selfPath}
	c := &cobra.Command{
		Use:   "hook HOST",
		Short: "Answer an agent's pre-tool hook event (claude, codex, gemini, cursor)",
		Long: `Read a hook event of HOST (claude, codex, gemini or cursor) on stdin, decide
its shell command with the same engine, configuration, modes, session
memory, breaker and audit log as exec, and answer in the host's protocol.
'agentgate install HOST' puts this command into the host's configuration.

The hook never prompts. Where the host's own dialog reaches a person
(Claude Code in its interactive modes) an escalation is asked there;
otherwise it is denied with a short id that a person can approve from
another terminal: 'agentgate approve ID'. An allowed command is rewritten,
where the host allows it, into 'agentgate exec --non-interactive -- ...'
so that exec's protections apply when it runs.

It never exits 1, which hosts treat as "run the command": a malformed
event, an internal error or a decision that takes longer than --deadline
is answered deny (exit 2, the reason on stderr).`,
		Example: `  echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"},"cwd":"/tmp"}' | agentgate hook claude`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) != 1 || hook.Hosts[args[0]] == nil {
				return usagef("hosts: "+strings.Join(hook.Names, ", "), "hook takes one host")
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			o.Host = args[0]
			if runF != nil {
				return runF(o)
			}
			return hookRun(o)
		},
	}
	o.Flags.register(c.Flags())
	c.Flags().DurationVar(&o.Deadline, "deadline", hookDeadline, "answer deny when no decision is made in this time")
	return c
}

func hookRun(o *HookOptions) error {
	h := hook.Hosts[o.Host]
	done := make(chan hook.Reply, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- hook.Block(fmt.Sprintf("internal error: %v", r))
			}
		}()
		_ = growStack()
		done <- o.decide(h)
	}()
	var reply hook.Reply
	timer := time.NewTimer(o.Deadline)
	defer timer.Stop()
	select {
	case reply = <-done:
	case <-timer.C:
		reply = hook.Block(fmt.Sprintf("agentgate did not decide within %s", o.Deadline))
	}
	o.Env.Stdout.Write(reply.Stdout)
	o.Env.Stderr.Write(reply.Stderr)
	if reply.Code != 0 {
		return exitStatus(reply.Code)
	}
	return nil
}

// growStack grows the calling goroutine's stack to 32 kB, what deciding
// a command needs, while it is shallow. A goroutine starts with 2 kB and
// doubles its stack whenever a call needs more, copying every frame and
// adjusting each with the binary's tables: the four copies up to 32 kB,
// the last of a deep stack, were 5% of a hooked call, most of it first
// reads of those tables. Here there is one copy, of a frame or two.
//
//go:noinline
func growStack() byte {
	var frame [20 << 10]byte // more than 16 kB: the stack doubles to 32
	frame[stackIndex] = 1    // an index the compiler cannot know keeps the frame
	return frame[stackIndex]
}

var stackIndex = 1

// decide reads the event and answers it. Every failure is a Block.
func (o *HookOptions) decide(h *hook.Host) hook.Reply {
	data, err := io.ReadAll(io.LimitReader(o.Stdin, hook.MaxEvent+1))
	if err != nil {
		return hook.Block("could not read the hook event: " + err.Error())
	}
	ev, err := h.Decode(data)
	if err != nil {
		return hook.Block(err.Error())
	}
	if ev.Kind == hook.Other {
		return hook.Reply{}
	}
	// The project's configuration is the one where the command runs.
	env := *o.Env
	env.Stderr = io.Discard
	if ev.Cwd != "" {
		env.Getwd = func() (string, error) { return ev.Cwd, nil }
	}
	cfg, err := env.loadConfig(&o.Flags)
	if err != nil {
		return hook.Block(err.Error())
	}
	self, err := o.Self()
	if err != nil {
		return hook.Block("cannot find agentgate's own path: " + err.Error())
	}
	g := &hook.Gate{Engine: env.engine(o.Flags.AuditLog), Config: cfg, Home: env.home(), Self: self,
		Getenv: env.Getenv, ExecFlags: o.Flags.passOn()}
	if ev.Session == "" {
		// Only for an event whose host names no session: telling the
		// terminal's reads the session leader's /proc/PID/stat.
		g.Session = session.ID("")
	}
	return g.Handle(h, ev)
}

// selfPath is the absolute path of the running agentgate, symlinks
// resolved.
func selfPath() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", err
	}
	p, err = filepath.Abs(p)
	return fsutil.Resolve(p), err
}
