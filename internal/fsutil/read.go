package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is returned by [ReadRegular] for a FIFO, socket, device
// or directory: reading one could block forever or never end.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is returned by [ReadRegular] for a file over its limit.
type TooLargeError struct {
	Path string
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes", e.Path, e.Max)
}

// Limits of the files agentgate reads: configuration, policy and
// learned rules; trust store and session state.
const (
	MaxConfigSize = 1 << 20
	MaxStateSize  = 4 << 20
)

// OpenRegular opens path for reading when it is a regular file, without
// ever blocking on a special file (see [ReadRegular]); for files read as
// a stream, with no size limit.
func OpenRegular(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	fi2, err := f.Stat()
	if err != nil || !fi2.Mode().IsRegular() || !os.SameFile(fi, fi2) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (changed while opening)", ErrNotRegular)}
	}
	return f, nil
}

// ReadRegular reads path, which must be a regular file of at most max
// bytes, without ever blocking on a special file: the file is stat'ed
// before it is opened, opened non-blocking (a FIFO with no writer would
// otherwise block the open), checked again on the open descriptor (the
// path may have been swapped in between), and read through a limit (it
// may grow). A missing file gives an error matching [fs.ErrNotExist].
func ReadRegular(path string, max int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))}
	}
	if fi.Size() > max {
		return nil, &TooLargeError{path, max}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi2, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi2.Mode().IsRegular() || !os.SameFile(fi, fi2) {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s, or changed while opening)", ErrNotRegular, kind(fi2.Mode()))}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{path, max}
	}
	return data, nil
}

// IsRegular reports whether path (symlinks followed) is a regular file,
// without opening it.
func IsRegular(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "a special file"
}
