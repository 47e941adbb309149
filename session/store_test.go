package session_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgate/agentgate/session"
)

func store(t *testing.T) session.Store {
	return session.Store{Dir: filepath.Join(t.TempDir(), "sessions"), TTL: 12 * time.Hour, Window: 10 * time.Minute}
}

func TestRememberAndExpire(t *testing.T) {
	s := store(t)
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	if err := s.Remember("conv-1", "make test", "/p", session.Allowed, now); err != nil {
		t.Fatal(err)
	}
	if err := s.Remember("conv-1", "rm -rf build", "/p", session.Denied, now); err != nil {
		t.Fatal(err)
	}
	st, err := s.Load("conv-1")
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]string{"make test": session.Allowed, "rm -rf build": session.Denied} {
		if v, ok := s.Remembered(st, cmd, "/p", now.Add(time.Hour), nil); !ok || v != want {
			t.Errorf("%q: %q %v; want %q", cmd, v, ok, want)
		}
	}
	if _, ok := s.Remembered(st, "make test ", "/p", now, nil); ok {
		t.Error("a different text matched: only the exact command text may")
	}
	if _, ok := s.Remembered(st, "make test", "/elsewhere", now, nil); ok {
		t.Error("an answer given in /p applies in another directory, where the same words reach other files")
	}
	if _, ok := s.Remembered(st, "make test", "/p", now.Add(13*time.Hour), nil); ok {
		t.Error("an answer older than the TTL still applies")
	}
	other, _ := s.Load("conv-2")
	if _, ok := s.Remembered(other, "make test", "/p", now, nil); ok {
		t.Error("another session remembers it")
	}
	st2, _ := s.Load("conv-1")
	info, _ := os.Stat(filepath.Dir(s.Dir + "/x"))
	if info.Mode().Perm() != 0o700 {
		t.Errorf("sessions dir mode %o", info.Mode().Perm())
	}
	if len(st2.Entries) != 2 {
		t.Errorf("entries %v", st2.Entries)
	}
}

func TestCorruptStateRemembersNothing(t *testing.T) {
	s := store(t)
	now := time.Now()
	s.Remember("conv", "make test", "/p", session.Allowed, now)
	entries, _ := os.ReadDir(s.Dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			os.WriteFile(filepath.Join(s.Dir, e.Name()), []byte(`{"session":"conv","entries":[{"command":"make test","verd`), 0o600)
		}
	}
	st, err := s.Load("conv")
	if err == nil || !strings.Contains(err.Error(), "is corrupt") || !strings.Contains(err.Error(), "nothing is remembered") {
		t.Errorf("corrupt state: err %v", err)
	}
	if _, ok := s.Remembered(st, "make test", "/p", now, nil); ok {
		t.Error("a corrupt state allowed")
	}
	// The next write replaces it.
	if err := s.RecordDenial("conv", "x", now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("conv"); err != nil {
		t.Errorf("after a write: %v", err)
	}
}

func TestBreakerWindow(t *testing.T) {
	s := store(t)
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	for i := 0; i < 3; i++ {
		s.RecordDenial("c", "rm -rf /", now.Add(time.Duration(i)*time.Minute))
	}
	st, _ := s.Load("c")
	if n := s.RecentDenials(st, "rm -rf /", now.Add(3*time.Minute)); n != 3 {
		t.Errorf("denials = %d; want 3", n)
	}
	if n := s.RecentDenials(st, "rm -rf /", now.Add(11*time.Minute)); n != 1 {
		t.Errorf("after the window: %d; want 1", n)
	}
}

func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	s := store(t)
	now := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.RecordDenial("c", "cmd", now); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	st, err := s.Load("c")
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Denials) != 40 {
		t.Errorf("%d denials recorded; want 40", len(st.Denials))
	}
}

func TestID(t *testing.T) {
	if session.ID("conv-7") != "conv-7" {
		t.Error("an explicit session name is not used")
	}
	id := session.ID("")
	if id == "" || !strings.HasPrefix(id, "sid-") {
		t.Errorf("terminal session id %q", id)
	}
	if session.ID("") != id {
		t.Error("the terminal session id is not stable within a process")
	}
}

// list, revoke (narrows: only allows are forgotten) and the breaker reset.
func TestListRevokeReset(t *testing.T) {
	s := store(t)
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	s.Remember("a", "make test", "/p", session.Allowed, now)
	s.Remember("a", "rm x", "/p", session.Denied, now)
	for range 3 {
		s.RecordDenial("a", "make deploy", now)
	}
	s.Remember("b", "ls", "/p", session.Allowed, now)
	states, errs := s.List()
	if len(states) != 2 || len(errs) != 0 {
		t.Fatalf("list: %d states, %v", len(states), errs)
	}
	if id, ok := s.Find(s.Short("a")); !ok || id != "a" {
		t.Errorf("find by handle: %q %v", id, ok)
	}
	if _, ok := s.Find("nope"); ok {
		t.Error("found a session that does not exist")
	}
	st, _ := s.Load("a")
	if got := s.Tripped(st, 3, now); got["make deploy"] != 3 || len(got) != 1 {
		t.Errorf("tripped: %v", got)
	}
	if n, err := s.Revoke("a", now); n != 1 || err != nil {
		t.Errorf("revoke: %d %v", n, err)
	}
	st, _ = s.Load("a")
	if _, ok := s.Remembered(st, "make test", "/p", now, nil); ok {
		t.Error("a revoked approval still applies")
	}
	if v, ok := s.Remembered(st, "rm x", "/p", now, nil); !ok || v != session.Denied {
		t.Error("revoking forgot a denial: it must only narrow")
	}
	if s.RecentDenials(st, "make deploy", now) != 3 {
		t.Error("revoking reset the breaker")
	}
	if n, err := s.ResetBreaker("a", now); n != 3 || err != nil {
		t.Errorf("reset: %d %v", n, err)
	}
	st, _ = s.Load("a")
	if s.RecentDenials(st, "make deploy", now) != 0 {
		t.Error("the breaker was not reset")
	}
	// A corrupt file is reported, not skipped silently.
	os.WriteFile(filepath.Join(s.Dir, "0123456789abcdef0123456789abcdef.json"), []byte("{"), 0o600)
	if _, errs := s.List(); len(errs) != 1 || !strings.Contains(errs[0].Error(), "corrupt") {
		t.Errorf("corrupt file: %v", errs)
	}
}
