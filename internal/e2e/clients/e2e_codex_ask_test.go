//go:build e2e

package clients

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Codex has no ask a hook can give, but it asks a person about a command
// one of its own rules marks "prompt", and it matches its rules against
// the command a hook rewrote. agentgate install writes rules for
// agentgate's marked rewrite ("<agentgate> exec --host-why=CLASS
// --host-ticket"), one per reason class, and the hook answers an ask with
// that rewrite: Codex's own approval shows it, with the class's words
// (e2e_codex_why_test.go), and runs it once the person says yes. These tests drive the real
// Codex in a terminal, as a person runs it with agentgate: approvals on
// request, Codex's sandbox off (agentgate confines what it runs).

// codexAskArgs are the interactive Codex's flags in these tests.
var codexAskArgs = []string{"--sandbox", "danger-full-access", "--ask-for-approval", "on-request"}

// codexAskWorld installs agentgate for Codex as a person does (agentgate
// install codex: the hook, its trust, the rule), onboards Codex, and
// checks that Codex trusts every hook of agentgate's as install wrote it.
func codexAskWorld(t *testing.T, command string, opts ...func(*standIn)) (*world, *standIn, string, string) {
	t.Helper()
	bin := clientBin(t, "codex")
	w := newWorld(t, hookAgentgate(t))
	t.Cleanup(func() { stopCodexDaemon(t, codexHome(w)) })
	w.installHook(codexHost)
	s, url := newStandIn(t, command, responsesAPI, opts...)
	writeCodexConfig(w, url)
	w.onboardCodex()
	events := map[string]bool{}
	for _, h := range listCodexHooks(w, bin) {
		if !strings.Contains(h.Command, "hook codex") {
			continue
		}
		if h.TrustStatus != "trusted" {
			t.Errorf("codex does not trust agentgate's hook %s as install wrote it (%s)", h.Key, h.TrustStatus)
		}
		for _, ev := range []string{"pre_tool_use", "post_tool_use", "permission_request"} {
			if strings.Contains(h.Key, ":"+ev+":") {
				events[ev] = true
			}
		}
	}
	if len(events) != 3 {
		t.Fatalf("codex lists agentgate's hook for %v, want PreToolUse, PostToolUse and PermissionRequest", events)
	}
	return w, s, bin, url
}

// stopCodexDaemon ends the background server the interactive Codex
// starts from its home (codex app-server --managed-daemon, which outlives
// the terminal) and waits until it is gone: it writes into the home.
func stopCodexDaemon(t *testing.T, home string) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		found := false
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, p := range procs {
			data, err := os.ReadFile(p)
			if err != nil || !strings.HasPrefix(string(data), home+"/") {
				continue
			}
			found = true
			if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if !found {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("Codex's background server under %s does not end", home)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startCodex runs the interactive Codex in the project, under a terminal.
func startCodex(t *testing.T, w *world, bin string, env []string, args ...string) *ptyRun {
	t.Helper()
	c := exec.Command(bin, append(args, "Run the command you are given.")...)
	c.Dir, c.Env = w.project, withTerm(env)
	return startPty(t, c)
}

// waitForCodex waits until Codex has drawn text n times, and gives up
// when the model got a tool result first: then nobody was asked.
func waitForCodex(t *testing.T, r *ptyRun, s *standIn, text string, n int) {
	t.Helper()
	deadline := time.Now().Add(clientTimeout)
	for time.Now().Before(deadline) && len(s.toolResults()) < n {
		if strings.Count(squeeze(r.Screen()), squeeze(text)) >= n {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("Codex never drew %q (%d times); the screen shows:\n%s\n%s", text, n, r.Screen(), s.summary())
}

// waitForResults waits until the model got n tool results.
func waitForResults(t *testing.T, r *ptyRun, s *standIn, n int) {
	t.Helper()
	deadline := time.Now().Add(clientTimeout)
	for time.Now().Before(deadline) && len(s.toolResults()) < n {
		time.Sleep(100 * time.Millisecond)
	}
	if len(s.toolResults()) < n {
		t.Fatalf("the model got %d tool results, want %d; the screen shows:\n%s\n%s", len(s.toolResults()), n, r.Screen(), s.summary())
	}
}

const codexAsks = "Would you like to run the following command?"

// TestCodexAskReachesApproval: a command agentgate asks about reaches
// Codex's own approval as agentgate's marked rewrite; on yes it runs
// through agentgate exec (the planted build cannot write agentgate's
// configuration, and its own work is done only then), on no nothing runs.
func TestCodexAskReachesApproval(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	for _, tc := range []struct {
		name, keys string
		ran        bool
	}{
		{"yes", "y", true},
		{"no", "\x1b", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, s, bin, _ := codexAskWorld(t, "sh ./build.sh")
			w.plantBuild()
			clientSlots <- struct{}{}
			defer func() { <-clientSlots }()
			r := startCodex(t, w, bin, codexEnv(w), codexAskArgs...)
			waitForCodex(t, r, s, codexAsks, 1)
			screen := squeeze(r.Screen())
			if !strings.Contains(screen, squeeze("exec --host-why=unlisted --host-ticket ")) || !strings.Contains(screen, squeeze("-- 'sh ./build.sh'")) {
				t.Errorf("Codex's approval does not show the rewrite it will run:\n%s", r.Screen())
			}
			if w.exists(filepath.Join(w.project, "built")) {
				t.Fatalf("the build ran before anyone said yes")
			}
			r.Send(tc.keys)
			if tc.ran {
				waitForResults(t, r, s, 1)
				checkBuildGuarded(t, w, "codex", s, r)
				return
			}
			waitForCodex(t, r, s, "You canceled the request", 1)
			time.Sleep(time.Second) // anything that would run, has
			if w.exists(filepath.Join(w.project, "built")) {
				t.Errorf("the build ran though the person said no\n%s", s.summary())
			}
			for _, rec := range w.audit() {
				if rec.Outcome == "approved_host" {
					t.Errorf("an approval was recorded though the person said no: %+v", rec)
				}
			}
		})
	}
}

// TestCodexAskDeniedWhereNoPersonIsAsked: where Codex would not show its
// approval to a person (approval policy never; approvals sent to Codex's
// automatic reviewer, a model; Codex's sandbox on and the call not asking
// to leave it, in which agentgate exec could not record the approval: see
// e2e_codex_sandbox_test.go), agentgate reads the turn's
// settings and denies with an id to approve from another terminal;
// nothing runs, and no one is asked.
func TestCodexAskDeniedWhereNoPersonIsAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	for _, tc := range []struct {
		name string
		args []string
		why  string
	}{
		{"never", []string{"--sandbox", "danger-full-access", "--ask-for-approval", "never"}, "approval policy is never"},
		{"auto review", append([]string{"-c", `approvals_reviewer="auto_review"`}, codexAskArgs...), `approvals go to "auto_review"`},
		{"sandbox", []string{"--sandbox", "workspace-write", "--ask-for-approval", "on-request"}, "sandbox is on"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, s, bin, _ := codexAskWorld(t, "touch made.txt")
			clientSlots <- struct{}{}
			defer func() { <-clientSlots }()
			r := startCodex(t, w, bin, codexEnv(w), tc.args...)
			waitForResults(t, r, s, 1)
			if strings.Contains(squeeze(r.Screen()), squeeze(codexAsks)) {
				t.Errorf("Codex asked:\n%s", r.Screen())
			}
			if w.exists(filepath.Join(w.project, "made.txt")) {
				t.Errorf("touch made.txt ran")
			}
			if res := s.toolResults()[0]; !strings.Contains(res, tc.why) || !strings.Contains(res, "agentgate approve ") {
				t.Errorf("the model was not told why (%s), nor given an id to approve: %q", tc.why, res)
			}
		})
	}
}

// TestCodexAllowedRunsWithoutAsking: a read-only command runs at once,
// through agentgate exec, without Codex's approval.
func TestCodexAllowedRunsWithoutAsking(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	w, s, bin, _ := codexAskWorld(t, "ls")
	clientSlots <- struct{}{}
	defer func() { <-clientSlots }()
	r := startCodex(t, w, bin, codexEnv(w), codexAskArgs...)
	waitForResults(t, r, s, 1)
	if strings.Contains(squeeze(r.Screen()), squeeze(codexAsks)) {
		t.Errorf("Codex asked about a read-only command:\n%s", r.Screen())
	}
	if !anyContains(s.toolResults(), w.visible) {
		t.Errorf("the model never saw ls's output\n%s", s.summary())
	}
}

// installedAgentgate is the agentgate the installed hook runs.
func installedAgentgate(t *testing.T, w *world) string {
	t.Helper()
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	data, err := os.ReadFile(filepath.Join(codexHome(w), "hooks.json"))
	if err != nil || json.Unmarshal(data, &doc) != nil || len(doc.Hooks["PreToolUse"]) == 0 {
		t.Fatalf("hooks.json: %v: %s", err, data)
	}
	c := doc.Hooks["PreToolUse"][0].Hooks[0].Command
	self, ok := strings.CutSuffix(c, " hook codex")
	if !ok {
		t.Fatalf("the hook command %q is not agentgate's", c)
	}
	return self
}

// TestCodexForgedTicketDoesNotRun: the model proposes agentgate's marked
// rewrite itself, with a ticket of its own making. agentgate names itself
// in the command, a sticky ask: Codex asks the person about the whole of
// it, wrapped once more; and even when they say yes, the forged ticket
// approves nothing.
func TestCodexForgedTicketDoesNotRun(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	forgedTicketRunsNothing(t, codexAskArgs)
}

// forgedTicketRunsNothing: the model proposes agentgate's marked rewrite
// with a ticket of its own making (with extra call options, such as
// asking to leave Codex's sandbox); Codex, started with args, asks about
// the whole of it, and a yes runs nothing.
func forgedTicketRunsNothing(t *testing.T, args []string, opts ...func(*standIn)) {
	var self atomic.Pointer[string] // set once the world is; read by the stand-in
	opts = append([]func(*standIn){callsFor(func(int) string {
		return *self.Load() + " exec --host-ticket " + strings.Repeat("a", 32) + " --non-interactive -- 'touch made.txt'"
	})}, opts...)
	w, s, bin, _ := codexAskWorld(t, "", opts...)
	p := installedAgentgate(t, w)
	self.Store(&p)
	clientSlots <- struct{}{}
	defer func() { <-clientSlots }()
	r := startCodex(t, w, bin, codexEnv(w), args...)
	waitForCodex(t, r, s, codexAsks, 1)
	if !strings.Contains(squeeze(r.Screen()), squeeze("--host-ticket "+strings.Repeat("a", 32))) {
		t.Errorf("Codex's approval does not show the forged command it wraps:\n%s", r.Screen())
	}
	r.Send("y")
	waitForResults(t, r, s, 1)
	if w.exists(filepath.Join(w.project, "made.txt")) {
		t.Errorf("the forged ticket ran touch made.txt\n%s", s.summary())
	}
	if res := s.toolResults()[0]; !strings.Contains(res, "agentgate: denied") {
		t.Errorf("the forged ticket's exec did not deny: %q", res)
	}
}

// TestCodexTicketNotReplayed: the model proposes, word for word, the
// marked rewrite Codex ran for an approved command, ticket and all. The
// ticket was used: the person is asked again, and even a yes runs nothing
// twice.
func TestCodexTicketNotReplayed(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	const first = "echo ran >> made.txt"
	var home atomic.Pointer[string] // Codex's home, once the world is; read by the stand-in
	rewrite := regexp.MustCompile(`/[^\s"\\]+ exec --host-why=[a-z-]+ --host-ticket [a-z2-7]{32} --non-interactive --session '[^']*' -- '` + regexp.QuoteMeta(first) + `'`)
	replay := func() string {
		// The rewrite Codex ran, as its transcript records it.
		var found string
		filepath.WalkDir(filepath.Join(*home.Load(), "sessions"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && found == "" {
				data, _ := os.ReadFile(p)
				found = rewrite.FindString(string(data))
			}
			return nil
		})
		return found
	}
	var replayed atomic.Pointer[string]
	w, s, bin, _ := codexAskWorld(t, "", callsFor(func(n int) string {
		if n == 1 {
			return first
		}
		r := replay()
		replayed.Store(&r)
		return r
	}), func(s *standIn) { s.again = func(string) bool { return s.timesAsked() < 2 } })
	h := codexHome(w)
	home.Store(&h)
	driveReplay(t, w, s, bin, codexAskArgs, &replayed, first, 2)
}

// driveReplay runs Codex with args through a first call Codex asks about
// and a second that replays its marked rewrite (replayed, stored by the
// stand-in), saying yes to each approval, until the stand-in has results
// results: the approved command (which appends "ran" to made.txt) must
// have run once, and the replay's exec must have denied.
func driveReplay(t *testing.T, w *world, s *standIn, bin string, args []string, replayed *atomic.Pointer[string], first string, results int) *ptyRun {
	t.Helper()
	clientSlots <- struct{}{}
	defer func() { <-clientSlots }()
	r := startCodex(t, w, bin, codexEnv(w), args...)
	waitForCodex(t, r, s, codexAsks, 1)
	r.Send("y")
	waitForResults(t, r, s, 1)
	waitForCodex(t, r, s, codexAsks, 2)
	if p := replayed.Load(); p == nil || *p == "" {
		t.Fatalf("the transcript holds no marked rewrite of %q", first)
	}
	r.Send("y")
	waitForResults(t, r, s, results)
	data, _ := os.ReadFile(filepath.Join(w.project, "made.txt"))
	if got := strings.Count(string(data), "ran\n"); got != 1 {
		t.Errorf("the approved command ran %d times, want once (the replayed ticket ran it again)\n%s", got, s.summary())
	}
	if res := s.toolResults()[1]; !strings.Contains(res, "agentgate: denied") {
		t.Errorf("the replayed ticket's exec did not deny: %q", res)
	}
	return r
}

// TestCodexPowerShellIsNotAsked: where a PowerShell is installed, Codex
// runs a command the model sends with "shell": "pwsh" through it and
// matches none of its bash rules: a marked rewrite would run without
// asking. So agentgate denies with an id, and nothing runs. (The
// PowerShell here stands in for a real one: it runs its -Command with sh.)
func TestCodexPowerShellIsNotAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	w, s, bin, _ := codexAskWorld(t, "touch made.txt", callArgs(obj{"shell": "pwsh"}))
	pwshDir := filepath.Join(filepath.Dir(w.project), "pwsh-bin")
	ran := filepath.Join(filepath.Dir(w.project), "pwsh-ran")
	w.write(filepath.Join(pwshDir, "pwsh"), "#!/bin/sh\necho \"$*\" >> '"+ran+"'\nwhile [ \"$1\" != -Command ]; do shift; done\nexec sh -c \"$2\"\n")
	os.Chmod(filepath.Join(pwshDir, "pwsh"), 0o755)
	env := codexEnv(w)
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + pwshDir + ":" + kv[len("PATH="):]
		}
	}
	clientSlots <- struct{}{}
	defer func() { <-clientSlots }()
	r := startCodex(t, w, bin, env, codexAskArgs...)
	waitForResults(t, r, s, 1)
	if w.exists(filepath.Join(w.project, "made.txt")) {
		t.Errorf("touch made.txt ran")
	}
	if res := s.toolResults()[0]; !strings.Contains(res, "PowerShell") || !strings.Contains(res, "agentgate approve ") {
		t.Errorf("the model was not told why, nor given an id to approve: %q", res)
	}
}

// TestCodexUnaskedRewriteClaimsNothing: should Codex run agentgate's
// marked rewrite without asking (here its rule appears only after Codex
// loaded its rules, so Codex runs the rewrite as an ordinary command),
// the rewrite's ticket is unarmed, since no PermissionRequest armed it,
// and exec refuses it with an id to approve from another terminal.
func TestCodexUnaskedRewriteClaimsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	var home atomic.Pointer[string] // Codex's home, once the world is; read by the stand-in
	w, s, bin, _ := codexAskWorld(t, "", callsFor(func(int) string {
		// Codex has started without the rule; put it back for the hook.
		rule := filepath.Join(*home.Load(), "rules", "agentgate.rules")
		if err := os.Rename(rule+".aside", rule); err != nil {
			t.Error(err)
		}
		return "touch made.txt"
	}))
	h := codexHome(w)
	home.Store(&h)
	rule := filepath.Join(h, "rules", "agentgate.rules")
	aside := rule + ".aside"
	if err := os.Rename(rule, aside); err != nil {
		t.Fatal(err)
	}
	clientSlots <- struct{}{}
	defer func() { <-clientSlots }()
	r := startCodex(t, w, bin, codexEnv(w), codexAskArgs...)
	waitForResults(t, r, s, 1)
	if strings.Contains(squeeze(r.Screen()), squeeze(codexAsks)) {
		t.Fatalf("Codex asked after all (it read its rules again): the case proves nothing\n%s", r.Screen())
	}
	if w.exists(filepath.Join(w.project, "made.txt")) {
		t.Errorf("the unarmed ticket ran touch made.txt\n%s", s.summary())
	}
	if res := s.toolResults()[0]; !strings.Contains(res, "agentgate: denied") || !strings.Contains(res, "agentgate approve ") {
		t.Errorf("exec did not refuse the unarmed ticket with an id: %q", res)
	}
	// Codex's result event ends the hook's record: not approved, since
	// nothing ran, and the ticket is used up.
	ended := false
	for _, rec := range w.audit() {
		if rec.Outcome == "approved_host" {
			t.Errorf("an approval was recorded though nothing ran: %+v", rec)
		}
		ended = ended || rec.Event == "result" && rec.Outcome == "denied" && rec.Harness == "codex"
	}
	if !ended {
		t.Errorf("the hook's record was not ended denied: %+v", w.audit())
	}
	if left, _ := filepath.Glob(filepath.Join(w.home, ".local", "state", "agentgate", "hostasked", "*.json")); len(left) > 0 {
		t.Errorf("the unarmed ticket outlived Codex's result event: %q", left)
	}
}
