package gate

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/internal/shparse"
)

// maxNesting bounds how deep segments looks into "bash -c" strings.
const maxNesting = 4

// MaxSegments bounds the command lines collect collects. A text with
// more is asked about rather than half checked against the deny rules.
const MaxSegments = 4096

// MaxSegmentBytes bounds the bytes of all the words collect collects.
// Each nested "$( )" repeats the text inside it as a word of the command
// around it, so n nested substitutions make words of n²/2 bytes, and every
// check after the collection reads each of them: a 64 KiB nest took a
// second. Past the bound the text is asked about, so judging stays linear
// in the input (16 times the longest text the gate judges; the real
// commands of the corpus use at most 22 times their own length, brace
// expansions).
const MaxSegmentBytes = 16 * MaxCommandBytes

// maxWrapperWords bounds how many words after a wrapper (sudo -u root ...)
// are tried as the start of the wrapped command.
const maxWrapperWords = 6

// collect returns, as well as it can, the argv of every simple command
// anywhere in text: each side of "&&" and "|", inside "$(...)", in the
// script of "bash -c". Deny and ask rules and risk notes look at all of
// them, so that "git status && rm -rf x" still meets a deny rule for "rm".
// It over-collects on purpose: both the parse and a plain split on
// operator characters are used, and each argv is also offered with
// wrappers (sudo, env, xargs ...) and directories stripped from the front.
// limit names the bound that was reached when some were not collected:
// "braces", "segments" or "bytes" ("" when none).
func collect(s *shparse.Script, text string, subst func(string) string, expands func(name string) bool) (segs [][]string, limit string) {
	c := collector{script: s, parses: 1, raw: true, subst: subst, expands: expands}
	c.file(text, 0)
	switch {
	case !c.full:
	case c.braces:
		limit = "braces"
	case c.escape != "":
		limit = "escape " + c.escape
	case c.dollar != "":
		limit = "dollar " + c.dollar
	case c.tilde != "":
		limit = "tilde " + c.tilde
	case c.state != "":
		limit = "state " + c.state
	case c.unread != "":
		limit = "unread " + c.unread
	case len(c.out) >= MaxSegments:
		limit = "segments"
	default:
		limit = "bytes"
	}
	return c.out, limit
}

// incomplete is the reason a text whose collection reached a bound asks:
// the rules and checks saw only part of it, so nothing they decided may
// run it unasked (not bypass, not session memory).
func incomplete(segs [][]string, limit string) Reason {
	n := 0
	for _, argv := range segs {
		for _, w := range argv {
			n += len(w)
		}
	}
	if limit == "braces" {
		return Reason{Check: CheckText, Match: "brace expansion",
			Message: fmt.Sprintf("a brace expansion would make more than %d words, too many to check against the rules", MaxBraceFields)}
	}
	if e, ok := strings.CutPrefix(limit, "escape "); ok {
		return Reason{Check: CheckText, Match: e,
			Message: fmt.Sprintf("%s holds an escape that bash reads otherwise than agentgate (a NUL, \\x{...}, \\c), so what the text names cannot be known", e)}
	}
	if d, ok := strings.CutPrefix(limit, "dollar "); ok {
		return Reason{Check: CheckText, Match: d,
			Message: fmt.Sprintf("%s is quoted, so bash leaves it as written, while agentgate's path checks read it as the variable: what the word names cannot be known", d)}
	}
	if t, ok := strings.CutPrefix(limit, "tilde "); ok {
		return Reason{Check: CheckText, Match: t,
			Message: fmt.Sprintf("%s holds a ~ that bash does not expand to the home (quoted, after = or :, another user's home or the directory stack), so what the text names cannot be known", t)}
	}
	if st, ok := strings.CutPrefix(limit, "state "); ok {
		return Reason{Check: CheckText, Match: st,
			Message: fmt.Sprintf("the text changes how bash reads the words after it: %s, which agentgate does not follow", st)}
	}
	if u, ok := strings.CutPrefix(limit, "unread "); ok {
		return Reason{Check: CheckText, Match: u,
			Message: fmt.Sprintf("agentgate does not read all of the text (%s), so the rules saw only part of it", u)}
	}
	if limit == "bytes" {
		return Reason{Check: CheckText, Match: fmt.Sprintf("%d bytes of words", n),
			Message: fmt.Sprintf("command nests its commands so deeply that their words pass %d bytes, too many to check against the rules", MaxSegmentBytes)}
	}
	return Reason{Check: CheckText, Match: fmt.Sprintf("%d commands", len(segs)),
		Message: fmt.Sprintf("command holds more than %d commands and wrappers, too many to check against the rules", MaxSegments)}
}

// parsedSegments0 is [collect] from the parse alone, nested shell
// strings included: the one reading of the words, for judging which
// paths a command names. The plain split that [collect] adds is for the
// deny and ask rules, where reading more words only asks more; for paths
// it reads a quoted pattern's "class .*(" as a word ".*" that could name
// ~/.bashrc.
func parsedSegments0(s *shparse.Script, text string) (segs [][]string, complete bool) {
	c := collector{script: s, parses: 1}
	c.file(text, 0)
	return c.out, !c.full
}

// maxParses bounds how many texts (the command and nested "bash -c"
// scripts) one collection parses.
const maxParses = 16

type collector struct {
	// script is the request's, which parses each nested text once.
	script *shparse.Script
	out    [][]string
	parses int
	full   bool
	bytes  int  // of the words in out, against MaxSegmentBytes
	braces bool // a brace expansion passed MaxBraceFields
	// escape is a $'...' bash may read otherwise (shparse.Form.Escape)
	escape string
	// state is what changes how bash reads later words (shellState)
	state string
	// dollar is a quoted "$NAME" whose name expands names: bash leaves
	// it as written, and a reader of the word as a string does not
	// ([shparse.Word.LiteralNames]).
	dollar  string
	expands func(name string) bool
	// tilde is a word whose "~" bash reads otherwise than the gate
	// (unreadTilde)
	tilde string
	// unread is why a text's form does not say all of it
	unread string
	// subst puts the text's own static assignments into a text eval
	// runs ("x='rm -rf ~'; eval \"$x\""); nil leaves it as it is.
	subst func(string) string
	// raw adds the plain split of each text to its parse.
	raw bool
}

func (c *collector) text(text string, depth int) {
	if c.parses >= maxParses {
		c.full = true
		return
	}
	c.parses++
	c.file(text, depth)
}

// file collects from text, read through its form (see [shparse.Form]).
func (c *collector) file(text string, depth int) {
	sc := c.script.Of(text)
	if f := sc.Form(); f.Parsed && c.escape == "" && c.state == "" && c.tilde == "" && c.dollar == "" {
		if e := f.Escape; e != "" {
			// Its word is not read as bash reads it ($'\x{2e}env' is
			// .env to bash): the text is judged incomplete, a sticky ask.
			c.full, c.escape = true, e
		} else if d := literalDollar(f, c.expands); d != "" {
			c.full, c.dollar = true, d
		} else if st := shellState(sc.Form()); st != "" {
			c.full, c.state = true, st
		} else if name := namedState(text); name != "" {
			c.full, c.state = true, name+" (a variable that changes how words are read, or where cd and ~ lead, named other than as a plain read)"
		} else if t := unreadTilde(sc.Form()); t != "" {
			c.full, c.tilde = true, t
		}
	}
	segs, overBudget, unread := parsedSegments(sc)
	if unread != "" && c.unread == "" {
		// What the form cannot say is not collected: the text is judged
		// incomplete, a sticky ask.
		c.full, c.unread = true, unread
	}
	if overBudget {
		// A brace expansion past its budget was not expanded: its words
		// are not all seen ("rm -rf {x{1..2000},~}"), so the text is
		// judged incomplete, a sticky ask.
		c.full, c.braces = true, true
	}
	for _, argv := range segs {
		c.add(argv, depth, 0)
	}
	if depth < maxNesting {
		texts, argvs := feeds(sc.Form())
		for _, argv := range argvs {
			c.add(argv, depth, 0)
		}
		for _, t := range texts {
			c.text(t, depth+1)
		}
	}
	if !c.raw && sc.Form().Parsed {
		return
	}
	for _, argv := range splitSegments(text) {
		c.add(argv, depth, 0)
	}
}

func (c *collector) add(argv []string, depth, level int) {
	if len(argv) == 0 || level > maxNesting {
		return
	}
	n := 0
	for _, w := range argv {
		n += len(w)
	}
	if len(c.out) >= MaxSegments || c.bytes+n > MaxSegmentBytes {
		c.full = true
		return
	}
	c.bytes += n
	c.out = append(c.out, argv)
	if depth < maxNesting && isShell(argv[0]) {
		if t, ok := shellCText(argv); ok {
			c.text(t, depth+1)
		}
	}
	if depth < maxNesting {
		if t, ok := runsText(argv); ok {
			if c.subst != nil && path.Base(argv[0]) == "eval" {
				if v := c.subst(t); v != t {
					c.text(v, depth+1)
				}
			}
			c.text(t, depth+1)
		}
	}
	if base := path.Base(argv[0]); base == "find" {
		// find -exec CMD ... ; runs CMD ("find . -exec sh -c 'rm -rf ~'
		// \;"). With -maxdepth 0 it runs on the starting points
		// themselves, which stand for {} then ("find ~ -maxdepth 0
		// -exec mv {} /tmp/x \;" moves the home away).
		var roots []string
		for _, a := range argv[1:] {
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
				break
			}
			roots = append(roots, a)
		}
		top := slices.Contains(argv, "-maxdepth") && slices.Index(argv, "-maxdepth")+1 < len(argv) && argv[slices.Index(argv, "-maxdepth")+1] == "0"
		for i := 1; i < len(argv); i++ {
			switch argv[i] {
			case "-exec", "-execdir", "-ok", "-okdir":
				j := i + 1
				for j < len(argv) && argv[j] != ";" && argv[j] != "+" {
					j++
				}
				if cmd := argv[i+1 : j]; len(cmd) > 0 {
					c.add(slices.Clone(cmd), depth, level+1)
					if top {
						for _, r := range roots {
							sub := slices.Clone(cmd)
							for k := range sub {
								sub[k] = strings.ReplaceAll(sub[k], "{}", r)
							}
							c.add(sub, depth, level+1)
						}
					}
				}
				i = j
			}
		}
	}
	if path.Base(argv[0]) == "env" && depth < maxNesting {
		// env -C DIR (--chdir) runs the command in DIR: judged as "cd
		// DIR && COMMAND" ("env --chdir=/tmp rm -rf rt4home").
		for i := 1; i < len(argv); i++ {
			dir, next, ok := envOption(argv, i, 'C', "--chdir")
			if !ok {
				continue
			}
			i = next
			// The command's relative words are taken from DIR, as the
			// program will open them.
			cmd := slices.Clone(argv[i+1:])
			for k := 1; k < len(cmd); k++ {
				if w := cmd[k]; w != "" && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~") && !strings.HasPrefix(w, "$") {
					cmd[k] = path.Join(dir, w)
				}
			}
			if len(cmd) > 0 {
				c.add(cmd, depth, level+1)
			}
			break
		}
	}
	if path.Base(argv[0]) == "env" {
		// env -S STRING splits STRING into the command and its words,
		// and expands ${NAME} in it.
		for i := 1; i < len(argv); i++ {
			v, _, ok := envOption(argv, i, 'S', "--split-string")
			if !ok {
				continue
			}
			if depth < maxNesting {
				c.text(v, depth+1)
			}
			break
		}
	}
	if path.Base(argv[0]) == "parallel" {
		// "parallel rm -rf ::: ~" runs the command with each argument
		// after ::: (or :::+, ::::) appended.
		if i := slices.IndexFunc(argv, func(w string) bool { return strings.HasPrefix(w, ":::") }); i > 1 {
			for _, a := range argv[i+1:] {
				if !strings.HasPrefix(a, ":::") {
					c.add(append(slices.Clone(argv[1:i]), a), depth, level+1)
				}
			}
		}
	}
	if base := path.Base(argv[0]); base != argv[0] && base != "." && base != "/" {
		c.add(append([]string{base}, argv[1:]...), depth, level+1)
		return
	}
	if wrappers[argv[0]] {
		// The wrapped command starts after the wrapper's options, whose
		// values cannot be told apart from the command without knowing
		// every wrapper's flags: try each of the next few words.
		for i := 1; i < len(argv) && i <= maxWrapperWords; i++ {
			c.add(argv[i:], depth, level+1)
		}
	}
}

// envOption reads env's option short (-C) or long (--chdir) at argv[i],
// however GNU env takes it: "--chdir DIR", "--chdir=DIR", an unambiguous
// abbreviation ("--chd=DIR": a red team's ran unread), "-C DIR", "-CDIR"
// and in a bundle ("-iCDIR", "-iC DIR"). It returns the value and the
// index of the last word read.
func envOption(argv []string, i int, short byte, long string) (value string, last int, ok bool) {
	a := argv[i]
	if strings.HasPrefix(a, "--") {
		name, v, eq := strings.Cut(a, "=")
		if len(name) < 3 || !strings.HasPrefix(long, name) {
			return "", i, false
		}
		if eq {
			return v, i, true
		}
		if i+1 < len(argv) {
			return argv[i+1], i + 1, true
		}
		return "", i, false
	}
	if !strings.HasPrefix(a, "-") || len(a) < 2 {
		return "", i, false
	}
	for k := 1; k < len(a); k++ {
		switch a[k] {
		case short:
			if rest := a[k+1:]; rest != "" {
				return rest, i, true
			}
			if i+1 < len(argv) {
				return argv[i+1], i + 1, true
			}
			return "", i, false
		case 'u', 'C', 'S', 'a':
			return "", i, false // another option's value is the rest
		}
	}
	return "", i, false
}

// shellCText is the text a shell runs with -c, however its options are
// spelled ([shparse.ShellCText]).
func shellCText(argv []string) (string, bool) { return shparse.ShellCText(argv) }

// ShellText is the text a shell runs with -c ("bash -c TEXT", "sh -xc
// TEXT"), as the gate reads it ([shparse.ShellText]); ok is false for any
// other command.
func ShellText(argv []string) (string, bool) { return shparse.ShellText(argv) }

// runsText is the shell text a program runs that is not "bash -c"
// ([shparse.RunsText]): eval's words, trap's action, su -c's text.
func runsText(argv []string) (string, bool) { return shparse.RunsText(argv) }

// feeds are what a literal standard input makes a shell or xargs run:
// "echo 'rm -rf ~' | sh", "sh <<< 'rm -rf ~'", "echo ~ | xargs rm -rf",
// "xargs -I{} rm -rf {} <<< ~". The text piped into a shell is judged as
// a -c string is; the words fed to xargs are appended to (and put in
// place of the -I replacement of) each command xargs may run. Only
// literal input (a here-string, a here-document, echo or printf of static
// words) is known; any other input leaves xargs' targets unknown, which
// the catastrophic scan makes an ask of its own.
func feeds(f *shparse.Form) (texts []string, argvs [][]string) {
	// feed hands input to the shell or xargs st runs; words is what
	// xargs reads of it when that differs (quoted "~" and "$" reach it
	// as they are: xargs expands nothing, so "echo '~' | xargs rm -rf"
	// removes a file named ~, not the home).
	feed := func(st *shparse.Stmt, input string, xargsWords ...string) {
		if st.Kind != shparse.KindCall {
			return
		}
		argv, ok := st.Argv()
		if !ok || len(argv) == 0 {
			return
		}
		// The reader behind a wrapper ("| env sh", "| timeout 5 sh").
		for i := 0; i < len(argv) && i <= maxWrapperWords && wrappers[path.Base(argv[0])] && !isShell(argv[0]) && path.Base(argv[0]) != "xargs"; i++ {
			if isShell(argv[i]) || path.Base(argv[i]) == "xargs" {
				argv = argv[i:]
				break
			}
		}
		switch {
		case isShell(argv[0]) && !slices.Contains(argv[1:], "-n"):
			if _, ok := shellCText(argv); !ok {
				texts = append(texts, input)
			}
		case path.Base(argv[0]) == "xargs":
			// One reading: the catalogue's. The words fed to it go in
			// one place, so "echo ~ | xargs -I{} echo rm -rf {}" is the
			// echo it is (trying every later word as the start made it
			// a deny).
			start, repl, ok := allowlist.XargsCommand(argv)
			if !ok {
				return
			}
			words := strings.Fields(input)
			if len(xargsWords) > 0 {
				words = xargsWords
			}
			cmd := argv[start:]
			if repl == "" {
				argvs = append(argvs, append(slices.Clone(cmd), words...))
				return
			}
			for _, w := range words {
				r := slices.Clone(cmd)
				for k := range r {
					r[k] = strings.ReplaceAll(r[k], repl, w)
				}
				argvs = append(argvs, r)
			}
		}
	}
	// produced is what a literal echo or printf prints: every reading of
	// it (printf's escapes decoded and its %s filled in, echo's both
	// ways: dash's echo decodes escapes), each judged.
	produced := func(c *shparse.Stmt) []string {
		argv, ok := c.Argv()
		if c.Kind != shparse.KindCall || !ok || len(argv) == 0 {
			return nil
		}
		return printed(argv)
	}
	// procText is what a word that is one process substitution
	// <(echo ...) produces.
	procText := func(w *shparse.Word) []string {
		if w == nil || len(w.Substs) != 1 {
			return nil
		}
		ps := w.Substs[0]
		if ps.Kind != "<(...)" || ps.Text != w.Text || len(ps.Stmts) != 1 {
			return nil
		}
		return produced(ps.Stmts[0])
	}
	for n, r := range f.Events() {
		if r != nil {
			continue
		}
		for _, r := range n.Redirs {
			switch r.Op {
			case "<":
				// "sh < <(echo ...)"
				for _, t := range procText(r.Target) {
					feed(n, t)
				}
			case "<<<":
				if w := r.Target; w != nil && w.Static {
					feed(n, w.Value, literalWords(w, w.Value)...)
				} else if w != nil {
					// "bash <<< \"rm -rf $HOME\"": the text with its
					// quotes, which the shell's parse of it removes.
					raw := w.Text
					if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
						raw = raw[1 : len(raw)-1]
					}
					feed(n, raw)
				}
			case "<<", "<<-":
				if r.Heredoc != nil {
					body := r.Heredoc.Text
					// No tilde expansion in a here-document; no
					// expansion at all under a quoted delimiter.
					quoted := r.Target != nil && r.Target.Lit() == ""
					var lit []string
					for _, w := range strings.Fields(body) {
						lit = append(lit, literalField(w, quoted))
					}
					feed(n, body, lit...)
				}
			}
		}
		switch n.Kind {
		case shparse.KindCall:
			// ". <(echo ...)", "source <(printf ...)", "sh <(echo ...)"
			// run what the substitution prints.
			if len(n.Args) >= 2 {
				if prog := n.Args[0]; prog.Static && (prog.Value == "." || prog.Value == "source" || isShell(prog.Value)) {
					for _, w := range n.Args[1:] {
						texts = append(texts, procText(w)...)
					}
				}
			}
		case shparse.KindPipe, shparse.KindPipeAll:
			x := n.Children[0]
			if x.Kind != shparse.KindCall {
				continue
			}
			argv, ok := x.Argv()
			if !ok || len(argv) == 0 {
				continue
			}
			switch path.Base(argv[0]) {
			case "echo", "printf":
				lit := make([]string, len(x.Args))
				for i, w := range x.Args {
					lit[i] = strings.Join(literalWords(w, argv[i]), " ")
				}
				litPrinted := printed(lit)
				for k, t := range printed(argv) {
					if k < len(litPrinted) {
						feed(n.Children[1], t, strings.Fields(litPrinted[k])...)
					} else {
						feed(n.Children[1], t)
					}
				}
			}
		}
	}
	return texts, argvs
}

// blindShell reports a shell that reads its script from another program
// whose output the gate cannot know ("curl ... | sh", "base64 -d <<< ... |
// sh", "echo ... | cat | sh"): what it runs is known only when it runs,
// as a computed rm target is. It reads the form's pipes.
func blindShell(f *shparse.Form) (string, bool) {
	for b := range f.All() {
		if b.Kind != shparse.KindPipe && b.Kind != shparse.KindPipeAll {
			continue
		}
		if found := blindReader(b.Children[0], b.Children[1]); found != "" {
			return found, true
		}
	}
	return "", false
}

// blindReader is the shell y that reads its script from what x prints
// ("| sh"), "" when y is no such shell or x prints literal words.
func blindReader(x, y *shparse.Stmt) string {
	if y.Kind != shparse.KindCall {
		return ""
	}
	argv, ok := y.Argv()
	if !ok {
		return ""
	}
	for i := 0; i < len(argv) && i <= maxWrapperWords; i++ {
		if !isShell(argv[i]) {
			if i == 0 && !wrappers[path.Base(argv[0])] {
				return ""
			}
			continue
		}
		sh := argv[i:]
		if _, c := shellCText(sh); c || slices.Contains(sh[1:], "-n") {
			return ""
		}
		for _, a := range sh[1:] {
			if !strings.HasPrefix(a, "-") {
				return "" // a script file: it reads that, not the pipe
			}
		}
		if x.Kind == shparse.KindCall && len(x.Args) > 0 {
			if p := x.Args[0]; p.Static && (p.Value == "echo" || p.Value == "printf") {
				if _, static := x.Argv(); static {
					return "" // literal: judged as its text (feeds)
				}
			}
		}
		return "| " + argv[i]
	}
	return ""
}

// writtenScript reports a script the text runs that it writes itself or
// reads from its standard input ("echo 'rm -rf ~' > s; bash s", "make -f
// /dev/stdin <<< ..."): what it runs is known only when it runs. It
// reads the form's statements in order; a statement's own redirects count
// as written before the statements inside it run.
func writtenScript(f *shparse.Form) (string, bool) {
	written := map[string]bool{}
	for st := range f.All() {
		if st.Kind == shparse.KindCall && len(st.Args) > 0 {
			// "bash < s.sh" runs what the text wrote to s.sh.
			found := ""
			if prog := st.Args[0]; prog.Static && isShell(path.Base(prog.Value)) {
				for _, r := range st.Redirs {
					if r.Op == "<" && r.Target != nil && r.Target.Static && written[path.Clean(r.Target.Value)] {
						found = prog.Value + " < " + r.Target.Value
					}
				}
			}
			if found != "" {
				return found, true
			}
			if found := scriptRun(st, written); found != "" {
				return found, true
			}
		}
		for _, r := range st.Redirs {
			switch r.Op {
			case ">", ">>", "&>", "&>>", ">|":
				if r.Target != nil && r.Target.Static {
					written[path.Clean(r.Target.Value)] = true
				}
			}
		}
	}
	return "", false
}

// scriptRun notes in written the files a simple command writes by its
// words, and returns what it runs that the text wrote or reads from
// standard input ("" when nothing).
func scriptRun(c *shparse.Stmt, written map[string]bool) string {
	stdin := func(v string) bool {
		return v == "-" || v == "/dev/stdin" || v == "/dev/fd/0" || v == "/proc/self/fd/0"
	}
	argv, ok := c.Argv()
	if !ok || len(argv) < 1 {
		return ""
	}
	prog := path.Base(argv[0])
	// What writes a file by its words: tee FILE, dd of=FILE, the
	// destination of cp, mv, install and ln, sed -i's files (a red
	// team's "tee s.sh", "dd of=s.sh" wrote the script it ran).
	switch prog {
	case "tee", "sed":
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a, "-") {
				written[path.Clean(a)] = true
			}
		}
	case "dd":
		for _, a := range argv[1:] {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				written[path.Clean(v)] = true
			}
		}
	case "cp", "mv", "install", "ln", "rsync":
		written[path.Clean(argv[len(argv)-1])] = true
	}
	// A path the text wrote, run as the program ("chmod +x s.sh;
	// ./s.sh").
	if strings.Contains(argv[0], "/") && written[path.Clean(argv[0])] {
		return argv[0]
	}
	if len(argv) < 2 {
		return ""
	}
	found := ""
	switch {
	case isShell(prog) || prog == "." || prog == "source":
		if _, c := shellCText(argv); c {
			return ""
		}
		for _, a := range argv[1:] {
			if strings.HasPrefix(a, "-") && prog != "." && prog != "source" {
				continue
			}
			if written[path.Clean(a)] || stdin(a) {
				found = argv[0] + " " + a
			}
			break
		}
	case prog == "make" || prog == "gmake":
		for i, a := range argv[1:] {
			v, ok := "", false
			switch {
			case (a == "-f" || a == "--file" || a == "--makefile") && i+2 < len(argv):
				v, ok = argv[i+2], true
			case strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--makefile="):
				_, v, ok = strings.Cut(a, "=")
			case strings.HasPrefix(a, "-f") && len(a) > 2:
				v, ok = a[2:], true
			}
			if ok && (stdin(v) || written[path.Clean(v)]) {
				found = "make -f " + v
			}
		}
	}
	return found
}

// literalWords are the words xargs reads of a word's value v: where the
// word was quoted or escaped, its "~" and "$" are characters of a name
// (spelled "./~" and "_" so that no check reads them as the home or a
// variable); an unquoted "~" was the shell's to expand, and stays.
func literalWords(w *shparse.Word, v string) []string {
	plain := w != nil && w.Lit() != "" && w.Text == w.Lit() && !strings.Contains(w.Lit(), `\`)
	var out []string
	for _, f := range strings.Fields(v) {
		if plain {
			out = append(out, f)
		} else {
			out = append(out, literalField(f, true))
		}
	}
	return out
}

// literalField spells a name xargs reads so that no check expands it: a
// leading "~" as "./~", and (when dollar) every "$" as "_".
func literalField(f string, dollar bool) string {
	if strings.HasPrefix(f, "~") {
		f = "./" + f
	}
	if dollar {
		f = strings.ReplaceAll(f, "$", "_")
	}
	return f
}

// printed is what "echo ARGS" or "printf FORMAT ARGS" prints, in every
// reading that matters: as written, with backslash escapes decoded (\x7e
// is "~": a red team's "printf 'rm -rf \x7e' | sh" passed), and for
// printf with each %s (or %b, %q, %d...) filled by the next argument.
func printed(argv []string) []string {
	args := argv[1:]
	if path.Base(argv[0]) == "echo" {
		for len(args) > 0 && len(args[0]) > 1 && strings.Trim(args[0], "-neE") == "" && args[0][0] == '-' {
			args = args[1:]
		}
		raw := strings.Join(args, " ")
		return []string{raw, decodeEscapes(raw)}
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return nil
	}
	format, rest := decodeEscapes(args[0]), args[1:]
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 >= len(format) {
			b.WriteByte(format[i])
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			break
		}
		if format[j] == '%' {
			b.WriteByte('%')
		} else if len(rest) > 0 {
			b.WriteString(decodeEscapes(rest[0]))
			rest = rest[1:]
		}
		i = j
	}
	out := b.String()
	if len(rest) > 0 {
		out += " " + strings.Join(rest, " ")
	}
	return []string{out, format}
}

// decodeEscapes decodes the backslash escapes of printf's format and of
// echo -e: \n \t \\ and the like, \xHH, \NNN and \0NNN in octal.
func decodeEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a', 'b', 'f', 'v', 'e', 'c':
			b.WriteByte(' ')
		case 'x':
			v, n := 0, 0
			for n < 2 && i+1 < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[i+1]) >= 0 {
				i++
				n++
				v = v*16 + strings.IndexByte("0123456789abcdef", strings.ToLower(s[i : i+1])[0])
			}
			if n == 0 {
				b.WriteString(`\x`)
			} else {
				b.WriteByte(byte(v))
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := int(c-'0'), 1
			max := 3
			if c == '0' {
				max = 4
			}
			for n < max && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7' {
				i++
				n++
				v = v*8 + int(s[i]-'0')
			}
			b.WriteByte(byte(v))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// parsedSegments reads the form of a text: every simple command's words
// and every redirect's target, in the order the tree holds them. A word
// that is not static is kept as its template or its source text.
// A text that does not parse gives what the parser read before the
// error; splitSegments covers the rest. unread is why the form leaves
// out a statement the parse holds ("" when it does not).
func parsedSegments(sc *shparse.Script) (out [][]string, overBudget bool, unread string) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	if !sc.Form().Parsed {
		return nil, false, ""
	}
	f := sc.Form()
	if f.Unknown {
		unread = f.Err
		if unread == "" {
			unread = "a construct it does not know"
		}
	}
	words := func(ws []*shparse.Word) []string {
		var argv []string
		for _, w := range ws {
			if w.Dynamic() == "" {
				fields, err := w.Fields()
				if err == nil && len(fields) > 0 {
					argv = append(argv, fields...)
					continue
				}
				var be *BudgetError
				overBudget = overBudget || errors.As(err, &be)
			}
			if t, ok := w.Template(); ok {
				argv = append(argv, t)
				continue
			}
			argv = append(argv, w.Text)
		}
		return argv
	}
	for st, r := range f.Events() {
		switch {
		case r == nil && st.Kind == shparse.KindCall && (len(st.Args) > 0 || len(st.Assigns) > 0):
			out = append(out, words(st.Args))
		case r != nil && r.Target != nil:
			// A redirect's target is a path the shell opens: it is
			// judged with the words ("> $HOME/.bashrc").
			out = append(out, words([]*shparse.Word{r.Target}))
		}
	}
	return out, overBudget, unread
}

// splitSegments splits text on every operator character and then on white
// space, stripping quote characters from the words.
func splitSegments(text string) [][]string {
	var out [][]string
	for _, seg := range strings.FieldsFunc(text, func(r rune) bool {
		return r < 0x20 || r == 0x7f || strings.ContainsRune(";&|`()<>{}", r)
	}) {
		words := strings.Fields(unquoter.Replace(seg))
		if len(words) > 0 {
			out = append(out, words)
		}
	}
	return out
}

// unquoter drops quoting characters for the plain split. A Replacer is
// safe for concurrent use and never changes.
var unquoter = strings.NewReplacer(`"`, "", `'`, "", `\`, "", "$", "")

// wrappers are programs that run their arguments as another command.
var wrappers = map[string]bool{
	"sudo": true, "doas": true, "env": true, "nice": true, "nohup": true, "timeout": true,
	"command": true, "builtin": true, "exec": true, "xargs": true, "time": true, "stdbuf": true,
	"ionice": true, "chrt": true, "taskset": true, "setsid": true, "unbuffer": true, "watch": true,
	"strace": true, "ltrace": true, "flock": true, "chronic": true, "caffeinate": true,
	// They run their operands as a command in another root, namespace,
	// user or environment ("chroot / rm -rf ~", "unshare rm -rf ~").
	"chroot": true, "unshare": true, "nsenter": true, "firejail": true, "proot": true, "fakeroot": true,
	"pkexec": true, "runuser": true, "systemd-run": true, "eatmydata": true, "torsocks": true,
	"proxychains": true, "proxychains4": true, "valgrind": true, "catchsegv": true, "dbus-run-session": true,
	"xvfb-run": true, "systemd-inhibit": true, "ssh-agent": true, "parallel": true, "su": true,
	"prlimit": true, "cgexec": true, "numactl": true, "schedtool": true,
	// Multi-call binaries: "busybox rm -rf /usr" runs the rm applet.
	"busybox": true, "toybox": true,
}

func isShell(prog string) bool { return shparse.IsShell(prog) }

// literalDollar is the first quoted "$NAME" of the form's words
// ([shparse.Word.LiteralNames]) whose name expands says a reader of
// words as strings would put a value in for, "" when none.
func literalDollar(f *shparse.Form, expands func(name string) bool) string {
	if expands == nil {
		return ""
	}
	for st := range f.All() {
		var ws []*shparse.Word
		for _, a := range st.Assigns {
			if a.Value != nil {
				ws = append(ws, a.Value)
			}
			ws = append(ws, a.Elems...)
		}
		for _, w := range st.Args {
			if st.Nested != nil && w.Static && strings.Contains(st.Nested.Text, w.Value) {
				// The text a shell runs ("bash -c 'ls $HOME'"): its $
				// is the nested shell's to expand, and its own form is
				// read in its turn.
				continue
			}
			ws = append(ws, w)
		}
		ws = append(ws, st.Inner...)
		for _, r := range st.Redirs {
			// A here-document's body and a here-string are text a
			// program reads, not a name: "cat > run.sh <<'EOF'" may
			// hold a $HOME.
			if r.Target != nil && r.Heredoc == nil && r.Op != "<<<" {
				ws = append(ws, r.Target)
			}
		}
		for _, w := range ws {
			for _, name := range w.LiteralNames() {
				if expands(name) {
					return "$" + name + " in " + w.Text
				}
			}
		}
	}
	return ""
}
