package inspect

import (
	"fmt"
	"strings"

	"github.com/agentgate/agentgate/internal/visible"
)

// Tree renders the description as an indented tree for people, every
// text made visible (control and invisible characters escaped).
func (s Script) Tree() string {
	var b strings.Builder
	switch {
	case s.Error != "" && len(s.Nodes) == 0:
		fmt.Fprintf(&b, "could not parse: %s\n", visible.String(s.Error))
	case s.Error != "":
		fmt.Fprintf(&b, "warning: %s\n", visible.String(s.Error))
	}
	for _, n := range s.Nodes {
		writeNode(&b, n, 0)
	}
	return b.String()
}

var kindNames = map[string]string{
	"and":      "&& (the second runs if the first succeeds)",
	"or":       "|| (the second runs if the first fails)",
	"pipe":     "| (the first's output goes to the second)",
	"pipe-all": "|& (the first's output and errors go to the second)",
}

func writeNode(b *strings.Builder, n Node, depth int) {
	ind := strings.Repeat("  ", depth)
	var flags []string
	if n.Background {
		flags = append(flags, "in the background (&)")
	}
	if n.Negated {
		flags = append(flags, "negated (!)")
	}
	suffix := ""
	if len(flags) > 0 {
		suffix = "  [" + strings.Join(flags, ", ") + "]"
	}
	switch n.Kind {
	case "command":
		var words []string
		for _, a := range n.Assigns {
			words = append(words, a.Name+"="+wordText(a.Value))
		}
		for _, w := range n.Words {
			words = append(words, wordText(w))
		}
		fmt.Fprintf(b, "%scommand: %s%s\n", ind, strings.Join(words, " "), suffix)
		for _, a := range n.Assigns {
			writeSubsts(b, a.Value.Substs, depth+1)
		}
		for _, w := range n.Words {
			writeSubsts(b, w.Substs, depth+1)
		}
	case "and", "or", "pipe", "pipe-all":
		fmt.Fprintf(b, "%s%s%s\n", ind, kindNames[n.Kind], suffix)
		for _, c := range n.Children {
			writeNode(b, c, depth+1)
		}
	default:
		head := n.Kind
		if n.Name != "" {
			head += " " + visible.String(n.Name)
		}
		if n.Kind == "unknown" {
			head += ": " + visible.String(n.Text)
		}
		if len(n.Words) > 0 {
			var words []string
			for _, w := range n.Words {
				words = append(words, wordText(w))
			}
			head += " in " + strings.Join(words, " ")
		}
		fmt.Fprintf(b, "%s%s%s\n", ind, head, suffix)
		for _, w := range n.Words {
			writeSubsts(b, w.Substs, depth+1)
		}
		for _, a := range n.Assigns {
			fmt.Fprintf(b, "%s  assigns %s=%s\n", ind, a.Name, wordText(a.Value))
		}
		writeSubsts(b, n.Substs, depth+1)
		for _, c := range n.Children {
			writeNode(b, c, depth+1)
		}
	}
	for _, r := range n.Redirs {
		target := wordText(r.Target)
		if r.Heredoc != "" {
			body := strings.TrimSuffix(strings.TrimSuffix(r.Heredoc, r.Target.Value), "\n")
			target = target + ", here-document: " + visible.String(body)
		}
		fmt.Fprintf(b, "%s  redirect %s%s %s\n", ind, r.Fd, r.Op, target)
		writeSubsts(b, r.Target.Substs, depth+2)
		writeSubsts(b, r.Substs, depth+2)
	}
}

func writeSubsts(b *strings.Builder, ss []Subst, depth int) {
	for _, s := range ss {
		fmt.Fprintf(b, "%ssubstitution %s runs:\n", strings.Repeat("  ", depth), s.Kind)
		if len(s.Nodes) == 0 {
			fmt.Fprintf(b, "%s(arithmetic %s)\n", strings.Repeat("  ", depth+1), visible.String(s.Text))
		}
		for _, n := range s.Nodes {
			writeNode(b, n, depth+1)
		}
	}
}

// wordText shows a literal word by its value (quoted when it holds
// spaces or is empty) and any other word by its source, marked.
func wordText(w Word) string {
	if w.Literal {
		if w.Value == "" || strings.ContainsAny(w.Value, " \t\n'\"\\$`;&|<>(){}*?[]~#") {
			return visible.String(quote(w.Value))
		}
		return visible.String(w.Value)
	}
	return visible.String(w.Text) + " {" + strings.Join(w.Expands, ",") + "}"
}

func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
