package prompt

import (
	"fmt"
	"strings"

	"github.com/mattn/go-runewidth"
)

// commandLines splits a command already made visible (internal/visible)
// into its lines: visible writes a line break as the two characters \n
// and doubles every backslash that could be read as the start of an
// escape, so a \n that is not part of a \\ pair is a line break.
func commandLines(s string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			continue
		}
		switch s[i+1] {
		case '\\':
			i++
		case 'n':
			lines = append(lines, s[start:i])
			start = i + 2
			i++
		}
	}
	return append(lines, s[start:])
}

// wrap cuts s into rows at most width columns wide.
func wrap(s string, width int) []string {
	width = max(width, 8)
	var rows []string
	var b strings.Builder
	w := 0
	for _, r := range s {
		rw := runewidth.RuneWidth(r)
		if w+rw > width {
			rows = append(rows, b.String())
			b.Reset()
			w = 0
		}
		b.WriteRune(r)
		w += rw
	}
	return append(rows, b.String())
}

// wrapIndented wraps s and indents every row after the first.
func wrapIndented(first, rest, s string, width int) []string {
	rows := wrap(s, width-runewidth.StringWidth(first))
	for i := range rows {
		if i == 0 {
			rows[i] = first + rows[i]
		} else {
			rows[i] = rest + rows[i]
		}
	}
	return rows
}

// view is what the full-screen prompt draws: the question, the choices,
// and how far the command area is scrolled.
type view struct {
	title  string
	q      *Question // nil for the short follow-up questions
	lines  []string  // shown under the title when q is nil (a Change)
	p      *picker
	scroll int
	// input, when set, replaces the choices with a line to type into
	// (the confirmation code).
	input  string
	answer string // shown once the answer is taken
	cache  struct {
		width, shellWidth int
		cmd               []row
		shell             []string
	}
}

// row is one screen row of the command, and the line it belongs to.
type row struct {
	text string
	line int
}

// frame lays the view out in rows that each fit width columns, at most
// height rows in all when that is possible: the title, the severity
// warning, the choices, the working directory and the reasons always
// show; the command gets the room that is left (its first and last lines
// always show, the middle scrolls), and the shell's breakdown gets what
// the command leaves.
func (v *view) frame(width, height int) []string {
	width = max(width-1, 20) // never write into the last column: no auto-wrap
	rows := v.layout(width, height)
	for i, r := range rows {
		// Headers and markers are not wrapped: cut them. (Text that
		// matters, the command, reasons and warning, is wrapped above.)
		if runewidth.StringWidth(r) > width {
			rows[i] = runewidth.Truncate(r, width, "")
		}
	}
	return rows
}

func (v *view) layout(width, height int) []string {
	var top, info, bottom []string
	top = append(top, wrap(v.title, width)...)
	if v.q != nil && v.q.Severity != "" {
		top = append(top, wrapIndented("!! WARNING: ", "   ", v.q.Severity, width)...)
	}
	if v.q != nil {
		info = append(info, wrapIndented("in:       ", "          ", v.q.Cwd, width)...)
		for i, w := range v.q.Why {
			label := "why:      "
			if i > 0 {
				label = "          "
			}
			info = append(info, wrapIndented(label, "            ", w, width)...)
		}
	}
	bottom = append(bottom, "")
	bottom = append(bottom, v.choiceRows(width)...)
	if v.q == nil {
		var body []string
		for _, l := range v.lines {
			body = append(body, wrapIndented("  ", "    ", l, width)...)
		}
		if room := height - 1 - len(top) - len(bottom); len(body) > room && room >= 3 {
			body = append(append(body[:room-2:room-2], fmt.Sprintf("  ... %d more rows ...", len(body)-room+1)), body[len(body)-1])
		}
		return append(append(top, body...), bottom...)
	}
	room := height - 1 - len(top) - len(info) - len(bottom)
	cmd := v.commandRows(width, room)
	room -= len(cmd)
	rows := append(top, cmd...)
	rows = append(rows, info...)
	rows = append(rows, v.shellRows(width, room)...)
	return append(rows, bottom...)
}

// commandRows is the command area: the whole command when it fits in
// room rows, else its first and last lines with a scrolled window of the
// middle between them, and the line count.
func (v *view) commandRows(width, room int) []string {
	lines := commandLines(v.q.Command)
	if len(lines) == 1 {
		rows := wrapIndented("command:  ", "          ", lines[0], width)
		if len(rows) <= max(room, 3) {
			return rows
		}
	}
	// Numbered rows, each line wrapped under its number.
	if v.cache.width != width || v.cache.cmd == nil {
		// Wrapping a long command is the costly part of a frame: do it
		// once per width, not on every key.
		v.cache.width, v.cache.cmd, v.cache.shell = width, nil, nil
		num := len(fmt.Sprint(len(lines)))
		rest := "  " + strings.Repeat(" ", num) + " | "
		for i, l := range lines {
			first := fmt.Sprintf("  %*d | ", num, i+1)
			for _, r := range wrapIndented(first, rest, l, width) {
				v.cache.cmd = append(v.cache.cmd, row{r, i})
			}
		}
	}
	all := v.cache.cmd
	header := fmt.Sprintf("command (%s):", plural(len(lines), "line"))
	budget := max(room-1, 5)
	if len(all) <= budget {
		out := []string{header}
		for _, r := range all {
			out = append(out, r.text)
		}
		return out
	}
	header = fmt.Sprintf("command (%s; PgUp/PgDn scroll; the first and last lines always show):", plural(len(lines), "line"))
	// The rows of the last line, at most a third of the budget.
	last := 0
	for i := len(all) - 1; i > 0 && all[i].line == len(lines)-1; i-- {
		last++
	}
	last = max(1, min(last, budget/3))
	middle := max(1, budget-1-last-2) // first row, last rows, two markers
	span := len(all) - 1 - last       // rows between the first and the last ones
	v.scroll = max(0, min(v.scroll, span-middle))
	out := append(wrap(header, width), all[0].text)
	from, to := 1+v.scroll, 1+v.scroll+middle
	if from > 1 {
		out = append(out, fmt.Sprintf("  ... %d rows above (PgUp) ...", from-1))
	}
	for _, r := range all[from:to] {
		out = append(out, r.text)
	}
	if to < len(all)-last {
		out = append(out, fmt.Sprintf("  ... %d rows below (PgDn) ...", len(all)-last-to))
	}
	for _, r := range all[len(all)-last:] {
		out = append(out, r.text)
	}
	return out
}

// pageSize is how far PgUp and PgDn move the command area.
func (v *view) pageSize(height int) int { return max(1, height/3) }

// shellRows is the shell's breakdown, cut to room rows.
func (v *view) shellRows(width, room int) []string {
	if v.q.Shell == "" {
		return nil
	}
	if v.cache.shellWidth != width || v.cache.shell == nil {
		v.cache.shellWidth, v.cache.shell = width, nil
		for _, l := range strings.Split(strings.TrimSuffix(v.q.Shell, "\n"), "\n") {
			v.cache.shell = append(v.cache.shell, wrapIndented("  ", "    ", l, width)...)
		}
	}
	rows := v.cache.shell
	switch {
	case room < 1:
		return nil
	case len(rows)+1 <= room:
		return append([]string{"the shell would run:"}, rows...)
	case room < 3:
		return []string{fmt.Sprintf("the shell would run: (%d rows, not shown: the terminal is too small)", len(rows))}
	}
	shown := rows[:room-2]
	out := append([]string{"the shell would run:"}, shown...)
	return append(out, fmt.Sprintf("  ... %d more rows (agentgate check -- COMMAND shows them all)", len(rows)-len(shown)))
}

// choiceRows are the options, the keys that work, and what was typed or
// the answer taken.
func (v *view) choiceRows(width int) []string {
	if v.input != "" || v.p == nil {
		return wrap(v.input, width)
	}
	var rows []string
	wide := 0
	for _, o := range v.p.opts {
		wide = max(wide, runewidth.StringWidth(o.label))
	}
	for i, o := range v.p.opts {
		mark := "  "
		if i == v.p.cursor {
			mark = "> "
		}
		rows = append(rows, runewidth.Truncate(fmt.Sprintf("%s%-*s  %s", mark, wide, o.label, o.hint()), width, "..."))
	}
	if v.answer != "" {
		return append(rows, wrap("answer: "+v.answer, width)...)
	}
	rows = append(rows, wrap("Up/Down move, Enter takes the highlighted choice; allowing needs Enter or the whole word; Esc denies", width)...)
	switch {
	case v.p.note != "":
		rows = append(rows, wrap(v.p.note, width)...)
	case v.p.typed != "":
		rows = append(rows, wrap("typed: "+v.p.typed+" (Enter takes it)", width)...)
	}
	return rows
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
