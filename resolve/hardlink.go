package resolve

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

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
// ~/.aws/credentials hard-linked into the project as notes.txt). A hard
// link cannot be told from the original, so the name check misses both.
func (r *resolver) hardLinkWhy(p string) string {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fsutil.Links(fi) < 2 {
		return ""
	}
	if fi.Mode().Perm()&0o044 == 0 {
		return "is a hard link to a private file (another name for it exists, and only its owner may read it): it may be a key under an innocent name"
	}
	if id, ok := idOf(fi); ok && r.homeSecrets()[id] {
		return "is a hard link to a secret in the home directory (another name for the same file, which the sensitive paths name)"
	}
	return ""
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
