package allowlist

import "strings"

// AwkProgramReadOnly returns why an awk program asks: it runs commands
// (system, "cmd" | getline, print | "cmd"), writes files (print > "f"),
// reads the environment (ENVIRON) or other files (getline < "f"), or
// loads code (gawk @include, @load), or changes its input files (ARGV). "" when it only reads its input and
// prints. String and regex literals are skipped; ">" is a redirect only
// in a print or printf statement, outside parentheses.
func AwkProgramReadOnly(prog string) string {
	code := awkCode(prog)
	if strings.ContainsRune(code, '@') {
		return "awk program loads code (@include, @load)"
	}
	for i := 0; i < len(code); i++ {
		if code[i] == '|' {
			if i+1 < len(code) && code[i+1] == '|' {
				i++
				continue
			}
			return "awk program pipes to or from a command (|)"
		}
	}
	for _, w := range awkWords(code) {
		switch w {
		case "system", "getline", "ENVIRON", "PROCINFO", "SYMTAB", "FUNCTAB":
			return "awk program uses " + w + ", which runs commands, reads files or reads the environment"
		case "ARGV", "ARGC":
			return "awk program uses " + w + ", which can change the files it reads"
		}
	}
	// print and printf statements: a ">" outside parentheses redirects.
	for _, kw := range []string{"printf", "print"} {
		rest := code
		for {
			i := indexWord(rest, kw)
			if i < 0 {
				break
			}
			rest = rest[i+len(kw):]
			depth := 0
		stmt:
			for j := 0; j < len(rest); j++ {
				switch rest[j] {
				case '(':
					depth++
				case ')':
					depth--
				case ';', '}', '\n':
					if depth <= 0 {
						break stmt
					}
				case '>':
					if depth <= 0 {
						return "awk program redirects print output to a file (>)"
					}
				}
			}
		}
	}
	return ""
}

// awkCode blanks string and regex literals out of an awk program.
func awkCode(p string) string {
	b := []byte(p)
	prev := byte(0) // last significant character of code
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					b[i] = ' '
					i++
				}
				if i < len(b) {
					b[i] = ' '
				}
			}
			prev = '"'
		case c == '/' && (prev == 0 || strings.IndexByte("(,~!&|{};\n?:=", prev) >= 0):
			for i++; i < len(b) && b[i] != '/'; i++ {
				if b[i] == '\\' {
					b[i] = ' '
					i++
				}
				if i < len(b) {
					b[i] = ' '
				}
			}
			prev = '/'
		case c == '#':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case c != ' ' && c != '\t':
			prev = c
		}
	}
	return string(b)
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func awkWords(code string) []string {
	var out []string
	for i := 0; i < len(code); {
		if !isWordByte(code[i]) {
			i++
			continue
		}
		j := i
		for j < len(code) && isWordByte(code[j]) {
			j++
		}
		out = append(out, code[i:j])
		i = j
	}
	return out
}

// indexWord finds w in s as a whole word.
func indexWord(s, w string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(w)
		if (i == 0 || !isWordByte(s[i-1])) && (end == len(s) || !isWordByte(s[end])) {
			return i
		}
		off = i + 1
	}
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

func awkEntry(name string) *Entry {
	return &Entry{Words: []string{name}, Note: "runs an awk program that only reads its input and prints (parsed)", Example: name + " {print} f",
		Check: awkCheck, Operands: Operands{Lead: 1}, Flags: awkFlags}
}
