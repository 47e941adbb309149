package audit

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// FollowOptions tune [Follow].
type FollowOptions struct {
	// Poll is how often the log is looked at for new lines (250 ms when
	// zero).
	Poll time.Duration
	// CaughtUp, when set, is called once every line written before Follow
	// started has been passed on: "audit log -n N --follow" prints its last
	// N there.
	CaughtUp func() error
}

// Follow passes fn every line of the log at path, oldest first, and then
// every line appended to it, until ctx ends or fn fails. Nothing is lost
// between the two, nor across a rotation: the head file is held open from
// the start, read to its end, and when the log's path names another file
// (rotated) the held one is read to its end before the new one is begun.
// A line still being written is passed on once it is whole.
func Follow(ctx context.Context, path string, o FollowOptions, fn func(Line) error) error {
	poll := o.Poll
	if poll <= 0 {
		poll = 250 * time.Millisecond
	}
	head, err := openHead(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// The rotated files older than the one held open: if that one was
	// rotated since it was opened, it and the files after it are read
	// when the loop below finds it moved.
	files, err := Files(path)
	if err != nil {
		return err
	}
	t := &tail{path: path, f: head, fn: fn}
	for _, name := range files {
		if name == path {
			break
		}
		if head != nil {
			if st, err := os.Stat(name); err == nil && sameFile(head, st) {
				break
			}
		}
		if err := scanFile(name, fn); err != nil {
			return err
		}
		t.after = name
	}
	defer t.close()
	if err := t.drain(); err != nil {
		return err
	}
	if o.CaughtUp != nil {
		if err := o.CaughtUp(); err != nil {
			return err
		}
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if err := t.drain(); err != nil {
			return err
		}
		st, err := os.Stat(path)
		if err != nil {
			continue // between a rotation's rename and the new file
		}
		if t.f != nil && sameFile(t.f, st) {
			if st.Size() < t.off {
				t.off, t.n, t.part = 0, 0, nil // truncated: read it again
			}
			continue
		}
		// Rotated (or created): what the held file got last is read, then
		// the files rotated after it (a log that rotates often may have
		// moved on by more than one), then the new head from its start.
		if err := t.drain(); err != nil {
			return err
		}
		next, err := openHead(path)
		if err != nil {
			continue
		}
		if err := t.between(next); err != nil {
			next.Close()
			return err
		}
		t.close()
		t.f, t.off, t.n, t.part, t.after = next, 0, 0, nil, ""
		if err := t.drain(); err != nil {
			return err
		}
	}
}

// between reads the rotated files that came after the held one and
// before next, the head just opened: by name, which orders them, from
// the one that is the held file (or, when it is gone, none) to the one
// that is next (if it was rotated too since it was opened), or the end.
func (t *tail) between(next *os.File) error {
	files, err := Files(t.path)
	if err != nil {
		return err
	}
	from, to := -1, len(files)
	for i, name := range files {
		if name == t.path {
			to = min(to, i)
			continue
		}
		st, err := os.Stat(name)
		if err != nil {
			continue
		}
		switch {
		case t.f != nil && sameFile(t.f, st), t.f == nil && name == t.after:
			from = i
		case sameFile(next, st):
			to = min(to, i)
		}
	}
	if from < 0 && (t.f != nil || t.after != "") {
		return nil // the file read last is gone: what followed it is not known
	}
	for _, name := range files[from+1 : max(from+1, to)] {
		if err := scanFile(name, t.fn); err != nil {
			return err
		}
	}
	return nil
}

// openHead opens the log's head file, trying again while a rotation
// replaces it between the look and the open (a regular file at the path
// that is another by the time it is opened); a FIFO or device is refused.
func openHead(path string) (*os.File, error) {
	for range 100 {
		f, err := fsutil.OpenRegular(path)
		if err == nil || !errors.Is(err, fsutil.ErrNotRegular) {
			return f, err
		}
		if st, serr := os.Lstat(path); serr != nil || !st.Mode().IsRegular() {
			return nil, err
		}
	}
	return fsutil.OpenRegular(path)
}

// tail reads one file on from where it stopped.
type tail struct {
	path string
	f    *os.File
	off  int64
	n    int    // lines passed on from this file
	part []byte // a line not yet ended
	// after is the last rotated file read while no file was held (the
	// log's path was between a rotation's rename and its new file).
	after string
	fn    func(Line) error
}

func (t *tail) drain() error {
	if t.f == nil {
		return nil
	}
	buf := make([]byte, 64<<10)
	for {
		k, err := t.f.ReadAt(buf, t.off)
		if k > 0 {
			t.off += int64(k)
			data := append(t.part, buf[:k]...)
			for {
				i := bytes.IndexByte(data, '\n')
				if i < 0 {
					break
				}
				t.n++
				if ferr := t.fn(Line{File: t.path, N: t.n, Raw: append([]byte(nil), data[:i]...)}); ferr != nil {
					return ferr
				}
				data = data[i+1:]
			}
			t.part = append([]byte(nil), data...)
		}
		if errors.Is(err, io.EOF) || k == 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (t *tail) close() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
}

func sameFile(f *os.File, st os.FileInfo) bool {
	fst, err := f.Stat()
	return err == nil && os.SameFile(fst, st)
}
