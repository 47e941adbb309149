package allowlist

import "strings"

// AwkProgramReadOnly returns why an awk program asks, or "" when it only
// reads its input and prints. Every way awk has to run a command, read
// another file or the environment, or load code needs a word or a
// character that is looked for anywhere in the text, in strings, regexes
// and comments too, so that no lexical confusion can hide one (a regex
// after "+" read as a division once hid system()). It over-refuses
// ("filesystem" in a string), which costs a question:
//
//   - "@" (gawk @include, @load, indirect calls);
//   - system, getline (reads files and commands), ENVIRON, PROCINFO,
//     SYMTAB, FUNCTAB, and ARGV/ARGC (which change the files it reads).
//
// What writes or pipes is told apart by reading the program (awkOutputs):
// ">" redirects only at the top level of a print or printf statement, so
// "NR > 1 {print}" and "{print ($1 > 2)}" compare; "|" outside strings
// and regexes pipes, while "||" is "or". Where the reading could differ
// from awk's (see awkOutputs), the rule falls back to the text: a "|"
// not part of "||" anywhere, or ">" in a program that prints, asks.
func AwkProgramReadOnly(prog string) string {
	if strings.Contains(prog, "@") {
		return "awk program may load code (@)"
	}
	for _, w := range []string{"system", "getline", "ENVIRON", "PROCINFO", "SYMTAB", "FUNCTAB", "ARGV", "ARGC"} {
		if strings.Contains(prog, w) {
			return "awk program names " + w + ", which runs commands, reads other files or the environment, or changes the files it reads"
		}
	}
	redirects, pipes, ok := awkOutputs(prog)
	if !ok {
		pipes = strings.Contains(strings.ReplaceAll(prog, "||", ""), "|")
		redirects = strings.Contains(prog, ">") && strings.Contains(prog, "print")
	}
	if pipes {
		return "awk program may pipe to or from a command (|)"
	}
	if redirects {
		return "awk program redirects print's output to a file (>)"
	}
	return ""
}

// awkOutputs reads an awk program for what the character rules cannot
// tell: whether a ">" is a print statement's redirect or a comparison,
// and whether a "|" is a pipe. It skips strings and comments, and counts
// parentheses and brackets inside print statements (a ">" inside them
// compares; at their top level, ">", ">>" and even ">=" redirect, as
// mawk and gawk parse them).
//
// The one place two readers of awk can disagree is "/": a regex or a
// division, by the token before it. A program holding "/" and a quote,
// "#" or backslash is not read at all (ok false). At every other "/",
// the text up to the next "/" on its line must hold nothing either
// reading would treat differently (quotes, "#", parentheses, brackets,
// braces, ";", backslashes, "<", ">", "|", or the words print and
// getline); otherwise ok is false and the caller falls back to the
// character rules. The same holds for any backslash outside a string
// or an unterminated string.
func awkOutputs(prog string) (redirects, pipes, ok bool) {
	if strings.Contains(prog, "/") && strings.ContainsAny(prog, "\"#\\") {
		// Where "/" divides and where it opens a regex decides which
		// quotes pair and where a comment starts ("1. / 1 + / \"/ ; print
		// | ..." hid a pipe from the first reading of this function): with
		// both in one program, only the character rules are safe.
		return false, false, false
	}
	inPrint, depth := false, 0
	prevOperand := false // the last token ends an operand: "/" divides
	for i := 0; i < len(prog); i++ {
		c := prog[i]
		switch {
		case c == '"':
			j := i + 1
			for ; j < len(prog) && prog[j] != '"'; j++ {
				if prog[j] == '\\' {
					j++
				} else if prog[j] == '\n' {
					return false, false, false
				}
			}
			if j >= len(prog) {
				return false, false, false
			}
			i, prevOperand = j, true
		case c == '#':
			for i < len(prog) && prog[i] != '\n' {
				i++
			}
			i--
		case c == '\\':
			return false, false, false
		case c == '/':
			end := strings.IndexAny(prog[i+1:], "/\n")
			if end >= 0 && prog[i+1+end] == '/' {
				span := prog[i+1 : i+1+end]
				if strings.ContainsAny(span, "\"#()[]{};\\<>|") || strings.Contains(span, "print") || strings.Contains(span, "getline") {
					return false, false, false
				}
				if !prevOperand {
					i += 1 + end // a regex: both readings agree on its span
					prevOperand = true
					continue
				}
			}
			prevOperand = false
		case c == '|':
			if i+1 < len(prog) && prog[i+1] == '|' {
				i++
				prevOperand = false
				continue
			}
			pipes = true
			prevOperand = false
		case c == '>':
			if inPrint && depth == 0 {
				redirects = true
			}
			prevOperand = false
		case c == '(' || c == '[':
			depth++
			prevOperand = false
		case c == ')' || c == ']':
			if depth--; depth < 0 && inPrint {
				return false, false, false
			}
			prevOperand = true
		case c == ';' || c == '}' || c == '{':
			if depth <= 0 {
				inPrint, depth = false, 0
			}
			prevOperand = false
		case isAwkWordByte(c) && (c < '0' || c > '9'):
			j := i
			for j < len(prog) && isAwkWordByte(prog[j]) {
				j++
			}
			switch w := prog[i:j]; w {
			case "print", "printf":
				inPrint, depth = true, 0
				prevOperand = false
			case "else", "return", "do", "in", "case", "delete", "exit":
				prevOperand = false // a regex may follow
			default:
				prevOperand = true
			}
			i = j - 1
		case c >= '0' && c <= '9' || c == '.':
			prevOperand = true // a number, "1." and ".5" too
		case c == '$':
			prevOperand = false
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			prevOperand = false
		}
	}
	return redirects, pipes, true
}

func isAwkWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
func awkCheck(c *Call) *Refusal {
	if len(c.Operands) == 0 {
		if c.Has("-V", "-h", "-C") {
			return nil // prints the version, help or copyright
		}
		return refuse(c.Entry.Name(), "has no program")
	}
	if why := AwkProgramReadOnly(c.Operands[0]); why != "" {
		return refuse(c.Operands[0], "%s", why)
	}
	return nil
}

var awkFlags = []Flag{
	Use("-F, --field-separator=SEP", "field separator"), Use("-v, --assign=TEXT", "sets a variable (var=value)"),
	Use("--sandbox", "turns off system, redirects and getline"), Use("-b, --characters-as-bytes", "bytes"),
	Use("-c, --traditional, -P, --posix, --re-interval, -r", "dialect"), Use("-n, --non-decimal-data", "numbers"),
	Use("-N, --use-lc-numeric", "locale numbers"), Use("-M, --bignum", "big numbers"), Use("-O, --optimize, -s, --no-optimize", "optimiser"),
	Use("-t, --lint-old", "lint"), Use("-L[=VALUE], --lint[=VALUE]", "lint"), Use("-V, --version", "prints the version"), Use("-h, --help, --usage", "prints help"),
	Use("-C, --copyright", "prints the copyright"), Use("-g, --gen-pot", "translatable strings"),
	Refuse(Unjudged, "-f, --file=FILE", "reads the program from a file, which is not judged"),
	Refuse(Runs, "-E, --exec=FILE", "reads the program from a file, which is not judged"),
	Refuse(Runs, "-i, --include=FILE", "loads awk code"), Refuse(Runs, "-l, --load=LIB", "loads a shared library"),
	Refuse(Writes, "-d[=FILE], --dump-variables[=FILE], -p[=FILE], --profile[=FILE], -o[=FILE], --pretty-print[=FILE]", "writes a file"),
	Refuse(Unjudged, "-e, --source=TEXT", "program text given as an option"), Refuse(Unjudged, "-D[=FILE], --debug[=FILE]", "interactive debugger"),
	Refuse(Unjudged, "-W", "mawk/gawk extended options"),
}

// awkNote is the note of the awk entries (in sysEntries).
const awkNote = "runs an awk program that only reads its input and prints (parsed)"
