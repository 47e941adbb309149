package fsutil

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Links is a file's count of names: more than one is a hard link, another
// name for the same file. 1 when the system does not say.
func Links(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// FileID is a file's identity (device and inode), the same under every
// name it has; ok is false where the system does not say.
func FileID(fi os.FileInfo) (string, bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(uint64(st.Ino), 10), true
	}
	return "", false
}

// HardLinked returns, of the files named (paths relative to top, with
// slashes), the regular ones that have other names too, as absolute
// paths in the order given. It is [os.Lstat] on each name, made cheap for
// the many names of a git index: each directory is opened once and its
// files are looked up from it (one component each, not the whole path),
// by a few workers. A name that cannot be looked up (gone, or below a
// file) is skipped, as Lstat's error would be.
func HardLinked(top string, names []string) []string {
	type group struct {
		dir   string
		names []string // base names, in order
		first int      // index in names of the group's first
	}
	var groups []group
	for i, n := range names {
		dir, base := "", n
		if j := strings.LastIndexByte(n, '/'); j >= 0 {
			dir, base = n[:j], n[j+1:]
		}
		if len(groups) == 0 || groups[len(groups)-1].dir != dir {
			groups = append(groups, group{dir: dir, first: i})
		}
		groups[len(groups)-1].names = append(groups[len(groups)-1].names, base)
	}
	found := make([][]string, len(groups))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(4, max(1, runtime.GOMAXPROCS(0)), len(groups)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range work {
				found[g] = linkedIn(filepath.Join(top, groups[g].dir), groups[g].names)
			}
		}()
	}
	for g := range groups {
		work <- g
	}
	close(work)
	wg.Wait()
	var out []string
	for _, f := range found {
		out = append(out, f...)
	}
	return out
}

// linkedIn is [HardLinked] for the files names in one directory dir.
func linkedIn(dir string, names []string) []string {
	var out []string
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		// Not a directory one may open (search permission only, say):
		// each path is looked up whole.
		for _, n := range names {
			p := filepath.Join(dir, n)
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && Links(fi) > 1 {
				out = append(out, p)
			}
		}
		return out
	}
	defer unix.Close(fd)
	for _, n := range names {
		var st unix.Stat_t
		if n == "" || strings.ContainsRune(n, 0) {
			continue
		}
		if err := unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG && st.Nlink > 1 {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// ChangeTime is the status change time of the file at p itself (not
// following a final link), which no program can set: writing or
// chmod'ing a file moves it. ok is false when it cannot be read.
func ChangeTime(p string) (sec, nsec int64, ok bool) {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil {
		return 0, 0, false
	}
	return int64(st.Ctim.Sec), int64(st.Ctim.Nsec), true
}
