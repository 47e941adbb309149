package audit_test

import (
	"testing"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/inspect"
)

func BenchmarkParseRecord(b *testing.B) {
	rec := audit.Record{Time: "2026-11-29T00:00:00.000Z", ID: "0123456789abcdef", Event: "escalation", Command: "npm run build --run 12345",
		Cwd: "/home/dev/project", Decision: gate.Ask, Outcome: "approved_once", Session: "conv-17",
		Reasons: []gate.Reason{{Check: gate.CheckDefault, Match: "npm", Message: `"npm run" is not on the allowlist`}},
		Risks:   []gate.Risk{{Program: "npm", Note: "can run package scripts"}}, PID: 1, PPID: 2, User: "dev", Host: "box",
		Shell: inspect.Parse("npm run build --run 12345"), Seq: 42, Prev: "ab"}
	line, _ := audit.Marshal(rec)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := audit.Parse(audit.Line{Raw: line}); err != nil {
			b.Fatal(err)
		}
	}
}
