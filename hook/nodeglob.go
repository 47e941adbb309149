package hook

import "strings"

// maxNodeGlobVariants bounds the bash globs one node-glob pattern is
// read as; past it the pattern stands for every name, dot files too.
const maxNodeGlobVariants = 64

// nodeGlobReads is what the node-glob pattern p reads as Gemini CLI's
// read_many_files runs it (dot: true, nocase: true, braces and
// extglobs), in bash's dialect, which the gate judges: a red team's
// "?env", "{.env,x}" and "+(.env)" read .env through it. Braces are
// expanded; an extglob group "@(a|b)" is read as each alternative and as
// "*". A form with a wildcard in a directory ("**/*.md") walks the tree
// from its literal directory, dot directories too, as grep -r does: trees
// and includes (the names read there, as grep's --include matches them,
// a leading dot matched by "*"). Any other form is a list of names,
// where a first wildcard also stands for a leading dot ("?env" for
// ".env", "*rc" for ".*rc"), which bash's globs never match unwritten.
// Case is the matcher's: it folds case already.
func nodeGlobReads(p string) (trees, includes, names []string) {
	// Gemini CLI turns every backslash into a slash before it globs
	// (".\\.env" is "./.env"): so is it read here.
	p = strings.ReplaceAll(p, "\\", "/")
	if !strings.ContainsAny(p, "*?[{}()!+@") {
		return nil, nil, []string{p}
	}
	var forms []string
	for _, v := range braceVariants(p) {
		forms = append(forms, extglobVariants(v)...)
	}
	for _, f := range forms {
		slash := strings.LastIndexByte(f, '/')
		if slash >= 0 && strings.ContainsAny(f[:slash], "*?[") {
			i := strings.IndexAny(f, "*?[")
			root := f[:strings.LastIndexByte(f[:i], '/')+1]
			if root == "" {
				root = "."
			}
			trees, includes = append(trees, root), append(includes, f[slash+1:])
			continue
		}
		names = append(names, dotVariants(f)...)
	}
	if len(forms) > maxNodeGlobVariants || len(names) > maxNodeGlobVariants {
		// Too many to list: the whole tree where the pattern's literal
		// directory is.
		i := strings.IndexAny(p, "*?[{}()!+@")
		root := p[:strings.LastIndexByte(p[:i], '/')+1]
		if root == "" {
			root = "."
		}
		return []string{root}, []string{"*"}, nil
	}
	return trees, includes, names
}

// braceVariants expands the first brace group of p, recursively, the
// alternatives split at top-level commas; an unmatched brace is literal.
func braceVariants(p string) []string {
	open := strings.IndexByte(p, '{')
	if open < 0 {
		return []string{p}
	}
	depth, end := 0, -1
	var cuts []int
	for i := open; i < len(p) && end < 0; i++ {
		switch p[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				end = i
			}
		case ',':
			if depth == 1 {
				cuts = append(cuts, i)
			}
		}
	}
	if end < 0 {
		return []string{p}
	}
	var alts []string
	prev := open + 1
	for _, c := range append(cuts, end) {
		alts = append(alts, p[prev:c])
		prev = c + 1
	}
	if len(cuts) == 0 {
		// "{a}" or a range "{1..3}": node's braces expand ranges; read
		// the group as any name.
		alts = []string{"*"}
	}
	return eachAlternative(p[:open], alts, p[end+1:], braceVariants)
}

// eachAlternative is next of head+a+tail for each alternative a, joined,
// stopping just past maxNodeGlobVariants.
func eachAlternative(head string, alts []string, tail string, next func(string) []string) []string {
	var out []string
	for _, a := range alts {
		for _, v := range next(head + a + tail) {
			if len(out) > maxNodeGlobVariants {
				return out
			}
			out = append(out, v)
		}
	}
	return out
}

// extglobVariants reads each extglob group "X(a|b)" (X one of ?*+@!) of
// p as "*" and as each of its alternatives.
func extglobVariants(p string) []string {
	for i := 0; i+1 < len(p); i++ {
		if !strings.ContainsRune("?*+@!", rune(p[i])) || p[i+1] != '(' {
			continue
		}
		depth, end := 0, -1
		for k := i + 1; k < len(p) && end < 0; k++ {
			switch p[k] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					end = k
				}
			}
		}
		if end < 0 {
			return []string{p}
		}
		return eachAlternative(p[:i], append(strings.Split(p[i+2:end], "|"), "*"), p[end+1:], extglobVariants)
	}
	return []string{p}
}

// dotVariants adds, for each component of p that starts with a
// wildcard, the same with a leading dot matched: "?env" as ".env", "*"
// and "**" as ".*", "[.e]nv" as ".nv".
func dotVariants(p string) []string {
	out := []string{""}
	comps := strings.Split(p, "/")
	for ci, c := range comps {
		sep := "/"
		if ci == 0 {
			sep = ""
		}
		alts := []string{c}
		switch {
		case strings.HasPrefix(c, "?"):
			alts = append(alts, "."+c[1:])
		case strings.HasPrefix(c, "*"):
			alts = append(alts, "."+c)
		case strings.HasPrefix(c, "["):
			if end := strings.IndexByte(c[1:], ']'); end >= 0 {
				alts = append(alts, "."+c[end+2:])
			} else {
				alts = append(alts, ".*")
			}
		}
		var next []string
		for _, o := range out {
			for _, a := range alts {
				next = append(next, o+sep+a)
			}
		}
		if len(next) > maxNodeGlobVariants {
			return next[:maxNodeGlobVariants+1]
		}
		out = next
	}
	return out
}
