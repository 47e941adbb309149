package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// Files returns the files of the log at path, oldest first: its rotated
// siblings (NAME-TIMESTAMP.EXT, by name), then the log itself if it exists.
func Files(path string) ([]string, error) {
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	rotated, err := filepath.Glob(globEscape(base) + "-*" + ext)
	if err != nil {
		return nil, err
	}
	// By time, then by the counter a rotation in the same millisecond
	// adds ("-TIME-2" after "-TIME-1" after "-TIME"): by name, "-1" would
	// come before the file it follows.
	key := func(name string) (string, int) {
		stamp := strings.TrimSuffix(strings.TrimPrefix(name, base+"-"), ext)
		if i := strings.LastIndexByte(stamp, '-'); i > 0 {
			if n, err := strconv.Atoi(stamp[i+1:]); err == nil {
				return stamp[:i], n
			}
		}
		return stamp, 0
	}
	sort.SliceStable(rotated, func(i, j int) bool {
		si, ni := key(rotated[i])
		sj, nj := key(rotated[j])
		if si != sj {
			return si < sj
		}
		return ni < nj
	})
	if _, err := os.Stat(path); err == nil {
		rotated = append(rotated, path)
	}
	return rotated, nil
}

func globEscape(s string) string {
	return strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`).Replace(s)
}

// Line is one line of a log file.
type Line struct {
	File string
	N    int
	Raw  []byte
	// Torn is set for a last line with no newline: a write cut short.
	Torn bool
}

// Pos is "file:line".
func (l Line) Pos() string { return fmt.Sprintf("%s:%d", l.File, l.N) }

// Scan streams every line of every file of the log, oldest first.
func Scan(path string, fn func(Line) error) error {
	files, err := Files(path)
	if err != nil {
		return err
	}
	for _, name := range files {
		if err := scanFile(name, fn); err != nil {
			return err
		}
	}
	return nil
}

func scanFile(name string, fn func(Line) error) error {
	f, err := fsutil.OpenRegular(name) // a FIFO planted as the log must not hang a reader
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	for n := 1; ; n++ {
		raw, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it whole.
			long := append([]byte(nil), raw...)
			for errors.Is(err, bufio.ErrBufferFull) {
				raw, err = r.ReadSlice('\n')
				long = append(long, raw...)
			}
			raw = long
		}
		if len(raw) == 0 && err == io.EOF {
			return nil
		}
		if err != nil && err != io.EOF {
			return err
		}
		torn := err == io.EOF
		if ferr := fn(Line{File: name, N: n, Raw: bytes.TrimSuffix(raw, []byte("\n")), Torn: torn}); ferr != nil {
			return ferr
		}
		if torn {
			return nil
		}
	}
}

// Entry is the part of a record that log, stats and suggest read.
type Entry struct {
	Time     string   `json:"time"`
	ID       string   `json:"id"`
	Event    string   `json:"event"`
	Command  string   `json:"command"`
	Argv     []string `json:"argv"`
	Cwd      string   `json:"cwd"`
	Decision string   `json:"decision"`
	Outcome  string   `json:"outcome"`
	Session  string   `json:"session"`
	Seq      int64    `json:"seq"`
	Prev     string   `json:"prev"`
	ExitCode *int     `json:"exit_code"`
}

// BadLine says why a line is not a record agentgate can read.
type BadLine struct {
	Line
	Why string
}

func (b BadLine) Error() string { return b.Pos() + ": " + b.Why }

// Parse reads a line as a record of this version. A torn line, a line
// that is not a JSON object, and a record of an older version (no seq)
// are BadLines.
func Parse(l Line) (Entry, error) {
	var e Entry
	if l.Torn {
		return e, BadLine{l, "torn line (the write was cut short)"}
	}
	if err := decodeEntry(l.Raw, &e); err != nil {
		// Say what is wrong the way encoding/json would.
		var v any
		if jerr := json.Unmarshal(l.Raw, &v); jerr != nil {
			err = jerr
		}
		return Entry{}, BadLine{l, "not a JSON record: " + err.Error()}
	}
	if e.Seq <= 0 {
		return e, BadLine{l, "a record of an older version (no seq)"}
	}
	return e, nil
}

// Problem is the first break in the chain.
type Problem struct {
	Pos string
	Why string
}

// VerifyReport is what Verify found.
type VerifyReport struct {
	Files   []string
	Records int
	// Problem is nil when the chain is intact.
	Problem *Problem
}

// Verify checks the hash chain of the whole log: every line a record, seq
// rising by one, each prev the hash of the line before, the first record
// starting the chain, and the last one the head kept beside the log. It
// reports the first break: an edited, deleted, inserted or reordered line,
// or a cut-off tail.
func Verify(path string) (VerifyReport, error) {
	var rep VerifyReport
	files, err := Files(path)
	if err != nil {
		return rep, err
	}
	rep.Files = files
	var prevLine []byte
	var prevSeq int64
	var prevPos string
	stop := errors.New("stop")
	fail := func(pos, why string) error {
		rep.Problem = &Problem{Pos: pos, Why: why}
		return stop
	}
	err = Scan(path, func(l Line) error {
		e, err := Parse(l)
		if err != nil {
			return fail(l.Pos(), err.(BadLine).Why)
		}
		rep.Records++
		switch {
		case prevLine == nil && e.Seq != 1:
			return fail(l.Pos(), fmt.Sprintf("the chain starts at seq %d, not 1: earlier records or files were deleted", e.Seq))
		case prevLine == nil && e.Prev != "":
			return fail(l.Pos(), "the first record chains to a record that is not in the log")
		case prevLine == nil:
		case e.Seq == prevSeq+1 && e.Prev != LineHash(prevLine):
			return fail(prevPos, fmt.Sprintf("edited: its hash does not match the prev of the next record (%s)", l.Pos()))
		case e.Seq > prevSeq+1:
			return fail(l.Pos(), fmt.Sprintf("deleted: records %d to %d are missing before it", prevSeq+1, e.Seq-1))
		case e.Seq <= prevSeq:
			return fail(l.Pos(), fmt.Sprintf("reordered or inserted: seq %d comes after seq %d", e.Seq, prevSeq))
		}
		prevLine, prevSeq, prevPos = append(prevLine[:0], l.Raw...), e.Seq, l.Pos()
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		return rep, err
	}
	if rep.Problem != nil {
		return rep, nil
	}
	head, herr := ReadHead(HeadPath(path))
	switch {
	case herr != nil && errors.Is(herr, os.ErrNotExist) && rep.Records == 0:
	case herr != nil:
		rep.Problem = &Problem{Pos: HeadPath(path), Why: "the head of the log is missing or unreadable: " + herr.Error()}
	case head.Seq > prevSeq:
		rep.Problem = &Problem{Pos: fmt.Sprintf("%s:end", lastOf(files)), Why: fmt.Sprintf("cut off: the log ends at seq %d but %d records were written", prevSeq, head.Seq)}
	case head.Seq < prevSeq:
		rep.Problem = &Problem{Pos: prevPos, Why: fmt.Sprintf("inserted: the log goes on to seq %d past the last record written (%d)", prevSeq, head.Seq)}
	case head.Hash != LineHash(prevLine):
		rep.Problem = &Problem{Pos: prevPos, Why: "edited: the last record does not match the head kept beside the log"}
	}
	return rep, nil
}

func lastOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}
