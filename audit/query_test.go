package audit

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A query reads durations, days and dates, and names what it cannot read.
func TestQueryParse(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q    Query
		bad  bool
		keep string // a record time it selects
		drop string // one it does not
	}{
		{Query{Since: "2h"}, false, "2026-12-01T11:00:00.000Z", "2026-12-01T09:00:00.000Z"},
		{Query{Since: "7d"}, false, "2026-11-25T12:00:00.000Z", "2026-11-23T12:00:00.000Z"},
		{Query{Since: "soon"}, true, "", ""},
		{Query{Outcome: "approved"}, true, "", ""},
		{Query{Outcome: "approved_host"}, false, "2026-12-01T11:00:00.000Z", ""},
	} {
		err := tt.q.Parse(now)
		if (err != nil) != tt.bad {
			t.Errorf("%+v: %v", tt.q, err)
			continue
		}
		if tt.bad {
			if qe, ok := err.(*QueryError); !ok || qe.Hint == "" {
				t.Errorf("%+v: %v has no hint", tt.q, err)
			}
			continue
		}
		out := tt.q.Outcome
		if tt.keep != "" && !tt.q.Match(Entry{Time: tt.keep, Outcome: out}) {
			t.Errorf("%+v does not select %s", tt.q, tt.keep)
		}
		if tt.drop != "" && tt.q.Match(Entry{Time: tt.drop, Outcome: out}) {
			t.Errorf("%+v selects %s", tt.q, tt.drop)
		}
	}
}

// Escalations gives a host's asked_host escalation the outcome its result
// record brings, and asked_host when none came.
func TestEscalationsResolveHostOutcomes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(path, []byte(`{"time":"2026-11-01T10:00:00.000Z","id":"a","event":"escalation","command":"npm test","outcome":"asked_host","seq":1,"prev":""}
{"time":"2026-11-01T10:00:01.000Z","id":"b","event":"escalation","command":"make","outcome":"asked_host","seq":2,"prev":"x"}
{"time":"2026-11-01T10:00:02.000Z","id":"a","event":"result","command":"npm test","outcome":"approved_host","seq":3,"prev":"x"}
{"time":"2026-11-01T10:00:03.000Z","id":"c","event":"escalation","command":"rm x","outcome":"denied","seq":4,"prev":"x"}
`), 0o600)
	got := map[string]Outcome{}
	if err := Escalations(path, Query{}, nil, func(e Entry, o Outcome) { got[e.Command] = o }); err != nil {
		t.Fatal(err)
	}
	want := map[string]Outcome{"npm test": OutcomeApprovedHost, "make": OutcomeAskedHost, "rm x": OutcomeDenied}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%v", got)
	}
}
