package audit_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/gate"
)

func writeLog(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	for i := 0; i < n; i++ {
		rec := audit.Record{Time: "2026-11-29T00:00:00.000Z", ID: fmt.Sprint(i), Event: audit.EventEscalation,
			Command: fmt.Sprintf("cmd %d", i), Decision: gate.Ask, Outcome: audit.OutcomeDenied}
		if err := audit.Append(path, rec); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func lines(t *testing.T, path string) [][]byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(data, []byte("\n"))[:bytes.Count(data, []byte("\n"))]
}

func rewrite(t *testing.T, path string, ls [][]byte) {
	if err := os.WriteFile(path, bytes.Join(ls, nil), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyIntact(t *testing.T) {
	path := writeLog(t, 10)
	rep, err := audit.Verify(path)
	if err != nil || rep.Problem != nil || rep.Records != 10 {
		t.Fatalf("intact log: %+v %v", rep, err)
	}
	for i, l := range lines(t, path) {
		if !strings.Contains(string(l), fmt.Sprintf(`"seq":%d,`, i+1)) {
			t.Errorf("line %d lacks seq %d: %s", i+1, i+1, l)
		}
	}
}

// Each kind of tampering is found, at the right line, with the right word.
func TestVerifyTampering(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(ls [][]byte) [][]byte
		pos    string // line of the problem, as ":N" or ":end"
		why    string
	}{
		{"edited", func(ls [][]byte) [][]byte {
			ls[3] = bytes.Replace(ls[3], []byte("cmd 3"), []byte("cmd X"), 1)
			return ls
		}, ":4", "edited"},
		{"deleted", func(ls [][]byte) [][]byte { return append(ls[:4:4], ls[5:]...) }, ":5", "deleted: records 5 to 5 are missing"},
		{"inserted", func(ls [][]byte) [][]byte {
			out := append([][]byte{}, ls[:6]...)
			out = append(out, ls[2])
			return append(out, ls[6:]...)
		}, ":7", "reordered or inserted"},
		{"reordered", func(ls [][]byte) [][]byte {
			ls[4], ls[5] = ls[5], ls[4]
			return ls
		}, ":5", "deleted"},
		{"first deleted", func(ls [][]byte) [][]byte { return ls[1:] }, ":1", "the chain starts at seq 2"},
		{"tail cut", func(ls [][]byte) [][]byte { return ls[:8] }, ":end", "cut off: the log ends at seq 8 but 10 records were written"},
		{"torn", func(ls [][]byte) [][]byte {
			ls[9] = ls[9][:20]
			return ls
		}, ":10", "torn line"},
		{"last edited", func(ls [][]byte) [][]byte {
			ls[9] = bytes.Replace(ls[9], []byte("cmd 9"), []byte("cmd Z"), 1)
			return ls
		}, ":10", "edited: the last record does not match the head"},
		{"not json", func(ls [][]byte) [][]byte {
			ls[2] = []byte("garbage\n")
			return ls
		}, ":3", "not a JSON record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, 10)
			rewrite(t, path, tt.tamper(lines(t, path)))
			rep, err := audit.Verify(path)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Problem == nil {
				t.Fatalf("tampering (%s) not found", tt.name)
			}
			if !strings.HasSuffix(rep.Problem.Pos, tt.pos) || !strings.Contains(rep.Problem.Why, tt.why) {
				t.Errorf("problem at %s: %s; want %s ... %s", rep.Problem.Pos, rep.Problem.Why, tt.pos, tt.why)
			}
		})
	}
}

// A torn last line (a crash mid-write) does not stop later appends: the
// next record starts on its own line and the chain goes on.
func TestAppendAfterTornLine(t *testing.T) {
	path := writeLog(t, 3)
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"time":"2026`)
	f.Close()
	if err := audit.Append(path, audit.Record{Command: "after"}); err != nil {
		t.Fatal(err)
	}
	ls := lines(t, path)
	if len(ls) != 5 || !strings.Contains(string(ls[4]), `"command":"after"`) {
		t.Fatalf("lines after a torn one: %q", ls)
	}
	n := 0
	audit.Scan(path, func(l audit.Line) error {
		if _, err := audit.Parse(l); err == nil {
			n++
		}
		return nil
	})
	if n != 4 {
		t.Errorf("%d records parse; want 4", n)
	}
}

// Rotation renames the full log aside and the chain continues into the
// new file; 50+ concurrent writers across rotations lose nothing.
func TestRotationUnderConcurrentWriters(t *testing.T) {
	const writers, each = 55, 12
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := exec.Command(os.Args[0])
			c.Env = append(os.Environ(), "AUDIT_HELPER_LOG="+path, "AUDIT_HELPER_ID="+strconv.Itoa(w),
				"AUDIT_HELPER_N="+strconv.Itoa(each), "AUDIT_HELPER_MAXSIZE=200000")
			if out, err := c.CombinedOutput(); err != nil {
				t.Errorf("writer %d: %v %s", w, err, out)
			}
		}()
	}
	wg.Wait()
	files, err := audit.Files(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("%d files; the log should have rotated several times", len(files))
	}
	rep, err := audit.Verify(path)
	if err != nil || rep.Problem != nil {
		t.Fatalf("verify after rotation: %+v %v", rep.Problem, err)
	}
	if rep.Records != writers*each {
		t.Errorf("%d records; want %d", rep.Records, writers*each)
	}
	seen := map[string]bool{}
	audit.Scan(path, func(l audit.Line) error {
		e, err := audit.Parse(l)
		if err != nil {
			t.Errorf("%v", err)
		}
		seen[e.ID] = true
		return nil
	})
	if len(seen) != writers*each {
		t.Errorf("%d distinct records; want %d", len(seen), writers*each)
	}
}

func TestSyslogFormat(t *testing.T) {
	rec := audit.Record{Time: "2026-11-29T10:00:00.000Z", Event: "escalation", Outcome: "denied", Decision: gate.Ask,
		Session: `s"1]`, Seq: 7, ID: "abc", User: "u"}
	msg := string(audit.Format5424(rec, []byte(`{"seq":7}`)))
	if !strings.HasPrefix(msg, "<85>1 2026-11-29T10:00:00.000Z ") || !strings.Contains(msg, ` agentgate `) ||
		!strings.Contains(msg, `[agentgate@32473 outcome="denied" decision="ask" session="s\"1\]" seq="7" id="abc" user="u"] {"seq":7}`) {
		t.Errorf("RFC 5424 message: %s", msg)
	}
}

// Records reach a syslog socket; a dead socket is reported, and the
// record is still written locally.
func TestSyslogDelivery(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "log.sock")
	conn, err := listenUnixgram(sock)
	if err != nil {
		t.Skipf("no unix datagram sockets: %v", err)
	}
	defer conn.Close()
	path := filepath.Join(dir, "audit.jsonl")
	l := audit.Log{Path: path, Syslog: &audit.Syslog{Socket: sock}}
	if err := l.Append(audit.Record{Command: "rm x", Outcome: "denied"}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 65536)
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, err := conn.Read(buf)
	if err != nil || !strings.Contains(string(buf[:n]), `outcome="denied"`) || !strings.Contains(string(buf[:n]), `"command":"rm x"`) {
		t.Errorf("syslog got %q, %v", buf[:n], err)
	}
	dead := audit.Log{Path: path, Syslog: &audit.Syslog{Socket: filepath.Join(dir, "nothing.sock")}}
	err = dead.Append(audit.Record{Command: "ls"})
	var se *audit.SyslogError
	if err == nil || !asSyslogError(err, &se) {
		t.Errorf("dead socket: %v", err)
	}
	if rep, _ := audit.Verify(path); rep.Records != 2 {
		t.Errorf("%d records written locally; want 2", rep.Records)
	}
}
