package cmd

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/user"
	"runtime/debug"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/inspect"
)

// Version is agentgate's version: set with -ldflags "-X
// github.com/agentgate/agentgate/cmd.Version=v1.2.3", else taken from the
// module build information.
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// newRecord fills the parts of an escalation record that do not depend on
// its outcome.
func (e *Env) newRecord(req gate.Request, d gate.Decision, sessionID string) audit.Record {
	cwd, _ := e.Getwd()
	host, _ := os.Hostname()
	name := ""
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	return audit.Record{
		Time:     e.Now().UTC().Format(audit.TimeFormat),
		ID:       newID(),
		Event:    audit.EventEscalation,
		Command:  req.Text,
		Argv:     req.Argv,
		Cwd:      cwd,
		Decision: d.Verdict(),
		Reasons:  d.Reasons(),
		Risks:    nonNilRisks(d.Risks()),
		Session:  sessionID,
		PID:      os.Getpid(),
		PPID:     os.Getppid(),
		User:     name,
		Host:     host,
		Version:  version(),
		Shell:    inspect.Parse(req.Text),
	}
}

func nonNilRisks(r []gate.Risk) []gate.Risk {
	if r == nil {
		return []gate.Risk{}
	}
	return r
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
