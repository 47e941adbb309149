package resolve

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
	"github.com/agentgate/agentgate/internal/fsutil"
)

// WalkTimeout is a loose wall-clock guard on a tree walk, against a slow
// or hostile file system (a FUSE mount that answers slowly); the entry
// budget, not this, bounds the work, so tests never depend on timing.
var WalkTimeout = 10 * time.Second

// walkRoots walks each root that is a directory, as a recursive reader
// would read it: hidden entries only when hidden is set (grep reads them,
// .git included; rg skips them unless told), symlinked directories
// followed only when follow is set. It asks at the first sensitive file,
// symlink leading out of the tree, special file or .git config holding a
// credential, and when the walk passes its bound.
func (r *resolver) walkRoots(roots []string, hidden, follow bool, only nameFilter) {
	max := r.o.MaxWalk
	if max <= 0 {
		max = DefaultMaxWalk
	}
	budget := max
	for _, root := range roots {
		abs := r.lexical(root)
		visited, err := walkLinks(abs)
		if err != nil || len(visited) == 0 {
			continue // judged as a word already
		}
		real := visited[len(visited)-1]
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			continue
		}
		if why, ok := r.walkTree(root, real, hidden, follow, only, &budget); !ok {
			r.add(why)
			return
		}
		if budget <= 0 {
			r.add(gate.Reason{Check: gate.CheckSensitive, Match: root, Source: "recursive read",
				Message: fmt.Sprintf("the tree under %s holds more than %d entries, too many to check for secrets", quote(root), max)})
			return
		}
	}
}

func (r *resolver) walkTree(root, real string, hidden, follow bool, only nameFilter, budget *int) (gate.Reason, bool) {
	type dir struct {
		path  string
		depth int
	}
	queue := []dir{{real, 0}}
	seenDirs := map[string]bool{real: true}
	reason := func(p, msg string) gate.Reason {
		return gate.Reason{Check: gate.CheckSensitive, Match: root, Source: "recursive read",
			Message: fmt.Sprintf("reads %s recursively, and %s %s", quote(root), p, msg)}
	}
	for len(queue) > 0 && *budget > 0 {
		if time.Now().After(r.deadline) {
			// A loose guard against a slow file system; the entry budget
			// is what bounds the work.
			return gate.Reason{Check: gate.CheckSensitive, Match: root, Source: "recursive read",
				Message: fmt.Sprintf("reads %s recursively, and the tree could not be checked within %v", quote(root), WalkTimeout)}, false
		}
		d := queue[0]
		queue = queue[1:]
		entries, err := readDir(d.path)
		if err != nil {
			continue // the reader cannot read it either
		}
		for _, e := range entries {
			*budget--
			if *budget <= 0 {
				return gate.Reason{}, true
			}
			name := e.Name()
			p := path.Join(d.path, name)
			if e.Type()&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice|fs.ModeCharDevice) != 0 {
				// Even hidden: rg reads .gitignore and .ignore files.
				return reason(p, "is a special file: reading it may block or never end"), false
			}
			if !hidden && strings.HasPrefix(name, ".") {
				continue
			}
			// An include filter keeps the reader out of a file (not out
			// of a directory, nor one a link leads to): its name alone
			// is then no reason to ask. What a link leads to and a hard
			// link to a private file still are, should the filter's
			// reading ever be wrong.
			skipped := only.skips(name) && !e.IsDir() && !isDir(p)
			if pat, ok := r.o.Paths.MatchSensitive(p); ok && !skipped {
				return reason(p, "may hold secrets ("+pat+")"), false
			}
			mode := e.Type()
			switch {
			case mode&fs.ModeSymlink != 0:
				visited, err := walkLinks(p)
				if err != nil {
					return reason(p, "is a symlink that cannot be resolved ("+err.Error()+")"), false
				}
				target := visited[len(visited)-1]
				for _, v := range visited {
					if pat, ok := r.o.Paths.MatchSensitive(v); ok {
						return reason(p, "leads to "+v+", which may hold secrets ("+pat+")"), false
					}
				}
				if !fsutil.Within(target, real) {
					return reason(p, "is a symlink leading out of the tree, to "+target), false
				}
				if fi, err := os.Stat(target); err == nil && fi.IsDir() && follow && !seenDirs[target] && d.depth < 64 {
					seenDirs[target] = true
					queue = append(queue, dir{target, d.depth + 1})
				}
			case mode.IsDir():
				if d.depth < 64 {
					queue = append(queue, dir{p, d.depth + 1})
				} else {
					return reason(p, "is nested too deep to check"), false
				}
			case mode&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice|fs.ModeCharDevice) != 0:
				return reason(p, "is a special file: reading it may block or never end"), false
			case name == "config" && strings.Contains(p, "/.git/") || name == "config" && path.Base(d.path) == ".git":
				if gitCredential(p) {
					return reason(p, "holds a credential (a user name or password in a URL, or an extra header)"), false
				}
			case mode.IsRegular() && r.hardLinkWhy(p) != "":
				return reason(p, r.hardLinkWhy(p)), false
			}
		}
	}
	return gate.Reason{}, true
}

// gitCredential reports whether a git configuration file holds a secret:
// a URL with a user name or password, or an http extraHeader. A file that
// cannot be read as a small regular file counts as holding one.
func gitCredential(p string) bool {
	data, err := fsutil.ReadRegular(p, 1<<20)
	if err != nil {
		return true
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		lower := strings.ToLower(line)
		if strings.HasPrefix(lower, "extraheader") {
			return true
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		if key == "url" || key == "pushurl" || strings.HasPrefix(lower, "[url") {
			if gitsafe.HasCredential(strings.Trim(strings.TrimSpace(val), `"`)) {
				return true
			}
		}
	}
	return false
}

// readDir lists a directory without ever blocking: opened non-blocking
// with O_DIRECTORY, a FIFO or device put in its place fails at once.
func readDir(p string) ([]fs.DirEntry, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// isDir reports whether p, links followed, is a directory.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
