package allowlist

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// HazardEnv is what [Hazards] looks at: the working directory, the home
// directory and the environment the command will run with.
type HazardEnv struct {
	Cwd, Home string
	// Getenv reads the command's environment; nil reads the process's.
	Getenv func(string) string
}

// maxHazardFile bounds how much of a file a hazard check reads.
const maxHazardFile = 1 << 20

// Hazards returns why the allowed command argv must ask after all,
// because of a file or variable that would make it run another program,
// connect elsewhere or print a credential: the hazards of its pack, and
// those of its entry ("git remote -v" with a URL holding a password).
// It returns nil when none is present. The engine calls it for every
// command Decide allows through a catalogue rule; a file it cannot read
// as a regular file counts as present (asking is the safe error).
func Hazards(rules []Rule, argv []string, env HazardEnv) []string {
	e := judgingEntry(rules, argv)
	if e == nil {
		return nil
	}
	hs := e.Hazards
	if p, ok := LookupPack(e.Pack); ok {
		hs = append(append([]Hazard(nil), p.Hazards...), hs...)
	}
	var out []string
	for _, h := range hs {
		if h.present(env) {
			out = append(out, h.Why)
		}
	}
	return out
}

// HasHazards reports whether the entry that allows argv lists hazards
// (its own, or its pack's), so that [Hazards] must be checked.
func HasHazards(rules []Rule, argv []string) bool {
	e := judgingEntry(rules, argv)
	if e == nil {
		return false
	}
	if len(e.Hazards) > 0 {
		return true
	}
	if e.Pack == "" {
		// A built-in entry: no pack's hazards, and no pack need be
		// built to tell (building them all was 7% of a hooked git
		// status).
		return false
	}
	p, ok := LookupPack(e.Pack)
	return ok && len(p.Hazards) > 0
}

// judgingEntry is the entry with the most words that accepts argv.
func judgingEntry(rules []Rule, argv []string) *Entry {
	var best *Entry
	for _, r := range rules {
		if r.Kind != Allow || r.Entry == nil {
			continue
		}
		if _, ref, ok := r.Entry.Judge(argv); ok && ref == nil && (best == nil || len(r.Entry.Words) > len(best.Words)) {
			best = r.Entry
		}
	}
	return best
}

func (h Hazard) present(env HazardEnv) bool {
	getenv := env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if h.Env != "" {
		return getenv(h.Env) != ""
	}
	if h.Plain {
		return h.notPlain(env)
	}
	for _, p := range h.paths(env) {
		data, found := readHazardFile(p)
		if !found {
			continue
		}
		if data == nil {
			return true // present but not a readable regular file: ask
		}
		if h.Match != nil {
			if h.Match(data) {
				return true
			}
			continue
		}
		if len(h.Contains) == 0 {
			return true
		}
		for _, c := range h.Contains {
			if bytes.Contains(data, []byte(c)) {
				return true
			}
		}
	}
	return false
}

// notPlain reports a Plain hazard's file, found in the working directory
// or a parent, that is not a plain file, or one its Also names that is not.
func (h Hazard) notPlain(env HazardEnv) bool {
	for _, p := range h.paths(env) {
		found, plain := plainFile(p)
		if !found {
			continue
		}
		if !plain {
			return true
		}
		if h.Also == nil {
			continue
		}
		data, _ := readHazardFile(p)
		more, unsure := h.Also(filepath.Dir(p), data)
		if unsure {
			return true
		}
		for _, m := range more {
			if found, plain := plainFile(m); found && !plain {
				return true
			}
		}
	}
	return false
}

// plainFile tells whether something is at p, and whether it is a regular
// file with one name (not a link, not a hard link, not a FIFO).
func plainFile(p string) (found, plain bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return !os.IsNotExist(err), false
	}
	return true, fi.Mode().IsRegular() && fsutil.Links(fi) == 1
}

// npmWorkspaces are the package.json files of the workspaces a root
// package.json declares ("workspaces": [...] or {"packages": [...]}),
// which npm reads and quotes as it does the root's; a pattern
// filepath.Glob does not read as npm does (**, braces) is unsure.
func npmWorkspaces(dir string, data []byte) ([]string, bool) {
	var pkg struct {
		Workspaces json.RawMessage `json:"workspaces"`
	}
	if json.Unmarshal(data, &pkg) != nil || len(pkg.Workspaces) == 0 {
		return nil, false // npm fails on it without quoting another file
	}
	var pats []string
	if json.Unmarshal(pkg.Workspaces, &pats) != nil {
		var obj struct {
			Packages []string `json:"packages"`
		}
		if json.Unmarshal(pkg.Workspaces, &obj) != nil {
			return nil, true
		}
		pats = obj.Packages
	}
	var out []string
	for _, pat := range pats {
		if strings.HasPrefix(pat, "!") {
			continue // an exclusion adds no directory
		}
		if strings.Contains(pat, "**") || strings.ContainsAny(pat, "{}") {
			return nil, true
		}
		dirs, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return nil, true
		}
		for _, d := range dirs {
			out = append(out, filepath.Join(d, "package.json"))
		}
	}
	return out, false
}

// paths are where the hazard's file is looked for.
func (h Hazard) paths(env HazardEnv) []string {
	if rest, ok := strings.CutPrefix(h.File, "~/"); ok {
		if env.Home == "" {
			return nil
		}
		return []string{filepath.Join(env.Home, rest)}
	}
	var out []string
	dir := filepath.Clean(env.Cwd)
	for range 64 {
		out = append(out, filepath.Join(dir, h.File))
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return out
}

// readHazardFile reads a regular file without following it into a FIFO
// or device. found is false when nothing is there; data is nil when
// something is there that is not a readable regular file.
func readHazardFile(p string) (data []byte, found bool) {
	if _, err := os.Lstat(p); err != nil {
		return nil, !os.IsNotExist(err)
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, true
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, true
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, maxHazardFile))
	if err != nil {
		return nil, true
	}
	if data == nil {
		data = []byte{}
	}
	return data, true
}

// urlCredentials finds a URL with a password or token in a git config.
var urlCredentials = &onceValue[*regexp.Regexp]{make: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(url|pushurl)\s*=\s*\S*://[^/@\s]+:[^/@\s]*@`)
}}

func gitURLCredentials(data []byte) bool { return urlCredentials.get().Match(data) }
