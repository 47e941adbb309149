package gitsafe

import (
	"strings"
)

// locate finds the line of each key in a configuration file, for the
// message only: git, not this, says which keys the file holds. It returns
// for each key (section and name lower case, subsection as written; old
// style [section.sub] subsections lower case) the lines where it is set,
// in order.
func locate(data []byte) map[string][]int {
	out := map[string][]int{}
	section := ""
	cont := false
	for n, line := range strings.Split(string(data), "\n") {
		wasCont := cont
		cont = strings.HasSuffix(strings.TrimRight(line, "\r"), "\\")
		if wasCont {
			continue
		}
		s := strings.TrimSpace(line)
		if strings.HasPrefix(s, "[") {
			end := closingBracket(s)
			if end < 0 {
				continue
			}
			section = sectionName(s[1:end])
			s = strings.TrimSpace(s[end+1:])
		}
		if s == "" || s[0] == '#' || s[0] == ';' || section == "" {
			continue
		}
		name := s
		if i := strings.IndexAny(s, "= \t#;"); i >= 0 {
			name = s[:i]
		}
		key := section + "." + strings.ToLower(name)
		out[key] = append(out[key], n+1)
	}
	return out
}

// closingBracket finds the "]" ending a section header, skipping a quoted
// subsection.
func closingBracket(s string) int {
	quoted := false
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && quoted:
			i++
		case s[i] == '"':
			quoted = !quoted
		case s[i] == ']' && !quoted:
			return i
		}
	}
	return -1
}

func sectionName(h string) string {
	name, sub, quoted := strings.Cut(strings.TrimSpace(h), " ")
	if !quoted {
		return strings.ToLower(h)
	}
	sub = strings.TrimSpace(sub)
	sub = strings.TrimSuffix(strings.TrimPrefix(sub, `"`), `"`)
	sub = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(sub)
	return strings.ToLower(name) + "." + sub
}
