package audit

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/agentgate/agentgate/gate"
)

// Query selects records: those since a time, of a session, with an
// outcome, whose command holds a text. The zero Query selects every one.
type Query struct {
	// Since is a duration ago ("2h", "7d") or a date or time
	// ("2026-11-01", "2026-11-01T10:00", RFC 3339).
	Since   string
	Session string
	Outcome string
	Grep    string
	since   time.Time
}

// QueryError is a Query that cannot be read, with what to write instead.
type QueryError struct{ Msg, Hint string }

func (e *QueryError) Error() string { return e.Msg }

// Parse checks q, reading Since against now.
func (q *Query) Parse(now time.Time) error {
	if q.Outcome != "" && !Outcome(q.Outcome).Known() {
		var names []string
		for _, o := range Outcomes {
			names = append(names, string(o))
		}
		return &QueryError{Msg: fmt.Sprintf("--outcome %q is not an outcome", q.Outcome), Hint: "use one of " + strings.Join(names, ", ")}
	}
	if q.Since == "" {
		return nil
	}
	if d, ok := strings.CutSuffix(q.Since, "d"); ok {
		if v, err := time.ParseDuration(d + "h"); err == nil {
			q.since = now.Add(-24 * v)
			return nil
		}
	}
	if d, err := time.ParseDuration(q.Since); err == nil {
		q.since = now.Add(-d)
		return nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, q.Since, time.Local); err == nil {
			q.since = t
			return nil
		}
	}
	return &QueryError{Msg: fmt.Sprintf("--since %q is neither a duration nor a date", q.Since), Hint: `write a duration ("2h", "7d") or a date ("2026-11-01")`}
}

// Match reports whether q selects e.
func (q *Query) Match(e Entry) bool {
	if !q.since.IsZero() {
		t, err := time.Parse(TimeFormat, e.Time)
		if err != nil || t.Before(q.since) {
			return false
		}
	}
	return (q.Session == "" || e.Session == q.Session) &&
		(q.Outcome == "" || e.Outcome == q.Outcome) &&
		(q.Grep == "" || strings.Contains(e.Command, q.Grep))
}

// Escalations calls fn for every escalation q selects, with its outcome
// as it finally stood: a hook's asked_host escalation ends in a result
// record under the same id (approved_host, denied_host), and stays
// asked_host when none came. Those wait for their result, so fn is not
// called in the log's order. warn is told of lines that cannot be read.
func Escalations(path string, q Query, warn func(error), fn func(e Entry, outcome Outcome)) error {
	asked := map[string]Entry{}
	err := Scan(path, func(l Line) error {
		e, err := Parse(l)
		if err != nil {
			if warn != nil {
				warn(err)
			}
			return nil
		}
		if e.Event == EventResult {
			if ae, ok := asked[e.ID]; ok && Outcome(e.Outcome) != OutcomeAskedHost {
				delete(asked, e.ID)
				fn(ae, Outcome(e.Outcome))
			}
			return nil
		}
		if e.Event != EventEscalation || !q.Match(e) {
			return nil
		}
		if Outcome(e.Outcome).Pending() && len(asked) < 100000 {
			asked[e.ID] = e
			return nil
		}
		fn(e, Outcome(e.Outcome))
		return nil
	})
	ids := make([]string, 0, len(asked))
	for id := range asked {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fn(asked[id], OutcomeAskedHost) // no result came: still asked
	}
	return err
}

// Prefix is the prefix a command is counted under: the narrowest rule
// prefix gate.SuggestPrefix proposes, else its first word. It reads at most
// the first three words, which is enough on a million records.
func Prefix(command string) string {
	words := strings.Fields(command)
	if len(words) == 0 {
		return ""
	}
	if p := suggestPrefix(command); p != "" {
		return p
	}
	return strings.Trim(words[0], `'"`)
}

func suggestPrefix(command string) string {
	words := strings.Fields(command)
	words = words[:min(3, len(words))]
	for i, w := range words {
		words[i] = strings.Trim(w, `'"`)
	}
	return gate.SuggestPrefix(words)
}
