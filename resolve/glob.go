package resolve

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/glob"
)

// MaxGlobSteps bounds the directory entries one command's glob expansion
// may look at; past it the command asks.
const MaxGlobSteps = 10000

// expandGlobs returns words with each glob word replaced by the names it
// matches (as bash would pass them), and the word itself, which bash
// passes when nothing matches. The work is counted in directory entries
// read; past MaxGlobSteps it stops and asks.
func (r *resolver) expandGlobs(words []string) []string {
	out := make([]string, 0, len(words))
	steps := MaxGlobSteps
	for _, w := range words {
		out = append(out, w)
		if !strings.ContainsAny(w, "*?[") {
			continue
		}
		matches, ok := expandGlob(r.lexical(w), &steps)
		if !ok {
			r.add(gate.Reason{Check: gate.CheckSensitive, Match: w, Source: "glob",
				Message: fmt.Sprintf("the glob %s matches too many names to check (more than %d steps)", quote(w), MaxGlobSteps)})
			return out
		}
		for _, m := range matches {
			out = append(out, r.asWritten(w, m))
		}
	}
	return out
}

// asWritten is match m of glob word w as bash hands it over: a relative
// word expands to relative names (a file named "-delete" reaches the
// program as a flag).
func (r *resolver) asWritten(w, m string) string {
	if !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~") && !strings.HasPrefix(w, "$") {
		if rel, found := strings.CutPrefix(m, r.o.Cwd+"/"); found {
			return rel
		}
	}
	return m
}

// bashGlobs is words as bash hands them to the program: each glob word
// replaced by the names it matches, in bash's order, or kept as it is
// when it matches none (or cannot be expanded within the budget).
func (r *resolver) bashGlobs(words []string) []string {
	out := make([]string, 0, len(words))
	steps := MaxGlobSteps
	for _, w := range words {
		if !strings.ContainsAny(w, "*?[") {
			out = append(out, w)
			continue
		}
		matches, ok := expandGlob(r.lexical(w), &steps)
		if !ok || len(matches) == 0 {
			out = append(out, w)
			continue
		}
		sort.Strings(matches)
		for _, m := range matches {
			out = append(out, r.asWritten(w, m))
		}
	}
	return out
}

// rawJoin joins a directory and a name without cleaning: a ".." after a
// link is the link's target's parent, as the kernel takes it when the
// match is opened (path.Join made "lnk/../h*.yml" the working
// directory's h*.yml, and the hosts.yml beside lnk's target went
// unjudged, a red team's).
func rawJoin(d, name string) string {
	if strings.HasSuffix(d, "/") {
		return d + name
	}
	return d + "/" + name
}

// maxGlobDepth bounds how deep a "**" component is followed.
const maxGlobDepth = 16

// descend appends d and every directory and file below it, hidden names
// left out as bash and zsh leave them, links to directories followed, to
// out, counting each entry against steps. It reports false when steps
// run out.
func descend(d string, out *[]string, steps *int, depth int) bool {
	*out = append(*out, d)
	if depth >= maxGlobDepth || !isDir(d) {
		return true
	}
	entries, err := readDir(d)
	if err != nil {
		return true
	}
	for _, e := range entries {
		*steps--
		if *steps < 0 {
			return false
		}
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if !descend(rawJoin(d, e.Name()), out, steps, depth+1) {
			return false
		}
	}
	return true
}

// glob expands an absolute pattern component by component, counting each
// directory entry read against steps. It reports false when steps run out.
// Hidden names match only a pattern component that starts with a dot, as
// in bash.
func expandGlob(pattern string, steps *int) ([]string, bool) {
	comps := strings.Split(pattern, "/")
	cur := []string{"/"}
	for _, c := range comps {
		if c == "" {
			continue
		}
		var next []string
		if c == "**" || c == "***" {
			// zsh reads "**/" as any number of directories ("***/"
			// following links), and bash with globstar "**" as any
			// path: a host that runs the command in zsh (Cursor, with
			// the user's shell) read src/**/k.go three levels down,
			// where bash's "*" is one. Every depth is judged, links
			// followed, as the widest of them.
			for _, d := range cur {
				if !descend(d, &next, steps, 0) {
					return nil, false
				}
			}
		} else if !strings.ContainsAny(c, "*?[") {
			for _, d := range cur {
				*steps--
				if *steps < 0 {
					return nil, false
				}
				next = append(next, rawJoin(d, c))
			}
		} else {
			// One reading of bash's globs: internal/glob, as the gate's.
			g := glob.CompileValue(c)
			for _, d := range cur {
				entries, err := readDir(d)
				if err != nil {
					continue
				}
				for _, e := range entries {
					*steps--
					if *steps < 0 {
						return nil, false
					}
					name := e.Name()
					if g.MatchName(name) {
						next = append(next, rawJoin(d, name))
					}
				}
			}
		}
		if *steps < 0 {
			return nil, false
		}
		cur = next
		if len(cur) == 0 {
			return nil, true
		}
	}
	var out []string
	for _, p := range cur {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out, true
}
