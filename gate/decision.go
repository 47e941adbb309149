package gate

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Verdict is what the gate decided: run, ask a human, or refuse.
type Verdict int

const (
	// Ask escalates to a human (or, with no human present, denies). It is
	// the zero value: a Decision nobody filled in never allows.
	Ask Verdict = iota
	// Allow runs the command without asking.
	Allow
	// Deny refuses the command without asking.
	Deny
)

func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// MarshalText makes a Verdict read as "allow", "ask" or "deny" in JSON.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads "allow", "ask" or "deny"; anything else is an error.
func (v *Verdict) UnmarshalText(b []byte) error {
	switch string(b) {
	case "allow":
		*v = Allow
	case "ask":
		*v = Ask
	case "deny":
		*v = Deny
	default:
		return fmt.Errorf("unknown decision %q", b)
	}
	return nil
}

// Check names a step of the decision.
type Check string

// The checks of [Decide], in the order they run.
const (
	CheckDenyRule    Check = "deny rule"
	CheckText        Check = "text"
	CheckOperator    Check = "operator"
	CheckWords       Check = "words"
	CheckAskRule     Check = "ask rule"
	CheckAllowlist   Check = "allowlist"
	CheckException   Check = "argument exception"
	CheckDefault     Check = "default"
	CheckInternal    Check = "internal"
	CheckSelfProtect Check = "self-protection"
	CheckSensitive   Check = "sensitive path"
	CheckRepoConfig  Check = "repository configuration"
	CheckSandbox     Check = "sandbox"
	// CheckHostEnv is a write that would make a host export a steering
	// variable to every hook and command it starts (see [Forbid]).
	CheckHostEnv Check = "host environment"
)

// Reason is one step of a decision's reason chain: what was checked, what
// matched, which rule, and where the rule came from.
type Reason struct {
	Check Check `json:"check"`
	// Match is the text that matched: an operator, a flag, a prefix.
	Match string `json:"match,omitempty"`
	// Rule is the rule as written in its source, when a rule decided.
	Rule string `json:"rule,omitempty"`
	// Source is where the rule came from ("default", "policy.toml:12").
	Source string `json:"source,omitempty"`
	// Message says it in plain words for the human.
	Message string `json:"message"`
}

func (r Reason) String() string {
	var b strings.Builder
	b.WriteString(r.Message)
	if r.Rule != "" {
		fmt.Fprintf(&b, " (rule %q", r.Rule)
		if r.Source != "" {
			fmt.Fprintf(&b, " from %s", r.Source)
		}
		b.WriteString(")")
	}
	return b.String()
}

// Risk is a note explaining what an escalated command could do. Risks
// never decide; they help the human decide.
type Risk struct {
	Program string `json:"program"`
	Note    string `json:"note"`
}

// Decision is the outcome of [Decide]: a verdict and the ordered reasons
// that led to it. Its fields are unexported so that a Decision can only be
// made through [allow], [ask] and [deny], which is what guarantees that an
// ask or a deny always carries at least one reason.
type Decision struct {
	verdict Verdict
	reasons []Reason
	risks   []Risk
	// sticky marks an ask that no mode, allow rule or session memory may
	// turn into an allow: explicit ask rules, self-protection and
	// sensitive paths.
	sticky bool
	// globless is set when bash expands no glob of the judged commands'
	// words: a literal simple command, or a compound split mode allowed
	// whose words are all literal (a glob or tilde in an operand, which
	// split mode judges as in a lone command, clears it).
	globless bool
	// unread is set when the text's words are not read as bash reads
	// them (an escape, IFS, positional parameters, glob options): what
	// they name on disk is not known, so no approval can be bound to it.
	unread bool
	// argv holds the words of the command when it is one simple command
	// whose words are known after quote removal.
	argv []string
	// literal is true when argv is exactly what the program receives: no
	// word is still subject to glob, brace or tilde expansion.
	literal bool
	// commands are the words of every simple command, when known: the
	// one command, or each part of a compound judged in split mode.
	commands [][]string
	// redirects are the file targets of redirects (split mode).
	redirects []string
	// segments are the text's plain split, whatever the verdict (see
	// [Decision.Segments]).
	segments [][]string
	// severity warns the person about a broadly destructive command
	// (see [Severity]).
	severity string
}

func allow(why Reason, more ...Reason) Decision {
	return Decision{verdict: Allow, reasons: append([]Reason{why}, more...)}
}

func ask(why Reason, more ...Reason) Decision {
	return Decision{verdict: Ask, reasons: append([]Reason{why}, more...)}
}

func deny(why Reason, more ...Reason) Decision {
	return Decision{verdict: Deny, reasons: append([]Reason{why}, more...)}
}

// Verdict is allow, ask or deny.
func (d Decision) Verdict() Verdict { return d.verdict }

// Reasons returns the reason chain, first (deciding) reason first.
func (d Decision) Reasons() []Reason { return append([]Reason(nil), d.reasons...) }

// Risks returns the risk notes for the programs the command runs.
func (d Decision) Risks() []Risk { return append([]Risk(nil), d.risks...) }

// Sticky reports whether an ask must stay an ask whatever the mode or
// session memory says (self-protection, sensitive paths, explicit ask
// rules).
func (d Decision) Sticky() bool { return d.sticky }

// Argv returns the words of the command after quote removal when it is
// one simple command with literal words, and nil otherwise. These are the
// words the allowlist judged.
func (d Decision) Argv() []string { return append([]string(nil), d.argv...) }

// Literal reports whether [Decision.Argv] is exactly what the program
// receives, so that it can run without a shell.
func (d Decision) Literal() bool { return d.literal && len(d.argv) > 0 }

// Escalate turns an allow into an ask for a reason found outside the
// command text (the repository's configuration, say), keeping the rest of
// the chain. Ask and deny are returned unchanged: nothing found later can
// lower them. The ask is sticky: what is found outside the text (a planted
// git key, a symlink to a secret, a program in an agent-writable
// directory, confinement the kernel cannot give) is what an attacker
// plants, and no mode or session memory may run it without a person.
func Escalate(d Decision, why Reason) Decision {
	if d.verdict != Allow {
		return d
	}
	e := ask(why, d.reasons...).reading(d)
	e.sticky = true
	return e
}

// reading is d with what src read of the text (its words, commands,
// redirects, segments, severity and how they were read), for a decision
// raised above src by a reason found outside the text.
func (d Decision) reading(src Decision) Decision {
	d.argv, d.literal, d.commands, d.redirects, d.severity, d.segments = src.argv, src.literal, src.commands, src.redirects, src.severity, src.segments
	d.unread, d.globless = src.unread, src.globless
	return d
}

// MaxWords bounds [Decision.Words].
const MaxWords = 256

// Segments returns the text's plain split, whatever the verdict: each
// simple command's words, each redirect target as a segment of its own,
// the commands of nested texts, as the rules read them (at most
// [MaxWords] words in all). [Decision.Commands] holds what the gate
// judged, which stops at the first reason to ask; what a person approves
// is bound to everything these name on disk ("cat notes.txt > copy.txt"
// asks for the redirect alone, and its approval must not outlive
// notes.txt becoming a link to a key).
func (d Decision) Segments() [][]string {
	out := make([][]string, len(d.segments))
	for i, s := range d.segments {
		out[i] = append([]string(nil), s...)
	}
	return out
}

// Words returns the distinct words of [Decision.Segments].
func (d Decision) Words() []string {
	seen := map[string]bool{}
	var out []string
	for _, argv := range d.segments {
		for _, w := range argv {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// substituted is segs with, after each segment whose words change, the
// same segment read two more ways: the text's own assignments put in
// ("x=ink1; cat l$x" reads link1: a red team's link to a key was read
// unseen under the word "l${x}"), and each "${NAME:-WORD}"-style operand
// in place of its expansion ("cat ${x:-link1}"). The words as written
// stay too: the plain split does not say what was quoted, and
// "cat '$x'" reads the file named $x.
func substituted(segs [][]string, subst func(string) string) [][]string {
	var out [][]string
	for _, argv := range segs {
		out = append(out, argv)
		for _, read := range []func(string) string{subst, paramOperands} {
			var alt []string
			changed := false
			for _, w := range argv {
				v := read(w)
				changed = changed || v != w
				alt = append(alt, v)
			}
			if changed {
				out = append(out, alt)
			}
		}
	}
	return out
}

// paramOperands puts, for each "${NAME<op>WORD}" of w (op one of :- - :=
// = :+ + :? ?), its WORD in its place: what the expansion gives when the
// variable is unset or set, as the case may be (at most 8 of them).
func paramOperands(w string) string {
	for n := 0; n < 8; n++ {
		i := strings.Index(w, "${")
		if i < 0 {
			return w
		}
		k := i + 2
		for k < len(w) && (w[k] == '_' || w[k] >= 'a' && w[k] <= 'z' || w[k] >= 'A' && w[k] <= 'Z' || w[k] >= '0' && w[k] <= '9') {
			k++
		}
		op := 0
		for _, o := range []string{":-", ":=", ":+", ":?", "-", "=", "+", "?"} {
			if strings.HasPrefix(w[k:], o) {
				op = len(o)
				break
			}
		}
		if k == i+2 || op == 0 {
			return w
		}
		depth, end := 1, -1
		for m := k + op; m < len(w); m++ {
			switch w[m] {
			case '{':
				depth++
			case '}':
				depth--
			}
			if depth == 0 {
				end = m
				break
			}
		}
		if end < 0 {
			return w
		}
		w = w[:i] + w[k+op:end] + w[end+1:]
	}
	return w
}

// segmentsOf is segs cut to MaxWords words in all.
func segmentsOf(segs [][]string) [][]string {
	var out [][]string
	n := 0
	for _, argv := range segs {
		if n+len(argv) > MaxWords {
			break
		}
		n += len(argv)
		out = append(out, append([]string(nil), argv...))
	}
	return out
}

// Stick makes an ask sticky and puts why first in its chain: something
// found outside the text (a word that reaches a key) about a command that
// asks anyway. The person must see it, and no mode or session memory may
// run the command without them. An allow is escalated ([Escalate]); a
// deny stays as it is.
func Stick(d Decision, why Reason) Decision {
	switch d.verdict {
	case Allow:
		return Escalate(d, why)
	case Deny:
		return d
	}
	d.reasons = append([]Reason{why}, d.reasons...)
	d.sticky = true
	return d
}

// Forbid turns any decision into a deny for a reason found outside the
// text that no approval can make safe: a write that would set a variable
// the host exports to its hooks through a shell, which acts on it before
// agentgate runs (LD_PRELOAD loads code into that shell), so that after
// it nothing agentgate says can be trusted. The chain is kept after why.
func Forbid(d Decision, why Reason) Decision {
	if d.verdict == Deny {
		return d
	}
	f := deny(why, d.reasons...).reading(d)
	f.sticky = true
	return f
}

// Redirects returns the targets of the file redirects of a compound
// judged in split mode ("< in.txt"), after quote removal: the files it
// opens that are not in any command's words.
func (d Decision) Redirects() []string { return append([]string(nil), d.redirects...) }

// Globless reports that bash expands no glob of the judged commands'
// words ([Decision.Commands]): each word reaches its program as it is.
func (d Decision) Globless() bool { return d.globless }

// Unread reports a text whose words are not read as bash reads them (an
// escape bash decodes otherwise, IFS, positional parameters, glob
// options): what they name on disk is not known, so no approval of it
// can be bound to the files it reaches.
func (d Decision) Unread() bool { return d.unread }

// Commands returns the words of every simple command the gate judged:
// the command itself, or each part of a compound judged in split mode.
func (d Decision) Commands() [][]string {
	out := make([][]string, len(d.commands))
	for i, c := range d.commands {
		out[i] = append([]string(nil), c...)
	}
	return out
}

// Primary is the reason that decided.
func (d Decision) Primary() Reason {
	if len(d.reasons) == 0 {
		// Unreachable through the constructors; say so rather than panic.
		return Reason{Check: CheckInternal, Message: "no reason recorded"}
	}
	return d.reasons[0]
}

// MarshalJSON gives {"decision": ..., "reasons": [...], "risks": [...]}.
func (d Decision) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Decision Verdict  `json:"decision"`
		Reasons  []Reason `json:"reasons"`
		Risks    []Risk   `json:"risks"`
		Sticky   bool     `json:"sticky,omitempty"`
	}{d.verdict, nonNil(d.reasons), nonNil(d.risks), d.sticky})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
