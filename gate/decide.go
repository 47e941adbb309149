package gate

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/internal/shparse"
)

// Request is what the gate judges.
type Request struct {
	// Text is the command as bash would receive it: the single argument of
	// the shell form, or the shell-quoted join of Argv.
	Text string
	// Argv, when not nil, is the argv form: the words run directly, with no
	// shell, so no operator in them means anything.
	Argv []string
	// Script, when set, is Text's parse, made once by the caller and
	// handed to every later reader of the request (engine.Judge does);
	// Decide parses Text itself otherwise, or when Script is another
	// text's.
	Script *shparse.Script
	// Rules are the allow, ask and deny rules from every source, in any
	// order: the kind of a rule, not its position, decides.
	Rules []allowlist.Rule
	// Paths are the self-protected and sensitive paths: a command naming
	// one always asks (unless a deny rule denies it).
	Paths Paths
	// Split judges a compound command piece by piece (compound = "split")
	// instead of asking about any operator.
	Split bool
	// Lift names built-in catastrophic rules ([CatastrophicRules]) the
	// policy file turned off. Only the policy may set it.
	Lift []string
	// VetDir, when set, reports whether the git repository found from dir
	// (an absolute path) may serve an allowed git command: the engine runs
	// on it the configuration checks it runs for the working directory.
	// When nil, "git -C DIR ..." and "cd DIR && git ..." ask.
	VetDir func(dir string) bool
	// Hazards, when set, returns why an allowed command must ask after all
	// because of a file or variable that makes its program run another or
	// connect elsewhere (the engine sets it to allowlist.Hazards with the
	// command's directory and environment). When nil, commands of entries
	// that have hazards (the packs, "git remote -v") ask.
	Hazards func(argv []string) []string

	// nested counts the "bash -c" strings judged as their text.
	nested int
}

// Decide judges a command. The first step that applies wins:
//
//  1. a deny rule matches any command in the text, or a command anywhere
//     in it is catastrophic (a recursive delete of /, a system directory
//     or home, mkfs, a write onto a disk, a fork bomb; see
//     [CatastrophicRules]): deny, in every mode;
//  2. the text cannot be judged (too long, not UTF-8, control or invisible
//     characters): ask;
//  3. the text holds a compound or redirect operator: ask;
//  4. the words are not one plain simple command (variables, assignments,
//     keywords, parse errors): ask;
//  5. an ask rule matches any command in the text: ask;
//  6. an allow rule matches the words, and none of the argument exceptions
//     of any matching allow rule hits: allow; a hit: ask;
//  7. otherwise: ask, "not on the allowlist".
//
// Whatever steps 2 to 7 decided, a command that names a self-protected or
// sensitive path (see [Paths]) or runs "git config" becomes a sticky ask:
// no mode, allow rule or session memory may turn it into an allow.
//
// Risk notes are added to every ask and deny. Decide does no I/O and never
// panics: an internal error is an ask.
func Decide(req Request) (d Decision) {
	defer func() {
		if r := recover(); r != nil {
			// Nothing after the error was checked: no mode may run it
			// unasked (bypass ran an internal error's plain ask).
			d = ask(Reason{Check: CheckInternal, Message: fmt.Sprintf("internal error: %v", r)})
			d.sticky = true
		}
	}()
	// One Script for the text, which every reader below is handed: its
	// parse and its form are made once.
	req.Script = req.Script.Of(req.Text)
	req.Paths.flow = readFlow(req.Script, req.Paths)
	segs, limit := collect(req.Script, req.Text, req.Paths.substitute, req.Paths.expands)
	segs = withVarsExpanded(segs, req.Paths)
	complete := limit == ""
	defer func() {
		// Whatever decided, and a nested text's decision standing for
		// the whole included: the words are the outer text's.
		d.segments = segmentsOf(substituted(segs, req.Paths.substitute))
	}()
	if len(req.Argv) > 0 {
		segs = append([][]string{req.Argv}, segs...)
	}
	var args []Arg
	d, args = decide(req, segs)
	d.literal = len(args) > 0
	for _, a := range args {
		d.argv = append(d.argv, a.Value)
		d.literal = d.literal && a.Expands == ""
	}
	if d.argv != nil && d.commands == nil {
		d.commands = [][]string{d.argv}
	}
	d.globless = d.globless || d.literal
	if d.verdict == Allow {
		d = otherRepository(req, d)
	}
	if d.verdict == Allow {
		d = hazards(req, d)
	}
	if d.verdict != Deny {
		d = askRules(req, segs, d)
		// An allowed command's paths are judged on the parse's words
		// alone: every command in it was judged word by word, so a
		// quoted pattern is a pattern. Anything else keeps the plain
		// split too, so that what a heredoc or string hides ("bash <<<
		// 'git config core.pager x'") still makes the ask sticky, which
		// bypass mode does not run.
		psegs := segs
		if req.Script.Err == nil && d.verdict == Allow {
			if p, ok := parsedSegments0(req.Script, req.Text); ok {
				psegs = withoutBracket(p)
				if len(req.Argv) > 0 {
					psegs = append([][]string{req.Argv}, psegs...)
				}
			}
		}
		d = protect(req, psegs, d)
		d = unknownTarget(req, segs, d)
	}
	unread := strings.HasPrefix(limit, "escape ") || strings.HasPrefix(limit, "state ") || strings.HasPrefix(limit, "tilde ")
	switch {
	case d.verdict == Deny || complete:
	case unread && d.verdict == Ask && d.sticky:
		// Already a sticky ask for what it names (a secret, a protected
		// file): that reason is the person's to read first.
		d.unread = true
	default:
		// Not every command in the text was checked against the deny and
		// ask rules or the catastrophic ones: whatever the part seen said,
		// the whole asks, stickily, since bypass mode runs a plain ask
		// and a catastrophic command past the bound would run with it.
		d = ask(incomplete(segs, limit), d.reasons...)
		d.sticky = true // past a bound: no mode runs it
		d.unread = unread
	}
	if inner, ok := shellString(req, d); ok {
		return inner
	}
	if d.verdict != Allow {
		d.risks = risks(segs)
	}
	d.severity = severity(req, segs)
	return d
}

// shellString judges a plain "bash -c TEXT" (or sh) as TEXT: "bash -c
// 'ls -la'" asked only because bash is not on the allowlist (issue 18).
// Only the plain form: no other flag (-l, -i, --rcfile read start-up
// files), no further argument ($0, $1), no redirect or assignment, and
// only where the outer text asked for nothing but that (a deny or ask
// rule on bash, a protected path, all stand). The inner decision stands
// for the whole: the engine runs a literal inner command directly, and
// anything else through bash with start-up variables removed, as the
// outer text would have run it.
func shellString(req Request, d Decision) (Decision, bool) {
	sc := req.Script.Of(req.Text)
	if d.verdict != Ask || d.sticky || d.Primary().Check != CheckDefault || req.nested >= 2 || len(req.Argv) > 0 || sc.Err != nil {
		return d, false
	}
	f := sc.Form()
	if len(f.Stmts) != 1 || !f.Complete() {
		return d, false
	}
	st := f.Stmts[0]
	if st.Kind != shparse.KindCall || st.Negated || st.Background || len(st.Redirs) > 0 || len(st.Assigns) > 0 || len(st.Args) != 3 {
		return d, false
	}
	var argv []string
	for _, w := range st.Args {
		if !w.Static || w.Expansion(false) != "" {
			return d, false
		}
		argv = append(argv, w.Value)
	}
	switch argv[0] {
	case "bash", "sh", "/bin/bash", "/bin/sh", "/usr/bin/bash":
	default:
		return d, false
	}
	if argv[1] != "-c" {
		return d, false
	}
	sub := req
	sub.Text, sub.nested = argv[2], req.nested+1
	inner := Decide(sub)
	if inner.verdict == Deny {
		return inner, true
	}
	// The gate reads the text as bash does. sh may be another shell
	// (dash) that reads it otherwise; only a literal simple command,
	// which the engine runs directly, means the same to both.
	if !strings.HasSuffix(argv[0], "bash") && !inner.Literal() {
		return d, false
	}
	for i := range inner.reasons {
		if i == 0 {
			inner.reasons[i].Message = argv[0] + " -c runs its text: " + inner.reasons[i].Message
		}
	}
	return inner, true
}

// decide returns the decision and, when the text is one simple command,
// its words.
func decide(req Request, segs [][]string) (Decision, []Arg) {
	if r, ok := matchRules(req, segs, allowlist.Deny); ok {
		return deny(Reason{Check: CheckDenyRule, Match: r.match, Rule: r.rule.String(), Source: r.rule.Source.String(),
			Message: "a deny rule matches " + quoteMatch(r.match)}), nil
	}
	if why, ok := catastrophic(req, segs); ok {
		return deny(why), nil
	}
	if why, bad := judgeText(req.Text); bad {
		return ask(why), nil
	}
	var args []Arg
	if req.Argv != nil {
		for _, w := range req.Argv {
			if why, bad := judgeText(w); bad {
				return ask(why), nil
			}
			if i := strings.IndexAny(w, "\n\r"); i >= 0 {
				// No shell reads it as a separator, but a person reading
				// the command would.
				return ask(Reason{Check: CheckText, Match: fmt.Sprintf("%U", w[i]),
					Message: fmt.Sprintf("an argument holds a line break (%U)", w[i])}), nil
			}
			args = append(args, Arg{Value: w})
		}
		if len(args) == 0 {
			return ask(Reason{Check: CheckWords, Match: "empty", Message: "empty command"}), nil
		}
	} else {
		if seq, name, found := findOperator(req.Text); found {
			if req.Split {
				d, cmds := splitCompound(req, segs)
				d.commands = cmds
				return d, nil
			}
			return ask(Reason{Check: CheckOperator, Match: seq,
				Message: "compound or redirected command: " + name}), nil
		}
		var why Reason
		var ok bool
		if args, why, ok = shellWords(req.Script.Of(req.Text)); !ok {
			return ask(why), nil
		}
	}
	argv := make([]string, len(args))
	for i, a := range args {
		argv[i] = a.Value
	}
	if r, ok := matchRules(req, segs, allowlist.Ask); ok {
		d := ask(Reason{Check: CheckAskRule, Match: r.match, Rule: r.rule.String(), Source: r.rule.Source.String(),
			Message: "an ask rule matches " + quoteMatch(r.match)})
		d.sticky = true
		return d, args
	}
	return decideAllow(req.Rules, args, argv), args
}

// decideAllow runs the allowlist step on the words of one simple command.
func decideAllow(rules []allowlist.Rule, args []Arg, argv []string) Decision {
	var best *allowlist.Rule
	// Of the catalogue entries, only those naming the most words judge:
	// "git reflog show" is judged by its entry, not by "git reflog".
	longest := 0
	for i := range rules {
		if r := &rules[i]; r.Kind == allowlist.Allow && r.Entry != nil && len(r.Entry.Words) > longest {
			if _, _, ok := r.Entry.Judge(argv); ok {
				longest = len(r.Entry.Words)
			}
		}
	}
	for i := range rules {
		r := &rules[i]
		if r.Kind != allowlist.Allow {
			continue
		}
		if r.Entry != nil {
			if len(r.Entry.Words) != longest {
				continue
			}
			_, ref, ok := r.Entry.Judge(argv)
			if !ok {
				continue
			}
			if ref != nil {
				return ask(Reason{Check: CheckException, Match: ref.Word, Rule: r.String(), Source: r.Source.String(),
					Message: fmt.Sprintf("argument %s of %s %s", quoteMatch(ref.Word), r.String(), ref.Why)})
			}
			if why, bad := entryExpansion(r, args); bad {
				return ask(why)
			}
		} else {
			if !r.MatchPrefix(argv) {
				continue
			}
			if h, hit := r.CheckExceptions(argv); hit {
				return ask(Reason{Check: CheckException, Match: h.Word, Rule: r.String() + " except " + h.Exception.Text,
					Source:  r.Source.String(),
					Message: fmt.Sprintf("argument %s of %s %s", quoteMatch(h.Word), r.String(), h.Exception.Why)})
			}
			if len(r.Except) > 0 {
				for _, a := range args[len(r.Prefix):] {
					if a.mayBeFlag() {
						return ask(Reason{Check: CheckException, Match: a.Value, Rule: r.String(), Source: r.Source.String(),
							Message: fmt.Sprintf("argument %s is a %s that bash may expand into a flag, and %s has flags that write or run programs", quoteMatch(a.Value), a.Expands, r.String())})
					}
				}
			}
		}
		if best == nil || len(r.Prefix) > len(best.Prefix) {
			best = r
		}
	}
	if best == nil {
		name := SuggestPrefix(argv)
		if name == "" {
			name = argv[0]
		}
		return ask(Reason{Check: CheckDefault, Match: argv[0], Message: fmt.Sprintf("%s is not on the allowlist", quoteMatch(name))})
	}
	return allow(Reason{Check: CheckAllowlist, Match: best.String(), Rule: best.String(), Source: best.Source.String(),
		Message: "on the allowlist: " + best.String()})
}

// entryExpansion returns why a command of a catalogue entry asks because
// of a word bash still expands: a glob or brace at the start of a word may
// become a flag, and one anywhere may become several operands where the
// entry counts them (uniq IN OUT, xxd IN OUT).
func entryExpansion(r *allowlist.Rule, args []Arg) (Reason, bool) {
	o := r.Entry.Operands
	// A Check reads operands by position; find's reads only its -exec
	// commands, where a glob could become ";" and end one early.
	positional := r.Entry.Check != nil
	if len(r.Entry.Exec) > 0 {
		positional = slices.ContainsFunc(args, func(a Arg) bool { return slices.Contains(r.Entry.Exec, a.Value) })
	}
	for _, a := range args[min(1, len(args)):] {
		switch {
		case a.mayStartFlag() && (a.Expands == "glob" && r.Entry.GlobRisk(a.Value) || a.Expands != "glob" && r.Entry.FlagRisk()):
			return Reason{Check: CheckException, Match: a.Value, Rule: r.String(), Source: r.Source.String(),
				Message: fmt.Sprintf("argument %s is a %s that bash may expand into a flag, and %s has flags that write or run programs", quoteMatch(a.Value), a.Expands, r.String())}, true
		case a.globbed() && (o.Max > 0 || o.None || positional):
			return Reason{Check: CheckException, Match: a.Value, Rule: r.String(), Source: r.Source.String(),
				Message: fmt.Sprintf("argument %s is a %s that bash may expand into several words, and %s counts its operands", quoteMatch(a.Value), a.Expands, r.String())}, true
		}
	}
	return Reason{}, false
}

// runsXargs reports whether any command of the text is xargs.
func runsXargs(segs [][]string) bool {
	for _, argv := range segs {
		if len(argv) > 0 && argv[0] == "xargs" {
			return true
		}
	}
	return false
}

// catalogueCall returns the call of the first catalogue entry among rules
// that accepts argv, or nil.
func catalogueCall(rules []allowlist.Rule, argv []string) *allowlist.Call {
	for i := range rules {
		r := &rules[i]
		if r.Kind != allowlist.Allow || r.Entry == nil {
			continue
		}
		if c, ref, ok := r.Entry.Judge(argv); ok && ref == nil {
			return c
		}
	}
	return nil
}

// pathSegments returns, for the protected-path check, the words of each
// command that are judged as paths: for a command a catalogue entry
// accepts, its path operands and path flag values (a pattern, a string
// or echo's arguments are not paths); for any other command, every word.
// Only a text whose every word is literal is narrowed so: a glob in a
// pattern's place may expand into file names that land in a path's.
// withoutBracket drops the words that are exactly "[" from segments of
// the parse's whole static words: bash reads such a word literally (no
// "]" follows it in the word), so it names the file "[" or runs the
// program "[", and the glob reading, wide for an unterminated bracket
// (the plain split may cut a word before an expansion that makes the
// "]"), took "[ -f f ]" for a word that could be ~/.bashrc.
func withoutBracket(segs [][]string) [][]string {
	out := make([][]string, len(segs))
	for i, argv := range segs {
		if slices.Contains(argv, "[") {
			argv = slices.DeleteFunc(slices.Clone(argv), func(w string) bool { return w == "[" })
		}
		out[i] = argv
	}
	return out
}

// withoutTestKeywords drops the words "[[" and "]]" whole: bash's test
// keywords, which the plain split keeps as words, name no file, and read
// as globs they could name any ("[[ -f x ]] || echo no" asked stickily
// as if it named ~/.bashrc: a red team's side note).
func withoutTestKeywords(segs [][]string) [][]string {
	out := make([][]string, len(segs))
	for i, argv := range segs {
		if slices.Contains(argv, "[[") || slices.Contains(argv, "]]") {
			argv = slices.DeleteFunc(slices.Clone(argv), func(w string) bool { return w == "[[" || w == "]]" })
		}
		out[i] = argv
	}
	return out
}

func pathSegments(rules []allowlist.Rule, segs [][]string, literal bool) [][]string {
	if !literal {
		return segs
	}
	out := make([][]string, 0, len(segs))
	for _, argv := range segs {
		out = append(out, allowlist.PathWords(rules, argv))
	}
	return out
}

// otherRepository turns an allow into an ask when a git command runs in
// another directory ("git -C DIR", "cd DIR && git ...") whose repository
// req.VetDir does not vouch for: its configuration can name programs git
// runs, and the engine vets only the working directory's by itself.
func otherRepository(req Request, d Decision) Decision {
	cd := cdTarget(req)
	for _, argv := range d.commands {
		if len(argv) == 0 || argv[0] != "git" {
			continue
		}
		dir := cd
		if c := catalogueCall(req.Rules, argv); c != nil && c.Dir != "" {
			dir = c.Dir
			if cd != "" && !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "~") {
				dir = cd + "/" + dir
			}
		}
		if dir == "" {
			continue
		}
		abs := req.Paths.resolve(dir)
		if req.VetDir != nil && req.VetDir(abs) {
			continue
		}
		p := ask(Reason{Check: CheckException, Match: dir, Rule: "git in another directory",
			Message: fmt.Sprintf("git runs in %s, whose repository could not be checked or names a program git could run", quoteMatch(dir))}, d.reasons...)
		p.argv, p.literal, p.commands = d.argv, d.literal, d.commands
		return p
	}
	return d
}

// CheckHazard is the step that asks because a file or variable would make
// an allowed program run another one or connect elsewhere.
const CheckHazard Check = "program configuration"

// hazards turns an allow into an ask when a command allowed through a
// catalogue entry with hazards meets one, or when nobody checked.
func hazards(req Request, d Decision) Decision {
	for _, argv := range d.commands {
		if !allowlist.HasHazards(req.Rules, argv) {
			continue
		}
		var why Reason
		switch {
		case req.Hazards == nil:
			why = Reason{Check: CheckHazard, Match: argv[0],
				Message: fmt.Sprintf("%s reads files that can make it run other programs or connect elsewhere, and they were not checked", quoteMatch(argv[0]))}
		default:
			hs := req.Hazards(argv)
			if len(hs) == 0 {
				continue
			}
			why = Reason{Check: CheckHazard, Match: argv[0], Message: fmt.Sprintf("%s: %s", argv[0], hs[0])}
		}
		p := ask(why, d.reasons...)
		p.argv, p.literal, p.commands = d.argv, d.literal, d.commands
		return p
	}
	return d
}

// askRules makes d a sticky ask when an ask rule matches any command in
// the text: also a compound, or a command asked about for another reason,
// so that no mode can turn it into an allow.
func askRules(req Request, segs [][]string, d Decision) Decision {
	if d.sticky {
		return d
	}
	r, ok := matchRules(req, segs, allowlist.Ask)
	if !ok {
		return d
	}
	why := Reason{Check: CheckAskRule, Match: r.match, Rule: r.rule.String(), Source: r.rule.Source.String(),
		Message: "an ask rule matches " + quoteMatch(r.match)}
	reasons := d.reasons
	if d.verdict == Allow {
		reasons = nil // the allow it overrides is no reason to ask
	}
	p := ask(why, reasons...)
	p.sticky, p.argv, p.literal, p.commands = true, d.argv, d.literal, d.commands
	return p
}

// protect turns d into a sticky ask when the command names a protected
// path or changes git configuration. The protection reason comes first;
// the reasons d already had follow.
func protect(req Request, segs [][]string, d Decision) Decision {
	var why Reason
	self, sensitive := req.Paths.matchers()
	// xargs turns words of other commands into file names ("echo .env |
	// xargs cat"): with it anywhere, every word is judged as a path.
	literal := (len(req.Argv) > 0 || literalFile(req.Script.Of(req.Text).Form())) && !runsXargs(segs)
	pathSegs := withoutTestKeywords(pathSegments(req.Rules, segs, literal))
	// A names-only program's operand may match a secret's name without
	// reading it: "ls .env*" lists, "cat .env" reads. Directories of
	// secrets (~/.ssh) still ask: their listing is their contents.
	if !runsXargs(segs) {
		for _, argv := range segs {
			for _, w := range allowlist.ListedWords(req.Rules, argv) {
				if sensitive.listed == nil {
					sensitive.listed = map[string]bool{}
				}
				sensitive.listed[w] = true
			}
		}
	}
	// The text's own assignments ("X=~/.bashrc; echo >> $X") count.
	self.p.flow, sensitive.p.flow = req.Paths.flow, req.Paths.flow
	selfHit, sensHit, isSelf := hits(pathSegs, self, sensitive)
	var dirs []string
	if dir := cdTarget(req); dir != "" {
		dirs = append(dirs, self.p.resolve(dir))
	}
	if fl := req.Paths.flow; fl != nil {
		dirs = append(dirs, fl.dirs...)
	}
	for _, dir := range dirs {
		if isSelf {
			break
		}
		// "cd DIR && cat x" reads DIR/x: judge the words from DIR too.
		self.p.Cwd, sensitive.p.Cwd = dir, dir
		s2, h2, self2 := hits(pathSegs, self, sensitive)
		if self2 {
			selfHit, isSelf = s2, true
		}
		if sensHit.pattern == "" {
			sensHit = h2
		}
	}
	if !isSelf {
		if h, ok := computedTarget(req.Paths, pathSegs); ok {
			selfHit, isSelf = h, true
		}
	}
	if h := selfHit; isSelf {
		why = Reason{Check: CheckSelfProtect, Match: h.word, Rule: h.pattern, Source: "self-protection",
			Message: fmt.Sprintf("names %s, a protected file that changes how commands run (%s)", quoteMatch(h.word), h.pattern)}
	} else if gitConfig(req.Rules, segs) {
		why = Reason{Check: CheckSelfProtect, Match: "git config", Rule: "git config", Source: "self-protection",
			Message: "git config can change .git/config, which names programs git runs"}
	} else if w, ok := gitDirNamed(segs); ok && d.verdict != Allow {
		why = Reason{Check: CheckSelfProtect, Match: w, Rule: ".git", Source: "self-protection",
			Message: fmt.Sprintf("%s names a repository's .git directory, and a command not known to only read may write its hooks and configuration there", quoteMatch(w))}
		if strings.HasPrefix(unquote(w), "--template") {
			why.Message = fmt.Sprintf("%s: git copies the template's hooks and configuration into .git", quoteMatch(w))
		}
	} else if cmd, refuse, ok := selfCommand(segs); ok {
		why = Reason{Check: CheckSelfProtect, Match: cmd, Rule: "agentgate", Source: "self-protection",
			Message: "runs an agentgate subcommand that changes its rules, trust, sessions or log: only a person may"}
		if refuse {
			why.Message = "agentgate approve and deny answer for a person and never run through the gate"
			n := deny(why, d.reasons...)
			n.argv, n.literal, n.commands = d.argv, d.literal, d.commands
			return n
		}
	} else if h := sensHit; h.pattern != "" {
		why = Reason{Check: CheckSensitive, Match: h.word, Rule: h.pattern, Source: "sensitive paths",
			Message: fmt.Sprintf("names %s, which may hold secrets (%s): reading it sends them to the model", quoteMatch(h.word), h.pattern)}
	} else {
		return d
	}
	p := ask(why, d.reasons...)
	p.sticky, p.argv, p.literal, p.commands = true, d.argv, d.literal, d.commands
	return p
}

// computedTarget finds a path the gate cannot resolve because it uses a
// variable the text assigns at run time ("X=$(...); echo x >> $X"): an
// output redirect onto one, or a word whose literal end looks like the
// end of a protected or sensitive path ("~/${X}rc", "$D/config"), while
// "$D/out.txt" is not one.
func computedTarget(p Paths, segs [][]string) (pathHit, bool) {
	fl := p.flow
	if fl == nil || len(fl.unknown) == 0 && !fl.dirUnknown {
		return pathHit{}, false
	}
	if fl.dirUnknown {
		// After "cd $D" a relative word may be anywhere: judge its first
		// and last components as whole names ("cd $D && cp x .git/config").
		for _, argv := range segs {
			for i, w := range argv {
				if w == "" || strings.ContainsAny(w[:1], "/~$-") {
					continue
				}
				if i == 0 && !strings.Contains(w, "/") {
					continue // a program name: looked up in PATH, not here
				}
				for _, c := range []string{w, path.Base(w)} {
					if pat, ok := protectedTail(p, "/"+c); ok {
						return pathHit{w, pat}, true
					}
				}
			}
		}
	}
	for _, t := range fl.outputs {
		if tail, ok := p.unknownVar(t); ok && tail == "" {
			return pathHit{t, "a redirect target computed when the command runs"}, true
		}
	}
	for _, argv := range segs {
		for _, w := range argv {
			tail, ok := p.unknownVar(w)
			if !ok {
				continue
			}
			if pat, ok := protectedTail(p, tail); ok {
				return pathHit{w, pat}, true
			}
		}
	}
	return pathHit{}, false
}

// protectedTail reports a self-protected or sensitive pattern that a path
// ending in tail could name: tail's first part ends a component of the
// pattern ("rc" of ".bashrc", "ks/pre-commit" of ".git/hooks").
func protectedTail(p Paths, tail string) (string, bool) {
	whole := strings.HasPrefix(tail, "/") // "$D/config": a whole component
	first, _, _ := strings.Cut(strings.TrimLeft(tail, "/"), "/")
	if first == "" {
		return "", false
	}
	for _, pats := range [][]string{p.Self, p.Sensitive} {
		for _, pat := range pats {
			for _, comp := range strings.Split(strings.TrimPrefix(pat, "~/"), "/") {
				glob, _ := path.Match(comp, first)
				glob = glob && strings.Trim(comp, "*?") != ""
				if comp != "" && (comp == first || glob || !whole && strings.HasSuffix(comp, first)) {
					return pat, true
				}
			}
		}
	}
	return "", false
}

// unknownTarget makes d a sticky ask when a command would be
// catastrophic if a target computed at run time (a variable the text
// assigns from a command, a relative path after "cd $D") were the root,
// a system directory, home or a disk.
func unknownTarget(req Request, segs [][]string, d Decision) Decision {
	// The scan is skipped only for texts with nothing that computes a
	// target: no expansion, pipe, redirect of input ("xargs rm -rf <<<
	// ~" ran in bypass), xargs or link, and one command only (a script
	// one command writes another runs: "cp t.sh s.sh; sh s.sh").
	if d.sticky || (req.Paths.flow == nil && !strings.ContainsAny(req.Text, "$`|<>;&\n") && !strings.Contains(req.Text, "ln") && !strings.Contains(req.Text, "xargs") && !strings.Contains(req.Text, "find")) {
		return d
	}
	_, _, why, ok := catastrophicScan(req, segs)
	if !ok {
		return d
	}
	reasons := d.reasons
	if d.verdict == Allow {
		reasons = nil
	}
	p := ask(why, reasons...)
	p.sticky, p.argv, p.literal, p.commands = true, d.argv, d.literal, d.commands
	return p
}

// gitConfig reports whether a command runs "git config", other than the
// reading forms the catalogue accepts ("git config --get user.name").
// git is looked for anywhere in a command, not only first, so that the
// runners that are not wrappers count too ("find -exec git config",
// "git submodule foreach git config", "parallel git config"), and git's
// global options before the subcommand are skipped ("git -c a=b config").
func gitConfig(rules []allowlist.Rule, segs [][]string) bool {
	for _, argv := range segs {
		if gitConfigIn(rules, argv, 0) {
			return true
		}
	}
	return false
}

func gitConfigIn(rules []allowlist.Rule, argv []string, depth int) bool {
	// A command the catalogue accepts runs no other ("grep 'git config'
	// README", "echo git config"): only its own first word counts.
	if len(argv) > 1 && catalogueCall(rules, argv) != nil {
		argv = argv[:1]
	}
	for i, w := range argv {
		if depth < 2 && i > 0 && strings.ContainsAny(w, " \t\n") {
			// A script run by a shell ("git submodule foreach 'git
			// config ...'"), read as words.
			if gitConfigIn(rules, strings.Fields(w), depth+1) {
				return true
			}
		}
		if path.Base(unquote(w)) != "git" {
			continue
		}
		sub := argv[i:]
		if gitSubcommand(sub) != "config" {
			continue
		}
		n := allowlist.Normalize(sub)
		if n == nil {
			n = sub
		}
		if catalogueCall(rules, n) == nil || n[1] != "config" {
			return true
		}
	}
	return false
}

// gitDirNamed finds a word that names a repository's .git directory
// itself ("cp -r tpl/hooks .git/", "rsync -a tpl/ .git/", "tar -C .git
// -x", "cd .git && ..."), or git's --template (git init and clone copy
// the template's hooks into .git). A command that writes there plants
// hooks and configuration without naming .git/hooks or .git/config (a
// red team's ran on the next commit); the caller asks only when the
// command is not an allowed reader ("ls .git" lists).
func gitDirNamed(segs [][]string) (string, bool) {
	for _, argv := range segs {
		git := false
		for i, w := range argv {
			u := unquote(w)
			if i == 0 || path.Base(u) == "git" {
				git = git || path.Base(u) == "git"
			}
			if git && strings.HasPrefix(u, "--template") {
				return w, true
			}
			for _, c := range PathCandidates(u) {
				if path.Base(path.Clean(c)) == ".git" {
					return w, true
				}
			}
		}
	}
	return "", false
}

// gitSubcommand returns the first word of a git command line after git's
// global options ("git -C dir -c a=b --no-pager config" runs config), as
// the one list of them reads it (allowlist.ReadGit). Past an option the
// list does not know, whether it takes a value is not known either: a
// later "config" is taken for the subcommand, or else the next word that
// is not an option.
func gitSubcommand(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = unquote(w)
	}
	opts, sub, why := allowlist.ReadGit(words)
	for _, o := range opts {
		// An alias set on the command line runs whatever it names: "git
		// -c alias.x=config x core.fsmonitor ./f" is git config (a red
		// team's wrote .git/config in bypass mode).
		if (o.Name == "-c" || o.Name == "--config-env") && strings.HasPrefix(strings.ToLower(strings.TrimSpace(o.Value)), "alias.") {
			return "config"
		}
	}
	if why == "" {
		if sub < len(words) {
			return words[sub]
		}
		return ""
	}
	first := ""
	for _, w := range words[sub+1:] {
		if w == "config" {
			return w
		}
		if first == "" && !strings.HasPrefix(w, "-") {
			first = w
		}
	}
	return first
}

type ruleMatch struct {
	rule  allowlist.Rule
	match string
}

// matchRules finds the first rule of the kind that matches the text or any
// command in it.
func matchRules(req Request, segs [][]string, kind allowlist.Kind) (ruleMatch, bool) {
	for _, r := range req.Rules {
		if r.Kind != kind {
			continue
		}
		if r.MatchText(req.Text) {
			return ruleMatch{r, r.Contains}, true
		}
		for _, argv := range segs {
			if r.MatchPrefix(argv) {
				return ruleMatch{r, strings.Join(argv[:len(r.Prefix)], " ")}, true
			}
			// "git -C x push" meets a rule for "git push".
			if n := allowlist.Normalize(argv); n != nil && r.MatchPrefix(n) {
				return ruleMatch{r, strings.Join(argv, " ")}, true
			}
		}
	}
	return ruleMatch{}, false
}

// SuggestPrefix proposes the narrowest rule a user might add to allow
// argv: the program, with its subcommand for programs known to have
// subcommands ("git log", "make test"), and the action for subcommands
// that group actions ("git stash list", never "git stash", which would
// allow "git stash drop" too). It returns "" when no prefix is safe:
// interpreters, shells and wrappers, which run arbitrary code whatever
// their prefix, a subcommand program with no subcommand ("git
// --version" would suggest all of git), a group with no action. The
// suggestion is for the person only; text sent to the agent never
// proposes a rule (see [NextStep]).
func SuggestPrefix(argv []string) string {
	if len(argv) == 0 || Unsuggestable(argv[0]) {
		return ""
	}
	if subcommandPrograms[argv[0]] {
		return subcommandPrefix(argv)
	}
	return argv[0]
}

// Unsuggestable reports whether no prefix rule starting with prog is safe
// to propose: it runs other programs or code given in its arguments.
func Unsuggestable(prog string) bool {
	return wrappers[prog] || isShell(prog) || interpreters[prog] || strings.Contains(prog, "/")
}

var interpreters = map[string]bool{
	"python": true, "python2": true, "python3": true, "node": true, "deno": true, "bun": true,
	"perl": true, "ruby": true, "php": true, "lua": true, "tclsh": true, "awk": true, "gawk": true,
	"mawk": true, "sed": true, "eval": true, "source": true, ".": true, "osascript": true, "java": true,
	"npx": true, "uvx": true, "pipx": true, "su": true, "ssh": true, "docker": true, "kubectl": true,
}

// subcommandPrograms take a subcommand as their first argument.
var subcommandPrograms = map[string]bool{
	"git": true, "go": true, "cargo": true, "npm": true, "pnpm": true, "yarn": true, "make": true,
	"gh": true, "terraform": true, "systemctl": true, "apt": true, "apt-get": true, "brew": true,
	"pip": true, "pip3": true, "uv": true, "poetry": true, "helm": true, "dotnet": true, "mvn": true,
	"gradle": true, "bazel": true, "just": true, "rustup": true, "conda": true, "hg": true, "svn": true,
}

func isSubcommand(w string) bool {
	if w == "" || w[0] == '-' {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == ':') {
			return false
		}
	}
	return true
}

func quoteMatch(s string) string { return strconv.Quote(s) }

// SplitHint returns, for the person only, a sentence saying that split
// mode (compound = "split") would have run the command without asking,
// or "" when that is not so: d asked because of a compound or redirect
// operator and Decide with Split set allows req. The check command and
// the prompt show it; the text sent to the agent must not, since it would
// propose a setting.
func SplitHint(req Request, d Decision) string {
	if req.Split || d.verdict != Ask || d.Primary().Check != CheckOperator {
		return ""
	}
	req.Split = true
	if Decide(req).verdict != Allow {
		return ""
	}
	return "with compound = \"split\" this command would run without asking: each part is on the allowlist"
}

// withVarsExpanded adds, after each command with a word that holds a
// plain $NAME or ${NAME} anywhere in it, the command read with each such
// variable replaced by its value: the environment's, the text's own, or
// nothing when it has none here (an unset variable expands to nothing: a
// red team's "cat .env$NOPE" read .env while ".env$NOPE" was judged, and
// bypass mode printed it). The rules and path checks read both.
func withVarsExpanded(segs [][]string, p Paths) [][]string {
	var out [][]string
	for _, argv := range segs {
		out = append(out, argv)
		var alt []string
		changed := false
		for _, w := range argv {
			v := w
			if strings.Contains(w, "$") {
				v = p.expandAll(w)
			}
			changed = changed || v != w
			alt = append(alt, v)
		}
		if changed {
			out = append(out, alt)
		}
	}
	return out
}
