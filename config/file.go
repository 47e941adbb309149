package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/sandbox"
)

// file is the TOML layout of every config file. Unknown keys are errors.
type file struct {
	Mode             string     `toml:"mode"`
	Compound         string     `toml:"compound"`
	Packs            []string   `toml:"packs"`
	PromptTimeout    *duration  `toml:"prompt_timeout"`
	CommandTimeout   *duration  `toml:"command_timeout"`
	PromptChallenge  *bool      `toml:"prompt_challenge"`
	SessionTTL       *duration  `toml:"session_ttl"`
	BreakerThreshold *int       `toml:"breaker_threshold"`
	BreakerWindow    *duration  `toml:"breaker_window"`
	Sandbox          string     `toml:"sandbox"`
	MinRuleSandbox   string     `toml:"min_rule_sandbox"`
	UntrustedDirs    []string   `toml:"untrusted_dirs"`
	Allow            ruleTable  `toml:"allow"`
	Ask              ruleTable  `toml:"ask"`
	Deny             ruleTable  `toml:"deny"`
	Sensitive        sensitive  `toml:"sensitive"`
	Audit            auditTab   `toml:"audit"`
	Policy           *policyTab `toml:"policy"`
}

type auditTab struct {
	MaxSize *byteSize `toml:"max_size"`
	Syslog  *bool     `toml:"syslog"`
}

// byteSize reads "50MiB", "10MB", "1GiB" or a plain number of bytes.
type byteSize struct{ n int64 }

func (b *byteSize) UnmarshalText(t []byte) error {
	s := strings.TrimSpace(string(t))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return fmt.Errorf("%q is not a size; write it like \"50MiB\"", t)
	}
	b.n = v * mult
	return nil
}

type ruleTable struct {
	Prefix   []string   `toml:"prefix"`
	Contains []string   `toml:"contains"`
	Rule     []ruleSpec `toml:"rule"`
}

type ruleSpec struct {
	Prefix   string   `toml:"prefix"`
	Except   []string `toml:"except"`
	Note     string   `toml:"note"`
	Sandbox  string   `toml:"sandbox"`
	Writable []string `toml:"writable"`
}

type sensitive struct {
	Paths []string `toml:"paths"`
}

type policyTab struct {
	ForbidModes      []string `toml:"forbid_modes"`
	ForbidAllow      []string `toml:"forbid_allow"`
	LiftCatastrophic []string `toml:"lift_catastrophic"`
}

type duration struct{ time.Duration }

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration; write it like \"5m\", \"90s\" or \"12h\"", b)
	}
	if v <= 0 {
		return fmt.Errorf("%q must be positive", b)
	}
	d.Duration = v
	return nil
}

// Error is a problem with a config file, with its position and the fix.
type Error struct {
	Path      string
	Line, Col int
	Msg, Fix  string
}

func (e *Error) Error() string {
	pos := e.Path
	if e.Line > 0 {
		pos = fmt.Sprintf("%s:%d:%d", e.Path, e.Line, max(e.Col, 1))
	}
	if e.Fix == "" {
		return fmt.Sprintf("%s: %s", pos, e.Msg)
	}
	return fmt.Sprintf("%s: %s; %s", pos, e.Msg, e.Fix)
}

// The decoder's messages, read only when a file is wrong: compiled then,
// not at every start.
var (
	lineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })
	keyRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`last key "([^"]+)"`) })
	typeRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`TOML value has type (\w+); destination has type (\S+)`)
	})
)

// typeError turns a decoding error (a value of the wrong type) into an
// Error with the key, its line and the type wanted.
func typeError(path string, err error) *Error {
	msg := err.Error()
	e := &Error{Path: path, Msg: strings.TrimPrefix(msg, "toml: "), Fix: "see config.example.toml for the type of each key"}
	if m := lineRE().FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Col = 1
	}
	key := ""
	if m := keyRE().FindStringSubmatch(msg); m != nil {
		key = m[1]
	}
	if m := typeRE().FindStringSubmatch(msg); m != nil {
		want := map[string]string{"slice": "an array such as [\"a\", \"b\"]", "string": "a string", "int": "an integer",
			"bool": "true or false", "struct": "a table", "ptr": "a value"}[m[2]]
		if want == "" {
			want = m[2]
		}
		e.Msg = fmt.Sprintf("%s is a %s; it must be %s", key, strings.ToLower(m[1]), want)
	} else if inner := errors.Unwrap(err); inner != nil && key != "" {
		e.Msg = fmt.Sprintf("%s: %v", key, inner)
	}
	return e
}

// parseFile decodes and checks one config file.
func parseFile(path string, data []byte) (*file, error) {
	var f file
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			fix := firstLine(strings.TrimSpace(pe.Usage))
			if fix == "" && !strings.Contains(pe.Message, ";") {
				// Our own value errors already say what to write.
				fix = "fix the TOML syntax there"
			}
			line, col := pe.Position.Line, pe.Position.Col
			if lines := strings.Split(string(data), "\n"); strings.Contains(pe.Message, `'\n'`) && line > 1 && line-2 < len(lines) {
				// The parser reports an unexpected end of line at the
				// start of the next one; point at the end of the line.
				line, col = line-1, len(lines[line-2])+1
			}
			return nil, &Error{Path: path, Line: line, Col: col, Msg: pe.Message, Fix: fix}
		}
		return nil, typeError(path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		key := und[0].String()
		line := keyLine(data, und[0])
		if len(und[0]) == 2 && slices.Contains(topLevelKeys, und[0][1]) {
			// "compound = ..." appended to a file that ends in a table is
			// read as a key of that table.
			return nil, &Error{Path: path, Line: line, Col: 1,
				Msg: fmt.Sprintf("%q is a top-level key, but after [%s] TOML reads it as %q", und[0][1], und[0][0], key),
				Fix: fmt.Sprintf("move the %s line above the first [table] header", und[0][1])}
		}
		return nil, &Error{Path: path, Line: line, Col: 1, Msg: fmt.Sprintf("unknown key %q", key),
			Fix: "check its spelling against config.example.toml (keys: mode, compound, prompt_timeout, prompt_challenge, session_ttl, breaker_threshold, breaker_window, [allow], [ask], [deny], [sensitive], [audit], [policy])"}
	}
	return &f, nil
}

// topLevelKeys are the keys of the file outside any table.
var topLevelKeys = []string{"mode", "compound", "prompt_timeout", "prompt_challenge", "session_ttl", "breaker_threshold", "breaker_window"}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// keyLine finds the line of a key in the file: the header of its table,
// or the line where its last part is assigned inside that table.
func keyLine(data []byte, key toml.Key) int {
	if len(key) == 0 {
		return 0
	}
	table := strings.Join(key[:len(key)-1], ".")
	last := key[len(key)-1]
	current := ""
	headerLine := 0
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := strings.TrimSpace(string(raw))
		if strings.HasPrefix(line, "[") {
			current = strings.Trim(line, "[] ")
			if current == strings.Join(key, ".") {
				return i + 1
			}
			if current == table {
				headerLine = i + 1
			}
			continue
		}
		name, _, ok := strings.Cut(line, "=")
		if ok && current == table && strings.Trim(strings.TrimSpace(name), `"'`) == last {
			return i + 1
		}
	}
	return headerLine
}

// stringLine finds the line where the quoted string s first appears at or
// after the table header, so each rule can name its source line.
func stringLine(data []byte, table, s string) int {
	current := ""
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := strings.TrimSpace(string(raw))
		if strings.HasPrefix(line, "[") {
			current = strings.Trim(line, "[] ")
			continue
		}
		if current != table && !strings.HasPrefix(current, table+".") {
			continue
		}
		if strings.Contains(line, strconv.Quote(s)) || strings.Contains(line, "'"+s+"'") {
			return i + 1
		}
	}
	return 0
}

// rules turns a file's tables into rules that remember their source.
func (f *file) rules(path string, data []byte) ([]allowlist.Rule, error) {
	var out []allowlist.Rule
	for _, t := range []struct {
		name  string
		kind  allowlist.Kind
		table ruleTable
	}{{"allow", allowlist.Allow, f.Allow}, {"ask", allowlist.Ask, f.Ask}, {"deny", allowlist.Deny, f.Deny}} {
		for _, p := range t.table.Prefix {
			words := strings.Fields(p)
			src := allowlist.Source{Name: path, Line: stringLine(data, t.name, p)}
			if len(words) == 0 {
				return nil, &Error{Path: path, Line: src.Line, Col: 1, Msg: fmt.Sprintf("empty prefix in [%s]", t.name),
					Fix: `write the program and subcommand, e.g. prefix = ["make test"]`}
			}
			out = append(out, allowlist.Rule{Kind: t.kind, Prefix: words, Source: src})
		}
		for _, c := range t.table.Contains {
			src := allowlist.Source{Name: path, Line: stringLine(data, t.name, c)}
			if t.kind == allowlist.Allow {
				return nil, &Error{Path: path, Line: src.Line, Col: 1, Msg: "[allow] cannot have contains rules",
					Fix: "contains matches text anywhere, which is only safe for ask and deny: use prefix in [allow]"}
			}
			if strings.TrimSpace(c) == "" {
				return nil, &Error{Path: path, Line: src.Line, Col: 1, Msg: fmt.Sprintf("empty contains in [%s]", t.name),
					Fix: "an empty string would match every command; remove it"}
			}
			out = append(out, allowlist.Rule{Kind: t.kind, Contains: c, Source: src})
		}
		for _, r := range t.table.Rule {
			words := strings.Fields(r.Prefix)
			src := allowlist.Source{Name: path, Line: stringLine(data, t.name+".rule", r.Prefix)}
			if len(words) == 0 {
				return nil, &Error{Path: path, Line: src.Line, Col: 1, Msg: fmt.Sprintf("[[%s.rule]] without a prefix", t.name),
					Fix: `add prefix = "program subcommand"`}
			}
			if len(r.Except) > 0 && t.kind != allowlist.Allow {
				return nil, &Error{Path: path, Line: src.Line, Col: 1, Msg: fmt.Sprintf("except in [[%s.rule]]", t.name),
					Fix: "argument exceptions only make sense on allow rules"}
			}
			if (r.Sandbox != "" || len(r.Writable) > 0) && t.kind != allowlist.Allow {
				return nil, &Error{Path: path, Line: src.Line, Col: 1, Msg: fmt.Sprintf("sandbox in [[%s.rule]]", t.name),
					Fix: "confinement only applies to commands an allow rule lets through"}
			}
			if r.Sandbox != "" {
				if _, err := sandbox.ParseLevel(r.Sandbox); err != nil {
					return nil, &Error{Path: path, Line: stringLine(data, t.name+".rule", r.Sandbox), Col: 1, Msg: err.Error()}
				}
			}
			if len(r.Writable) > 0 && r.Sandbox != string(sandbox.Workspace) {
				return nil, &Error{Path: path, Line: src.Line, Col: 1, Msg: "writable without sandbox = \"workspace\"",
					Fix: `writable paths only apply to sandbox = "workspace"; add it, or remove writable`}
			}
			for _, w := range r.Writable {
				if !filepath.IsAbs(w) {
					return nil, &Error{Path: path, Line: stringLine(data, t.name+".rule", w), Col: 1,
						Msg: fmt.Sprintf("writable path %q is not absolute", w), Fix: "write the full path, e.g. \"/home/you/.cache/go-build\""}
				}
			}
			rule := allowlist.Rule{Kind: t.kind, Prefix: words, Note: r.Note, Source: src, Sandbox: r.Sandbox, Writable: r.Writable}
			for _, e := range r.Except {
				ex, err := allowlist.ParseException(e, "listed as an exception in "+src.String())
				if err != nil {
					return nil, &Error{Path: path, Line: stringLine(data, t.name+".rule", e), Col: 1, Msg: err.Error()}
				}
				rule.Except = append(rule.Except, ex)
			}
			out = append(out, rule)
		}
	}
	return out, nil
}

// readFile reads a config file; a missing file is (nil, nil).
func readFile(path string) ([]byte, error) {
	data, err := fsutil.ReadRegular(path, fsutil.MaxConfigSize)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{Path: path, Msg: err.Error(), Fix: fmt.Sprintf("make it a readable regular file of at most %d bytes, or remove it", fsutil.MaxConfigSize)}
	}
	return data, nil
}
