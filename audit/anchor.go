package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
)

// Anchor compares the log at path with copies of its records kept outside
// the agent's reach: the system log's copies (with [audit] syslog = true),
// exported by the person, for journald with
//
//	journalctl SYSLOG_IDENTIFIER=agentgate -o cat > anchor.txt
//
// Each line of anchor that holds a record (the JSON after any syslog
// header) is looked up by seq in the log. A record whose local line
// differs, or that the log no longer has, is a rewrite: someone who could
// write both the log and its head forged a chain that Verify accepts, but
// could not rewrite the system log. A copy cut short in the system log
// (very long records) is compared on the part it kept.
//
// It returns the first problem (nil when every copy matches) and how many
// copies it compared.
func Anchor(path string, anchor io.Reader) (*Problem, int, error) {
	copies := map[int64][]byte{}
	sc := bufio.NewScanner(anchor)
	sc.Buffer(make([]byte, 64*1024), 4*maxSyslogMessage)
	for sc.Scan() {
		raw := sc.Bytes()
		// The record is the message: after the syslog header and
		// structured data, or the whole line from "journalctl -o cat".
		i := bytes.Index(raw, []byte(`{"time":`))
		if i < 0 {
			continue
		}
		line := bytes.TrimSuffix(bytes.TrimRight(raw[i:], "\r\n"), []byte("...(truncated)"))
		var rec struct {
			Seq int64 `json:"seq"`
		}
		if err := json.Unmarshal(line, &rec); err != nil && !bytes.Contains(raw, []byte("...(truncated)")) {
			continue // not a record of ours
		}
		if rec.Seq == 0 {
			if rec.Seq = seqOf(line); rec.Seq == 0 {
				continue
			}
		}
		copies[rec.Seq] = append([]byte(nil), line...)
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("anchor: %w", err)
	}
	compared := 0
	var problem *Problem
	stop := errors.New("stop")
	err := Scan(path, func(l Line) error {
		e, err := Parse(l)
		if err != nil {
			return nil // Verify reports broken lines
		}
		want, ok := copies[e.Seq]
		if !ok {
			return nil
		}
		delete(copies, e.Seq)
		compared++
		if !bytes.HasPrefix(l.Raw, want) {
			problem = &Problem{Pos: l.Pos(), Why: fmt.Sprintf("rewritten: record seq %d differs from its copy in the system log", e.Seq)}
			return stop
		}
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		return nil, compared, err
	}
	if problem == nil && len(copies) > 0 {
		missing := make([]int64, 0, len(copies))
		for s := range copies {
			missing = append(missing, s)
		}
		sort.Slice(missing, func(i, j int) bool { return missing[i] < missing[j] })
		problem = &Problem{Pos: path, Why: fmt.Sprintf("rewritten: record seq %d is in the system log but not in the local log", missing[0])}
	}
	return problem, compared, nil
}

// seqOf finds "seq":N in a record cut short, whose JSON does not parse.
func seqOf(line []byte) int64 {
	i := bytes.Index(line, []byte(`"seq":`))
	if i < 0 {
		return 0
	}
	var n int64
	for _, c := range line[i+6:] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int64(c-'0')
	}
	return n
}
