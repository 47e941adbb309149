//go:build e2e

package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Codex as most people run it: its sandbox on (workspace-write) and
// approvals on request. Codex runs an approved command inside its sandbox,
// where agentgate exec can neither use up a ticket nor write a record,
// unless the model's call asked to run outside it ("sandbox_permissions":
// "require_escalated", which a hook cannot add: Codex takes back only a
// new command). So agentgate asks in Codex's approval about a call that
// asked, and tells the model how to ask about one that did not; these
// tests drive the real Codex so, with a model that does as it is told.
//
// The tests' homes are under /tmp, which Codex's sandbox lets a command
// write by default; a person's home is not. So /tmp and $TMPDIR are taken
// out of the sandbox's writable roots, and agentgate's state is read-only
// inside it, as for a person.
var codexSandboxArgs = []string{"--sandbox", "workspace-write", "--ask-for-approval", "on-request",
	"-c", "sandbox_workspace_write.exclude_slash_tmp=true", "-c", "sandbox_workspace_write.exclude_tmpdir_env_var=true"}

// escalated are the arguments of a call that asks Codex to run its
// command outside the sandbox.
var escalated = obj{"sandbox_permissions": "require_escalated", "justification": "agentgate asks for it"}

// toldToEscalate reports whether a tool result tells the model to ask
// Codex to run the command outside its sandbox.
func toldToEscalate(result string) bool {
	return strings.Contains(result, "sandbox is on") && strings.Contains(result, `require_escalated`)
}

// TestCodexSandboxAskReachesApproval: under Codex's sandbox, a command
// agentgate asks about is denied to a call that did not ask to leave the
// sandbox, with how to be asked (and an id); the model calls again so,
// and Codex's approval shows agentgate's marked rewrite. On yes Codex runs
// it outside its sandbox through agentgate exec (the planted build cannot
// write agentgate's configuration, its own work is done, the records are
// complete); on no nothing runs. A model that asks to leave the sandbox
// at once is asked about at once.
func TestCodexSandboxAskReachesApproval(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	for _, tc := range []struct {
		name, keys  string
		ran, atOnce bool
	}{
		{"yes", "y", true, false},
		{"no", "\x1b", false, false},
		{"asked at once", "y", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var told atomic.Bool
			w, s, bin, _ := codexAskWorld(t, "sh ./build.sh", callArgsFor(func(n int) obj {
				if tc.atOnce || n > 1 {
					return escalated
				}
				return nil
			}), func(s *standIn) {
				s.again = func(r string) bool {
					if toldToEscalate(r) && !told.Load() {
						told.Store(true)
						return true
					}
					return false
				}
			})
			w.plantBuild()
			clientSlots <- struct{}{}
			defer func() { <-clientSlots }()
			r := startCodex(t, w, bin, codexEnv(w), codexSandboxArgs...)
			asked := 1
			if !tc.atOnce {
				waitForResults(t, r, s, 1)
				if res := s.toolResults()[0]; !toldToEscalate(res) || !strings.Contains(res, "agentgate approve ") {
					t.Fatalf("the model was not told how to be asked, nor given an id: %q", res)
				}
				// (That Codex did not ask about it, the records show: the
				// model calls again at once, which Codex may be asking
				// about by now.)
				asked = 2
			}
			waitForAsk(t, r, s, asked-1)
			screen := squeeze(r.Screen())
			if !strings.Contains(screen, squeeze("exec --host-why=unlisted --host-ticket ")) || !strings.Contains(screen, squeeze("-- 'sh ./build.sh'")) {
				t.Errorf("Codex's approval does not show the rewrite it will run:\n%s", r.Screen())
			}
			if w.exists(filepath.Join(w.project, "built")) {
				t.Fatalf("the build ran before anyone said yes")
			}
			r.Send(tc.keys)
			if tc.ran {
				waitForResults(t, r, s, asked)
				checkBuildGuarded(t, w, "codex", s, r)
				checkSandboxRecords(t, w, asked)
				return
			}
			waitForCodexAfter(t, r, s, "You canceled the request", asked-1)
			time.Sleep(time.Second) // anything that would run, has
			if w.exists(filepath.Join(w.project, "built")) {
				t.Errorf("the build ran though the person said no\n%s", s.summary())
			}
			var got []string
			for _, rec := range w.audit() {
				got = append(got, rec.Event+":"+rec.Outcome)
			}
			if want := "escalation:denied_noninteractive escalation:asked_host"; strings.Join(got, " ") != want {
				t.Errorf("the audit log holds %q, want %q", got, want)
			}
		})
	}
}

// waitForAsk waits until Codex has drawn its approval once, and gives up
// when the model got more than results tool results first: then nobody
// was asked.
func waitForAsk(t *testing.T, r *ptyRun, s *standIn, results int) {
	t.Helper()
	waitForCodexAfter(t, r, s, codexAsks, results)
}

// waitForCodexAfter waits until Codex has drawn text, and gives up when the
// model got more than results tool results first.
func waitForCodexAfter(t *testing.T, r *ptyRun, s *standIn, text string, results int) {
	t.Helper()
	deadline := time.Now().Add(clientTimeout)
	for time.Now().Before(deadline) && len(s.toolResults()) <= results {
		if strings.Contains(squeeze(r.Screen()), squeeze(text)) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("Codex never drew %q; the screen shows:\n%s\n%s", text, r.Screen(), s.summary())
}

// checkSandboxRecords checks the audit log of an approved build: the
// call that did not ask to leave the sandbox denied (when there was
// one), then the approval asked in Codex's dialog and its result, with
// the build's exit status, under one id; no ticket left.
func checkSandboxRecords(t *testing.T, w *world, calls int) {
	t.Helper()
	var got []string
	ids := map[string]bool{}
	for _, rec := range w.audit() {
		got = append(got, rec.Event+":"+rec.Outcome)
		if rec.Outcome == "asked_host" || rec.Outcome == "approved_host" {
			ids[rec.ID] = true
		}
	}
	want := []string{"escalation:asked_host", "result:approved_host", "result:approved_host"}
	if calls == 2 {
		want = append([]string{"escalation:denied_noninteractive"}, want...)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") || len(ids) != 1 {
		t.Errorf("the audit log holds %q (%d ids), want %q under one id", got, len(ids), want)
	}
	if left, _ := filepath.Glob(filepath.Join(w.home, ".local", "state", "agentgate", "hostasked", "*.json")); len(left) > 0 {
		t.Errorf("tickets left behind: %q", left)
	}
}

// codexRanRewrite finds, in Codex's transcripts, the marked rewrite of
// command that Codex ran.
func codexRanRewrite(w *world, command string) string {
	re := regexp.MustCompile(`/[^\s"\\]+ exec --host-why=[a-z-]+ --host-ticket [a-z2-7]{32} --non-interactive --session '[^']*' -- '` + regexp.QuoteMeta(command) + `'`)
	var found string
	filepath.WalkDir(filepath.Join(codexHome(w), "sessions"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && found == "" {
			data, _ := os.ReadFile(p)
			found = re.FindString(string(data))
		}
		return nil
	})
	return found
}

// TestCodexSandboxTicketNotReplayed: under Codex's sandbox, the model
// proposes, word for word, the marked rewrite Codex ran for an approved
// command, asking to leave the sandbox: a sticky ask, so the person is
// asked again, and even a yes runs nothing twice; proposed without asking
// to leave the sandbox, it is denied with an id, and no one is asked.
func TestCodexSandboxTicketNotReplayed(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	const first = "echo ran >> made.txt"
	var wp atomic.Pointer[world] // the world, once it is; read by the stand-in
	var replayed atomic.Pointer[string]
	w, s, bin, _ := codexAskWorld(t, "", callsFor(func(n int) string {
		if n == 1 {
			return first
		}
		r := codexRanRewrite(wp.Load(), first)
		replayed.Store(&r)
		return r
	}), callArgsFor(func(n int) obj {
		if n < 3 {
			return escalated
		}
		return nil
	}), func(s *standIn) { s.again = func(string) bool { return s.timesAsked() < 3 } })
	wp.Store(w)
	r := driveReplay(t, w, s, bin, codexSandboxArgs, &replayed, first, 3)
	res := s.toolResults()
	if !toldToEscalate(res[2]) || !strings.Contains(res[2], "agentgate approve ") {
		t.Errorf("the replay that did not ask to leave the sandbox was not denied with an id: %q", res[2])
	}
	if n := strings.Count(squeeze(r.Screen()), squeeze(codexAsks)); n > 2 {
		t.Errorf("Codex asked %d times, want 2", n)
	}
}

// TestCodexSandboxForgedTicketDoesNotRun: under Codex's sandbox, the
// model proposes agentgate's marked rewrite itself, with a ticket of its
// own making, asking to leave the sandbox: Codex asks about the whole of
// it, and even when the person says yes, the forged ticket approves
// nothing.
func TestCodexSandboxForgedTicketDoesNotRun(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	forgedTicketRunsNothing(t, codexSandboxArgs, callArgs(escalated))
}

// TestCodexSandboxedExecClaimsNothing: a marked rewrite run inside
// Codex's sandbox approves nothing, even with a live, armed ticket: exec
// there cannot use the ticket up, so it runs nothing. The person said no
// to the command in Codex's approval (its ticket armed, never used); the
// rewrite Codex showed is then run inside Codex's sandbox (codex sandbox,
// read-only: agentgate's state is read-only there as under
// workspace-write for a person), as a process of the agent's there
// could. Then Codex's own replay, asking to leave the sandbox, is asked
// about again and refused too.
func TestCodexSandboxedExecClaimsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests with real clients are not short")
	}
	t.Parallel()
	w, s, bin, _ := codexAskWorld(t, "sh ./say.sh", callArgs(escalated))
	w.write(filepath.Join(w.project, "say.sh"), "echo SAID-IT\n")
	clientSlots <- struct{}{}
	defer func() { <-clientSlots }()
	r := startCodex(t, w, bin, codexEnv(w), codexSandboxArgs...)
	waitForCodex(t, r, s, codexAsks, 1)
	r.Send("\x1b")
	waitForCodex(t, r, s, "You canceled the request", 1)
	// The rewrite Codex showed, ticket and all, as the screen shows it
	// (Codex records no rewrite it did not run).
	m := regexp.MustCompile(`--host-why=([a-z-]+)--host-ticket([a-z2-7]{32})--non-interactive--session'([^']*)'`).FindStringSubmatch(squeeze(r.Screen()))
	if m == nil {
		t.Fatalf("Codex's approval shows no ticket:\n%s", r.Screen())
	}
	rewrite := installedAgentgate(t, w) + " exec --host-why=" + m[1] + " --host-ticket " + m[2] + " --non-interactive --session '" + m[3] + "' -- 'sh ./say.sh'"
	tickets, _ := filepath.Glob(filepath.Join(w.home, ".local", "state", "agentgate", "hostasked", "*.json"))
	if len(tickets) != 1 {
		t.Fatalf("want the one armed ticket left after the no, found %q", tickets)
	}
	if data, _ := os.ReadFile(tickets[0]); strings.Contains(string(data), `"unarmed":true`) {
		t.Fatalf("the ticket Codex asked about is unarmed: the case proves nothing: %s", data)
	}
	c := exec.Command(bin, "sandbox", "-P", ":read-only", "-C", w.project, "--", "bash", "-c", rewrite)
	c.Dir, c.Env = w.project, codexEnv(w)
	out, err := c.CombinedOutput()
	t.Logf("inside Codex's sandbox: %v\n%s", err, out)
	if err == nil || strings.Contains(string(out), "SAID-IT") || !strings.Contains(string(out), "read-only") {
		t.Errorf("the rewrite inside Codex's sandbox: %v\n%s", err, out)
	}
	if left, _ := filepath.Glob(filepath.Join(w.home, ".local", "state", "agentgate", "hostasked", "*.json")); len(left) != 1 {
		t.Errorf("the ticket changed inside the sandbox: %q", left)
	}
	for _, rec := range w.audit() {
		if rec.Outcome == "approved_host" {
			t.Errorf("an approval was recorded: %+v", rec)
		}
	}
}
