package gate

import (
	"fmt"
	"strings"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/internal/shparse"
)

// splitCompound judges a compound command piece by piece, for the opt-in
// compound = "split". It allows only when every condition holds:
//
//   - the text parses, holds no carriage return, and is made only of simple
//     commands joined by &&, ||, ; (or a newline) and |: no &, |&, !,
//     subshell, block, function, loop, conditional or other keyword;
//   - every word is literal after quote removal: no variable, substitution,
//     unquoted glob, brace or tilde, and no FOO=bar prefix;
//   - the only redirects are output to /dev/null (>, >>, &>, &>>),
//     duplications among the standard descriptors (2>&1, >&2), and input
//     (<) from a literal file, all on descriptors 0, 1 and 2 only: "3<f"
//     and ">&3" ask (a descriptor the gate cannot see);
//   - a redirect to bash's network files /dev/tcp/* or /dev/udp/* (after
//     quote removal, however spelled) is denied;
//   - no ask rule matches, and each simple command alone passes the
//     allowlist with its argument exceptions.
//
// Otherwise it returns the reason to ask. Deny rules and protected paths
// are checked by Decide around it, as for every command.
func splitCompound(req Request, segs [][]string) (Decision, [][]string) {
	sc := req.Script.Of(req.Text)
	if sc.Err != nil {
		return ask(Reason{Check: CheckWords, Match: "parse error", Message: fmt.Sprintf("split mode: bash cannot parse it: %v", sc.Err)}), nil
	}
	f := sc.Form()
	if strings.ContainsRune(req.Text, '\r') {
		return ask(Reason{Check: CheckOperator, Match: "\r", Message: "split mode: a carriage return is read differently by bash and by the parser"}), nil
	}
	// Belt and braces: whatever the parse says (a backtick inside a
	// comment is inert to bash), these never appear in a split compound.
	for _, seq := range []string{"`", "$(", "${", "<(", ">(", "|&", "<<"} {
		if strings.Contains(req.Text, seq) {
			return ask(Reason{Check: CheckOperator, Match: seq, Message: "split mode: " + seq + " is never allowed in a compound"}), nil
		}
	}
	var cmds [][]string
	var args [][]Arg
	var cds []*shparse.Cd
	var why *Reason
	var refused *Reason
	var inputs []string
	var visit func(st *shparse.Stmt)
	visit = func(st *shparse.Stmt) {
		if why != nil {
			return
		}
		if st.Negated || st.Background {
			why = &Reason{Check: CheckOperator, Match: construct(st), Message: "split mode: " + construct(st) + " is not allowed in a compound"}
			return
		}
		for _, r := range st.Redirs {
			target, r2, ok := badRedirect(r)
			if NetDevice(target) {
				refused = &Reason{Check: CheckOperator, Match: target,
					Message: fmt.Sprintf("split mode: a redirect to %s opens a network connection", target)}
			}
			if !ok {
				why = &r2
				return
			}
			if r.Op == "<" {
				inputs = append(inputs, target)
			}
		}
		switch st.Kind {
		case shparse.KindAnd, shparse.KindOr, shparse.KindPipe, shparse.KindPipeAll:
			if st.Kind == shparse.KindPipeAll {
				why = &Reason{Check: CheckOperator, Match: "|&", Message: "split mode: only &&, ||, ; and | may join commands, not |&"}
				return
			}
			visit(st.Children[0])
			visit(st.Children[1])
		case shparse.KindCall:
			if len(st.Assigns) > 0 {
				why = &Reason{Check: CheckWords, Match: st.Assigns[0].Name + "=", Message: "split mode: an assignment prefix (" + st.Assigns[0].Name + "=...) is not allowed"}
				return
			}
			var a []Arg
			for i, w := range st.Args {
				arg, r, ok := wordArg(w, i)
				if e := w.Strict(); ok && e != "" && !expandsAsAlone(e, st.Cd != nil, i) {
					r, ok = Reason{Check: CheckWords, Match: arg.Value, Message: fmt.Sprintf("word %d (%s) is not literal (%s)", i+1, arg.Value, e)}, false
				}
				if !ok {
					r.Message = "split mode: " + r.Message
					why = &r
					return
				}
				a = append(a, arg)
			}
			if len(a) == 0 {
				why = &Reason{Check: CheckWords, Match: "empty", Message: "split mode: an empty command"}
				return
			}
			argv := make([]string, len(a))
			for i := range a {
				argv[i] = a[i].Value
			}
			cmds, args, cds = append(cmds, argv), append(args, a), append(cds, st.Cd)
		default:
			why = &Reason{Check: CheckWords, Match: construct(st), Message: "split mode: " + construct(st) + " is not allowed in a compound"}
		}
	}
	for _, st := range f.Stmts {
		visit(st)
	}
	if refused != nil {
		return deny(*refused), nil
	}
	if why != nil {
		return ask(*why), nil
	}
	if len(cmds) == 0 {
		return ask(Reason{Check: CheckWords, Match: "empty", Message: "empty command"}), nil
	}
	if r, ok := matchRules(req, segs, allowlist.Ask); ok {
		d := ask(Reason{Check: CheckAskRule, Match: r.match, Rule: r.rule.String(), Source: r.rule.Source.String(),
			Message: "an ask rule matches " + quoteMatch(r.match)})
		d.sticky = true
		return d, cmds
	}
	var reasons []Reason
	cd := cdTarget(req)
	for i, argv := range cmds {
		if i == 0 && cd != "" && cds[0] != nil {
			reasons = append(reasons, Reason{Check: CheckAllowlist, Match: "cd", Rule: "cd",
				Message: "cd " + cd + ": the rest is judged from " + cd + " too"})
			continue
		}
		d := decideAllow(req.Rules, args[i], argv)
		if d.verdict != Allow {
			p := d.Primary()
			p.Message = fmt.Sprintf("split mode: part %d (%s): %s", i+1, strings.Join(argv, " "), p.Message)
			return ask(p, d.reasons[1:]...), cmds
		}
		reasons = append(reasons, d.reasons...)
	}
	first := Reason{Check: CheckAllowlist, Match: fmt.Sprintf("%d commands", len(cmds)),
		Message: fmt.Sprintf("split mode: each of the %d commands is on the allowlist", len(cmds))}
	// An input redirect names a file no command's words hold: judge it
	// here, after full quote removal ($'.en\x76' is .env).
	for _, in := range inputs {
		if check, pat, ok := req.Paths.MatchPath(req.Paths.resolve(in)); ok {
			d := ask(Reason{Check: check, Match: in, Rule: pat, Source: string(check),
				Message: fmt.Sprintf("split mode: reads %s through a redirect, a protected path (%s)", quoteMatch(in), pat)})
			d.sticky, d.redirects = true, inputs
			return d, cmds
		}
	}
	d := allow(first, reasons...)
	d.redirects = inputs
	// Only when no word is left to bash's expansion: a glob in an
	// operand makes a reading the disk walk must also take, its matches
	// in its place ("ls | grep -e '' [-]R sub" is "grep -R" with a file
	// named -R there).
	d.globless = globless(args)
	return d, cmds
}

// badRedirect reports whether a redirect is one split mode accepts; if
// not, it returns why. target is the redirect's word after quote removal,
// when it is literal.
func badRedirect(r *shparse.Redir) (target string, why Reason, ok bool) {
	src := r.Text
	literal := false
	if w := r.Target; w != nil {
		if w.Dynamic() == "" && w.Strict() == "" {
			if fields, err := w.Fields(); err == nil && len(fields) == 1 {
				target, literal = fields[0], true
			}
		}
	}
	if r.Fd != "" && !standardFD(r.Fd) {
		return target, Reason{Check: CheckOperator, Match: r.Fd + r.Op,
			Message: fmt.Sprintf("split mode: redirect %s uses descriptor %s; only 0, 1 and 2 may be redirected", src, r.Fd)}, false
	}
	switch r.Op {
	case ">", ">>", "&>", "&>>":
		if literal && target == "/dev/null" {
			return target, Reason{}, true
		}
	case ">&":
		if literal && standardFD(target) {
			return target, Reason{}, true
		}
		if literal && strings.Trim(target, "0123456789") == "" {
			return target, Reason{Check: CheckOperator, Match: r.Op + target,
				Message: fmt.Sprintf("split mode: redirect %s duplicates descriptor %s; only 0, 1 and 2 may be duplicated", src, target)}, false
		}
	case "<":
		if literal && target != "" {
			return target, Reason{}, true
		}
	}
	return target, Reason{Check: CheckOperator, Match: r.Op,
		Message: fmt.Sprintf("split mode: redirect %s is not allowed (only output to /dev/null, 2>&1-style duplication, and < from a literal file)", src)}, false
}

// globless reports whether bash expands none of the words of the
// commands: each reaches its program as written.
func globless(args [][]Arg) bool {
	for _, a := range args {
		for _, w := range a {
			if w.Expands != "" {
				return false
			}
		}
	}
	return true
}

func standardFD(s string) bool { return s == "0" || s == "1" || s == "2" }

// expandsAsAlone reports whether a word of a split compound that bash
// still expands (kind, from shparse.Strict) is judged as it is in a simple
// command: a glob or a tilde in the operands of a program (word i > 0),
// which the allowlist, the path checks and the engine's disk walk read as
// they read a lone command's, from the directory the text's cd leads to.
// The pieces of a compound that runs are read-only, so none of them makes
// a file an earlier glob did not see. A brace, which makes more words,
// the program's name, and the words of a directory change (cd, where
// the later pieces run) stay literal.
func expandsAsAlone(kind string, cd bool, i int) bool {
	return !cd && i > 0 && (kind == "glob" || kind == "tilde")
}

// cdTarget returns DIR when, in split mode, the text starts with "cd DIR"
// as the first simple command of a compound ("cd DIR && ls"), DIR being
// one literal word that the shell does not look up in CDPATH: absolute,
// "~...", ".", "..", "./..." or "../...". The rest of the compound is
// judged from DIR as well as from the working directory (split mode
// allows that cd and nothing else changing directory). DIR must be the
// working directory or below it. It returns "" otherwise.
func cdTarget(req Request) string {
	if !req.Split || req.Argv != nil {
		return ""
	}
	sc := req.Script.Of(req.Text)
	if !sc.Form().Parsed {
		return ""
	}
	f := sc.Form()
	if len(f.Stmts) == 0 {
		return ""
	}
	st := f.Stmts[0]
	if !st.Kind.Joins() {
		if len(f.Stmts) < 2 {
			return ""
		}
	} else {
		for st.Kind.Joins() {
			st = st.Children[0]
		}
	}
	if st.Kind != shparse.KindCall || len(st.Assigns) > 0 || len(st.Redirs) > 0 || st.Negated || st.Background || st.Cd == nil {
		return ""
	}
	// The form's reading of the directory change: "cd DIR" with one
	// word, not "builtin cd", "cd -P", pushd or popd.
	if cd := st.Cd; cd.Stack() || len(st.Args) != 2 || cd.Physical || cd.Home || cd.Unknown != "" {
		return ""
	}
	if v := st.Args[0]; !v.Static || strings.Contains(v.Value, "/") {
		return "" // "/usr/bin/cd" runs in a process of its own
	}
	w := st.Args[1]
	if w.Dynamic() != "" || w.Expansion(true) == "glob" || w.Expansion(true) == "brace" {
		return ""
	}
	fields, err := w.Fields()
	if err != nil || len(fields) != 1 || fields[0] != st.Cd.Target {
		return ""
	}
	dir := st.Cd.Target
	if strings.HasPrefix(dir, "-") {
		return "" // an option, or "cd -": not a target
	}
	if st.Cd.LooksUp() && req.Paths.Vars["CDPATH"] != "" {
		// "cd src" looks src up in CDPATH first: not known where.
		return ""
	}
	// Anywhere: the target is judged as a path like any word (cd ~/.ssh
	// asks), and the rest of the compound is judged from it, so "cd /etc
	// && cat passwd" is judged as "cat /etc/passwd" is. The engine runs
	// compounds with CDPATH removed.
	if req.Paths.Cwd == "" && !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "~") {
		return ""
	}
	return dir
}
