package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// MaxLinks is the kernel's bound on the symbolic links one lookup
// follows (ELOOP past it).
const MaxLinks = 40

// Walk looks the absolute path p up component by component as the kernel
// does: each symbolic link followed where it is met (a dangling one too,
// since a write would create its target), ".." taken after it. It returns
// every link on the way and the path each target names, in order, and the
// path reached last. The part of p that does not exist is appended as
// written. A /proc/PID/{root,cwd,exe} link of a process that may not be
// inspected leads to the root; a /proc/PID/fd link to a pipe or socket
// ends the walk at the link. More than MaxLinks links, or a link that
// cannot be read, is an error, with the links met until then.
//
// This is the one walker of the tree: the resolver's judgement of paths
// and programs, gitsafe's repository files and the hook's writes all
// read a path through it, so none follows links with other bounds.
func Walk(p string) (via []string, final string, err error) {
	cur := "/"
	rest := strings.Split(p, "/")
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
		if err != nil {
			return via, filepath.Join(append([]string{next}, rest...)...), nil
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > MaxLinks {
			return via, "", fmt.Errorf("more than %d symlinks", MaxLinks)
		}
		via = append(via, next)
		target, err := os.Readlink(next)
		if err != nil {
			if !isProcLink(next) {
				return via, "", err
			}
			// /proc/PID/root of a process we may not inspect: the path
			// it names from the root.
			target = "/"
		}
		if !strings.HasPrefix(target, "/") && strings.Contains(target, ":[") {
			// /proc/PID/fd/N of a pipe or socket: not a path.
			return via, next, nil
		}
		if strings.HasPrefix(target, "/") {
			cur = "/"
		}
		via = append(via, filepath.Join(cur, target))
		rest = append(strings.Split(target, "/"), rest...)
	}
	return via, cur, nil
}

func isProcLink(p string) bool {
	parts := strings.Split(p, "/")
	return len(parts) == 4 && parts[1] == "proc" && (parts[3] == "root" || parts[3] == "cwd" || parts[3] == "exe")
}

// Resolve is the absolute path p as the kernel resolves it (Walk's final
// path); a loop, or a link that cannot be read, leaves p cleaned (and so
// compared as text).
func Resolve(p string) string {
	_, final, err := Walk(p)
	if err != nil {
		return filepath.Clean(p)
	}
	return final
}
