package resolve

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// fileID is a file's identity, whatever its name.
type fileID struct{ dev, ino uint64 }

func idOf(fi os.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), st.Ino}, true
}

// hardLinkWhy says why a regular file with more than one name is a secret
// under another name, or "" when it is not known to be: a file only its
// owner may read (what a key looks like), or one that is a secret the
// sensitive patterns name under the home directory (a world-readable
// ~/.aws/credentials hard-linked into the project as notes.txt) or in
// the project (its 0644 .env hard-linked as notes.txt). A hard link
// cannot be told from the original, so the name check misses them all.
func (r *resolver) hardLinkWhy(p string) string {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fsutil.Links(fi) < 2 {
		return ""
	}
	if fi.Mode().Perm()&0o044 == 0 {
		return "is a hard link to a private file (another name for it exists, and only its owner may read it): it may be a key under an innocent name"
	}
	id, ok := idOf(fi)
	if !ok {
		return "is a file with another name, whose identity cannot be read: it may be a secret under an innocent name"
	}
	if r.homeSecrets()[id] {
		return "is a hard link to a secret in the home directory (another name for the same file, which the sensitive paths name)"
	}
	ps := r.projectSecrets()
	if name, ok := ps.ids[id]; ok {
		return fmt.Sprintf("is a hard link to %s, a secret of the project (another name for the same file, which the sensitive paths name)", name)
	}
	if !ps.complete && ps.devs[id.dev] {
		return fmt.Sprintf("is a file with another name, and the project holds more than %d entries, too many to look for a secret it could be another name of", ps.max)
	}
	return ""
}

// secretSet are the files a bounded walk found the sensitive patterns
// name, by identity.
type secretSet struct {
	ids map[fileID]string // the path found, by identity
	// complete is false when the walk stopped at its bound (max
	// entries); devs are then the file systems it met, where an unseen
	// secret may lie (a hard link never leaves its file system).
	complete bool
	devs     map[uint64]bool
	max      int
}

// projectSecrets are the files under the project root that the sensitive
// patterns name (a .env, a key, hidden and .git included; a symlink so
// named stands for its target), by identity. Built once per Check, only
// when a file with several names that is not private is met, by a walk
// bounded like a tree walk ([Options.MaxWalk]) that follows no link.
func (r *resolver) projectSecrets() *secretSet {
	if r.projSecrets != nil {
		return r.projSecrets
	}
	max := r.o.MaxWalk
	if max <= 0 {
		max = DefaultMaxWalk
	}
	s := &secretSet{ids: map[fileID]string{}, devs: map[uint64]bool{}, complete: true, max: max}
	r.projSecrets = s
	root := r.o.projectRoot
	if root == "" {
		return s
	}
	add := func(p string, fi os.FileInfo) {
		if id, ok := idOf(fi); ok {
			if _, seen := s.ids[id]; !seen {
				s.ids[id] = p
			}
		}
	}
	type dir struct {
		path  string
		depth int
	}
	queue := []dir{{root, 0}}
	budget := max
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if fi, err := os.Lstat(d.path); err == nil {
			if id, ok := idOf(fi); ok {
				s.devs[id.dev] = true
			}
		}
		entries, err := readDir(d.path)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if budget--; budget < 0 || time.Now().After(r.deadline) {
				s.complete = false
				return s
			}
			p := path.Join(d.path, e.Name())
			switch t := e.Type(); {
			case t.IsDir():
				if d.depth < 64 {
					queue = append(queue, dir{p, d.depth + 1})
				} else {
					s.complete = false
				}
			case t.IsRegular() || t&fs.ModeSymlink != 0:
				if _, ok := r.o.Paths.MatchSensitive(p); !ok {
					continue
				}
				if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
					add(p, fi)
				}
			}
		}
	}
	return s
}

// maxSecretScan bounds the files homeSecrets looks at.
const maxSecretScan = 4000

// homeSecrets are the identities of the files the sensitive patterns
// name under the home directory: each "~/..." pattern and each bare name
// ("~/.netrc"), directories walked a few levels deep. Built once per
// Check, and only when a file with several names is met (rare).
func (r *resolver) homeSecrets() map[fileID]bool {
	if r.secrets != nil {
		return r.secrets
	}
	r.secrets = map[fileID]bool{}
	home := r.o.Home
	if home == "" {
		return r.secrets
	}
	budget := maxSecretScan
	add := func(p string) {
		fi, err := os.Lstat(p)
		if err != nil {
			return
		}
		if fi.Mode().IsRegular() {
			if id, ok := idOf(fi); ok {
				r.secrets[id] = true
			}
			budget--
			return
		}
		if !fi.IsDir() {
			return
		}
		base := strings.Count(p, "/")
		_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil || budget <= 0 {
				return filepath.SkipDir
			}
			budget--
			if d.IsDir() && strings.Count(q, "/")-base >= 4 {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				if fi, err := d.Info(); err == nil {
					if id, ok := idOf(fi); ok {
						r.secrets[id] = true
					}
				}
			}
			return nil
		})
	}
	for _, pat := range r.o.Paths.Sensitive {
		if strings.ContainsAny(pat, "*?[") {
			continue
		}
		switch {
		case strings.HasPrefix(pat, "~/"):
			add(filepath.Join(home, pat[2:]))
		case !strings.Contains(pat, "/"):
			add(filepath.Join(home, pat))
		}
	}
	return r.secrets
}
