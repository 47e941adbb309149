package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// Watched are the paths of a workspace whose entry must stand as it was
// when its command ends: every protected name of the top directory,
// whether it exists or not, and the given extra paths (what Protected
// and the repository's hooks directory name). A read-only bind keeps an
// existing directory or file as it is, but it cannot hold a name that is
// absent (a command may create .envrc, .claude/ or .husky/ where there
// was none) or that is a symbolic link (the link lives in the writable
// top directory and can be replaced); what stands there afterwards is
// compared with what stood there before.
func Watched(root string, extra ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range extra {
		p = filepath.Clean(p)
		if !seen[p] && fsutil.Within(p, root) && p != filepath.Clean(root) {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, n := range protectedNames {
		p := filepath.Join(root, n)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// Snapshot is what stood at each watched path before a command ran.
type Snapshot struct {
	entries []entry
	taken   time.Time
}

type entry struct {
	path string
	id   ident
}

// ident is what an entry is: absent, or a file of a type, identified by
// device and inode, and for a link by its target too.
type ident struct {
	exists   bool
	typ      fs.FileMode
	dev, ino uint64
	link     string
}

func identOf(p string) ident {
	fi, err := os.Lstat(p)
	if err != nil {
		return ident{}
	}
	id := ident{exists: true, typ: fi.Mode().Type()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.dev, id.ino = uint64(st.Dev), uint64(st.Ino)
	}
	if id.typ&fs.ModeSymlink != 0 {
		id.link, _ = os.Readlink(p)
	}
	return id
}

// Take records what stands at each path now.
func Take(paths []string) *Snapshot {
	s := &Snapshot{taken: time.Now()}
	for _, p := range paths {
		s.entries = append(s.entries, entry{p, identOf(p)})
	}
	return s
}

// Moved is a protected path a workspace command created or replaced, and
// where agentgate put what it found there.
type Moved struct {
	Path string `json:"path"`
	To   string `json:"to"`
	// Was is what stood there before: "absent", or "link to TARGET",
	// which agentgate put back.
	Was string `json:"was"`
}

// Restore compares each watched path with the snapshot, after the
// command and everything it started have ended. What the command made
// at a protected path is moved aside, next to it, under a name no tool
// reads (NAME.agentgate-quarantine-TIME), and a link it replaced is put
// back: nothing it planted there is read by git, a host or direnv, and
// nothing is deleted, so the person can look at it.
func (s *Snapshot) Restore() ([]Moved, error) {
	var moved []Moved
	var errs []error
	stamp := s.taken.UTC().Format("20060102T150405")
	for _, e := range s.entries {
		now := identOf(e.path)
		if now == e.id {
			continue
		}
		if !now.exists {
			// Removed: what the person had is gone, which no bind
			// allows for a directory or file (EBUSY); a link the
			// command deleted is put back.
			if e.id.typ&fs.ModeSymlink != 0 {
				if err := os.Symlink(e.id.link, e.path); err != nil {
					errs = append(errs, err)
				}
				moved = append(moved, Moved{Path: e.path, Was: "link to " + e.id.link})
			}
			continue
		}
		to := fmt.Sprintf("%s.agentgate-quarantine-%s", e.path, stamp)
		for i := 2; ; i++ {
			if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
				break
			}
			to = fmt.Sprintf("%s.agentgate-quarantine-%s-%d", e.path, stamp, i)
		}
		if err := os.Rename(e.path, to); err != nil {
			errs = append(errs, fmt.Errorf("%s could not be moved aside: %w", e.path, err))
			continue
		}
		m := Moved{Path: e.path, To: to, Was: "absent"}
		if e.id.exists {
			m.Was = strings.TrimSpace("a " + typeName(e.id.typ))
		}
		if e.id.typ&fs.ModeSymlink != 0 {
			m.Was = "link to " + e.id.link
			if err := os.Symlink(e.id.link, e.path); err != nil {
				errs = append(errs, fmt.Errorf("the link %s could not be put back: %w", e.path, err))
			}
		}
		moved = append(moved, m)
	}
	return moved, errors.Join(errs...)
}

func typeName(t fs.FileMode) string {
	switch {
	case t.IsDir():
		return "directory"
	case t.IsRegular():
		return "file"
	case t&fs.ModeSymlink != 0:
		return "link"
	}
	return "special file"
}
