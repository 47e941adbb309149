package fsutil_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// TestReadRegular: special and oversize files are refused at once, never
// read: a FIFO with no writer, a device, a directory, a file over the
// limit, a symlink to a FIFO.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(fifo, link)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 2048), 0o600)
	ok := filepath.Join(dir, "ok")
	os.WriteFile(ok, []byte("x = 1\n"), 0o600)
	for _, tc := range []struct {
		path    string
		notReg  bool
		tooBig  bool
		missing bool
	}{
		{path: fifo, notReg: true},
		{path: link, notReg: true},
		{path: "/dev/zero", notReg: true},
		{path: "/dev/tty", notReg: true},
		{path: dir, notReg: true},
		{path: big, tooBig: true},
		{path: filepath.Join(dir, "none"), missing: true},
		{path: ok},
	} {
		done := make(chan struct{})
		var err error
		var data []byte
		go func() { data, err = fsutil.ReadRegular(tc.path, 1024); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadRegular hangs", tc.path)
		}
		var tl *fsutil.TooLargeError
		switch {
		case tc.notReg && !errors.Is(err, fsutil.ErrNotRegular):
			t.Errorf("%s: err = %v; want ErrNotRegular", tc.path, err)
		case tc.tooBig && !errors.As(err, &tl):
			t.Errorf("%s: err = %v; want TooLargeError", tc.path, err)
		case tc.missing && !errors.Is(err, fs.ErrNotExist):
			t.Errorf("%s: err = %v; want ErrNotExist", tc.path, err)
		case !tc.notReg && !tc.tooBig && !tc.missing && (err != nil || string(data) != "x = 1\n"):
			t.Errorf("%s: %q, %v", tc.path, data, err)
		}
	}
}
