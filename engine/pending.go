package engine

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/resolve"
	"github.com/agentgate/agentgate/session"
)

// Out-of-band approval: a command that would have asked, refused because
// no one could be asked (a hook whose host cannot ask, exec with no
// terminal), is kept as a pending request with a short id. A person runs
// "agentgate approve ID" in another terminal; the first retry of exactly
// that command, in that directory, in that session, within GrantTTL, then
// runs (outcome approved_out_of_band) and uses the approval up.
const (
	// PendingTTL is how long a request waits for a person when the
	// configuration names no prompt timeout (a request held by an older
	// agentgate has none of its own).
	PendingTTL = time.Hour
	// GrantTTL is how long an approval waits for the retry.
	GrantTTL = 5 * time.Minute
	// MaxPending caps the requests kept per session, and MaxPendingAll
	// those of all sessions; the oldest go first.
	MaxPending    = 10
	MaxPendingAll = 100
)

// Pending is a refused command waiting for a person's answer.
type Pending struct {
	ID      string        `json:"id"`
	Command string        `json:"command"`
	Cwd     string        `json:"cwd"`
	Session string        `json:"session"`
	Harness string        `json:"harness,omitempty"`
	Reasons []gate.Reason `json:"reasons"`
	// Resolved are what the command's words named on disk when it was
	// held (each existing path with its links followed): the approval
	// holds for those files, not for what an agent swaps in before the
	// retry.
	Resolved []string `json:"resolved,omitempty"`
	// Record is the id of the denial's audit record.
	Record  string    `json:"record"`
	Created time.Time `json:"created"`
	// Expires is when an unanswered request lapses: the prompt timeout
	// after it was held, as a question at agentgate's own prompt would.
	Expires time.Time `json:"expires,omitzero"`
	// Approved is when a person approved it; zero while it waits.
	Approved time.Time `json:"approved,omitzero"`
}

// ErrNoPending is returned for an id that names no waiting request.
var ErrNoPending = errors.New("no such pending request (it may have expired or been used)")

func (e *Engine) pendingDir() string { return filepath.Join(e.StateDir, "pending") }

// pendingAlphabet has no look-alike characters: ids are read aloud and typed.
const pendingAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

func newPendingID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = pendingAlphabet[int(c)%len(pendingAlphabet)]
	}
	return string(out)
}

// validPendingID keeps ids from naming files outside the directory.
func validPendingID(id string) bool {
	if len(id) != 6 {
		return false
	}
	for _, c := range id {
		if !strings.ContainsRune(pendingAlphabet, c) {
			return false
		}
	}
	return true
}

// hold keeps j as a pending request and returns it.
func (e *Engine) hold(j *Judgement, record string) (Pending, error) {
	p := Pending{ID: newPendingID(), Command: j.Request.Text, Cwd: j.Cwd, Session: j.Session,
		Harness: harnessOf(j), Reasons: j.Decision.Reasons(), Resolved: resolvedWords(j), Record: record, Created: e.Now().UTC()}
	wait := PendingTTL
	if j.Config != nil && j.Config.PromptTimeout > 0 {
		wait = j.Config.PromptTimeout
	}
	p.Expires = p.Created.Add(wait)
	if err := os.MkdirAll(e.pendingDir(), 0o700); err != nil {
		return Pending{}, err
	}
	// Keep at most MaxPending per session and MaxPendingAll in all:
	// drop the oldest waiting ones.
	all, _ := e.PendingList()
	var mine, waiting []Pending
	for _, q := range all {
		if q.Approved.IsZero() {
			waiting = append(waiting, q)
			if q.Session == p.Session {
				mine = append(mine, q)
			}
		}
	}
	for i := 0; i+MaxPending-1 < len(mine); i++ {
		_ = os.Remove(e.pendingPath(mine[i].ID))
	}
	for i := 0; i+MaxPendingAll-1 < len(waiting); i++ {
		_ = os.Remove(e.pendingPath(waiting[i].ID))
	}
	return p, e.writePending(p)
}

func (e *Engine) pendingPath(id string) string { return filepath.Join(e.pendingDir(), id+".json") }

func (e *Engine) writePending(p Pending) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(e.pendingDir(), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), e.pendingPath(p.ID))
}

// PendingList returns the requests that have not expired, oldest first,
// and removes the expired ones.
func (e *Engine) PendingList() ([]Pending, error) {
	ents, err := os.ReadDir(e.pendingDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	now := e.Now()
	var out []Pending
	for _, ent := range ents {
		id, ok := strings.CutSuffix(ent.Name(), ".json")
		if !ok || !validPendingID(id) {
			continue
		}
		p, err := e.readPending(id)
		if err != nil {
			continue
		}
		if expired(p, now) {
			_ = os.Remove(e.pendingPath(id))
			continue
		}
		out = append(out, p)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Created.Before(out[b].Created) })
	return out, nil
}

func expired(p Pending, now time.Time) bool {
	if !p.Approved.IsZero() {
		return now.After(p.Approved.Add(GrantTTL))
	}
	if !p.Expires.IsZero() {
		return now.After(p.Expires)
	}
	return now.After(p.Created.Add(PendingTTL))
}

func (e *Engine) readPending(id string) (Pending, error) {
	var p Pending
	b, err := os.ReadFile(e.pendingPath(id))
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(b, &p); err != nil || p.ID != id {
		return p, fmt.Errorf("pending request %s is unreadable", id)
	}
	return p, nil
}

// PendingGet returns the waiting request id.
func (e *Engine) PendingGet(id string) (Pending, error) {
	if !validPendingID(id) {
		return Pending{}, ErrNoPending
	}
	p, err := e.readPending(id)
	if err != nil || expired(p, e.Now()) {
		return Pending{}, ErrNoPending
	}
	return p, nil
}

// ApprovePending records that a person approved request id: its first
// matching retry within GrantTTL runs.
func (e *Engine) ApprovePending(id string) (Pending, error) {
	p, err := e.PendingGet(id)
	if err != nil {
		return p, err
	}
	p.Approved = e.Now().UTC()
	return p, e.writePending(p)
}

// DenyPending records that a person denied request id: it is removed, the
// denial is logged, and the session remembers it, so a retry is denied
// without asking again.
func (e *Engine) DenyPending(cfg *config.Config, id string) (Pending, error) {
	p, err := e.PendingGet(id)
	if err != nil {
		return p, err
	}
	if err := os.Remove(e.pendingPath(id)); err != nil {
		return p, err
	}
	rec := audit.Record{Time: e.Now().UTC().Format(audit.TimeFormat), ID: p.Record, Event: audit.EventResult,
		Command: p.Command, Cwd: p.Cwd, Decision: gate.Ask, Outcome: audit.OutcomeDeniedOutOfBand,
		Session: p.Session, Harness: p.Harness, Pending: p.ID, PID: os.Getpid(), PPID: os.Getppid(), Version: e.Version}
	if _, err := e.Append(cfg, rec); err != nil {
		return p, fmt.Errorf("the denial was not logged: %w", err)
	}
	if err := e.Sessions(cfg).Remember(p.Session, p.Command, p.Cwd, session.Denied, e.Now()); err != nil {
		return p, fmt.Errorf("the denial was not remembered for the session: %w", err)
	}
	return p, nil
}

// grant finds an approval for exactly j's command, directory and session.
//
// The approval is bound to what the person saw: the retry's judgement may
// add no reason the held request did not have (a symlink to a key planted
// since is a new reason), and its words must name the same files on disk.
// Otherwise the retry is a new request.
func (e *Engine) grant(j *Judgement) (Pending, bool) {
	all, _ := e.PendingList()
	for _, p := range all {
		if !p.Approved.IsZero() && p.Command == j.Request.Text && p.Cwd == j.Cwd && p.Session == j.Session &&
			sameJudgement(p, j) {
			return p, true
		}
	}
	return Pending{}, false
}

// sameJudgement reports whether j adds no reason to p's and its words
// resolve to the same files.
func sameJudgement(p Pending, j *Judgement) bool {
	seen := map[string]bool{}
	for _, r := range p.Reasons {
		seen[reasonKey(r)] = true
	}
	for _, r := range j.Decision.Reasons() {
		if !seen[reasonKey(r)] {
			return false
		}
	}
	return slices.Equal(p.Resolved, resolvedWords(j))
}

func reasonKey(r gate.Reason) string {
	return string(r.Check) + "\x00" + r.Match + "\x00" + r.Message
}

// resolvedWords is what an approval of j holds for: every file the
// words of its whole text reach where each part runs, globs expanded, by
// identity ([resolve.Binding]). An escalated command's judged words stop
// at its first reason to ask ("> copy.txt"), but it opens the others too;
// a hard link swapped in keeps the path but not the file.
func resolvedWords(j *Judgement) []string {
	if j.binding == nil {
		// First: resolve.Unbound reads the binding's last entry.
		b := append(gitBinding(j), resolve.Binding(diskOptions(j), j.Decision.Segments())...)
		j.binding = &b
	}
	return *j.binding
}

// gitBinding is what the git repositories a text runs in hold that git
// trusts, for an approval of the text to hold for: the content of each of
// their configuration files, of what those include, of the person's
// global and system ones, of each file in their hooks directories and
// in the one core.hooksPath names, of the programs the configuration
// names by path, and the same of each submodule checked out
// ([gitsafe.Trusted], read without running git), symbolic links followed
// (git follows them: a .git/config or a hook linked to a file the agent
// may write ran what was planted in it). An approved program may run git
// without a word of the text saying so ("bash run.sh", run.sh being "git
// status"; a build): a red team's core.fsmonitor, planted after the
// approval, ran in the retry. Each git of the text is bound where it
// runs and as it is told to ("git -C ../o commit", "GIT_DIR=../o/.git
// git commit": a hook planted in ../o ran in the retry). The git
// directory's other files change with git's own work (the index, HEAD)
// and are not bound. An approval given before the repository existed
// holds for none, and none holds where the files cannot be read: their
// entry differs at each judgement.
func gitBinding(j *Judgement) []string {
	segs := j.Decision.Segments()
	segDirs, _ := resolve.Dirs(j.Cwd, j.Request.Paths.Home, segs)
	// The environment an approved command runs with: the full one.
	env := make([]string, 0, len(j.Request.Paths.Vars)+1)
	for k, v := range j.Request.Paths.Vars {
		if k != "HOME" {
			env = append(env, k+"="+v)
		}
	}
	slices.Sort(env)
	env = append(env, "HOME="+j.Request.Paths.Home)
	// The hook judges with its own environment and the host runs the
	// rewrite with another: Gemini CLI's shell gets GIT_CONFIG_GLOBAL and
	// GIT_CONFIG_SYSTEM set to /dev/null and GIT_CONFIG_KEY_n overrides,
	// which the hook's process does not (every approval in Gemini was
	// refused once the global files were bound). So the binding is of
	// what git reads with the environment as it is and with git's
	// configuration variables taken out (the person's global and system
	// files where git looks by default): the same set in the hook and in
	// exec whenever the two differ only in what the host gives the shell,
	// and a larger one otherwise, which refuses rather than runs
	// (TestBindingSameAcrossHostShellEnv).
	var runs []gitRun
	runnerDirs := resolve.RunnerDirs(diskOptions(j), segs)
	for _, base := range [][]string{env, withoutGitConfigVars(env)} {
		// Where a program of the text may run git without a word saying
		// so: where the text runs and cds, and where a build runner is
		// sent ("make -C ../o" runs its recipes' git there).
		runs = append(runs, gitRun{dir: j.Cwd, env: base})
		for _, ds := range segDirs {
			for _, d := range ds {
				runs = append(runs, gitRun{dir: d, env: base})
			}
		}
		for _, d := range runnerDirs {
			runs = append(runs, gitRun{dir: d, env: base})
		}
		// And each git of the text, as escalatedGit vets it.
		more, _ := gitRuns(segs, segDirs, base, j.Request.Paths.Home, j.Decision.Globless())
		runs = append(runs, more...)
	}
	// unread is the entry of what cannot be bound: never the same twice.
	unread := func(what string) string {
		return "\x00git " + what + " " + neverSame()
	}
	var st []string
	done := map[string]bool{}
	for _, r := range runs {
		key := strings.Join(r.argv, "\x00") + "\x01" + r.dir + "\x01" + strings.Join(r.env, "\x00")
		if done[key] {
			continue
		}
		done[key] = true
		if r.why != "" {
			return []string{unread(r.why)}
		}
		files, err := gitsafe.Trusted(r.argv, r.dir, r.env)
		if err != nil {
			return []string{unread(err.Error())}
		}
		for _, f := range files {
			if !slices.Contains(st, f) {
				st = append(st, f)
			}
		}
	}
	const maxHooks = 256
	var out []string
	for _, p := range st {
		fi, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, "\x00git "+p+" absent")
		case err != nil:
			out = append(out, unread(p+": "+err.Error()))
		case fi.IsDir():
			ents, err := os.ReadDir(p)
			if err != nil || len(ents) > maxHooks {
				out = append(out, unread(p))
				continue
			}
			h := sha256.New()
			for _, e := range ents {
				fmt.Fprintf(h, "%s %s\n", e.Name(), fileDigest(filepath.Join(p, e.Name())))
			}
			out = append(out, "\x00git "+p+" "+hex.EncodeToString(h.Sum(nil)))
		default:
			out = append(out, "\x00git "+p+" "+fileDigest(p))
		}
	}
	return out
}

// withoutGitConfigVars is env without the variables that choose git's
// configuration files or add entries to it (GIT_CONFIG_GLOBAL,
// GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM, GIT_CONFIG_COUNT and its
// KEY_n/VALUE_n, GIT_CONFIG_PARAMETERS), so that git reads its default
// files.
func withoutGitConfigVars(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(name, "GIT_CONFIG") {
			out = append(out, kv)
		}
	}
	return out
}

// fileDigest is what gitBinding keeps of one file, symbolic links
// followed: its mode and the hash of its content; of a directory, its
// mode. A file it cannot read gets a digest never the same twice.
func fileDigest(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "absent"
		}
	} else if !fi.Mode().IsRegular() {
		return fi.Mode().String()
	} else if b, err := fsutil.ReadRegular(p, 1<<20); err == nil {
		sum := sha256.Sum256(b)
		return fi.Mode().String() + " " + hex.EncodeToString(sum[:])
	}
	return neverSame()
}

// neverSame is a binding entry for what cannot be read: a random one, so
// no approval holds across it.
func neverSame() string {
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	return fmt.Sprintf("?%x", nonce)
}

// linkedWords is what a "for this session" answer to j holds for: the
// words of its whole text that reach their files through symbolic links,
// with the files they reach ([resolve.Links]). A retry whose words go
// through a link the answer did not see is a new question.
func linkedWords(j *Judgement) []string {
	return append(gitBinding(j), resolve.Links(diskOptions(j), j.Decision.Segments())...)
}

// Unbound reports whether no approval of j can hold for a later run:
// where its cd goes cannot be followed, or its words are not read as bash
// reads them, so what they reach then is not known ([resolve.Unbound],
// [gate.Decision.Unread]). Such a command is not kept for approval
// from another terminal, nor handed to exec with a host ticket.
func (j *Judgement) Unbound() bool {
	return j.Decision.Unread() || j.gitUnread || resolve.Unbound(resolvedWords(j))
}

// diskOptions are what reading j's words on disk needs.
func diskOptions(j *Judgement) resolve.Options {
	return resolve.Options{Cwd: j.Cwd, Home: j.Request.Paths.Home, Paths: j.Request.Paths}
}

// claim uses up the approval for j. Removing the file is the claim: of
// two retries racing, one removes it and the other finds nothing.
func (e *Engine) claim(j *Judgement) (Pending, error) {
	p, ok := e.grant(j)
	if !ok {
		return Pending{}, ErrNoPending
	}
	if err := os.Remove(e.pendingPath(p.ID)); err != nil {
		return Pending{}, ErrNoPending
	}
	return p, nil
}

// harnessOf is the record's harness: empty for exec.
func harnessOf(j *Judgement) string {
	if j.Harness == "exec" {
		return ""
	}
	return j.Harness
}
