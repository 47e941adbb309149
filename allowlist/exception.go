package allowlist

import (
	"fmt"
	"strings"
)

// Exception is a flag or argument shape that makes an allowed program do
// more than read. Its text decides how it matches a word:
//
//   - "--long" matches "--long", "--long=VALUE" and every abbreviation
//     "--lo", "--lon=VALUE" (GNU getopt_long and git accept unambiguous
//     abbreviations, so "sort --out=f" is "sort --output=f").
//   - "-x" (one dash, one character) matches any bundle of short flags that
//     contains x: "-x", "-xVALUE", "-abx". A value that happens to contain x
//     ("-tx") also hits; that costs a question, never an allow.
//   - "-word" (one dash, several characters, as find uses) matches the word
//     exactly.
//   - "<positional>" matches any argument that does not start with "-",
//     for programs where a plain argument changes what they do ("git branch
//     NAME" creates a branch).
//   - anything else matches a word equal to it, or starting with it followed
//     by "=".
type Exception struct {
	Text string
	// Why says what the flag does, for the human ("writes its output to a
	// file").
	Why string
}

// Positional is the exception text matching any non-flag argument.
const Positional = "<positional>"

// ParseException checks that text is a usable exception and returns it.
func ParseException(text, why string) (Exception, error) {
	switch {
	case text == Positional:
	case text == "" || text == "-" || text == "--":
		return Exception{}, fmt.Errorf("exception %q matches nothing useful; write a flag such as \"-o\" or \"--output\"", text)
	case strings.ContainsAny(text, " \t"):
		return Exception{}, fmt.Errorf("exception %q contains a space; an exception is one flag, e.g. \"--output\"", text)
	}
	return Exception{Text: text, Why: why}, nil
}

// Matches reports whether the argument word hits the exception.
func (e Exception) Matches(word string) bool {
	t := e.Text
	switch {
	case t == Positional:
		return !strings.HasPrefix(word, "-")
	case strings.HasPrefix(t, "--"):
		if !strings.HasPrefix(word, "--") {
			return false
		}
		name, _, _ := strings.Cut(word[2:], "=")
		return name != "" && strings.HasPrefix(t[2:], name)
	case len(t) == 2 && t[0] == '-':
		if len(word) < 2 || word[0] != '-' || word[1] == '-' {
			return false
		}
		return strings.IndexByte(word[1:], t[1]) >= 0
	case strings.HasPrefix(t, "-"):
		return word == t
	default:
		return word == t || strings.HasPrefix(word, t+"=")
	}
}

func (e Exception) String() string { return e.Text }
