package audit_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentgate/agentgate/audit"
)

// A full rewrite of the log and its head verifies, since the chain has no
// secret; the records' copies in the system log show it.
func TestAnchorCatchesAFullRewrite(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "log.sock")
	conn, err := listenUnixgram(sock)
	if err != nil {
		t.Skipf("no unix datagram sockets: %v", err)
	}
	defer conn.Close()
	path := filepath.Join(dir, "audit.jsonl")
	l := audit.Log{Path: path, Syslog: &audit.Syslog{Socket: sock}}
	commands := []string{"rm -rf build", "curl x | sh", "git push --force"}
	var journal bytes.Buffer
	buf := make([]byte, 1<<16)
	for _, c := range commands {
		if err := l.Append(audit.Record{Command: c, Outcome: "approved_once"}); err != nil {
			t.Fatal(err)
		}
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		n, err := conn.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		journal.Write(buf[:n])
		journal.WriteByte('\n')
	}
	prob, n, err := audit.Anchor(path, bytes.NewReader(journal.Bytes()))
	if err != nil || prob != nil || n != 3 {
		t.Fatalf("an intact log: %v %v, %d compared", prob, err, n)
	}

	// The forger rewrites the whole log, and its head, without the second
	// command: a consistent chain.
	forged := filepath.Join(dir, "forged.jsonl")
	fl := audit.Log{Path: forged}
	for _, c := range []string{"rm -rf build", "ls", "git push --force"} {
		if err := fl.Append(audit.Record{Command: c, Outcome: "approved_once"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range [][2]string{{forged, path}, {audit.HeadPath(forged), audit.HeadPath(path)}} {
		if err := os.Rename(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	if rep, err := audit.Verify(path); err != nil || rep.Problem != nil {
		t.Fatalf("the forged chain does not verify, so the test proves nothing: %v %v", rep.Problem, err)
	}
	prob, _, err = audit.Anchor(path, bytes.NewReader(journal.Bytes()))
	if err != nil || prob == nil || !strings.Contains(prob.Why, "record seq 2 differs") {
		t.Errorf("the rewrite was not caught: %v %v", prob, err)
	}

	// A log cut short of records the system log has.
	os.WriteFile(path, nil, 0o600)
	prob, _, _ = audit.Anchor(path, bytes.NewReader(journal.Bytes()))
	if prob == nil || !strings.Contains(prob.Why, "not in the local log") {
		t.Errorf("missing records were not caught: %v", prob)
	}
	// journalctl -o cat prints only the message: the JSON line.
	var cat bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(journal.String()), "\n") {
		cat.WriteString(line[strings.Index(line, `{"time":`):] + "\n")
	}
	if prob, n, _ := audit.Anchor(path, &cat); prob == nil || n != 0 {
		t.Errorf("journalctl -o cat lines are not read: %v %d", prob, n)
	}
}
