package gate

import (
	"path"
	"slices"
	"strings"

	"github.com/agentgate/agentgate/internal/shparse"
)

// textFlow is what the gate learns by reading the text in order, as the
// shell would run it: the variables it assigns ("X=~; rm -rf $X") and the
// directories it changes to ("cd / && rm -rf usr"). Without it a word is
// resolved with the caller's environment and working directory, which
// the text itself can change before the word is used.
//
// It is conservative rather than exact: every assignment and every cd
// counts whichever branch of "&&" or "||" it is on, and a name assigned
// two different values, or one computed at run time, is unknown.
type textFlow struct {
	// script is the request's, which parses each nested text once.
	script *shparse.Script
	// vars are the names assigned a static value (tilde expanded), which
	// override the environment's.
	vars map[string]string
	// unknown are the names assigned a value the gate cannot know: a
	// command substitution, an unknown variable, a loop or read.
	unknown map[string]bool
	// cd is set when the text changes directory (cd, pushd, popd).
	cd bool
	// dirs are the directories, absolute, that the text's cd and pushd
	// lead to, in order; dirUnknown is set when one cannot be known.
	dirs       []string
	dirUnknown bool
	// outputs are the targets of output redirects, spelled as templates.
	outputs []string
	// parses counts the "bash -c" scripts read, up to maxParses.
	parses int
	// read are the names some word read before, in the order bash runs
	// the text: a later assignment of another value does not reach them
	// ("rm -rf /usr$X; X=x" removes /usr).
	read map[string]bool
	// outer is the reach of the statement whose text is being read (a
	// "bash -c" string runs in a shell of its own: none of its
	// assignments reach after it; eval's run where eval runs).
	outer shparse.Reach
}

// maxFlowDirs bounds the directories a text's cd commands are followed
// to; more make every relative target unknown.
const maxFlowDirs = 64

// readFlow reads the assignments and directory changes of the text's
// form and of the texts its commands run as scripts ("bash -c", "bash
// -lc", eval, trap: [shparse.Stmt.Nested]). It returns nil when the text
// does neither, so that the common case costs nothing more.
func readFlow(s *shparse.Script, p Paths) (fl *textFlow) {
	if !s.Form().Parsed {
		return nil
	}
	defer func() {
		if recover() != nil {
			// Something odd in the form: every variable and directory
			// is unknown.
			fl = &textFlow{cd: true, dirUnknown: true, unknown: map[string]bool{"": true}}
		}
	}()
	fl = &textFlow{script: s, vars: map[string]string{}, unknown: map[string]bool{}, read: map[string]bool{}}
	fl.form(p, s.Form(), 0)
	if len(fl.vars) == 0 && len(fl.unknown) == 0 && !fl.cd && len(fl.outputs) == 0 {
		return nil
	}
	return fl
}

// nested reads the form of a text a command runs as a script (via is
// [shparse.Nested.Via]): eval's in the shell it runs in, so in the scope
// of its statement st, and trap's there too but at a time no word says;
// any other's in a shell of its own,
// whose assignments reach nothing after it. A shell of its own sees the
// text's variables only when exported: a name the text assigns and the
// child reads is unknown ("X=x; bash -c 'rm -rf /usr$X'" removes /usr).
// written says the text is the one the command's words hold, not one
// spelled with the outer text's variables, which the outer shell puts in.
func (fl *textFlow) nested(p Paths, st *shparse.Stmt, f *shparse.Form, via string, written bool, depth int) {
	outer, read := fl.outer, fl.read
	defer func() { fl.outer = outer }()
	same := via == "eval" || via == "trap"
	switch {
	case via == "trap":
		// A trap's action runs in this shell, but when a signal, an
		// error or the end says: its assignments may or may not have
		// run at any later word ("trap 'X=/tmp/' EXIT; rm -rf /usr$X").
		fl.outer = shparse.ReachMaybe.Within(st.Scope.Within(outer))
	case same:
		fl.outer = st.Scope.Within(outer)
	default:
		fl.outer = shparse.ReachInside
		fl.read = map[string]bool{}
	}
	fl.form(p, f, depth)
	if same {
		return
	}
	for name := range fl.read {
		if _, assigned := fl.vars[name]; (assigned || name == "") && written {
			fl.unknown[name] = true
		}
		read[name] = true
	}
	fl.read = read
}

// form reads a form's statements in the order bash meets them: a
// statement, then its assignments and words (with the statements of
// their substitutions), its bodies, and last its redirects. A form that
// leaves out a statement the parse holds leaves every directory and
// variable unknown.
func (fl *textFlow) form(p Paths, f *shparse.Form, depth int) {
	if f.Unknown {
		fl.cd, fl.dirUnknown = true, true
		fl.unknown[""] = true
	}
	for _, name := range f.Sets {
		// "let X=0", "${X:=/}": computed when it runs ("?" is a name
		// spelled otherwise: any).
		if name == "?" {
			name = ""
		}
		fl.unknown[name] = true
	}
	for _, st := range f.Stmts {
		fl.stmt(p, st, depth)
	}
}

func (fl *textFlow) stmt(p Paths, st *shparse.Stmt, depth int) {
	substs := func(ss []*shparse.Subst) {
		for _, sub := range ss {
			for _, c := range sub.Stmts {
				fl.stmt(p, c, depth)
			}
		}
	}
	word := func(w *shparse.Word) {
		if w != nil {
			substs(w.Substs)
		}
	}
	assigns := func() {
		for _, a := range st.Assigns {
			fl.assign(p, a)
			word(a.Value) // the value, then an index or the elements, as the tree
			substs(a.Substs)
		}
	}
	fl.reads(st)
	switch st.Kind {
	case shparse.KindUnknown:
		fl.cd, fl.dirUnknown = true, true
		fl.unknown[""] = true
	case shparse.KindCall:
		fl.call(p, st, depth)
		assigns()
	case shparse.KindDecl:
		// local outside a function fails and assigns nothing ("local
		// X=x; rm -rf /usr$X" removes /usr), and inside one its value
		// ends with the call: either way not a value for the rest.
		// An option other than -x, -r and -g (and their +) changes what
		// a value becomes: -n a name for another, -i arithmetic, -l and
		// -u the case ("declare -l X=/USR; rm -rf $X" removes /usr), -a
		// and -A arrays; one not spelled plainly may be any of them.
		unread := st.Name == "nameref" || st.Name == "local"
		for _, a := range st.Assigns {
			if a.Naked && a.Name == "" && a.Value != nil {
				// The option as bash reads it: declare -"n" is -n too.
				opt := a.Value.Value
				if !a.Value.Literal() {
					unread = true
				} else if (strings.HasPrefix(opt, "-") || strings.HasPrefix(opt, "+")) && strings.Trim(opt[1:], "xrg") != "" {
					unread = true
				}
			}
		}
		if unread {
			for _, a := range st.Assigns {
				if a.Name != "" {
					fl.unknown[a.Name] = true
				}
			}
		}
		assigns()
	case shparse.KindFor:
		if st.Name != "" {
			fl.unknown[st.Name] = true
		}
	}
	if st.Kind != shparse.KindCall && st.Kind != shparse.KindDecl {
		for _, w := range st.Args {
			word(w)
		}
		substs(st.Substs)
		for _, c := range st.Children {
			fl.stmt(p, c, depth)
		}
	} else {
		for _, w := range st.Args {
			word(w)
		}
	}
	for _, r := range st.Redirs {
		if r.Writes() && r.Target != nil {
			if t, ok := r.Target.Template(); ok {
				fl.outputs = append(fl.outputs, t)
			}
		}
		word(r.Target)
		word(r.Heredoc)
	}
}

// reads records the names the statement's own words read (not those of
// the statements inside it, which are read in their turn).
func (fl *textFlow) reads(st *shparse.Stmt) {
	ws := slices.Clone(st.Args)
	ws = append(ws, st.Inner...)
	for _, a := range st.Assigns {
		if a.Value != nil {
			ws = append(ws, a.Value)
		}
		ws = append(ws, a.Elems...)
	}
	for _, r := range st.Redirs {
		if r.Target != nil {
			ws = append(ws, r.Target)
		}
		if r.Heredoc != nil {
			ws = append(ws, r.Heredoc)
		}
	}
	for _, w := range ws {
		for _, prm := range w.Params() {
			fl.read[prm.Name] = true
			if prm.Excl {
				fl.read[""] = true
			}
		}
	}
}

// assign records NAME=value: a value known for the rest of the text
// only when bash's scoping lets it reach all of it ([shparse.Reach])
// and no word read the name before with another value; unknown
// otherwise.
func (fl *textFlow) assign(p Paths, a *shparse.Assign) {
	if a.Name == "" || a.Naked {
		return
	}
	name := a.Name
	if a.Array || a.Value == nil || a.Reach.Within(fl.outer) != shparse.ReachRest {
		fl.unknown[name] = true
		return
	}
	v, ok := fl.value(p, a.Value)
	if !ok {
		fl.unknown[name] = true
		return
	}
	if old, seen := fl.vars[name]; (fl.read[name] || fl.read[""]) && (!seen || old != v) {
		// A word before it read the name's value from the environment
		// or an earlier assignment: one value does not say both.
		fl.unknown[name] = true
		return
	}
	if a.Append {
		// "X=.e; X+=nv" is .env (a red team's read it in bypass mode).
		old, known := fl.vars[name]
		if !known || fl.unknown[name] {
			fl.unknown[name] = true
			return
		}
		v = old + v
	}
	if old, seen := fl.vars[name]; seen && old != v && !a.Append {
		fl.unknown[name] = true
	}
	fl.vars[name] = v
}

// value is what a word assigned to a variable holds, when static or
// made only of variables already known; "~" and "~/" are expanded as
// bash expands them in an assignment.
func (fl *textFlow) value(p Paths, w *shparse.Word) (string, bool) {
	t, ok := w.Template()
	if !ok {
		return "", false
	}
	if w.Dynamic() == "" {
		fields, err := w.Fields()
		if err != nil || len(fields) != 1 {
			return "", false
		}
		t = fields[0]
	} else {
		q := p
		q.flow = fl
		t = q.substitute(t)
		if e := q.expandVar(t); e != t {
			t = e
		}
		if strings.Contains(t, "$") {
			return "", false
		}
	}
	if p.Home != "" && (t == "~" || strings.HasPrefix(t, "~/")) {
		t = p.Home + t[1:]
	}
	return t, true
}

// call records the directory change of one command (the form's
// [shparse.Stmt.Cd]) and reads the script it runs as a text of its own.
func (fl *textFlow) call(p Paths, c *shparse.Stmt, depth int) {
	if c.Cd != nil {
		fl.changeDir(p, *c.Cd)
	}
	var argv []string
	for _, w := range c.Args {
		argv = append(argv, w.Spelling()) // "$?" when computed at run time
	}
	for len(argv) > 0 && (argv[0] == "builtin" || argv[0] == "command") {
		argv = argv[1:]
	}
	if len(argv) == 0 {
		return
	}
	switch argv[0] {
	case "source", ".":
		// A file the gate does not read runs in this shell: it may
		// assign any name and go anywhere ("X=/tmp/; . ./f; rm -rf
		// ${X}usr", f holding "X=/").
		fl.unknown[""] = true
		fl.cd, fl.dirUnknown = true, true
	case "read", "mapfile", "readarray", "getopts", "printf", "unset":
		// They assign (or remove) the names among their words.
		for _, a := range argv[1:] {
			if ValidName(a) {
				fl.unknown[a] = true
			}
		}
	}
	// The text it runs: the form's reading, or a -c string spelled with
	// the text's variables ("D=/; bash -c \"cd $D\""), read as its template.
	text, via, written := "", "", false
	switch {
	case c.Nested != nil:
		text, via, written = c.Nested.Text, c.Nested.Via, true
	case len(argv) >= 3 && isShell(argv[0]) && argv[1] == "-c":
		text, via = argv[2], "-c"
	}
	if depth < maxNesting && text != "" {
		if fl.parses++; fl.parses > maxParses {
			fl.cd, fl.dirUnknown = true, true // not read: anything may happen there
			return
		}
		if sub := fl.script.Of(text); sub.Err == nil {
			fl.nested(p, c, sub.Form(), via, written, depth+1)
		}
	}
}

// changeDir follows a directory change from the last directory the text
// went to, its words read with the text's own variables put in first
// ("D=sub; cd $D"); a change whose target cannot be known makes every
// later directory unknown.
func (fl *textFlow) changeDir(p Paths, cd shparse.Cd) {
	fl.cd = true
	q := p
	q.flow = fl
	step := cd.Under(func(w string) string {
		v := q.substitute(w)
		if e := q.expandVar(v); e != v {
			v = e
		}
		return v
	})
	if step.Unknown != "" || len(fl.dirs) >= maxFlowDirs {
		fl.dirUnknown = true
		return
	}
	dir := step.Target
	if step.Home {
		dir = "~"
	}
	cdpath := p.Vars["CDPATH"] != "" || fl.vars["CDPATH"] != "" || fl.unknown["CDPATH"]
	if cdpath && step.LooksUp() {
		fl.dirUnknown = true // CDPATH may lead anywhere
		return
	}
	relative := !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "~")
	// A cd may fail ("cd nonexist; cd .."), or run in a pipeline or a
	// subshell, and leave the shell where it was: a relative target is
	// taken from every directory the shell may be in by then, not only
	// from the last one followed (a red team's "cd nonexist; cd ..; rm
	// -rf ../../home" was judged from the project and deleted the home).
	bases := []string{p.Cwd}
	if relative {
		bases = append(bases, fl.dirs...)
	}
	for _, base := range bases {
		if relative && base == "" {
			fl.dirUnknown = true
			continue
		}
		q.Cwd = base
		d := path.Clean(q.resolve(dir))
		switch {
		case slices.Contains(fl.dirs, d):
		case len(fl.dirs) >= maxFlowDirs:
			fl.dirUnknown = true
		default:
			fl.dirs = append(fl.dirs, d)
		}
	}
}

// ValidName reports a shell variable name.
func ValidName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// substitute replaces every $NAME and ${NAME} of a variable the text
// assigns a static value with that value, anywhere in the word.
func (p Paths) substitute(word string) string {
	fl := p.flow
	if fl == nil || len(fl.vars) == 0 || !strings.Contains(word, "$") {
		return word
	}
	return replaceVars(word, func(name string) (string, bool) {
		v, ok := fl.vars[name]
		// unknown[""]: a name spelled at run time was assigned, which
		// may be any.
		return v, ok && !fl.unknown[name] && !fl.unknown[""]
	}, nil)
}

// varAt reads "$NAME" or "${NAME}" at the start of s: the name and the
// length of the spelling, or "" when s starts with neither.
func varAt(s string) (name string, n int) {
	rest, braced := s[1:], false
	if strings.HasPrefix(rest, "{") {
		rest, braced = rest[1:], true
	}
	k := 0
	for k < len(rest) && (rest[k] == '_' || rest[k] >= 'A' && rest[k] <= 'Z' || rest[k] >= 'a' && rest[k] <= 'z' || k > 0 && rest[k] >= '0' && rest[k] <= '9') {
		k++
	}
	if k == 0 {
		return "", 0
	}
	if braced {
		if k >= len(rest) || rest[k] != '}' {
			return "", 0
		}
		return rest[:k], k + 3
	}
	return rest[:k], k + 1
}

// unknownVar reports whether the word uses a variable that the text
// assigns a value computed at run time, and returns the literal text
// after the last such use.
func (p Paths) unknownVar(word string) (tail string, ok bool) {
	fl := p.flow
	if fl == nil || len(fl.unknown) == 0 {
		return "", false
	}
	for i := 0; i < len(word); i++ {
		if word[i] != '$' {
			continue
		}
		name, n := varAt(word[i:])
		if fl.unknown[name] || fl.unknown[""] {
			tail, ok = word[i+max(n, 1):], true
		}
	}
	return tail, ok
}

// expands reports a name a reader of a word as a string puts a value in
// for ([Paths.resolve], [Paths.substitute]): the home, one the
// environment sets, one the text assigns.
func (p Paths) expands(name string) bool {
	if _, env := p.Vars[name]; env || name == "HOME" {
		return true
	}
	fl := p.flow
	if fl == nil {
		return false
	}
	_, assigned := fl.vars[name]
	return assigned || fl.unknown[name]
}
