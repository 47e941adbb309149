package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/agentgate/agentgate/internal/testenv"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"

	"github.com/agentgate/agentgate/cmd"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/engine"
	"github.com/agentgate/agentgate/internal/e2e/harness"
	"github.com/agentgate/agentgate/prompt"
)

var update = flag.Bool("u", false, "update testscript golden files")

// TestMain registers agentgate for the scripts: the same Main the
// binary's main calls, with the starter config the binary embeds.
func TestMain(m *testing.M) {
	testenv.NoRaceExitSleep()
	testscript.Main(m, map[string]func(){"agentgate": func() {
		// The installed binary reads the policy from /etc only; the
		// scripts give theirs through the test binary's own variable.
		os.Exit(cmd.Run(cmd.Setup{ExampleConfig: exampleConfig(), Policy: os.Getenv("AGENTGATE_TEST_POLICY")}))
	}})
}

// moduleRoot is the repository's top (harness.ModuleRoot).
func moduleRoot() string { return harness.ModuleRoot() }

// exampleConfig is config.example.toml, which main embeds.
func exampleConfig() string {
	data, err := os.ReadFile(filepath.Join(moduleRoot(), "config.example.toml"))
	if err != nil {
		panic(err)
	}
	return string(data)
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			// No script may reach the developer's terminal, and every
			// path agentgate writes stays under $WORK.
			e.Setenv("AGENTGATE_TTY", "none")
			e.Setenv("HOME", filepath.Join(e.WorkDir, "home"))
			e.Setenv("XDG_CONFIG_HOME", filepath.Join(e.WorkDir, "home", ".config"))
			e.Setenv("XDG_STATE_HOME", filepath.Join(e.WorkDir, "home", ".local", "state"))
			e.Setenv("AGENTGATE_TEST_POLICY", filepath.Join(e.WorkDir, "no-policy.toml"))
			e.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":       cmdExits,
			"audit":       cmdAudit,
			"listen":      cmdListen,
			"connections": cmdConnections,
			"trustfile":   cmdTrustFile,
			"approve":     cmdApprove,
			"remember":    cmdRemember,
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Getuid() == 0, nil
			}
			if prog, ok := strings.CutPrefix(cond, "have:"); ok {
				_, err := exec.LookPath(prog)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// cmdTrustFile records a project file as trusted, as a person confirming
// "agentgate trust" at a terminal would (scripts have no terminal; the
// confirmation itself is tested under a pty in prompt_pty_test.go):
//
//	trustfile $WORK/repo/.agentgate.toml
func cmdTrustFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: trustfile PATH")
	}
	store := config.TrustPath(filepath.Join(ts.Getenv("XDG_STATE_HOME"), "agentgate"))
	t, err := config.LoadTrust(store)
	ts.Check(err)
	_, err = t.Add(ts.MkAbs(args[0]), time.Now())
	ts.Check(err)
	ts.Check(t.Save(store))
}

// cmdApprove approves a pending request, as a person answering "agentgate
// approve ID" at a terminal would (scripts have no terminal; the prompt
// itself is tested under a pty in approve_pty_test.go). The id is the one
// "agentgate approve ID" in the named file names:
//
//	approve stdout
func cmdApprove(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: approve FILE")
	}
	m := regexp.MustCompile(`agentgate approve ([a-z2-9]{6})`).FindStringSubmatch(ts.ReadFile(args[0]))
	if m == nil {
		ts.Fatalf("approve: %s names no request to approve", args[0])
	}
	e := &engine.Engine{StateDir: filepath.Join(ts.Getenv("XDG_STATE_HOME"), "agentgate"), Now: time.Now}
	_, err := e.ApprovePending(m[1])
	ts.Check(err)
}

// cmdRemember answers "Allow for this session" to a command proposed in
// the script's directory, as a person at the prompt would (scripts have
// no terminal): the engine judges it there and keeps the answer, with
// what it keeps of the files its words reach.
//
//	remember SESSION 'TEXT'
func cmdRemember(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: remember SESSION TEXT")
	}
	home, cwd := ts.Getenv("HOME"), ts.MkAbs(".")
	state := filepath.Join(ts.Getenv("XDG_STATE_HOME"), "agentgate")
	cfg, err := config.Load(config.Options{Cwd: cwd, Home: home, StateDir: state,
		ConfigDir: filepath.Join(ts.Getenv("XDG_CONFIG_HOME"), "agentgate")})
	ts.Check(err)
	e := &engine.Engine{StateDir: state, Now: time.Now, Getenv: ts.Getenv, Environ: func() []string { return nil }}
	j := e.Judge(engine.Proposal{Text: args[1], Cwd: cwd, Home: home, Session: args[0], Harness: "exec"}, cfg)
	if r := e.Answer(j, prompt.Result{Choice: prompt.AllowSession}); r.Warning != "" || r.Action != engine.Run {
		ts.Fatalf("remember: %s was not kept for the session: %+v", args[1], r)
	}
}

// cmdExits runs a program and checks its exact exit status:
//
//	exits 126 agentgate exec -- 'rm x'
//
// Its stdout and stderr can then be matched like those of exec.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits STATUS program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d; want %d", args[1], got, want)
	}
}

// cmdAudit checks an audit log: that every line is one JSON object, how
// many there are, and fields of the last one (or of line N with @N):
//
//	audit $HOME/.local/state/agentgate/audit.jsonl count 1
//	audit $LOG last outcome=denied_noninteractive decision=ask
//	audit $LOG @1 event=escalation
func cmdAudit(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 && !(neg && len(args) == 1) {
		ts.Fatalf("usage: audit FILE count N | last|@N key=value...; ! audit FILE")
	}
	path := ts.MkAbs(args[0])
	f, err := os.Open(path)
	if neg && errors.Is(err, os.ErrNotExist) {
		return
	}
	if err != nil {
		ts.Fatalf("audit: %v", err)
	}
	defer f.Close()
	var recs []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 2<<20)
	for n := 1; sc.Scan(); n++ {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			ts.Fatalf("audit: %s:%d is not one JSON object: %v", path, n, err)
		}
		recs = append(recs, rec)
	}
	if neg {
		ts.Fatalf("audit: %s exists with %d records", path, len(recs))
	}
	switch sel := args[1]; {
	case sel == "count":
		if want := args[2]; strconv.Itoa(len(recs)) != want {
			ts.Fatalf("audit: %d records; want %s", len(recs), want)
		}
	case sel == "last" || strings.HasPrefix(sel, "@"):
		i := len(recs) - 1
		if sel != "last" {
			i, _ = strconv.Atoi(sel[1:])
			i--
		}
		if i < 0 || i >= len(recs) {
			ts.Fatalf("audit: no record %s among %d", sel, len(recs))
		}
		for _, kv := range args[2:] {
			k, want, _ := strings.Cut(kv, "=")
			v, ok := recs[i][k]
			if !ok {
				ts.Fatalf("audit: record %d has no %q: %v", i+1, k, recs[i])
			}
			got := fmt.Sprint(v)
			if s, isStr := v.(string); isStr {
				got = s
			} else if b, err := json.Marshal(v); err == nil && (strings.HasPrefix(string(b), "[") || strings.HasPrefix(string(b), "{")) {
				got = string(b)
			}
			if !strings.Contains(got, want) {
				ts.Fatalf("audit: record %d: %s = %q; want it to contain %q", i+1, k, got, want)
			}
		}
	default:
		ts.Fatalf("audit: unknown selector %q", sel)
	}
}

// listeners are the TCP listeners scripts started, by script and name.
var listeners sync.Map // "*testscript.TestScript name" -> *counted

// counted is a listener that accepts and closes every connection and
// counts them. It accepts without blocking, under mu, so that
// "connections" can take the lock and then count, exactly, what the
// kernel completed and nobody accepted yet: the commands under test have
// ended by then, and no sleep decides the count.
type counted struct {
	mu     sync.Mutex
	l      *net.TCPListener
	n      int64
	closed bool
}

// acceptAll accepts what is waiting, without blocking, and counts it.
// The caller holds mu.
func (c *counted) acceptAll(ts *testscript.TestScript) {
	rc, err := c.l.SyscallConn()
	if err != nil {
		ts.Fatalf("listen: %v", err)
	}
	rc.Control(func(fd uintptr) {
		for {
			nfd, _, err := unix.Accept(int(fd))
			if err != nil {
				return
			}
			unix.Close(nfd)
			c.n++
		}
	})
}

// cmdListen starts a listener on 127.0.0.1 and sets NAME_PORT.
func cmdListen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: listen NAME")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ts.Fatalf("listen: %v", err)
	}
	c := &counted{l: l.(*net.TCPListener)}
	listeners.Store(fmt.Sprintf("%p %s", ts, args[0]), c)
	stop := make(chan struct{})
	go func() {
		// Serve the commands under test (a connection closed at once),
		// a few milliseconds at most after they connect.
		for {
			c.mu.Lock()
			if !c.closed {
				c.acceptAll(ts)
			}
			c.mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	ts.Defer(func() {
		close(stop)
		c.mu.Lock()
		c.closed = true
		l.Close()
		c.mu.Unlock()
	})
	ts.Setenv(args[0]+"_PORT", strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
}

// cmdConnections checks how many connections the listener NAME got.
func cmdConnections(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: connections NAME N")
	}
	v, ok := listeners.Load(fmt.Sprintf("%p %s", ts, args[0]))
	if !ok {
		ts.Fatalf("connections: no listener %s", args[0])
	}
	want, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil {
		ts.Fatalf("usage: connections NAME N")
	}
	c := v.(*counted)
	c.mu.Lock()
	c.acceptAll(ts)
	got := c.n
	c.mu.Unlock()
	if got != want {
		ts.Fatalf("connections: listener %s accepted %d; want %d", args[0], got, want)
	}
}
