package sandbox

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// protectedNames are the entries of a project's top directory that a
// workspace command may not change: what runs code at the person's next
// git command or the agents' next start, and agentgate's own files. A
// build writes its output elsewhere.
var protectedNames = []string{".git", ".claude", ".codex", ".gemini", ".cursor", ".vscode", ".mcp.json",
	".agentgate.toml", ".agentgate.local.toml", ".envrc", ".direnv",
	// Hook managers, whose files run at the person's next commit.
	".husky", ".githooks", ".pre-commit-config.yaml", ".pre-commit-hooks.yaml", "lefthook.yml", "lefthook.yaml",
	".lefthook.yml", ".lefthook.yaml"}

// Bounds of the walk for nested repositories.
const (
	nestedDepth  = 4
	nestedBudget = 20000
)

// Protected are the paths of root to keep read-only for a workspace
// command: those of protectedNames that exist, as directories or files
// (for a symbolic link, what it points to inside the project); every .git
// below (a submodule's, a linked worktree's, a nested repository's: git
// runs in a submodule at the top's git status, and a rewritten .git file
// points it at a planted gitdir), the submodules .gitmodules names, the
// worktrees .git/worktrees records, and the gitdir a .git file names when
// it lies in the project. The walk for nested ones is bounded (depth and
// entries), skips node_modules, and does not enter a .git.
func Protected(root string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if b, ok := Bindable(root, p); ok && !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	for _, n := range protectedNames {
		add(filepath.Join(root, n))
	}
	// Submodules by .gitmodules, at any depth.
	if data, err := readSmall(filepath.Join(root, ".gitmodules")); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
			if ok && strings.TrimSpace(k) == "path" {
				add(filepath.Join(root, strings.TrimSpace(v), ".git"))
			}
		}
	}
	// Linked worktrees: .git/worktrees/NAME/gitdir names their .git file.
	if ents, err := os.ReadDir(filepath.Join(root, ".git", "worktrees")); err == nil {
		for _, e := range ents {
			if data, err := readSmall(filepath.Join(root, ".git", "worktrees", e.Name(), "gitdir")); err == nil {
				add(strings.TrimSpace(string(data)))
			}
		}
	}
	budget := nestedBudget
	base := strings.Count(filepath.Clean(root), string(filepath.Separator))
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || budget <= 0 {
			return filepath.SkipDir
		}
		budget--
		if d.Name() == ".git" && p != root {
			add(p)
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.Count(p, string(filepath.Separator))-base >= nestedDepth) {
			return filepath.SkipDir
		}
		return nil
	})
	// A .git file names its gitdir ("gitdir: ../.git/modules/x").
	for _, p := range append([]string(nil), out...) {
		if filepath.Base(p) != ".git" {
			continue
		}
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if data, err := readSmall(p); err == nil {
			if g, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:"); ok {
				g = strings.TrimSpace(g)
				if !filepath.IsAbs(g) {
					g = filepath.Join(filepath.Dir(p), g)
				}
				add(g)
			}
		}
	}
	return out
}

// Bindable is the path to bind read-only to keep p, a path in root, as
// it is: p itself when it is a directory or a regular file, what it
// points to when it is a symbolic link to one inside root (.claude ->
// conf/claude; the link itself, in the writable top directory, is watched
// instead: [Watched]); nothing when it is absent, special, or a link out
// of the project, which the workspace cannot write anyway.
func Bindable(root, p string) (string, bool) {
	p = filepath.Clean(p)
	if !fsutil.Within(p, root) {
		return "", false
	}
	fi, err := os.Lstat(p)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// Compared with the root as the kernel sees it too: a project
		// entered through a link (cd ~/work/p, work -> /data) has
		// targets under /data.
		_, real, rerr := fsutil.Walk(root)
		_, t, terr := fsutil.Walk(p)
		if terr != nil || !fsutil.Within(t, root) && (rerr != nil || !fsutil.Within(t, real)) {
			return "", false
		}
		p = t
		fi, err = os.Lstat(p)
	}
	if err != nil || !(fi.IsDir() || fi.Mode().IsRegular()) {
		return "", false
	}
	return p, true
}

// ancestors are the directories strictly between root and each of paths
// that are not themselves among paths, shallowest first, each once: what
// must be a mount point for the paths below to stay where they are.
func ancestors(root string, paths []string) []string {
	root = filepath.Clean(root)
	protected := map[string]bool{}
	for _, p := range paths {
		protected[filepath.Clean(p)] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		p = filepath.Clean(p)
		if !fsutil.Within(p, root) || p == root {
			continue
		}
		var chain []string
		for d := filepath.Dir(p); d != root && fsutil.Within(d, root) && d != filepath.Dir(d); d = filepath.Dir(d) {
			chain = append(chain, d)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			d := chain[i]
			if seen[d] || insideAny(d, protected) {
				// One inside a protected path (.git/modules for
				// .git/modules/x) is read-only with it already; a
				// writable bind there would be copied into the
				// read-only bind of .git, writable.
				continue
			}
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return strings.Count(out[i], string(filepath.Separator)) < strings.Count(out[j], string(filepath.Separator))
	})
	return out
}

func insideAny(d string, set map[string]bool) bool {
	for q := range set {
		if fsutil.Within(d, q) {
			return true
		}
	}
	return false
}

// readSmall reads a small regular file (a .git file, .gitmodules), never
// blocking on a special one.
func readSmall(p string) ([]byte, error) { return fsutil.ReadRegular(p, 1<<20) }

// IsProtectedName reports whether name is one of a project's top-level
// entries a workspace command may not change.
func IsProtectedName(name string) bool {
	for _, n := range protectedNames {
		if n == name {
			return true
		}
	}
	return false
}
