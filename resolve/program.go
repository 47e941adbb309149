package resolve

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentgate/agentgate/gate"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// AgentWritable reports whether dir lies in a directory the agent can be
// assumed to write, and which: the project root and everything below it,
// /tmp, /var/tmp, /dev/shm, $TMPDIR, and the configured untrusted_dirs.
// The user's own install directories ~/.local/bin, ~/.cargo/bin and
// ~/go/bin are trusted even when they lie below one of those (a project
// in the home directory): the threat model trusts programs the user
// installed. This is the one definition of the term; everything that
// asks "could the agent have put this here?" calls it.
func (o Options) AgentWritable(dir string) (string, bool) {
	dir = filepath.Clean(dir)
	for _, t := range []string{".local/bin", ".cargo/bin", "go/bin"} {
		if o.Home != "" && fsutil.Within(dir, filepath.Join(o.Home, t)) {
			return "", false
		}
	}
	project := o.projectRoot
	if project == "" {
		project = ProjectRoot(o.Cwd, o.Home)
	}
	roots := []string{project, "/tmp", "/var/tmp", "/dev/shm"}
	if t, ok := getenv(o.Environ, "TMPDIR"); ok && filepath.IsAbs(t) {
		roots = append(roots, t)
	}
	for _, u := range o.UntrustedDirs {
		if rest, ok := strings.CutPrefix(u, "~/"); ok {
			u = filepath.Join(o.Home, rest)
		}
		if filepath.IsAbs(u) {
			roots = append(roots, u)
		}
	}
	for _, root := range roots {
		if root == "" {
			continue
		}
		if fsutil.Within(dir, filepath.Clean(root)) {
			return root, true
		}
		// The same directory reached through a symlink (/tmp -> /private/tmp).
		if fsutil.Within(dir, fsutil.Resolve(root)) {
			return root, true
		}
	}
	return "", false
}

// ProjectRoot is the nearest directory at or above cwd holding .git or
// .agentgate.toml, not above home; cwd itself when there is none.
func ProjectRoot(cwd, home string) string {
	for d := filepath.Clean(cwd); ; d = filepath.Dir(d) {
		for _, marker := range []string{".git", ".agentgate.toml"} {
			if _, err := os.Lstat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		if d == home || d == filepath.Dir(d) {
			return filepath.Clean(cwd)
		}
	}
}

// program judges the program a command runs: found through a relative or
// empty PATH entry, or lying (or its symlink's target lying) in an
// agent-writable directory, it asks.
func (r *resolver) program(name string) {
	var found string
	if strings.Contains(name, "/") {
		found = r.lexical(name)
	} else {
		pathVar, _ := getenv(r.o.Environ, "PATH")
		for _, dir := range filepath.SplitList(pathVar) {
			if dir == "" || !filepath.IsAbs(dir) {
				shown := dir
				if shown == "" {
					shown = "(empty: the working directory)"
				}
				r.add(gate.Reason{Check: gate.CheckSelfProtect, Match: name, Source: "resolved program",
					Message: fmt.Sprintf("PATH holds the relative entry %s before %s is found: a program planted in the project would run", shown, quote(name))})
				return
			}
			p := filepath.Join(dir, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				found = p
				break
			}
		}
	}
	if found == "" {
		return // not found: nothing runs (or a shell builtin does)
	}
	visited, err := walkLinks(found)
	if err != nil {
		r.add(gate.Reason{Check: gate.CheckSelfProtect, Match: name, Source: "resolved program",
			Message: fmt.Sprintf("cannot tell which program %s is: %v", quote(name), err)})
		return
	}
	for _, p := range append([]string{path.Clean(found)}, visited...) {
		if root, ok := r.o.AgentWritable(path.Dir(p)); ok {
			r.add(gate.Reason{Check: gate.CheckSelfProtect, Match: name, Source: "resolved program",
				Message: fmt.Sprintf("the program %s is %s, in %s, a directory the agent can write", quote(name), p, root)})
			return
		}
	}
}
