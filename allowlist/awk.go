package allowlist

import "strings"

// AwkProgramReadOnly returns why an awk program asks, or "" when it only
// reads its input and prints. It does not lex the program: every way awk
// has to run a command, write a file, read another file or the
// environment, or load code needs a token that is looked for anywhere in
// the text, in strings, regexes and comments too, so that no lexical
// confusion can hide one (a regex after "+" read as a division once hid
// system()). It over-refuses ("filesystem" in a string), which costs a
// question:
//
//   - "|" (print | "cmd", "cmd" | getline, |&) and "@" (gawk @include,
//     @load, indirect calls);
//   - system, getline (reads files and commands), ENVIRON, PROCINFO,
//     SYMTAB, FUNCTAB, and ARGV/ARGC (which change the files it reads);
//   - ">" in a program that prints: output redirection exists only in
//     print and printf statements, so a comparison ($3 > 100) in a program
//     without them stays allowed.
func AwkProgramReadOnly(prog string) string {
	if strings.ContainsAny(prog, "|@") {
		return "awk program may pipe to or from a command, or load code (| or @)"
	}
	for _, w := range []string{"system", "getline", "ENVIRON", "PROCINFO", "SYMTAB", "FUNCTAB", "ARGV", "ARGC"} {
		if strings.Contains(prog, w) {
			return "awk program names " + w + ", which runs commands, reads other files or the environment, or changes the files it reads"
		}
	}
	if strings.Contains(prog, ">") && strings.Contains(prog, "print") {
		return "awk program prints and holds \">\", which may redirect the output to a file"
	}
	return ""
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
