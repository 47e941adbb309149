package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// DefaultMaxSize is the size at which the log is rotated.
const DefaultMaxSize = 50 << 20

// Log is an audit log file with its rotation and chain.
type Log struct {
	Path string
	// MaxSize rotates the file once it reaches this many bytes; 0 never
	// rotates.
	MaxSize int64
	// Now names rotated files; time.Now when nil.
	Now func() time.Time
	// Syslog, when set, also receives every record. Its failure is
	// reported, never fatal.
	Syslog *Syslog
}

// Head is the last record written, kept beside the log so that verify can
// tell a cut-off tail from a complete log.
type Head struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
	File string `json:"file"`
}

// HeadPath is where the head of the log at path is kept.
func HeadPath(path string) string { return path + ".head" }

// LineHash is the chain hash of one line (without its newline).
func LineHash(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// Append chains rec to the last record, rotates the file when it is full,
// and writes rec as one line, all under the log's lock. It returns the
// syslog error, if any, wrapped in a *SyslogError: the record itself was
// written.
func (l Log) Append(rec Record) error {
	if err := os.MkdirAll(filepath.Dir(l.Path), 0o700); err != nil {
		return fmt.Errorf("create audit log directory: %w", err)
	}
	var line []byte
	err := fsutil.Locked(l.Path+".lock", func() error {
		f, err := os.OpenFile(l.Path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return fmt.Errorf("open audit log: %w", err)
		}
		defer f.Close()
		last, torn, err := lastLine(f)
		if err != nil {
			return fmt.Errorf("read audit log %s: %w", l.Path, err)
		}
		head, _ := ReadHead(HeadPath(l.Path))
		if l.MaxSize > 0 && size(f) >= l.MaxSize {
			if f, err = l.rotate(f); err != nil {
				return err
			}
			defer f.Close()
			torn = false
		}
		rec.Seq, rec.Prev = head.Seq+1, ""
		switch {
		case last != nil:
			rec.Prev = LineHash(last)
			var prev struct {
				Seq int64 `json:"seq"`
			}
			if json.Unmarshal(last, &prev) == nil && prev.Seq > 0 {
				rec.Seq = prev.Seq + 1
			}
		case head.Seq > 0:
			// The file is new or emptied: chain to the head kept beside it.
			rec.Prev = head.Hash
		}
		line, err = Marshal(rec)
		if err != nil {
			return fmt.Errorf("encode audit record: %v", err)
		}
		if len(line)+2 > MaxRecordBytes {
			return fmt.Errorf("audit record of %d bytes is larger than %d", len(line), MaxRecordBytes)
		}
		buf := make([]byte, 0, len(line)+2)
		if torn {
			// A crash cut the last line short: keep it on a line of its own.
			buf = append(buf, '\n')
		}
		buf = append(append(buf, line...), '\n')
		if err := writeSync(f, buf); err != nil {
			return err
		}
		h, _ := json.Marshal(Head{Seq: rec.Seq, Hash: LineHash(line), File: filepath.Base(l.Path)})
		return fsutil.WriteAtomic(HeadPath(l.Path), h)
	})
	if err != nil {
		return err
	}
	if l.Syslog != nil {
		if err := l.Syslog.Send(rec, line); err != nil {
			return &SyslogError{err}
		}
	}
	return nil
}

// SyslogError is a failure to forward a record that was written locally.
type SyslogError struct{ Err error }

func (e *SyslogError) Error() string { return "forward to syslog: " + e.Err.Error() }
func (e *SyslogError) Unwrap() error { return e.Err }

func size(f *os.File) int64 {
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	return st.Size()
}

// rotate renames the full log aside, with a timestamp, and opens a new
// one. The caller holds the lock, so no writer can slip in between.
func (l Log) rotate(f *os.File) (*os.File, error) {
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	f.Close()
	ext := filepath.Ext(l.Path)
	base := strings.TrimSuffix(l.Path, ext)
	// One time for every try: a name taken in this millisecond gets a
	// counter, and the counter must follow the name it follows, which a
	// time read again in the next millisecond would not (Files orders
	// the rotated files by time, then counter).
	stamp := now().UTC().Format("20060102T150405.000Z")
	for i := 0; ; i++ {
		name := fmt.Sprintf("%s-%s%s", base, stamp, ext)
		if i > 0 {
			name = fmt.Sprintf("%s-%s-%d%s", base, stamp, i, ext)
		}
		if _, err := os.Stat(name); err == nil {
			continue
		}
		if err := os.Rename(l.Path, name); err != nil {
			return nil, fmt.Errorf("rotate audit log: %w", err)
		}
		break
	}
	nf, err := os.OpenFile(l.Path, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open new audit log after rotation: %w", err)
	}
	return nf, nil
}

// lastLine returns the last line of f without its newline, and whether f
// ends in a torn line (no final newline).
func lastLine(f *os.File) ([]byte, bool, error) {
	n := size(f)
	if n == 0 {
		return nil, false, nil
	}
	start := max(0, n-MaxRecordBytes-1)
	buf := make([]byte, n-start)
	if _, err := f.ReadAt(buf, start); err != nil {
		return nil, false, err
	}
	torn := buf[len(buf)-1] != '\n'
	buf = bytes.TrimSuffix(buf, []byte("\n"))
	if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
		buf = buf[i+1:]
	} else if start > 0 {
		return nil, torn, errors.New("last line longer than a record can be")
	}
	return buf, torn, nil
}

func writeSync(f *os.File, buf []byte) error {
	n, err := f.Write(buf)
	if err != nil {
		return fmt.Errorf("write audit log %s: %w", f.Name(), err)
	}
	if n != len(buf) {
		return fmt.Errorf("write audit log %s: short write (%d of %d bytes)", f.Name(), n, len(buf))
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync audit log %s: %w", f.Name(), err)
	}
	return nil
}

// ReadHead reads the head kept beside a log.
func ReadHead(path string) (Head, error) {
	var h Head
	data, err := fsutil.ReadRegular(path, 1<<16) // a FIFO planted here must not hang

	if err != nil {
		return h, err
	}
	err = json.Unmarshal(data, &h)
	return h, err
}
