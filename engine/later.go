package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/internal/fsutil"
)

// A hook's host runs the command itself and reports how it went in a
// later event (Claude Code's PostToolUse, PermissionDenied), a separate
// run of agentgate. Later keeps the escalation's record, keyed by the
// session and the host's tool-use id, so that [Engine.Resume] can finish
// it under the same record id.

// laterTTL bounds how long a kept record waits for its result event.
const laterTTL = 24 * time.Hour

func (e *Engine) laterDir() string { return filepath.Join(e.StateDir, "hooks") }

func (e *Engine) laterPath(sess, toolUseID string) string {
	sum := sha256.Sum256([]byte(sess + "\x00" + toolUseID))
	return filepath.Join(e.laterDir(), hex.EncodeToString(sum[:12])+".json")
}

// Later keeps x's record for the host's result event. It does nothing
// without a tool-use id.
func (x *Escalation) Later() error {
	if x.J.ToolUseID == "" {
		return nil
	}
	e := x.e
	if err := os.MkdirAll(e.laterDir(), 0o700); err != nil {
		return err
	}
	e.pruneLater()
	rec := x.Rec
	rec.Reasons, rec.Risks, rec.Shell = nil, nil, nil
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return os.WriteFile(e.laterPath(x.J.Session, x.J.ToolUseID), b, 0o600)
}

func (e *Engine) pruneLater() { e.pruneOlder(e.laterDir(), laterTTL) }

// pruneOlder removes the files of dir written longer than ttl ago.
func (e *Engine) pruneOlder(dir string, ttl time.Duration) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	now := e.Now()
	for _, ent := range ents {
		if info, err := ent.Info(); err == nil && now.Sub(info.ModTime()) > ttl {
			_ = os.Remove(filepath.Join(dir, ent.Name()))
		}
	}
}

// Resume returns the escalation kept by [Escalation.Later] for the
// session's tool use, and forgets it: a result is recorded once. ok is
// false when nothing was kept (the command did not escalate).
func (e *Engine) Resume(cfg *config.Config, sess, toolUseID string) (x *Escalation, ok bool) {
	if toolUseID == "" {
		return nil, false
	}
	path := e.laterPath(sess, toolUseID)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	_ = os.Remove(path)
	var rec audit.Record
	if json.Unmarshal(b, &rec) != nil || rec.ID == "" {
		return nil, false
	}
	j := &Judgement{Config: cfg, Cwd: rec.Cwd, Session: rec.Session, Harness: rec.Harness, ToolUseID: rec.ToolUseID}
	j.Request.Text = rec.Command
	return &Escalation{e: e, J: j, Rec: rec}, true
}

// KeptAsks returns, and forgets, the escalations of session that harness
// kept open as asked in its own dialog (asked_host) and that no result
// has ended.
func (e *Engine) KeptAsks(cfg *config.Config, sess, harness string) []*Escalation {
	ents, err := os.ReadDir(e.laterDir())
	if err != nil {
		return nil
	}
	var out []*Escalation
	for _, ent := range ents {
		path := filepath.Join(e.laterDir(), ent.Name())
		b, err := fsutil.ReadRegular(path, 1<<20)
		if err != nil {
			continue
		}
		var rec audit.Record
		if json.Unmarshal(b, &rec) != nil || rec.ID == "" || rec.Session != sess || rec.Harness != harness ||
			rec.Outcome != audit.OutcomeAskedHost || e.laterPath(rec.Session, rec.ToolUseID) != path {
			continue
		}
		if os.Remove(path) != nil {
			continue // another process ended it first
		}
		j := &Judgement{Config: cfg, Cwd: rec.Cwd, Session: rec.Session, Harness: rec.Harness, ToolUseID: rec.ToolUseID}
		j.Request.Text = rec.Command
		out = append(out, &Escalation{e: e, J: j, Rec: rec})
	}
	return out
}

// End records how the host ended a kept escalation: the outcome (the
// person approved it in the host's dialog, or denied it) and, when the
// host reports one, the exit code, under the same record id.
func (x *Escalation) End(outcome string, code *int) error {
	res := x.Rec
	res.Event, res.Time, res.Outcome = audit.EventResult, x.e.Now().UTC().Format(audit.TimeFormat), outcome
	res.Reasons, res.Risks, res.Shell = nil, nil, nil
	res.ExitCode, res.DurationMS = code, nil
	res.PID, res.PPID = os.Getpid(), os.Getppid()
	if err := x.append(res); err != nil {
		return fmt.Errorf("the result was not recorded: %w", err)
	}
	return nil
}
