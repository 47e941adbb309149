package gitsafe

import (
	"bytes"
	"strings"
)

// parseSimple reads a configuration file written in the plain subset of
// git's syntax that git itself writes ("git init", "git clone", "git
// config"): "[section]" and `[section "sub"]` headers alone on their
// line, "key = value" and bare "key" lines, "#" and ";" comments, in
// printable ASCII. It returns the entries as "git config --list" gives
// them, so that most judgements start no git child (a third of a hooked
// call's time was git reading a file of a few lines).
//
// Anything outside that subset (quotes, backslashes, continuation lines,
// a carriage return, a byte outside printable ASCII, a tab inside a
// value, a key on a header's line, "[section.sub]") returns ok false, and git reads the file: the two
// readings can only disagree where this one declines. FuzzSimpleAgreesWithGit
// holds it to git's.
func parseSimple(data []byte) (entries []entry, ok bool) {
	for _, b := range data {
		if (b < 0x20 || b > 0x7e) && b != '\t' && b != '\n' {
			return nil, false
		}
	}
	if bytes.IndexByte(data, '\\') >= 0 {
		return nil, false
	}
	section := ""
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.Trim(line, " \t")
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
			continue
		case line[0] == '[':
			name, ok := header(line)
			if !ok {
				return nil, false
			}
			section = name
		default:
			if section == "" || strings.IndexByte(line, '"') >= 0 {
				return nil, false // a key before any section: git refuses it
			}
			key, value, hasValue := strings.Cut(line, "=")
			key = strings.TrimRight(key, " \t")
			if !isKey(key) {
				return nil, false
			}
			if !hasValue {
				if key != line {
					return nil, false // "key # comment" is an error to git
				}
				entries = append(entries, entry{section + "." + strings.ToLower(key), ""})
				continue
			}
			if i := strings.IndexAny(value, "#;"); i >= 0 {
				value = value[:i]
			}
			value = strings.Trim(value, " \t")
			if strings.Contains(value, "\t") {
				return nil, false // git 2.39 makes it a space; later ones may keep it
			}
			entries = append(entries, entry{section + "." + strings.ToLower(key), value})
		}
	}
	return entries, true
}

// header reads "[name]" or `[name "sub"]`, with nothing after it but
// blanks, as git names the section in --list: the name lower-cased, the
// subsection as written.
func header(line string) (string, bool) {
	inner, ok := strings.CutSuffix(line[1:], "]")
	if !ok {
		return "", false
	}
	name, sub, hasSub := strings.Cut(inner, " ")
	if !isSection(name) {
		return "", false
	}
	name = strings.ToLower(name)
	if !hasSub {
		return name, true
	}
	sub = strings.TrimLeft(sub, " \t")
	if len(sub) < 2 || sub[0] != '"' || sub[len(sub)-1] != '"' {
		return "", false
	}
	sub = sub[1 : len(sub)-1]
	if strings.IndexByte(sub, '"') >= 0 {
		return "", false
	}
	// The file holds no backslash (checked by the caller): the
	// subsection is the text between the quotes.
	return name + "." + sub, true
}

// isSection: letters, digits and "-", at least one (git also takes "."
// for the old "[section.sub]" form, which this reader leaves to git).
func isSection(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !isAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// isKey: a letter, then letters, digits and "-".
func isKey(s string) bool {
	return isSection(s) && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
