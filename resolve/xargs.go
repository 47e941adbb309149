package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/shparse"
)

// XargsInputs finds what the xargs commands in text read: xargs runs a
// command on words read from its standard input, so the files a reader
// behind it opens are named by whatever feeds it, which no word of the
// text shows. found is false when text runs no xargs. Otherwise roots are
// the trees of the file listers that feed every xargs through a pipe
// ("find src -name '*.go' | xargs grep x": src), to be judged like a
// recursive read, hidden files included; blind is true when some xargs is
// fed by anything else (a file, echo, another program, agentgate's own
// standard input), which cannot be judged; indexFed is true when git
// ls-files feeds one, whose names come from the index, not only from
// the tree that is walked (the engine judges them: gitsafe.IndexNames).
func XargsInputs(s *shparse.Script) (roots []string, blind, found, indexFed bool) {
	return xargsInputs(s, 0)
}

// maxShellDepth bounds how deep xargsInputs follows "bash -c" strings.
const maxShellDepth = 4

// xargsInputs reads the form of s (see [shparse.Form]): the pipes that
// feed each xargs, and the texts a command runs as scripts of their own.
func xargsInputs(s *shparse.Script, depth int) (roots []string, blind, found, indexFed bool) {
	if s.Err != nil {
		return nil, strings.Contains(s.Text, "xargs"), strings.Contains(s.Text, "xargs"), false
	}
	f := s.Form()
	if !f.Complete() {
		// A statement the form cannot say may be an xargs, or feed one.
		return nil, true, true, false
	}
	fed := map[*shparse.Stmt][]string{}
	for st := range f.All() {
		if st.Kind != shparse.KindPipe && st.Kind != shparse.KindPipeAll {
			continue
		}
		right := st.Children[1]
		if right.Kind != shparse.KindCall || !isXargs(right) || inputRedirect(right) || !xargsPassesNames(right) {
			// "xargs cat < list" reads its names from list, not the
			// pipe; -I and -d make paths of their own from the names.
			continue
		}
		left := lastCall(st.Children[0])
		if r, ok := listerRoots(left, true); ok {
			fed[right] = r
			indexFed = indexFed || isCommand(left, "git") && len(left.Args) >= 2 && isWord(left.Args[1], "ls-files")
		}
	}
	for c := range f.All() {
		if c.Kind != shparse.KindCall {
			continue
		}
		// A text a command runs is read as the text it is: "bash -c
		// 'find . | xargs cat'" and "eval 'find . | xargs cat'" feed
		// xargs as much as the text without bash or eval does.
		if inner, isShell := shellString(c); isShell {
			if depth >= maxShellDepth {
				return roots, true, true, indexFed
			}
			r, b, fd, ix := xargsInputs(inner, depth+1)
			roots, blind, found, indexFed = append(roots, r...), blind || b, found || fd, indexFed || ix
		}
		if findExec(c) {
			// find -exec READER {} runs the reader on every file under
			// find's starting points: those trees are read.
			found = true
			if r, ok := findRoots(c); ok {
				roots = append(roots, r...)
			} else {
				blind = true
			}
			continue
		}
		if !mentionsXargs(c) {
			continue
		}
		found = true
		r, ok := fed[c]
		if !ok {
			blind = true // behind a wrapper (sudo xargs), or fed by anything else
			continue
		}
		roots = append(roots, r...)
	}
	return roots, blind, found, indexFed
}

// shellString is the script a command runs as a text of its own: "bash
// -c TEXT" (or sh, dash, zsh ...), eval's words, trap's action, su -c's
// text, as the form names it ([shparse.Stmt.Nested]).
func shellString(c *shparse.Stmt) (*shparse.Script, bool) {
	if c.Nested == nil {
		return nil, false
	}
	return c.Nested.Script(), true
}

// inputRedirect reports whether st reads its standard input from a
// redirect (a file, a here-document or here-string) rather than a pipe.
func inputRedirect(st *shparse.Stmt) bool {
	for _, r := range st.Redirs {
		if r.Stdin() {
			return true
		}
	}
	return false
}

// xargsPassesNames reports whether an xargs hands its command the names
// it reads as they are, each as a word of its own: not with -I, -i or
// --replace where the replacement string is inside a word ("xargs -I Q
// cat ../Qenv" makes ../.env of "."), nor with a delimiter other than a
// newline ("-d Z" splits a planted name "Z.envZ" into .env) or an
// end-of-input string. The options are the catalogue's reading of xargs.
func xargsPassesNames(c *shparse.Stmt) bool {
	argv, ok := c.Argv()
	if !ok {
		return false
	}
	call, start, repl, ok := allowlist.XargsRead(argv)
	if !ok {
		return false
	}
	if repl != "" {
		for _, w := range argv[start:] {
			if strings.Contains(w, repl) && w != repl {
				return false
			}
		}
	}
	for _, u := range call.Flags {
		switch u.Canonical() {
		case "-d", "--delimiter":
			if u.Value != `\n` && u.Value != "\n" {
				return false
			}
		case "-E", "-e", "--eof", "-a", "--arg-file":
			return false // not the pipe's names
		}
	}
	return true
}

// mentionsXargs reports whether any word of c is xargs, however reached.
func mentionsXargs(c *shparse.Stmt) bool {
	for _, w := range c.Args {
		if v, ok := staticValue(w); ok && path.Base(v) == "xargs" {
			return true
		}
	}
	return false
}

func isXargs(c *shparse.Stmt) bool { return isCommand(c, "xargs") }

// isCommand reports whether c runs the program name, however its first
// word is spelled ("xarg\s", "'xargs'", "/usr/bin/xargs" are xargs to
// bash; reading only a plain literal let "find keys | xarg\s cat" print
// a key nobody judged).
func isCommand(c *shparse.Stmt, name string) bool {
	if c == nil || len(c.Args) == 0 {
		return false
	}
	v, ok := staticValue(c.Args[0])
	return ok && path.Base(v) == name
}

// isWord reports whether w's value is v.
func isWord(w *shparse.Word, v string) bool {
	got, ok := staticValue(w)
	return ok && got == v
}

// lastCall is the command whose output a pipe's left side ends with.
func lastCall(s *shparse.Stmt) *shparse.Stmt {
	switch s.Kind {
	case shparse.KindCall:
		if len(s.Redirs) == 0 {
			return s
		}
	case shparse.KindPipe, shparse.KindPipeAll:
		return lastCall(s.Children[1])
	}
	return nil
}

// listerRoots returns the trees a file lister lists: find's starting
// points, ls's and rg --files' operands, git ls-files' working directory.
// Words must be literal; anything else is not a lister.
func listerRoots(c *shparse.Stmt, piped bool) ([]string, bool) {
	if c == nil || len(c.Assigns) > 0 || len(c.Args) == 0 {
		return nil, false
	}
	var argv []string
	for i, w := range c.Args {
		v, ok := staticValue(w)
		// A starting point must be spelled as it is; an expression's
		// pattern ("*.go", quoted) is only read by find, and so are
		// -exec's "{}" and its terminator.
		execWord := v == "{}" || v == `\;` || v == ";" || v == "+"
		if !ok || !execWord && (i == 0 || !strings.HasPrefix(v, "-") && !w.QuotedWhole()) && strings.ContainsAny(v, "$`\\*?[{~") {
			return nil, false
		}
		argv = append(argv, v)
	}
	dot := func(r []string) []string {
		if len(r) == 0 {
			return []string{"."}
		}
		return r
	}
	switch path.Base(argv[0]) {
	case "find":
		if slices.Contains(argv, "-files0-from") {
			return nil, false // its starting points are in a file
		}
		// Piped into xargs, only names will do: -printf (and -fprintf,
		// -ls, -exec's output) prints text of its own, whose escapes can
		// spell any path ("-printf '.e\156v\n' | xargs cat").
		for _, a := range argv[1:] {
			if !piped {
				break
			}
			if a != "-print" && a != "-print0" && strings.HasPrefix(a, "-print") || a == "-fprintf" || a == "-ls" || a == "-fls" ||
				a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir" {
				return nil, false
			}
		}
		var r []string
		for _, a := range argv[1:] {
			if a == "-H" || a == "-L" || a == "-P" {
				continue
			}
			// GNU find's other options before the starting points
			// (-D debugopts, -Olevel) and "--": the starting points
			// follow them, and "find -O3 ~" lists the home. Not read:
			// not a lister.
			if len(r) == 0 && (a == "-D" || strings.HasPrefix(a, "-O") || a == "--") {
				return nil, false
			}
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == ")" || a == "," {
				break
			}
			r = append(r, a)
		}
		return dot(r), true
	case "ls":
		// ls DIR prints DIR's names bare, which xargs' command then opens
		// from the working directory, not DIR: no tree of the text is
		// what is read. -a adds "." and "..", which widen a recursive
		// reader's tree to the parent; -R prints directory headers. Only
		// options known to print bare names will do: -l printed a link's
		// target text ("q -> nonexist /tmp/w2"), which xargs split into a
		// path no walk had seen (a red team's "ls -l | xargs cat" printed
		// a key); -F, -p, -m, -Q, -s, -i and the like add text of their own.
		for _, a := range argv[1:] {
			switch {
			case a == ".":
			case strings.HasPrefix(a, "--"):
				// --color (always) puts LS_COLORS' text around each
				// name, which an environment can make a path (a red
				// team's lc=\n/path/to/key\n); never and auto (no
				// colours into a pipe) print names alone.
				color := a == "--color=never" || a == "--color=no" || a == "--color=none" || a == "--color=auto" || a == "--color=tty" || a == "--color=if-tty"
				if !lsBareLong[a] && !strings.HasPrefix(a, "--sort=") && !color &&
					!strings.HasPrefix(a, "--time=") && !strings.HasPrefix(a, "--ignore=") && !strings.HasPrefix(a, "--hide=") {
					return nil, false
				}
			case strings.HasPrefix(a, "-") && len(a) > 1:
				if strings.Trim(a[1:], lsBareShort) != "" {
					return nil, false
				}
			default:
				return nil, false
			}
		}
		return []string{"."}, true
	case "rg":
		if !slices.Contains(argv, "--files") {
			return nil, false
		}
		var r []string
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a, "-") {
				r = append(r, a)
			}
		}
		return dot(r), true
	case "git":
		if len(argv) >= 2 && argv[1] == "ls-files" {
			// Only options that print names, and names of the index or
			// the working tree: --format and its like print text of
			// their own, --with-tree names from any commit's tree.
			// What the index names is judged too ([IndexFed]).
			// Its operands are pathspecs: ":/" (the top of the work
			// tree), "..", magic and globs reach beyond the directory
			// walked, and -o lists untracked files there that the index
			// does not hold. Only plain paths below it will do; they are
			// the trees walked.
			var specs []string
			for _, a := range argv[2:] {
				switch {
				case a == "--":
				case strings.HasPrefix(a, "-"):
					if !lsFilesBare[a] {
						return nil, false
					}
				case strings.HasPrefix(a, ":") || strings.HasPrefix(a, "/") || strings.ContainsAny(a, "*?[\\") ||
					slices.Contains(strings.Split(a, "/"), ".."):
					return nil, false
				default:
					specs = append(specs, a)
				}
			}
			return dot(specs), true
		}
	}
	return nil, false
}

// lsFilesBare are git ls-files' options that print only names of the
// index or the working tree.
var lsFilesBare = map[string]bool{"-z": true, "-c": true, "--cached": true, "-o": true, "--others": true,
	"-m": true, "--modified": true, "-d": true, "--deleted": true, "--exclude-standard": true, "--full-name": true,
	"--": true}

// lsBareShort are ls's short options whose output is still one bare name
// per entry (an order, a layout, which entries): not "a", whose "." and
// ".." widen a tree, nor "R", "l", "g", "o", "n", "s", "i", "F", "p",
// "m", "Q", "b", "q", "Z", "D", which print more than names or alter them.
const lsBareShort = "1ABCGHLSUXcdhkrtuvx"

// lsBareLong are the long spellings of the same.
var lsBareLong = map[string]bool{"--almost-all": true, "--ignore-backups": true, "--directory": true,
	"--dereference": true, "--dereference-command-line": true, "--reverse": true, "--group-directories-first": true,
	"--human-readable": true, "--literal": true, "--no-group": true}

// staticValue is a word's value as the form reads it (the one reading
// of a word: quotes, escapes and braces as bash removes and expands
// them), so that this package and the gate never read one word two ways;
// an empty word is no value here.
func staticValue(w *shparse.Word) (string, bool) {
	return w.Value, w.Static && w.Value != ""
}

// dashNames asks when a tree fed to xargs holds, at its top, a name that
// starts with "-": a lister that prints names bare (ls, rg --files, git
// ls-files) hands it to the command behind xargs as a flag (an empty file
// named "-r" makes "ls | xargs grep x" a recursive grep). The names of
// the whole tree are judged by [resolver.splitNames].
func (r *resolver) dashNames(roots []string) {
	for _, root := range roots {
		entries, err := readDir(r.lexical(root))
		if err != nil {
			continue
		}
		for i, e := range entries {
			if i > MaxGlobSteps {
				break
			}
			if strings.HasPrefix(e.Name(), "-") {
				r.add(gate.Reason{Check: gate.CheckSensitive, Match: e.Name(), Source: "xargs input",
					Message: fmt.Sprintf("%s holds a file named %s, which xargs would pass to its command as a flag", quote(root), quote(e.Name()))})
				return
			}
		}
	}
}

// findExec reports a find command with -exec or -execdir.
func findExec(c *shparse.Stmt) bool {
	if len(c.Args) == 0 {
		return false
	}
	if v, ok := staticValue(c.Args[0]); !ok || path.Base(v) != "find" {
		return false
	}
	for _, w := range c.Args[1:] {
		if v, ok := staticValue(w); ok && (v == "-exec" || v == "-execdir") {
			return true
		}
	}
	return false
}

// splitNames asks when a tree fed to xargs holds a name that xargs would
// not pass whole: xargs splits its input on blanks and removes quotes and
// backslashes, so planted empty files "x .env" and "q '/home/u/.s'sh/x"
// became the words ".env" and "/home/u/.ssh/x".
func (r *resolver) splitNames(roots []string) {
	budget := MaxGlobSteps * 2
	for _, root := range roots {
		abs := r.lexical(root)
		stop := errors.New("stop")
		filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if budget--; budget < 0 {
				r.add(gate.Reason{Check: gate.CheckSensitive, Match: root, Source: "xargs input",
					Message: fmt.Sprintf("%s holds too many names to check what xargs would make of them", quote(root))})
				return stop
			}
			if name := d.Name(); p != abs && strings.ContainsAny(name, " \t\n\v\f\r'\"\\") {
				r.add(gate.Reason{Check: gate.CheckSensitive, Match: name, Source: "xargs input",
					Message: fmt.Sprintf("%s holds a name with a blank, a quote or a backslash (%s), which xargs splits into other names", quote(root), quote(name))})
				return stop
			}
			return nil
		})
	}
}

// findRoots are the starting points of a find whose -exec runs a reader
// on every file under them.
func findRoots(c *shparse.Stmt) ([]string, bool) { return listerRoots(c, false) }
