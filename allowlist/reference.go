package allowlist

import (
	"fmt"
	"io"
	"strings"
)

// Reference writes the catalogue as a Markdown page, one table per
// program with a note per flag: docs/catalogue.md, kept in step by a test.
func Reference(w io.Writer) {
	seen := map[string]string{}
	fmt.Fprint(w, "# The read-only catalogue\n\n")
	fmt.Fprint(w, "Generated from allowlist/ by `go test ./allowlist -run TestReference -update`; do not edit by hand.\n\n")
	fmt.Fprint(w, "Each program lists every flag it accepts. A flag not listed asks, and so does a flag marked with what it does\n"+
		"(writes, deletes, runs programs, network, prints secrets, not judged). Every word is a path, judged against the\n"+
		"protected and sensitive paths, unless the table marks it a pattern, a string or a number. Long options may be abbreviated as\n"+
		"GNU getopt allows; an abbreviation that could stand for a refused flag asks. Each entry shows a command it runs and\n"+
		"commands it must ask about, refused by the entry itself; `gate.TestCatalogueAsks` runs them all.\n\n")
	fmt.Fprint(w, "## Built in\n\n")
	for _, e := range builtin {
		entryReference(w, e, seen)
	}
	fmt.Fprint(w, "## Packs\n\nOff by default; `packs = [\"gh\", ...]` in a trusted configuration file turns them on. Their commands run with the sandbox level `read-only+network`.\n\n")
	for _, p := range packs.get() {
		fmt.Fprintf(w, "### Pack %s\n\n%s.\n\nAsks when any of these is present:\n\n", p.Name, p.Note)
		for _, h := range p.Hazards {
			what := "variable `" + h.Env + "`"
			if h.File != "" {
				what = "file `" + h.File + "`"
				if len(h.Contains) > 0 {
					what += " holding `" + strings.Join(h.Contains, "` or `") + "`"
				}
			}
			fmt.Fprintf(w, "- %s: %s\n", what, h.Why)
		}
		fmt.Fprintln(w)
		shown := map[string]bool{}
		for _, e := range p.Entries {
			if g := globals[e.Words[0]]; g != nil && !shown[e.Words[0]] {
				shown[e.Words[0]] = true
				fmt.Fprintf(w, "#### %s: options of every subcommand\n\n", e.Words[0])
				flagTable(w, g.FlagList(), nil)
			}
			entryReference(w, e, seen)
		}
	}
}

// entryReference writes one entry; seen maps a flag table already written
// to its entry, so that entries sharing one refer to it.
func entryReference(w io.Writer, e *Entry, seen map[string]string) {
	level := "###"
	if e.Pack != "" {
		level = "####"
	}
	fmt.Fprintf(w, "%s %s\n\n%s.", level, e.Name(), e.Note)
	o := e.Operands
	switch {
	case o.None:
		fmt.Fprint(w, " No operand.")
	case o.Strings:
		fmt.Fprint(w, " Operands are strings, not paths.")
	case o.Lead > 0:
		fmt.Fprintf(w, " The first operand is a pattern (unless %s gives it); the rest are paths.", strings.Join(o.LeadUnless, " or "))
	default:
		fmt.Fprint(w, " Operands are paths.")
	}
	if o.Max > 0 {
		fmt.Fprintf(w, " At most %d.", o.Max)
	}
	if e.Check != nil {
		fmt.Fprint(w, " Its operands are parsed (see the note).")
	}
	if e.Walks != 0 {
		fmt.Fprintf(w, " It %s.", e.Walks)
	}
	fmt.Fprint(w, "\n\n")
	// The entry's examples, as TestCatalogueAsks runs them (an entry
	// that always asks has its Example ask too).
	runs := "Runs"
	if strings.Contains(e.Note, "always asks") {
		runs = "Example"
	}
	fmt.Fprintf(w, "%s: `%s`. Asks: `%s`.\n\n", runs, e.Example, strings.Join(e.Asks, "`, `"))
	var key strings.Builder
	for _, f := range e.FlagList() {
		key.WriteString(f.Spec() + "\x00" + f.Note + "\x00" + f.Effect.String() + "\x00" + f.Walk.String() + "\x00")
	}
	if first, ok := seen[key.String()]; ok && len(e.FlagList()) > 0 {
		fmt.Fprintf(w, "Flags: as for `%s`.\n\n", first)
		return
	}
	seen[key.String()] = e.Name()
	flagTable(w, e.FlagList(), globals[e.Words[0]])
}

// flagTable writes the flags as a table, leaving out those of skip (a
// program's global options, shown once).
func flagTable(w io.Writer, flags []Flag, skip *Entry) {
	inSkip := map[string]bool{}
	if skip != nil && len(flags) > 0 && &flags[0] != &skip.FlagList()[0] {
		for _, f := range skip.FlagList() {
			inSkip[f.Spec()+f.Note] = true
		}
	}
	var rows []Flag
	for _, f := range flags {
		if !inSkip[f.Spec()+f.Note] {
			rows = append(rows, f)
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprint(w, "| flag | value | does |\n|---|---|---|\n")
	for _, f := range rows {
		value := ""
		switch {
		case f.Value == "":
		case f.Kind() == PathValue:
			value = "`" + f.Value + "`, judged as a path"
		case f.Kind() == NumberValue:
			value = "`" + f.Value + "`, a number (any other word is judged as a path)"
		case f.IsPath():
			value = "`" + f.Value + "`, " + f.Kind().String() + ", judged as a path too"
		default:
			value = "`" + f.Value + "`, " + f.Kind().String()
		}
		does := f.Note
		if f.Walk != 0 {
			when := ""
			if f.WalkWhen != "" {
				when = "with the value " + f.WalkWhen + ": "
			}
			does += " (" + when + f.Walk.String() + ")"
		}
		if f.Effect != Reads {
			does = "**asks: " + f.Effect.String() + "**: " + f.Note
		}
		fmt.Fprintf(w, "| `%s` | %s | %s |\n", strings.ReplaceAll(f.Spec(), "|", `\|`), value, strings.ReplaceAll(does, "|", `\|`))
	}
	fmt.Fprintln(w)
}
