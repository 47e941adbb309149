package fsutil

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Walk follows links as the kernel does: where they are met, dangling
// ones too, ".." after them, and not past the kernel's bound.
func TestWalk(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	must(os.Symlink("real/sub", filepath.Join(dir, "link")))
	must(os.Symlink(filepath.Join(dir, "nowhere", "key"), filepath.Join(dir, "dangling")))
	must(os.Symlink("loop2", filepath.Join(dir, "loop1")))
	must(os.Symlink("loop1", filepath.Join(dir, "loop2")))
	// A chain one longer than the kernel follows.
	for i := 0; i <= MaxLinks; i++ {
		must(os.Symlink("c"+strconv.Itoa(i+1), filepath.Join(dir, "c"+strconv.Itoa(i))))
	}
	r, w, err := os.Pipe()
	must(err)
	defer r.Close()
	defer w.Close()
	pipe := "/proc/self/fd/" + strconv.Itoa(int(r.Fd()))

	for _, tc := range []struct {
		path, final string
		via         int
		err         string
	}{
		{path: dir + "/real/sub", final: dir + "/real/sub"},
		{path: dir + "/link/..", final: dir + "/real", via: 2},
		{path: dir + "/link/new/file", final: dir + "/real/sub/new/file", via: 2},
		{path: dir + "/dangling", final: dir + "/nowhere/key", via: 2},
		{path: dir + "/loop1", err: "more than"},
		{path: dir + "/c0", err: "more than"},
		// /proc/self is a link too; the pipe ends the walk at its fd.
		{path: pipe, final: "/proc/" + strconv.Itoa(os.Getpid()) + pipe[len("/proc/self"):], via: 3},
	} {
		via, final, err := Walk(tc.path)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Walk(%s) error %v; want %q", tc.path, err, tc.err)
			}
			if got := Resolve(tc.path); got != filepath.Clean(tc.path) {
				t.Errorf("Resolve(%s) = %s; want the path as written", tc.path, got)
			}
		case err != nil:
			t.Errorf("Walk(%s): %v", tc.path, err)
		case final != tc.final || len(via) != tc.via:
			t.Errorf("Walk(%s) = %q via %q; want %q via %d", tc.path, final, via, tc.final, tc.via)
		}
	}
}
