package fsutil

import (
	"os"
	"path/filepath"
	"strings"
)

// MaxLinks bounds the symbolic links Resolve follows.
const MaxLinks = 64

// Resolve is the absolute path p as the kernel resolves it: each symbolic
// link followed where it is met (a dangling one too, since a write would
// create its target), ".." taken after it. The part of p that does not
// exist is appended as written; a loop, or more than MaxLinks links,
// leaves p cleaned (and so compared as text).
func Resolve(p string) string {
	cur := string(filepath.Separator)
	rest := strings.Split(p, string(filepath.Separator))
	for links := 0; len(rest) > 0; {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		switch {
		case err != nil:
			return filepath.Join(append([]string{next}, rest...)...)
		case fi.Mode()&os.ModeSymlink != 0:
			if links++; links > MaxLinks {
				return filepath.Clean(p)
			}
			target, err := os.Readlink(next)
			if err != nil {
				return filepath.Clean(p)
			}
			if filepath.IsAbs(target) {
				cur = string(filepath.Separator)
			}
			rest = append(strings.Split(target, string(filepath.Separator)), rest...)
		default:
			cur = next
		}
	}
	return cur
}
