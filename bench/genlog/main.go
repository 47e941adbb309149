// Command genlog writes a synthetic audit log of N chained records, for
// measuring "agentgate audit" on large logs (bench/auditlog.sh).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/inspect"
)

func main() {
	n := flag.Int("n", 1000000, "records")
	out := flag.String("o", "audit.jsonl", "output file")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	commands := []string{"make test", "npm run build", "go test ./...", "rm -rf build", "git push", "cargo build --release",
		"docker compose up -d", "git status && git diff", "pytest -q tests/", "curl -s https://example.com"}
	outcomes := []string{"approved_once", "approved_session", "allowed_by_session", "denied", "denied_noninteractive", "timeout"}
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	prev := ""
	var line []byte
	for i := 1; i <= *n; i++ {
		cmd := commands[rng.IntN(len(commands))]
		if rng.IntN(4) == 0 {
			cmd = fmt.Sprintf("%s --run %d", cmd, rng.IntN(50000))
		}
		rec := audit.Record{
			Time: start.Add(time.Duration(i) * time.Second).Format(audit.TimeFormat), ID: fmt.Sprintf("%016x", i),
			Event: audit.EventEscalation, Command: cmd, Cwd: "/home/dev/project", Decision: gate.Ask,
			Outcome: outcomes[rng.IntN(len(outcomes))], Session: fmt.Sprintf("conv-%d", rng.IntN(500)),
			Reasons: []gate.Reason{{Check: gate.CheckDefault, Match: "make", Message: "\"make test\" is not on the allowlist"}},
			Risks:   []gate.Risk{{Program: "make", Note: "runs the build's commands"}},
			PID:     1000 + i%30000, PPID: 999, User: "dev", Host: "box", Version: "bench",
			Shell: inspect.Parse(cmd), Seq: int64(i), Prev: prev,
		}
		line, _ = json.Marshal(rec)
		prev = audit.LineHash(line)
		w.Write(line)
		w.WriteByte('\n')
	}
	w.Flush()
	f.Close()
	h, _ := json.Marshal(audit.Head{Seq: int64(*n), Hash: prev, File: "audit.jsonl"})
	os.WriteFile(audit.HeadPath(*out), h, 0o600)
}
