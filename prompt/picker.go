package prompt

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// option is one line of a list of choices. An option that lets the
// command run has a word and no key: it is taken only by moving to it and
// pressing Enter, or by typing the whole word and Enter. Only options that
// deny have a single key, so no stray letter (the "y" of "yes", the "s" of
// "/session") can ever approve anything.
type option struct {
	label  string
	choice Choice
	key    rune   // a single key that takes it at once; deny options only
	word   string // the word that takes it when typed and followed by Enter
}

// picker is the state of a list of choices: which one is highlighted,
// what has been typed, and the answer once one is taken. It does no I/O:
// the full-screen prompt feeds it keys and draws what it holds.
type picker struct {
	opts   []option
	cursor int
	typed  string
	note   string // why the last Enter took nothing
	done   bool
	chosen Choice
	// interrupted is set by Esc and Ctrl-C.
	interrupted bool
}

// newPicker returns a picker with the cursor on the first option, which
// must be the one that denies.
func newPicker(opts []option) *picker {
	for _, o := range opts {
		if o.key != 0 && o.choice.Allows() {
			panic(fmt.Sprintf("prompt: option %q allows and has a single key", o.label))
		}
	}
	if len(opts) == 0 || opts[0].choice.Allows() {
		panic("prompt: the first option must deny")
	}
	return &picker{opts: opts}
}

// press handles one key. Up and Down stop at the ends of the list: no
// wrap-around takes Up from Deny to the last (allowing) option.
func (p *picker) press(k key) {
	if p.done {
		return
	}
	switch k.kind {
	case keyUp:
		p.cursor = max(0, p.cursor-1)
		p.typed, p.note = "", ""
	case keyDown:
		p.cursor = min(len(p.opts)-1, p.cursor+1)
		p.typed, p.note = "", ""
	case keyHome:
		p.cursor = 0
	case keyEnd:
		p.cursor = len(p.opts) - 1
	case keyEsc, keyCtrlC:
		p.interrupted, p.done, p.chosen = true, true, Deny
	case keyCtrlD:
		p.take(0)
	case keyBackspace:
		if p.typed != "" {
			_, n := utf8.DecodeLastRuneInString(p.typed)
			p.typed = p.typed[:len(p.typed)-n]
		}
	case keyCtrlU:
		p.typed = ""
	case keyEnter:
		p.enter()
	case keyRune:
		if p.typed == "" {
			for i, o := range p.opts {
				if o.key != 0 && o.key == k.r {
					p.take(i)
					return
				}
			}
		}
		if len(p.typed) < 64 {
			p.typed += string(k.r)
		}
		p.note = ""
	}
}

// enter takes the highlighted option, or the one whose word was typed.
// A typed word that names no option takes nothing and says so.
func (p *picker) enter() {
	typed := strings.ToLower(strings.TrimSpace(p.typed))
	if typed == "" {
		p.take(p.cursor)
		return
	}
	for i, o := range p.opts {
		if o.word != "" && typed == o.word {
			p.take(i)
			return
		}
	}
	p.note = fmt.Sprintf("%q is not a choice: move with Up/Down and press Enter, or type %s", p.typed, p.wordList())
	p.typed = ""
}

func (p *picker) take(i int) {
	p.cursor, p.done, p.chosen = i, true, p.opts[i].choice
}

// wordList names the words that can be typed, for the hint.
func (p *picker) wordList() string {
	var ws []string
	for _, o := range p.opts {
		if o.word != "" {
			ws = append(ws, o.word)
		}
	}
	switch len(ws) {
	case 0:
		return "nothing"
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}

// hint describes, in a word, how an option is taken.
func (o option) hint() string {
	switch {
	case o.key != 0:
		return fmt.Sprintf("[%c]", o.key)
	case o.word != "":
		return fmt.Sprintf("type %q", o.word)
	}
	return ""
}

// approvalOptions are the choices of the approval prompt, Deny first.
func approvalOptions(q Question) []option {
	opts := []option{
		{label: "Deny", choice: Deny, key: 'd', word: "deny"},
		{label: "Allow once", choice: AllowOnce, word: "allow"},
		{label: "Allow for this session", choice: AllowSession, word: "session"},
		{label: "Deny for this session", choice: DenySession, key: 'n'},
	}
	switch {
	case q.AlwaysPrefix != "" && q.AlwaysSandbox != "":
		opts = append(opts, option{label: fmt.Sprintf("Always allow %q confined to the project (adds it to learned.toml)", q.AlwaysPrefix), choice: AlwaysAllow, word: "always"})
	case q.AlwaysPrefix != "":
		opts = append(opts, option{label: fmt.Sprintf("Always allow %q (adds it to learned.toml)", q.AlwaysPrefix), choice: AlwaysAllow, word: "always"})
	}
	return opts
}

// alwaysTitle is the question "Always allow" asks next: the rule as it
// will be written, and what it will let run.
func (q Question) alwaysTitle() string {
	if q.AlwaysSandbox != "" {
		return fmt.Sprintf("Add [[allow.rule]] prefix = %q, sandbox = %q to learned.toml? Every command starting with %q will then run without asking, confined: it may write only under the project, with no network.",
			q.AlwaysPrefix, q.AlwaysSandbox, q.AlwaysPrefix)
	}
	return fmt.Sprintf("Add prefix = [%q] to learned.toml? Every command starting with %q will then run without asking.", q.AlwaysPrefix, q.AlwaysPrefix)
}

// alwaysOptions are the choices of the second question "Always allow"
// asks, Deny first.
func alwaysOptions(prefix string) []option {
	return []option{
		{label: "Deny", choice: Deny, key: 'd', word: "deny"},
		{label: "Allow once, do not add it", choice: AllowOnce, word: "allow"},
		{label: fmt.Sprintf("Add %q and allow", prefix), choice: AlwaysAllow, word: "add"},
	}
}
