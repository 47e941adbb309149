package gate

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/internal/shparse"
)

// shellState names the first thing in f that changes how bash reads the
// words after it in ways the gate does not follow, or "" when there is
// none. The gate reads a word as bash would with its defaults; a red
// team's texts changed the defaults first:
//
//   - word splitting on other characters (IFS=,): "X=.env,a; IFS=,; cat
//     $X" opened .env while the gate judged ".env,a". IFS set to blanks
//     only, or empty, splits no wider than the gate reads;
//   - positional parameters, which "set --", "shift", a function call or
//     a shell's arguments set: "set -- .e nv; cat $1$2";
//   - glob options (shopt, GLOBIGNORE, which turns dotglob on): "shopt -s
//     dotglob; cat ?env" matched .env, which "?env" does not by default;
//   - the directories cd and "~" start from (PWD, OLDPWD, HOME): "PWD=LINK
//     bash -c 'cd .. && cat x'" went to the link's parent.
//
// A text holding one is judged incomplete: a sticky ask.
func shellState(f *syntax.File) string {
	found := ""
	note := func(s string) {
		if found == "" {
			found = s
		}
	}
	// ~- is $OLDPWD, and ~+ and $PWD name where a cd of the text went:
	// "cd sub; cd ..; cat ~-/notes" read sub/notes, a link to a key, while
	// ~/notes was judged (a red team's; with OLDPWD set by the host's
	// project settings, "cat ~-/credentials" read ~/.aws).
	changesDir, dirWord := false, ""
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				if v, _ := shparse.Value(n.Args[0]); v == "cd" || v == "pushd" || v == "popd" {
					changesDir = true
				}
			}
		case *syntax.Word:
			if lit, ok := n.Parts[0].(*syntax.Lit); ok && len(n.Parts) > 0 {
				if strings.HasPrefix(lit.Value, "~-") {
					note(lit.Value + " (the previous directory, $OLDPWD)")
				}
				if strings.HasPrefix(lit.Value, "~+") && dirWord == "" {
					dirWord = lit.Value
				}
			}
		case *syntax.ParamExp:
			if n.Param != nil && (n.Param.Value == "PWD" || n.Param.Value == "OLDPWD") {
				if n.Param.Value == "OLDPWD" {
					note("$OLDPWD (the previous directory)")
				}
				if dirWord == "" {
					dirWord = "$" + n.Param.Value
				}
			}
		}
		return found == ""
	})
	if changesDir && dirWord != "" {
		note(dirWord + " after a cd of the text")
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil {
				break
			}
			switch n.Name.Value {
			case "IFS":
				if !blankIFS(n) {
					note("IFS=" + wordText(n.Value) + " (word splitting on other characters)")
				}
			case "GLOBIGNORE":
				note("GLOBIGNORE (which makes globs match dot files)")
			case "BASHOPTS", "SHELLOPTS":
				note(n.Name.Value + " (shell options a bash started with it takes)")
			case "PWD", "OLDPWD", "HOME":
				// A bash started with PWD naming a link to the working
				// directory starts there logically, so its "cd .." goes
				// to the link's parent (a red team's printed a key);
				// HOME is what "~" and a bare cd read.
				note(n.Name.Value + " (which cd and ~ read)")
			}
		case *syntax.ParamExp:
			if n.Param != nil && positional(n.Param.Value) {
				note("$" + n.Param.Value + " (a positional parameter)")
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				break
			}
			switch prog, _ := shparse.Value(n.Args[0]); path.Base(prog) {
			case "shopt":
				note("shopt (which can change what globs match)")
			case "bash", "sh":
				// bash -O dotglob -c '...': the options its text is read with.
				for _, w := range n.Args[1:] {
					if v, _ := shparse.Value(w); v == "-O" || v == "+O" || v == "-o" || v == "+o" || strings.HasPrefix(v, "--") && v != "--" && v != "--norc" && v != "--noprofile" {
						note(prog + " " + v + " (shell options its text is read with)")
					}
				}
			case "read", "mapfile", "readarray", "printf", "getopts", "export", "declare", "typeset", "local", "readonly", "env":
				// They assign the names among their words: one spelled
				// otherwise ($'\x49FS'), or computed at run time, may be
				// IFS.
				for _, w := range n.Args[1:] {
					if assignsState(w) {
						note(prog + " " + wordText(w) + " (a name that changes how words are split or globbed)")
					}
					if _, static := shparse.Static(w); !static && prog != "printf" && prog != "env" {
						note(prog + " with a name computed at run time")
					}
				}
				if prog == "printf" {
					for i, w := range n.Args[1:] {
						if v, _ := shparse.Value(w); v == "-v" && i+2 < len(n.Args) {
							if _, static := shparse.Static(n.Args[i+2]); !static {
								note("printf -v with a name computed at run time")
							}
						}
					}
				}
			}
		case *syntax.DeclClause:
			for _, a := range n.Args {
				if a.Name == nil && a.Value != nil {
					if _, static := shparse.Static(a.Value); !static || assignsState(a.Value) {
						note(n.Variant.Value + " " + wordText(a.Value) + " (a name computed at run time, or spelled otherwise)")
					}
				}
			}
		}
		return found == ""
	})
	return found
}

// assignsState reports a word, as bash reads it, that names a variable
// shellState follows (IFS, GLOBIGNORE, BASHOPTS, SHELLOPTS, PWD, OLDPWD,
// HOME).
func assignsState(w *syntax.Word) bool {
	v, ok := shparse.Value(w)
	if !ok {
		v, ok = shparse.Template(w)
	}
	if !ok {
		return false
	}
	v, _, _ = strings.Cut(v, "=") // the name assigned, not its value
	for _, name := range []string{"IFS", "GLOBIGNORE", "BASHOPTS", "SHELLOPTS", "PWD", "HOME"} {
		if strings.Contains(v, name) {
			return true
		}
	}
	return false
}

// blankIFS reports an assignment of IFS to a static value of blanks only
// (or nothing): bash then splits no wider than the gate reads words.
func blankIFS(a *syntax.Assign) bool {
	if a.Append || a.Index != nil || a.Array != nil {
		return false
	}
	if a.Value == nil {
		return true
	}
	v, ok := shparse.Value(a.Value)
	return ok && strings.Trim(v, " \t\n") == ""
}

// positional reports a positional or special parameter that holds words
// of the shell's arguments: $0 to $9, ${10}, $@, $*.
func positional(name string) bool {
	if name == "@" || name == "*" {
		return true
	}
	for _, r := range name {
		if r < '0' || r > '9' {
			return false
		}
	}
	return name != ""
}

func wordText(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if v, ok := shparse.Value(w); ok {
		return v
	}
	return "..."
}
