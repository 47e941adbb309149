package audit

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// errSyntax is any malformed record.
var errSyntax = errors.New("malformed JSON")

// decodeEntry fills e from one JSON object, decoding only the fields
// Entry has and skipping the rest (reasons, risks, shell) without
// building them: on large logs this is most of the work of log, stats
// and verify. The skipped values are still checked for structure.
func decodeEntry(b []byte, e *Entry) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return errSyntax
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return trailing(b, i+1)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return errSyntax
		}
		kEnd, err := skipString(b, i)
		if err != nil {
			return err
		}
		key := b[i+1 : kEnd-1]
		if hasEscape(b[i:kEnd]) || hasUpper(key) {
			var k string
			if err := json.Unmarshal(b[i:kEnd], &k); err != nil {
				return err
			}
			// encoding/json matches field names without regard to case
			// (Unicode simple folding, as strings.EqualFold).
			key = []byte(k)
			for _, name := range entryFields {
				if strings.EqualFold(k, name) {
					key = []byte(name)
					break
				}
			}
		}
		i = skipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return errSyntax
		}
		i = skipSpace(b, i+1)
		vEnd, err := skipValue(b, i, 0)
		if err != nil {
			return err
		}
		if err := e.set(key, b[i:vEnd]); err != nil {
			return err
		}
		i = skipSpace(b, vEnd)
		if i >= len(b) {
			return errSyntax
		}
		if b[i] == '}' {
			return trailing(b, i+1)
		}
		if b[i] != ',' {
			return errSyntax
		}
		i = skipSpace(b, i+1)
	}
}

var entryFields = []string{"time", "id", "event", "command", "cwd", "decision", "outcome", "session", "prev", "seq", "argv", "exit_code"}

func hasUpper(b []byte) bool {
	for _, c := range b {
		if c >= 'A' && c <= 'Z' || c >= 0x80 {
			return true
		}
	}
	return false
}

func (e *Entry) set(key []byte, v []byte) error {
	str := func(dst *string) error {
		if len(v) >= 2 && v[0] == '"' && !hasEscape(v) {
			*dst = string(v[1 : len(v)-1])
			return nil
		}
		return json.Unmarshal(v, dst)
	}
	switch string(key) { // no allocation: the compiler compares in place
	case "time":
		return str(&e.Time)
	case "id":
		return str(&e.ID)
	case "event":
		return str(&e.Event)
	case "command":
		return str(&e.Command)
	case "cwd":
		return str(&e.Cwd)
	case "decision":
		return str(&e.Decision)
	case "outcome":
		return str(&e.Outcome)
	case "session":
		return str(&e.Session)
	case "prev":
		return str(&e.Prev)
	case "seq":
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return json.Unmarshal(v, &e.Seq)
		}
		e.Seq = n
	case "argv":
		return json.Unmarshal(v, &e.Argv)
	case "exit_code":
		return json.Unmarshal(v, &e.ExitCode)
	}
	return nil
}

func hasEscape(v []byte) bool {
	for _, c := range v[1 : len(v)-1] {
		if c == '\\' || c < 0x20 {
			return true
		}
	}
	return !utf8.Valid(v)
}

func trailing(b []byte, i int) error {
	if skipSpace(b, i) != len(b) {
		return errSyntax
	}
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '\\':
			j++
			if j >= len(b) {
				return 0, errSyntax
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) || !isHex(b[j+1]) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) {
					return 0, errSyntax
				}
				j += 4
			default:
				return 0, errSyntax
			}
		case c == '"':
			return j + 1, nil
		case c < 0x20:
			return 0, errSyntax
		}
	}
	return 0, errSyntax
}

// skipValue returns the index after the JSON value starting at b[i].
func skipValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) || depth > 64 {
		return 0, errSyntax
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		open, close := b[i], byte('}')
		if open == '[' {
			close = ']'
		}
		j := skipSpace(b, i+1)
		if j < len(b) && b[j] == close {
			return j + 1, nil
		}
		for {
			if open == '{' {
				if j >= len(b) || b[j] != '"' {
					return 0, errSyntax
				}
				k, err := skipString(b, j)
				if err != nil {
					return 0, err
				}
				j = skipSpace(b, k)
				if j >= len(b) || b[j] != ':' {
					return 0, errSyntax
				}
				j = skipSpace(b, j+1)
			}
			k, err := skipValue(b, j, depth+1)
			if err != nil {
				return 0, err
			}
			j = skipSpace(b, k)
			if j >= len(b) {
				return 0, errSyntax
			}
			if b[j] == close {
				return j + 1, nil
			}
			if b[j] != ',' {
				return 0, errSyntax
			}
			j = skipSpace(b, j+1)
		}
	default:
		j := i
		for j < len(b) && (b[j] == '-' || b[j] == '+' || b[j] == '.' || b[j] >= '0' && b[j] <= '9' || b[j] >= 'a' && b[j] <= 'z' || b[j] == 'E') {
			j++
		}
		switch lit := string(b[i:j]); {
		case lit == "true" || lit == "false" || lit == "null":
		case !validNumber(lit):
			return 0, errSyntax
		}
		return j, nil
	}
}

// validNumber checks the JSON number grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
