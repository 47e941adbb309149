package audit_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/agentgate/agentgate/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/gate"
)

// When the test binary is started with AUDIT_HELPER_LOG set, it is one of
// many concurrent writers, not a test run.
func TestMain(m *testing.M) {
	if path := os.Getenv("AUDIT_HELPER_LOG"); path != "" {
		writer, _ := strconv.Atoi(os.Getenv("AUDIT_HELPER_ID"))
		n, _ := strconv.Atoi(os.Getenv("AUDIT_HELPER_N"))
		maxSize, _ := strconv.ParseInt(os.Getenv("AUDIT_HELPER_MAXSIZE"), 10, 64)
		l := audit.Log{Path: path, MaxSize: maxSize}
		for i := 0; i < n; i++ {
			rec := record(writer, i)
			if err := l.Append(rec); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	testenv.NoRaceExitSleep()
	os.Exit(m.Run())
}

// record makes a record large enough (about 8 KiB) that a torn or
// interleaved write would show.
func record(writer, i int) audit.Record {
	return audit.Record{
		Time: "2026-11-29T00:00:00.000Z", ID: fmt.Sprintf("%d-%d", writer, i), Event: audit.EventEscalation,
		Command:  fmt.Sprintf("writer %d record %d %s", writer, i, strings.Repeat("x", 8000)),
		Decision: gate.Ask, Outcome: audit.OutcomeDeniedNonInteractive,
		Reasons: []gate.Reason{{Check: gate.CheckDefault, Message: "not on the allowlist"}},
	}
}

func TestConcurrentProcessesLoseNothing(t *testing.T) {
	const writers, each = 60, 20
	path := filepath.Join(t.TempDir(), "state", "audit.jsonl")
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := exec.Command(os.Args[0])
			c.Env = append(os.Environ(), "AUDIT_HELPER_LOG="+path, "AUDIT_HELPER_ID="+strconv.Itoa(w), "AUDIT_HELPER_N="+strconv.Itoa(each))
			if out, err := c.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("writer %d: %v: %s", w, err, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, audit.MaxRecordBytes)
	for n := 1; sc.Scan(); n++ {
		var rec audit.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("line %d is not a whole record: %v", n, err)
		}
		if seen[rec.ID] {
			t.Fatalf("line %d: record %s written twice", n, rec.ID)
		}
		seen[rec.ID] = true
	}
	if len(seen) != writers*each {
		t.Fatalf("%d records; want %d", len(seen), writers*each)
	}
	for w := 0; w < writers; w++ {
		for i := 0; i < each; i++ {
			if !seen[fmt.Sprintf("%d-%d", w, i)] {
				t.Errorf("record %d-%d is missing", w, i)
			}
		}
	}
}

func TestPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "state")
	path := filepath.Join(dir, "audit.jsonl")
	if err := audit.Append(path, record(0, 0)); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != want {
			t.Errorf("%s has mode %o; want %o", p, got, want)
		}
	}
}

func TestRefusesOversizeAndUnwritable(t *testing.T) {
	dir := t.TempDir()
	if err := audit.Append(filepath.Join(dir, "a.jsonl"), audit.Record{Command: strings.Repeat("x", audit.MaxRecordBytes)}); err == nil {
		t.Error("an oversize record was written")
	}
	if err := audit.Append(dir, record(0, 0)); err == nil {
		t.Error("appending to a directory succeeded")
	}
}

func TestMarshalKeepsOperatorsReadable(t *testing.T) {
	b, err := audit.Marshal(audit.Record{Command: "a && b > c"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"command":"a && b > c"`) || strings.HasSuffix(string(b), "\n") {
		t.Errorf("Marshal = %s", b)
	}
}
