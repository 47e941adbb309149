package gate

import "strings"

// operators are the byte sequences that make a command text more than one
// simple command, or redirect it. The check is on the raw text and ignores
// quoting on purpose: a quoted "|" costs one question, while reasoning
// about quotes is where bypasses live. Longer sequences come first so the
// reason names "&&" rather than "&".
var operators = []struct {
	seq, name string
}{
	{"$(", "command substitution $("},
	{"${", "parameter expansion ${"},
	{"`", "command substitution (backtick)"},
	{"&&", "&& (runs a second command)"},
	{"||", "|| (runs a second command)"},
	{"|&", "|& (pipes into a second command)"},
	{"&>", "&> (redirects output to a file)"},
	{"<(", "<( (process substitution)"},
	{">(", ">( (process substitution)"},
	{">>", ">> (appends to a file)"},
	{"<<", "<< (here-document)"},
	{";", "; (runs a second command)"},
	{"&", "& (runs in the background)"},
	{"|", "| (pipes into a second command)"},
	{">", "> (redirects output to a file)"},
	{"<", "< (redirects input)"},
	{"\n", "newline (runs a second command)"},
	{"\r", "carriage return (hides text on a terminal)"},
}

// findOperator returns the first operator in text, by position, and its
// description.
func findOperator(text string) (seq, name string, found bool) {
	i := strings.IndexAny(text, ";&|`$<>\n\r")
	for i >= 0 {
		rest := text[i:]
		for _, op := range operators {
			if strings.HasPrefix(rest, op.seq) {
				return op.seq, op.name, true
			}
		}
		// A lone "$" (as in $HOME) is not an operator; look further.
		j := strings.IndexAny(rest[1:], ";&|`$<>\n\r")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return "", "", false
}
