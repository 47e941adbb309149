package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// Follow passes on every record exactly once and in order: those written
// before it started, those written while it reads them, and those
// written after, across rotations (a log that rotates at every append),
// so the hand-over from reading to following loses nothing and no timing
// decides what is seen. The wait for the last record only bounds a
// failure.
func TestFollowLosesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := Log{Path: path, MaxSize: 1}
	write := func(i int) {
		t.Helper()
		if err := l.Append(Record{Event: EventEscalation, ID: fmt.Sprint(i), Command: fmt.Sprintf("cmd %d", i), Outcome: OutcomeDenied}); err != nil {
			t.Fatal(err)
		}
	}
	const before, total = 5, 60
	for i := 1; i <= before; i++ {
		write(i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, total+10)
	caught := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- Follow(ctx, path, FollowOptions{Poll: time.Millisecond, CaughtUp: func() error { close(caught); return nil }}, func(line Line) error {
			var r Record
			if err := json.Unmarshal(line.Raw, &r); err != nil {
				return fmt.Errorf("%s: %v", line.Pos(), err)
			}
			got <- r.ID
			return nil
		})
	}()
	// Half written while Follow reads the first records, half after it
	// has caught up.
	for i := before + 1; i <= total/2; i++ {
		write(i)
	}
	select {
	case <-caught:
	case err := <-done:
		t.Fatalf("Follow ended before it caught up: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Follow never caught up")
	}
	for i := total/2 + 1; i <= total; i++ {
		write(i)
	}
	for i := 1; i <= total; i++ {
		select {
		case id := <-got:
			if id != fmt.Sprint(i) {
				t.Fatalf("record %d: got %s (out of order, lost or twice)", i, id)
			}
		case err := <-done:
			t.Fatalf("Follow ended at record %d: %v", i, err)
		case <-time.After(10 * time.Second):
			t.Fatalf("record %d never came", i)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-got:
		t.Errorf("a record came twice or from nowhere: %s", id)
	default:
	}
	files, _ := Files(path)
	if len(files) < total/2 {
		t.Errorf("the log rotated only into %d files", len(files))
	}
}
