package resolve

import (
	"bufio"
	"os"
	"path"
	"strings"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// ignoreFiles are the files ripgrep reads its ignore rules from, in every
// directory it searches and in their parents.
var ignoreFiles = []string{".ignore", ".rgignore", ".gitignore"}

// unignores reports whether an ignore file rg would read, in a tree under
// roots or in a directory above them (or .git/info/exclude), holds a
// whitelist line ("!.env"): such a line makes rg read a hidden file it
// would skip, so the walk must look at hidden files too. The scan is
// bounded like the walk; past the bound it answers true.
func (r *resolver) unignores(roots []string) bool {
	budget := r.o.MaxWalk
	if budget <= 0 {
		budget = DefaultMaxWalk
	}
	for _, root := range roots {
		abs := r.lexical(root)
		fi, err := os.Stat(abs)
		if err != nil || !fi.IsDir() {
			abs = path.Dir(abs)
		}
		for d := abs; ; d = path.Dir(d) {
			if dirWhitelists(d) || fileWhitelists(path.Join(d, ".git", "info", "exclude")) {
				return true
			}
			if d == "/" || d == "." {
				break
			}
		}
		queue := []string{abs}
		for len(queue) > 0 {
			d := queue[0]
			queue = queue[1:]
			ents, err := readDir(d)
			if err != nil {
				continue
			}
			for _, e := range ents {
				if budget--; budget <= 0 {
					return true
				}
				if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
					queue = append(queue, path.Join(d, e.Name()))
				}
			}
			if d != abs && dirWhitelists(d) {
				return true
			}
		}
	}
	return false
}

func dirWhitelists(dir string) bool {
	for _, name := range ignoreFiles {
		if fileWhitelists(path.Join(dir, name)) {
			return true
		}
	}
	return false
}

// fileWhitelists reads an ignore file (a regular file only, at most 1 MiB)
// and reports whether a line starts with "!".
func fileWhitelists(p string) bool {
	f, err := fsutil.OpenRegular(p)
	if err != nil {
		return false
	}
	defer f.Close()
	// A file too large to read whole, or a line longer than the scanner
	// takes, could hide a "!" line after it: taken as one.
	if fi, err := f.Stat(); err != nil || fi.Size() > 1<<20 {
		return true
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20+1)
	for sc.Scan() {
		// rg 14 strips a byte-order mark first.
		line := strings.TrimPrefix(strings.TrimSpace(sc.Text()), "\ufeff")
		if strings.HasPrefix(strings.TrimSpace(line), "!") {
			return true
		}
	}
	return sc.Err() != nil
}
