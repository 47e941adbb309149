package resolve

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/fsutil"
)

// A text a person is asked about is read on disk too, word by word, in
// the directory each part of it runs in (cd followed) and with its globs
// expanded, as bash would run it:
//
//   - [Escalated] finds what the text does not show: a word that reaches
//     a key through a link, a hard-linked secret. The person must be told,
//     and the question is sticky: "cat notes.txt; touch done" asks for
//     touch alone, and bypass mode ran it, printing the key notes.txt
//     linked to (a red team's).
//   - [Binding] is what an approval holds for: every file the words reach,
//     by identity. A note swapped for a hard link to the key between the
//     question and the run keeps its name and its path but not its inode
//     (a red team's), and a glob or a cd made the swapped word invisible
//     to a binding that read words literally from the starting directory.

// MaxBinding bounds the files a binding lists; a digest of all of them
// ends it, so that none past the bound goes unbound.
const MaxBinding = 512

// words calls fn for each candidate path of each word of segments, with
// the resolver for the directory the word's part runs in. It reports
// false when a cd of the text cannot be followed (pushd, a target with
// a glob or an expansion, CDPATH, cdable_vars): then the directories are
// not known. all are the directories the text's last part may run in,
// every one it reaches; dirs those of each part ([Dirs]).
func words(o Options, segments [][]string, fn func(r *resolver, w, c string)) (followed bool, all []string, dirs [][]string) {
	dirs, followed = Dirs(o.Cwd, o.Home, segments)
	all = []string{o.Cwd}
	if len(dirs) > 0 {
		all = dirs[len(dirs)-1]
	}
	if cdMayLookUp(segments) {
		for _, argv := range segments {
			if len(argv) > 0 && changesDir(argv) {
				followed = false
			}
		}
	}
	rs := map[string]*resolver{}
	for i, argv := range segments {
		for _, d := range dirs[i] {
			r, ok := rs[d]
			if !ok {
				oo := o
				oo.Cwd, oo.Paths.Cwd = d, d
				r = newResolver(oo)
				rs[d] = r
			}
			// bash's test keywords name no file (read as globs they
			// match every name).
			words := slices.DeleteFunc(slices.Clone(argv), func(w string) bool { return w == "[[" || w == "]]" })
			for _, w := range r.expandGlobs(words) {
				for _, c := range gate.PathCandidates(w) {
					fn(r, w, c)
				}
			}
		}
	}
	return followed, all, dirs
}

// Escalated judges every word of an escalated text as a path where it
// runs, and returns what it reaches that the text does not show: secrets
// and agentgate's own files, through links, hard links, globs and cd.
// Only those reasons are returned (a FIFO or an unknown program is the
// question's anyway).
func Escalated(o Options, segments [][]string) []gate.Reason {
	var out []gate.Reason
	seen := map[string]bool{}
	followed, _, _ := words(o, segments, func(r *resolver, w, c string) {
		r.path(w, c, false)
		for _, why := range r.out {
			key := string(why.Check) + "\x00" + why.Match + "\x00" + why.Message
			if (why.Check == gate.CheckSensitive || why.Check == gate.CheckSelfProtect) && !seen[key] && len(out) < 16 {
				seen[key] = true
				out = append(out, why)
			}
		}
	})
	if !followed {
		out = append([]gate.Reason{{Check: gate.CheckSensitive, Match: "cd", Source: "resolved path",
			Message: "where the text's cd goes (pushd, a target with a glob or an expansion, CDPATH or a shell option, more places than are followed), and so what its words then reach, cannot be known"}}, out...)
	}
	return out
}

// Binding lists, for every word of the text that names an existing file
// where its part runs, the word, the file it reaches with every link
// followed, and that file's identity: device and inode, and for a regular
// file its size and modification time (a script edited after the
// question is another script). A directory is bound by identity alone:
// what is made inside it is the command's business.
func Binding(o Options, segments [][]string) []string {
	var out []string
	seen := map[string]bool{}
	all := sha256.New()
	bind := func(r *resolver, w, c string) {
		abs := r.lexical(c)
		if abs == "" || seen[abs] {
			return
		}
		seen[abs] = true
		if _, err := os.Lstat(abs); err != nil {
			return
		}
		entry := ""
		if _, real, err := fsutil.Walk(abs); err != nil {
			entry = w + "\x00?" + err.Error()
		} else {
			entry = w + "\x00" + real + "\x00" + identity(real)
		}
		// Every file counts in the digest; the list is only cut: a
		// glob of 600 names once filled it, and the build script
		// after it was bound to nothing (a red team's).
		all.Write([]byte(entry + "\n"))
		if len(out) < MaxBinding {
			out = append(out, entry)
		}
	}
	followed, dirs, segDirs := words(o, segments, func(r *resolver, w, c string) {
		bind(r, w, c)
		// A directory run as a program's input runs what it holds
		// ("python3 pkg" runs pkg/__main__.py).
		if abs := r.lexical(c); abs != "" && isDir(abs) {
			bind(r, w+"/__main__.py", path.Join(abs, "__main__.py"))
		}
	})
	// What the build and test runners read without a word naming it,
	// where the text runs: "make -s" approved, then the Makefile edited,
	// ran the edit (a red team's), and where a runner is told to work
	// ("make -C sub", "npm --prefix sub": a red team's edited
	// sub/Makefile ran).
	r := newResolver(o)
	tooMany := false
	runDirs := append([]string(nil), dirs...)
	for i, argv := range segments {
		for _, sub := range runnerDirs(argv) {
			for _, d := range segDirs[i] {
				runDirs = append(runDirs, r.lexicalFrom(d, sub))
			}
		}
		// "go run ." builds the package's sources, which no word names
		// (a red team's edited main.go ran): each package directory's
		// .go files are bound, and "./..." every one below, up to a
		// bound past which no approval holds.
		for _, pkg := range goPackages(argv) {
			for _, d := range segDirs[i] {
				if !bindGoFiles(r.lexicalFrom(d, pkg.dir), pkg.recursive, func(rel, abs string) { bind(r, rel, abs) }) {
					tooMany = true
				}
			}
		}
		// A script loads its neighbours ("python3 tool.py" imports
		// helper.py; a red team's edited helper.py ran after the
		// approval), and a build runner runs the scripts beside its
		// file (make test ran an edited run-tests.sh): their sources,
		// two levels down, are bound.
		for _, src := range loadedSources(argv) {
			for _, d := range segDirs[i] {
				if !bindSources(r.lexicalFrom(d, src.dir), 2, src.exts, func(rel, abs string) { bind(r, rel, abs) }) {
					tooMany = true
				}
			}
		}
		// "python3 -m tool" runs tool.py (or tool/__main__.py), which no
		// word names (a red team's edited tool.py ran).
		if m := pythonModule(argv); m != "" {
			for _, d := range segDirs[i] {
				base := path.Join(d, strings.ReplaceAll(m, ".", "/"))
				bind(r, m+".py", base+".py")
				bind(r, m+"/__main__.py", path.Join(base, "__main__.py"))
				bind(r, m+"/__init__.py", path.Join(base, "__init__.py"))
			}
		}
	}
	for _, d := range runDirs {
		if d == "" {
			continue
		}
		for _, name := range implicitInputs {
			bind(r, name, path.Join(d, name))
		}
	}
	out = append(out, fmt.Sprintf("\x00all %x", all.Sum(nil)))
	if !followed || tooMany {
		// Where the text's cd goes is not known, so neither is what
		// its words name (or they name more sources than are bound): no
		// approval of it holds for a later run.
		var nonce [16]byte
		_, _ = rand.Read(nonce[:])
		out = append(out, fmt.Sprintf(unboundMark+"%x", nonce))
	}
	return out
}

// unboundMark starts the entry of a binding that holds for no later run.
const unboundMark = "\x00cd not followed "

// Unbound reports whether binding holds for no later run: where the
// text's cd goes cannot be followed, so no approval of it can be kept.
func Unbound(binding []string) bool {
	return len(binding) > 0 && strings.HasPrefix(binding[len(binding)-1], unboundMark)
}

// RunnerDirs are the directories each part of segments tells a build or
// test runner to work in ("make -C sub", "npm --prefix sub"), where the
// part runs, as [Binding] binds their build files: a program run there
// may run git in that directory's repository.
func RunnerDirs(o Options, segments [][]string) []string {
	r := newResolver(o)
	segDirs, _ := Dirs(o.Cwd, o.Home, segments)
	var out []string
	for i, argv := range segments {
		if i >= len(segDirs) {
			break
		}
		for _, sub := range runnerDirs(argv) {
			for _, d := range segDirs[i] {
				if abs := r.lexicalFrom(d, sub); abs != "" {
					out = append(out, abs)
				}
			}
		}
	}
	return out
}

// runnerDirs are the directories a build or test runner is told to work
// in by its options: make -C DIR (-CDIR, --directory=DIR and its
// abbreviations), go -C DIR, npm and pnpm --prefix/-C/--dir, yarn --cwd,
// just --working-directory/-d, task --dir/-d.
func runnerDirs(argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	var shorts, longs []string
	switch path.Base(argv[0]) {
	case "make", "gmake":
		shorts, longs = []string{"-C"}, []string{"--directory"}
	case "go":
		shorts = []string{"-C"}
	case "npm", "pnpm":
		shorts, longs = []string{"-C"}, []string{"--prefix", "--dir"}
	case "yarn":
		longs = []string{"--cwd"}
	case "just":
		shorts, longs = []string{"-d"}, []string{"--working-directory"}
	case "task":
		shorts, longs = []string{"-d"}, []string{"--dir"}
	default:
		return nil
	}
	var out []string
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		for _, f := range shorts {
			switch {
			case a == f && i+1 < len(argv):
				out = append(out, argv[i+1])
			case strings.HasPrefix(a, f) && len(a) > len(f):
				out = append(out, a[len(f):])
			}
		}
		if name, v, eq := strings.Cut(a, "="); strings.HasPrefix(a, "--") && len(name) > 3 {
			for _, f := range longs {
				if !strings.HasPrefix(f, name) {
					continue // getopt_long takes any abbreviation ("--dir" for --directory)
				}
				if eq {
					out = append(out, v)
				} else if i+1 < len(argv) {
					out = append(out, argv[i+1])
				}
			}
		}
	}
	return out
}

// goPackage is a package directory a go command builds.
type goPackage struct {
	dir       string
	recursive bool // "./..."
}

// goPackages are the package directories "go run|build|test|vet|install|
// generate" builds from source: each operand that is a directory or a
// "DIR/..." pattern ("." when there is none); file operands are bound as
// words, and import paths are not the project's.
func goPackages(argv []string) []goPackage {
	if len(argv) < 2 || path.Base(argv[0]) != "go" {
		return nil
	}
	switch argv[1] {
	case "run", "build", "test", "vet", "install", "generate":
	default:
		return nil
	}
	var out []goPackage
	for _, a := range argv[2:] {
		switch {
		case a == "--" || strings.HasPrefix(a, "-"):
			continue
		case a == "..." || strings.HasSuffix(a, "/..."):
			out = append(out, goPackage{dir: strings.TrimSuffix(strings.TrimSuffix(a, "..."), "/") + "/.", recursive: true})
		case a == "." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") || strings.HasPrefix(a, "/"):
			if !strings.HasSuffix(a, ".go") {
				out = append(out, goPackage{dir: a})
			}
		}
	}
	if len(out) == 0 {
		out = append(out, goPackage{dir: "."})
	}
	return out
}

// maxSourceFiles bounds the sources one binding reads; past it the text
// is unbound.
const maxSourceFiles = 4096

var goSources = []string{".go", ".s", ".c", "go.mod", "go.sum"}

// bindGoFiles calls bind with each Go source of dir (and, recursive,
// below it, as the go command walks: not into testdata, vendor or names
// starting with "." or "_"), and reports false when there were more than
// maxSourceFiles.
func bindGoFiles(dir string, recursive bool, bind func(rel, abs string)) bool {
	depth := 0
	if recursive {
		depth = 32
	}
	return bindSources(dir, depth, goSources, bind)
}

// bindSources calls bind with each file of dir whose name ends with one
// of exts, and those of its subdirectories down to depth levels (not
// into testdata, vendor, node_modules or names starting with "." or "_");
// it reports false past maxSourceFiles.
func bindSources(dir string, depth int, exts []string, bind func(rel, abs string)) bool {
	n := 0
	var walk func(d string, level int) bool
	walk = func(d string, level int) bool {
		ents, err := os.ReadDir(d)
		if err != nil {
			return true
		}
		for _, e := range ents {
			name := e.Name()
			switch {
			case e.IsDir():
				if level < depth && name != "testdata" && name != "vendor" && name != "node_modules" && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_") {
					if !walk(path.Join(d, name), level+1) {
						return false
					}
				}
			case slices.ContainsFunc(exts, func(x string) bool { return strings.HasSuffix(name, x) }):
				if n++; n > maxSourceFiles {
					return false
				}
				abs := path.Join(d, name)
				bind(abs, abs)
			}
		}
		return true
	}
	return dir == "" || walk(path.Clean(dir), 0)
}

// sourceSet is a directory whose sources a command loads without naming
// them, and the names that count as sources there.
type sourceSet struct {
	dir  string
	exts []string
}

// loadedSources are the directories of code a command loads beside what
// its words name: an interpreter's script's directory (its imports and
// requires), and a build runner's directory (the scripts its recipes
// run).
func loadedSources(argv []string) []sourceSet {
	if len(argv) == 0 {
		return nil
	}
	var exts []string
	switch base := path.Base(argv[0]); {
	case strings.HasPrefix(base, "python"):
		exts = []string{".py"}
	case base == "node" || base == "deno" || base == "bun" || base == "tsx" || base == "ts-node":
		exts = []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".json"}
	case base == "ruby":
		exts = []string{".rb"}
	case base == "perl":
		exts = []string{".pl", ".pm"}
	case base == "php":
		exts = []string{".php"}
	case base == "bash" || base == "sh" || base == "zsh" || base == "dash":
		exts = []string{".sh", ".bash"}
	case base == "make" || base == "gmake" || base == "just" || base == "task":
		out := []sourceSet{{dir: ".", exts: []string{".sh", ".bash", ".py", ".mk", ".pl", ".rb", ".js"}}}
		for _, d := range runnerDirs(argv) {
			out = append(out, sourceSet{dir: d, exts: out[0].exts})
		}
		return out
	default:
		return nil
	}
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		// The script: its directory is where its imports are found.
		return []sourceSet{{dir: path.Dir(a), exts: exts}}
	}
	return nil
}

// pythonModule is the module "python -m MODULE" runs, or "".
func pythonModule(argv []string) string {
	if len(argv) == 0 || !strings.HasPrefix(path.Base(argv[0]), "python") {
		return ""
	}
	for i := 1; i < len(argv); i++ {
		switch a := argv[i]; {
		case a == "-m" && i+1 < len(argv):
			return argv[i+1]
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			return a[2:]
		case !strings.HasPrefix(a, "-"):
			return "" // a script: its word is bound
		}
	}
	return ""
}

// implicitInputs are the files build and test runners read from the
// directory they run in without a word naming them; an approval of a
// text is bound to those where it runs.
var implicitInputs = []string{"Makefile", "makefile", "GNUmakefile", "justfile", "Justfile", "Taskfile.yml",
	"package.json", ".npmrc", "Cargo.toml", "build.rs", ".cargo/config.toml", "go.mod", "pyproject.toml",
	"setup.py", "setup.cfg", "tox.ini", "noxfile.py", "conftest.py", "pytest.ini", "__main__.py",
	"Rakefile", "Gemfile", "build.gradle", "build.gradle.kts", "pom.xml", "CMakeLists.txt", "meson.build"}

// identity is what tells one file from another at a path.
func identity(p string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return "?" + err.Error()
	}
	id := ""
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id = fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	if fi.Mode().IsRegular() {
		id += fmt.Sprintf(" %d %d", fi.Size(), fi.ModTime().UnixNano())
		// The change time, which no one can set: an edit that keeps
		// the size and puts the modification time back is still one
		// (a red team's).
		if sec, nsec, ok := fsutil.ChangeTime(p); ok {
			id += fmt.Sprintf(" %d.%09d", sec, nsec)
		}
	}
	return id + " " + fi.Mode().Type().String()
}

// newResolver is a resolver for o, its patterns compiled.
func newResolver(o Options) *resolver {
	r := &resolver{o: o, seen: map[string]bool{}, deadline: time.Now().Add(WalkTimeout)}
	if r.o.Paths.Home == "" {
		r.o.Paths.Home = o.Home
	}
	if r.o.Paths.Cwd == "" {
		r.o.Paths.Cwd = o.Cwd
	}
	r.o.Paths = r.o.Paths.Compile()
	r.o.projectRoot = ProjectRoot(o.Cwd, o.Home)
	return r
}

// lexicalFrom is word c made absolute as if its part ran in dir.
func (r *resolver) lexicalFrom(dir, c string) string {
	saved := r.o.Cwd
	r.at(dir)
	defer r.at(saved)
	return r.lexical(c)
}

// Links lists, for every word of the text that reaches a file through a
// symbolic link where its part runs, the word and the file it reaches,
// and for every word naming a file with other names (a hard link), the
// word and the file's identity: what a "for this session" answer holds
// for. Unlike [Binding] it ignores what the files hold, which a
// session's work changes, and holds only where the words lead: "cat
// notes.txt > out.txt" allowed for the session, then out.txt swapped for
// a link to ~/.local/bin/tool, wrote the tool (a red team's). A word
// whose file does not exist yet is listed too when a directory on its
// way is a link ("> sub/tool" with sub swapped for a link to
// ~/.local/bin: a write creates the file there), and so is every other
// word's name in a directory a word names (cp, mv, install and ln write
// DIR/NAME: "cp notes.txt outdir/" wrote ~/.bashrc through
// outdir/notes.txt made a link since). A word whose links cannot be
// followed is listed as unknown; past [MaxBinding] words a digest ends
// the list.
func Links(o Options, segments [][]string) []string {
	var out []string
	seen := map[string]bool{}
	all := sha256.New()
	add := func(w, abs string) {
		if abs == "" || seen[abs] {
			return
		}
		seen[abs] = true
		entry := ""
		if _, real, err := fsutil.Walk(abs); err != nil {
			entry = w + "\x00?" + err.Error()
		} else if real != abs {
			entry = w + "\x00" + real
		} else if fi, err := os.Lstat(abs); err != nil {
			return
		} else if id, ok := fsutil.FileID(fi); ok && fi.Mode().IsRegular() && fsutil.Links(fi) > 1 {
			// A file with other names is another way to the same place:
			// out.txt made a hard link to ~/.local/bin/tool is written
			// through as a symbolic link would be. It is named by its
			// identity, which the session's own writes keep.
			entry = w + "\x00=" + id
		} else {
			return
		}
		all.Write([]byte(entry + "\n"))
		if len(out) < MaxBinding {
			out = append(out, entry)
		}
	}
	type dir struct{ w, abs string }
	var dirs []dir
	var names []string
	followed, _, _ := words(o, segments, func(r *resolver, w, c string) {
		abs := r.lexical(c)
		add(w, abs)
		if abs == "" {
			return
		}
		if b := filepath.Base(abs); b != "/" && b != "." && b != ".." && !slices.Contains(names, b) && len(names) < maxDirNames {
			names = append(names, b)
		}
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() && len(dirs) < maxDirNames {
			dirs = append(dirs, dir{w, abs})
		}
	})
	for _, d := range dirs {
		for _, n := range names {
			add(strings.TrimSuffix(d.w, "/")+"/"+n, filepath.Join(d.abs, n))
		}
	}
	if !followed {
		out = append(out, "\x00cd")
	}
	if len(out) < MaxBinding {
		return out
	}
	return append(out, fmt.Sprintf("\x00all %x", all.Sum(nil)))
}

// maxDirNames bounds the directories, and the names in each, that
// [Links] joins.
const maxDirNames = 64
