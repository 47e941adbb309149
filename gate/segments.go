package gate

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// maxNesting bounds how deep segments looks into "bash -c" strings.
const maxNesting = 4

// segments returns, as well as it can, the argv of every simple command
// anywhere in text: each side of "&&" and "|", inside "$(...)", in the
// script of "bash -c". Deny and ask rules and risk notes look at all of
// them, so that "git status && rm -rf x" still meets a deny rule for "rm".
// It over-collects on purpose: both the parse and a plain split on
// operator characters are used, and each argv is also offered with
// wrappers (sudo, env, xargs ...) and directories stripped from the front.
func segments(text string, depth int) [][]string {
	var out [][]string
	add := func(argv []string) {
		for len(argv) > 0 {
			out = append(out, argv)
			if depth < maxNesting && len(argv) >= 3 && isShell(argv[0]) && argv[1] == "-c" {
				out = append(out, segments(argv[2], depth+1)...)
			}
			argv = unwrap(argv)
		}
	}
	for _, argv := range parsedSegments(text) {
		add(argv)
	}
	for _, argv := range splitSegments(text) {
		add(argv)
	}
	return out
}

// parsedSegments walks the bash parse of text. A word that is not static
// is kept as its source text. Nothing is returned when text does not parse;
// splitSegments covers that case.
func parsedSegments(text string) (out [][]string) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		return nil
	}
	for n := range syntax.Preorder(f) {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			continue
		}
		var argv []string
		for _, w := range call.Args {
			if _, static := staticWord(w); static {
				if fields, err := expand.Fields(nil, w); err == nil && len(fields) > 0 {
					argv = append(argv, fields...)
					continue
				}
			}
			argv = append(argv, text[w.Pos().Offset():w.End().Offset()])
		}
		out = append(out, argv)
	}
	return out
}

// splitSegments splits text on every operator character and then on white
// space, stripping quote characters from the words.
func splitSegments(text string) [][]string {
	var out [][]string
	for _, seg := range strings.FieldsFunc(text, func(r rune) bool {
		return strings.ContainsRune(";&|`()<>{}\n\r", r)
	}) {
		words := strings.Fields(strings.NewReplacer(`"`, "", `'`, "", `\`, "", "$", "").Replace(seg))
		if len(words) > 0 {
			out = append(out, words)
		}
	}
	return out
}

// wrappers are programs that run their arguments as another command.
var wrappers = map[string]bool{
	"sudo": true, "doas": true, "env": true, "nice": true, "nohup": true, "timeout": true,
	"command": true, "builtin": true, "exec": true, "xargs": true, "time": true, "stdbuf": true,
	"ionice": true, "chrt": true, "taskset": true, "setsid": true, "unbuffer": true, "watch": true,
	"strace": true, "ltrace": true, "flock": true, "chronic": true, "caffeinate": true,
}

// unwrap returns argv with one layer removed: a directory on the program
// ("/bin/rm" becomes "rm"), or a wrapper with its flags and assignments
// ("sudo -u x rm" becomes "rm"). It returns nil when there is nothing to
// remove.
func unwrap(argv []string) []string {
	if base := path.Base(argv[0]); base != argv[0] && base != "." && base != "/" {
		return append([]string{base}, argv[1:]...)
	}
	if !wrappers[argv[0]] {
		return nil
	}
	rest := argv[1:]
	for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || strings.Contains(rest[0], "=") || isNumber(rest[0])) {
		rest = rest[1:]
	}
	return rest
}

func isShell(prog string) bool {
	switch path.Base(prog) {
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "busybox":
		return true
	}
	return false
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.smhd") == ""
}
