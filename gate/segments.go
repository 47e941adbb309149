package gate

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxNesting bounds how deep segments looks into "bash -c" strings.
const maxNesting = 4

// MaxSegments bounds the command lines segments collects. A text with
// more is asked about rather than half checked against the deny rules.
const MaxSegments = 4096

// MaxSegmentBytes bounds the bytes of all the words segments collects.
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

// segments returns, as well as it can, the argv of every simple command
// anywhere in text: each side of "&&" and "|", inside "$(...)", in the
// script of "bash -c". Deny and ask rules and risk notes look at all of
// them, so that "git status && rm -rf x" still meets a deny rule for "rm".
// It over-collects on purpose: both the parse and a plain split on
// operator characters are used, and each argv is also offered with
// wrappers (sudo, env, xargs ...) and directories stripped from the front.
// complete is false when a bound was reached and some were not collected.
func segments(text string, f *syntax.File) (segs [][]string, complete bool) {
	c := collector{parses: 1, raw: true}
	c.file(text, f, 0)
	return c.out, !c.full
}

// incomplete is the reason a text whose collection reached a bound asks:
// the rules and checks saw only part of it, so nothing they decided may
// run it unasked (not bypass, not session memory).
func incomplete(segs [][]string) Reason {
	n := 0
	for _, argv := range segs {
		for _, w := range argv {
			n += len(w)
		}
	}
	if len(segs) < MaxSegments {
		return Reason{Check: CheckText, Match: fmt.Sprintf("%d bytes of words", n),
			Message: fmt.Sprintf("command nests its commands so deeply that their words pass %d bytes, too many to check against the rules", MaxSegmentBytes)}
	}
	return Reason{Check: CheckText, Match: fmt.Sprintf("%d commands", len(segs)),
		Message: fmt.Sprintf("command holds more than %d commands and wrappers, too many to check against the rules", MaxSegments)}
}

// parsedSegments0 is [segments] from the parse alone, nested shell
// strings included: the one reading of the words, for judging which
// paths a command names. The plain split that [segments] adds is for the
// deny and ask rules, where reading more words only asks more; for paths
// it reads a quoted pattern's "class .*(" as a word ".*" that could name
// ~/.bashrc.
func parsedSegments0(text string, f *syntax.File) (segs [][]string, complete bool) {
	c := collector{parses: 1}
	c.file(text, f, 0)
	return c.out, !c.full
}

// maxParses bounds how many texts (the command and nested "bash -c"
// scripts) one collection parses.
const maxParses = 16

type collector struct {
	out    [][]string
	parses int
	full   bool
	bytes  int // of the words in out, against MaxSegmentBytes
	// raw adds the plain split of each text to its parse.
	raw bool
}

func (c *collector) text(text string, depth int) {
	if c.parses >= maxParses {
		c.full = true
		return
	}
	c.parses++
	f, _ := parse(text)
	c.file(text, f, depth)
}

// file collects from text and its parse (nil when it does not parse).
func (c *collector) file(text string, f *syntax.File, depth int) {
	for _, argv := range parsedSegments(text, f) {
		c.add(argv, depth, 0)
	}
	if depth < maxNesting {
		texts, argvs := feeds(text, f)
		for _, argv := range argvs {
			c.add(argv, depth, 0)
		}
		for _, t := range texts {
			c.text(t, depth+1)
		}
	}
	if !c.raw && f != nil {
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
	if depth < maxNesting && len(argv) >= 3 && isShell(argv[0]) && argv[1] == "-c" {
		c.text(argv[2], depth+1)
	}
	if depth < maxNesting {
		if t, ok := runsText(argv); ok {
			c.text(t, depth+1)
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

// runsText is the shell text a program runs that is not "bash -c": the
// words of eval (joined, as eval joins them), trap's action, and the -c
// or --command of su, runuser, sg's second operand and script. The
// catastrophic rules and the deny rules read it as they read a -c string:
// "eval rm -rf ~" and "trap 'rm -rf ~' EXIT" deleted a home in bypass.
func runsText(argv []string) (string, bool) {
	args := argv[1:]
	switch path.Base(argv[0]) {
	case "eval":
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		return strings.Join(args, " "), len(args) > 0
	case "trap":
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			if args[0] == "--" {
				args = args[1:]
				break
			}
			args = args[1:]
		}
		return firstOf(args)
	case "su", "runuser", "script", "sudo":
		for i, a := range args {
			if (a == "-c" || a == "--command" || a == "--session-command") && i+1 < len(args) {
				return args[i+1], true
			}
			for _, p := range []string{"--command=", "--session-command=", "-c"} {
				if v, ok := strings.CutPrefix(a, p); ok && v != "" && (p != "-c" || !strings.HasPrefix(a, "--")) {
					return v, true
				}
			}
		}
	case "sg":
		// sg GROUP [-c] COMMAND
		if len(args) >= 2 {
			if args[1] == "-c" && len(args) >= 3 {
				return args[2], true
			}
			return args[1], true
		}
	}
	return "", false
}

func firstOf(args []string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	return args[0], true
}

// feeds are what a literal standard input makes a shell or xargs run:
// "echo 'rm -rf ~' | sh", "sh <<< 'rm -rf ~'", "echo ~ | xargs rm -rf",
// "xargs -I{} rm -rf {} <<< ~". The text piped into a shell is judged as
// a -c string is; the words fed to xargs are appended to (and put in
// place of the -I replacement of) each command xargs may run. Only
// literal input (a here-string, a here-document, echo or printf of static
// words) is known; any other input leaves xargs' targets unknown, which
// the catastrophic scan makes an ask of its own.
func feeds(text string, f *syntax.File) (texts []string, argvs [][]string) {
	if f == nil {
		return nil, nil
	}
	static := func(ws []*syntax.Word) ([]string, bool) {
		var out []string
		for _, w := range ws {
			v, ok := staticValueOf(w)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	}
	feed := func(st *syntax.Stmt, input string) {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			return
		}
		argv, ok := static(call.Args)
		if !ok || len(argv) == 0 {
			return
		}
		switch {
		case isShell(argv[0]) && !slices.Contains(argv[1:], "-c"):
			texts = append(texts, input)
		case path.Base(argv[0]) == "xargs":
			words := strings.Fields(input)
			repl := "{}"
			for i, a := range argv {
				if v, ok := strings.CutPrefix(a, "-I"); ok {
					if v == "" && i+1 < len(argv) {
						v = argv[i+1]
					}
					if v != "" {
						repl = v
					}
				}
				if v, ok := strings.CutPrefix(a, "--replace="); ok && v != "" {
					repl = v
				}
			}
			for i := 1; i < len(argv) && i <= maxWrapperWords; i++ {
				argvs = append(argvs, append(slices.Clone(argv[i:]), words...))
				for _, w := range words {
					r := slices.Clone(argv[i:])
					for k := range r {
						r[k] = strings.ReplaceAll(r[k], repl, w)
					}
					argvs = append(argvs, r)
				}
			}
		}
	}
	for n := range syntax.Preorder(f) {
		switch n := n.(type) {
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				switch r.Op {
				case syntax.WordHdoc:
					if v, ok := staticValueOf(r.Word); ok {
						feed(n, v)
					}
				case syntax.Hdoc, syntax.DashHdoc:
					if r.Hdoc != nil {
						feed(n, text[r.Hdoc.Pos().Offset():r.Hdoc.End().Offset()])
					}
				}
			}
		case *syntax.BinaryCmd:
			if n.Op != syntax.Pipe && n.Op != syntax.PipeAll {
				continue
			}
			call, ok := n.X.Cmd.(*syntax.CallExpr)
			if !ok {
				continue
			}
			argv, ok := static(call.Args)
			if !ok || len(argv) == 0 {
				continue
			}
			switch path.Base(argv[0]) {
			case "echo", "printf":
				args := argv[1:]
				for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
					args = args[1:]
				}
				feed(n.Y, strings.Join(args, " "))
			}
		}
	}
	return texts, argvs
}

// parsedSegments walks the bash parse of text. A word that is not static
// is kept as its source text. Nothing is returned when text does not parse;
// splitSegments covers that case.
func parsedSegments(text string, f *syntax.File) (out [][]string) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	if f == nil {
		return nil
	}
	words := func(ws []*syntax.Word) []string {
		var argv []string
		for _, w := range ws {
			if _, static := staticWord(w); static {
				if fields, err := wordFields(w); err == nil && len(fields) > 0 {
					argv = append(argv, fields...)
					continue
				}
			}
			if t, ok := wordTemplate(w); ok {
				argv = append(argv, t)
				continue
			}
			argv = append(argv, text[w.Pos().Offset():w.End().Offset()])
		}
		return argv
	}
	for n := range syntax.Preorder(f) {
		switch n := n.(type) {
		case *syntax.CallExpr:
			out = append(out, words(n.Args))
		case *syntax.Redirect:
			// A redirect's target is a path the shell opens: it is
			// judged with the words ("> $HOME/.bashrc").
			if n.Word != nil {
				out = append(out, words([]*syntax.Word{n.Word}))
			}
		}
	}
	return out
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
	// Multi-call binaries: "busybox rm -rf /usr" runs the rm applet.
	"busybox": true, "toybox": true,
}

func isShell(prog string) bool {
	switch path.Base(prog) {
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "busybox":
		return true
	}
	return false
}

// wordTemplate spells a word that holds plain variable expansions with its
// quotes removed and each expansion as ${NAME} ("$XDG_CONFIG_HOME"/x is
// ${XDG_CONFIG_HOME}/x), so that the path check can expand a leading one
// from the environment. Anything else (an operator inside ${...}, a
// command substitution) is not a template.
func wordTemplate(w *syntax.Word) (string, bool) {
	var b strings.Builder
	var part func(p syntax.WordPart) bool
	part = func(p syntax.WordPart) bool {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if !part(q) {
					return false
				}
			}
		case *syntax.ParamExp:
			if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil ||
				p.Repl != nil || p.Names != 0 || p.Exp != nil {
				return false
			}
			b.WriteString("${" + p.Param.Value + "}")
		default:
			return false
		}
		return true
	}
	for _, p := range w.Parts {
		if !part(p) {
			return "", false
		}
	}
	return b.String(), true
}
