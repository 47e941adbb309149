package gate

import (
	"path"
	"slices"
	"strings"

	"github.com/agentgate/agentgate/internal/shparse"
)

// shellState names the first thing in f that changes how bash reads the
// words after it in ways the gate does not follow, or "" when there is
// none. The gate reads a word as bash would with its defaults; a red
// team's texts changed the defaults first:
//
//   - word splitting on other characters (IFS=,): "X=.env,a; IFS=,; cat
//     $X" opened .env while the gate judged ".env,a". IFS set to blanks
//     only, or empty, splits no wider than the gate reads;
//   - positional parameters, which "set --", "shift", a function call or
//     a shell's arguments set: "set -- .e nv; cat $1$2";
//   - glob options (shopt, GLOBIGNORE, which turns dotglob on): "shopt -s
//     dotglob; cat ?env" matched .env, which "?env" does not by default;
//   - the directories cd and "~" start from (PWD, OLDPWD, HOME): "PWD=LINK
//     bash -c 'cd .. && cat x'" went to the link's parent.
//
// A text holding one is judged incomplete: a sticky ask. It reads the
// text's form; what a form cannot say is asked about by the catastrophic
// scan (an unread statement may hold anything).
func shellState(f *shparse.Form) string {
	found := ""
	note := func(s string) {
		if found == "" {
			found = s
		}
	}
	// ~- is $OLDPWD, and ~+ and $PWD name where a cd of the text went:
	// "cd sub; cd ..; cat ~-/notes" read sub/notes, a link to a key, while
	// ~/notes was judged (a red team's; with OLDPWD set by the host's
	// project settings, "cat ~-/credentials" read ~/.aws).
	changesDir, dirWord := false, ""
	for st := range f.All() {
		if st.Cd != nil {
			changesDir = true
		}
	}
	for w := range f.Words() {
		for _, lit := range w.Starts() {
			if strings.HasPrefix(lit, "~-") {
				note(lit + " (the previous directory, $OLDPWD)")
			}
			if strings.HasPrefix(lit, "~+") && dirWord == "" {
				dirWord = lit
			}
		}
		for _, p := range w.Params() {
			if p.Name == "PWD" || p.Name == "OLDPWD" {
				if p.Name == "OLDPWD" {
					note("$OLDPWD (the previous directory)")
				}
				if dirWord == "" {
					dirWord = "$" + p.Name
				}
			}
		}
	}
	if changesDir && dirWord != "" {
		note(dirWord + " after a cd of the text")
	}
	assigned := map[string]int{}
	for st := range f.All() {
		for _, a := range st.Assigns {
			assignState(a, assigned, note)
		}
		switch st.Kind {
		case shparse.KindCall:
			// Every word a command may start at: the first, and the
			// words after a wrapper ("command shopt", "nice env PWD=x
			// bash -c": a red team's hid each behind one).
			if len(st.Args) == 0 {
				break // assignments alone: read above
			}
			for _, i := range commandStarts(st.Args) {
				if why := commandState(st.Args[i:]); why != "" {
					note(why)
				}
			}
		case shparse.KindDecl:
			for _, a := range st.Assigns {
				if a.Name == "" && a.Value != nil {
					if a.Value.Dynamic() != "" || assignsState(a.Value) {
						note(st.Name + " " + wordText(a.Value) + " (a name computed at run time, or spelled otherwise)")
					}
				}
			}
		}
	}
	for w := range f.Words() {
		for _, p := range w.Params() {
			switch {
			case positional(p.Name):
				note("$" + p.Name + " (a positional parameter)")
			case p.Name == "_":
				note("$_ (the last word of the command before)")
			case p.Excl:
				note("${!...} (a variable named by another)")
			}
		}
	}
	return found
}

// assignState notes what one assignment changes about how bash reads
// later words.
func assignState(a *shparse.Assign, assigned map[string]int, note func(string)) {
	if a.Name == "" {
		return
	}
	// A name assigned twice, or appended to, holds a value the gate
	// cannot pin to one of them ("X=.e; X=${X}nv" and "X+=nv" made .env,
	// a red team's).
	if assigned[a.Name]++; assigned[a.Name] > 1 || a.Append {
		note(a.Name + " (assigned more than once)")
	}
	if a.Value != nil {
		if v, ok := a.Value.Value, a.Value.Static; ok && (strings.Contains(v, "$(") || strings.Contains(v, "`")) {
			// Arithmetic evaluation runs it ("X='a[$(cmd)]'; let X"), and
			// so does a prompt or eval.
			note(a.Name + "=" + v + " (a value holding a command substitution, which arithmetic or eval runs)")
		}
	}
	switch a.Name {
	case "IFS":
		if !blankIFS(a) {
			note("IFS=" + wordText(a.Value) + " (word splitting on other characters)")
		}
	case "GLOBIGNORE":
		note("GLOBIGNORE (which makes globs match dot files)")
	case "BASHOPTS", "SHELLOPTS":
		note(a.Name + " (shell options a bash started with it takes)")
	case "PS4", "PS0", "PS1", "PS2", "PROMPT_COMMAND":
		note(a.Name + " (a prompt bash expands, running what it holds)")
	case "POSIXLY_CORRECT":
		note("POSIXLY_CORRECT (posix mode: aliases are expanded)")
	case "PWD", "OLDPWD", "HOME":
		// A bash started with PWD naming a link to the working directory
		// starts there logically, so its "cd .." goes to the link's
		// parent (a red team's printed a key); HOME is what "~" and a
		// bare cd read.
		note(a.Name + " (which cd and ~ read)")
	}
}

// assignsState reports a word, as bash reads it, that names a variable
// shellState follows (IFS, GLOBIGNORE, BASHOPTS, SHELLOPTS, PWD, OLDPWD,
// HOME).
func assignsState(w *shparse.Word) bool {
	v, ok := w.Value, w.Static
	if !ok {
		v, ok = w.Template()
	}
	if !ok {
		return false
	}
	v, _, _ = strings.Cut(v, "=") // the name assigned, not its value
	for _, name := range []string{"IFS", "GLOBIGNORE", "BASHOPTS", "SHELLOPTS", "PWD", "HOME"} {
		if strings.Contains(v, name) {
			return true
		}
	}
	return false
}

// blankIFS reports an assignment of IFS to a static value of blanks only
// (or nothing): bash then splits no wider than the gate reads words.
func blankIFS(a *shparse.Assign) bool {
	if a.Append || a.Array {
		return false
	}
	if a.Value == nil {
		return true
	}
	return a.Value.Static && strings.Trim(a.Value.Value, " \t\n") == ""
}

// positional reports a positional or special parameter that holds words
// of the shell's arguments: $0 to $9, ${10}, $@, $*.
func positional(name string) bool {
	if name == "@" || name == "*" {
		return true
	}
	for _, r := range name {
		if r < '0' || r > '9' {
			return false
		}
	}
	return name != ""
}

func wordText(w *shparse.Word) string {
	if w == nil {
		return ""
	}
	if w.Static {
		return w.Value
	}
	return "..."
}

// commandStarts are the indexes of args a command may start at: 0, and
// every word after a wrapper (env, command, nice, timeout ...), whose
// options and their values come first in any number ("timeout -k 1 -s
// TERM --foreground 5 bash -c ..." put bash past six words: a red
// team's).
func commandStarts(args []*shparse.Word) []int {
	out := []int{0}
	for i := 0; i < len(args); i++ {
		if wrappers[path.Base(value(args[i]))] {
			for j := i + 1; j < len(args); j++ {
				out = append(out, j)
			}
			break
		}
	}
	return out
}

// value is a word's static value, "" when it has none.
func value(w *shparse.Word) string {
	if !w.Static {
		return ""
	}
	return w.Value
}

// stateNames are the variables whose value changes how bash reads the
// words after them, or where cd and "~" lead; and BASH_ENV, a file that
// every bash the text starts runs first ("BASH_ENV=./f bash -c 'rm -rf
// usr'", f holding "cd /", removes /usr).
var stateNames = []string{"IFS", "GLOBIGNORE", "BASHOPTS", "SHELLOPTS", "POSIXLY_CORRECT", "PS4", "PROMPT_COMMAND",
	"HOME", "PWD", "OLDPWD", "BASH_ENV"}

// namedState finds, in text with its quotes and backslashes taken out,
// one of stateNames used other than read as "$NAME" or "${NAME...}"
// without an assigning operator: bash assigns a name in more ways than
// any list of them ("for IFS in ,", "export IF\S=,", "((IFS=1))", "let
// IFS=1", "A[IFS=1]=q", "${IFS:=,}": a red team's each, after the first
// lists), so the name's presence is what counts.
func namedState(text string) string {
	found := ""
	NameUses(text, func(name string, read bool, rest string) bool {
		if !slices.Contains(stateNames, name) {
			return true
		}
		// "IFS= read -r line", IFS set to nothing, splits no wider
		// than the gate reads (as blankIFS in shellState).
		blank := name == "IFS" && strings.HasPrefix(rest, "=") && (len(rest) == 1 || strings.IndexByte(" \t\n", rest[1]) >= 0)
		if !read && !blank {
			found = name
			return false
		}
		return true
	})
	return found
}

// NameUses calls fn with each variable name of text, once its quotes and
// backslashes are taken out (bash joins "I'F'S" and IF\S into IFS), with
// whether that use only reads it ("$NAME", or "${NAME...}" without ":="
// or "=") and the text after the name; fn returns false to stop. It is the
// one reading of "which variables does this text touch" that the gate's
// state check and the engine's git checks share: bash assigns a name in
// more ways than a list of them, so presence is what they judge.
func NameUses(text string, fn func(name string, read bool, rest string) bool) {
	t := strings.NewReplacer(`\`, "", "'", "", `"`, "").Replace(text)
	for i := 0; i < len(t); {
		if !isNameStart(t[i]) || i > 0 && isNameChar(t[i-1]) {
			i++
			continue
		}
		j := i + 1
		for j < len(t) && isNameChar(t[j]) {
			j++
		}
		read := i > 0 && t[i-1] == '$'
		if i > 1 && t[i-2:i] == "${" {
			// ${NAME} reads it; ${NAME:=x} and ${NAME=x} assign it.
			rest := t[j:]
			read = !strings.HasPrefix(rest, ":=") && !strings.HasPrefix(rest, "=")
		}
		if !fn(t[i:j], read, t[j:]) {
			return
		}
		i = j
	}
}

func isNameStart(c byte) bool { return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isNameChar(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }

// commandState is what one command (args[0] and its words) changes about
// how bash reads later words, or "".
func commandState(args []*shparse.Word) string {
	prog := value(args[0])
	switch base := path.Base(prog); base {
	case "shopt":
		return "shopt (which can change what globs match, and turn on aliases)"
	case "alias":
		return "alias (an alias replaces the words that follow it)"
	case "set":
		for _, w := range args[1:] {
			v := value(w)
			if setChangesReading(v) {
				return "set " + v + " (a shell option that changes how later words are read)"
			}
		}
		for i, w := range args[1:] {
			if v := value(w); (v == "-o" || v == "+o") && i+2 < len(args) {
				switch o := value(args[i+2]); o {
				case "braceexpand", "posix", "history", "histexpand", "physical", "keyword":
					return "set " + v + " " + o + " (a shell option that changes how later words are read)"
				}
			}
		}
	case "bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox":
		for i, w := range args[1:] {
			v := value(w)
			switch {
			case v == "-c" || v == "--" || v == "--norc" || v == "--noprofile":
			case strings.HasPrefix(v, "+") || strings.HasPrefix(v, "--"):
				return prog + " " + v + " (shell options its text is read with)"
			case strings.HasPrefix(v, "-") && strings.ContainsAny(v[1:], "oOBHPkis"):
				return prog + " " + v + " (shell options its text is read with)"
			}
			if v == "-c" && base != "bash" && i+2 < len(args) {
				// Another shell (dash as sh) reads braces, aliases and
				// expansions otherwise than bash, as which the gate read
				// its text: only a plain command means the same to both.
				if t := value(args[i+2]); strings.ContainsAny(t, "{}~`$\n") || strings.Contains(t, "alias") {
					return prog + " -c (another shell than bash, which reads its text otherwise)"
				}
			}
		}
	case "read", "mapfile", "readarray", "printf", "getopts", "export", "declare", "typeset", "local", "readonly", "env":
		if base == "env" {
			// env -S TEXT splits TEXT into the command it runs: a text
			// computed at run time ("$(< s.sh)") is a command no one saw.
			for i, w := range args[1:] {
				if v := value(w); (v == "-S" || strings.HasPrefix(v, "--s")) && i+2 < len(args) {
					if args[i+2].Dynamic() != "" {
						return "env -S with a command text computed at run time"
					}
				}
				if w.Dynamic() != "" {
					if t, ok := w.Template(); !ok || strings.HasPrefix(t, "-S") || strings.HasPrefix(t, "--s") {
						return "env with an option computed at run time"
					}
				}
			}
		}
		// They assign the names among their words: one spelled otherwise
		// ($'\x49FS'), or computed at run time, may be IFS.
		for _, w := range args[1:] {
			if assignsState(w) {
				return prog + " " + wordText(w) + " (a name that changes how words are split or globbed)"
			}
			if v := value(w); base == "env" && (strings.HasPrefix(v, "POSIXLY_CORRECT=") || strings.HasPrefix(v, "PS4=")) {
				return prog + " " + v + " (a variable that changes how a shell reads its text)"
			}
			if w.Dynamic() != "" && base != "printf" && base != "env" {
				return prog + " with a name computed at run time"
			}
		}
		if base == "printf" {
			for i, w := range args[1:] {
				if v := value(w); v == "-v" && i+2 < len(args) {
					if args[i+2].Dynamic() != "" {
						return "printf -v with a name computed at run time"
					}
				}
			}
		}
	}
	return ""
}

// setChangesReading reports a set option cluster that changes how bash
// reads later words: +B (no brace expansion), -H (history expansion), -P
// (physical cd), -k (assignments anywhere).
func setChangesReading(v string) bool {
	if len(v) < 2 || v == "--" || (v[0] != '-' && v[0] != '+') {
		return false
	}
	for _, c := range v[1:] {
		switch {
		case c == 'B' && v[0] == '+', c == 'H' && v[0] == '-', c == 'P' && v[0] == '-', c == 'k' && v[0] == '-':
			return true
		}
	}
	return false
}
