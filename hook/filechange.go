package hook

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// A host exports the variables its settings set to every hook it starts,
// and it starts them through a shell (Claude Code through /bin/sh, Gemini
// CLI through bash): a dynamically linked program that acts on LD_PRELOAD
// before agentgate's first line, static or not. Seen with the real Claude
// Code 2.1.328: a library named by the env of .claude/settings.json was
// loaded into dash, the shell of agentgate's hook, whose refusal of that
// setting came too late to matter. So a write through a file tool that
// would make a host's own env file set a steering variable is refused,
// not asked: an approval would be the last answer agentgate could give.
// The tool input says what the file will hold (a Write's content) or how
// it changes (an Edit's replacements, applied to the file as it is).

// WriteChange is what a write puts into its file, where the tool input says.
type WriteChange struct {
	// Whole is the file's new content (Write, write_file); nil when the
	// tool replaces text instead.
	Whole *string
	// Edits are the replacements, in order (Edit, MultiEdit, replace).
	Edits []Edit
	// Added, set by a Codex patch's "*** Update File:" section, are the
	// lines it adds, taken as added to the end of the file as it is: a
	// line-based file (.env) then sets every key the patched file can.
	Added *string
}

// Edit replaces Old with New, at its first place or (All) at every one.
type Edit struct {
	Old, New string
	All      bool
}

// changeShape is how a file tool's input says what it writes.
type changeShape int

const (
	noChange   changeShape = iota
	wholeFile              // "content"
	oneEdit                // "old_string", "new_string" and a flag for all
	multiEdits             // "edits": a list of those
)

// decodeChange reads what a write puts into its file. It returns nil when
// the input does not say it plainly: the write then asks as any write to
// a protected file does.
func decodeChange(shape changeShape, in map[string]json.RawMessage) *WriteChange {
	switch shape {
	case wholeFile:
		s, ok := jsonString(in["content"])
		if !ok {
			return nil
		}
		return &WriteChange{Whole: &s}
	case oneEdit:
		e, ok := decodeEdit(in)
		if !ok {
			return nil
		}
		return &WriteChange{Edits: []Edit{e}}
	case multiEdits:
		var list []map[string]json.RawMessage
		if json.Unmarshal(in["edits"], &list) != nil || len(list) == 0 {
			return nil
		}
		c := &WriteChange{}
		for _, m := range list {
			e, ok := decodeEdit(m)
			if !ok {
				return nil
			}
			c.Edits = append(c.Edits, e)
		}
		return c
	}
	return nil
}

func decodeEdit(in map[string]json.RawMessage) (Edit, bool) {
	old, ok1 := jsonString(in["old_string"])
	nu, ok2 := jsonString(in["new_string"])
	if !ok1 || !ok2 {
		return Edit{}, false
	}
	// Claude Code's replace_all, Gemini CLI's allow_multiple: any value
	// but false takes every place, which can only add text that counts.
	all := false
	for _, f := range []string{"replace_all", "allow_multiple"} {
		if v, ok := in[f]; ok && string(v) != "false" && string(v) != "null" {
			all = true
		}
	}
	return Edit{Old: old, New: nu, All: all}, true
}

// maxApplied bounds the content an edit is replayed to: a settings or
// .env file is small, and the replay must not hold the decision up.
const maxApplied = 4 << 20

// Apply is the file's content after the change, given its content now;
// ok is false when an edit's text is not in the file, where the host
// fails the edit or finds the text by a looser match of its own (Claude
// Code's quote normalisation): what it writes then is not known here.
func (c *WriteChange) Apply(now string) (string, bool) {
	if c.Whole != nil {
		return *c.Whole, true
	}
	if c.Added != nil {
		return now + "\n" + *c.Added, true
	}
	s := now
	for _, e := range c.Edits {
		n := 1
		if e.All {
			n = strings.Count(s, e.Old)
		}
		switch {
		case e.Old == "" && s == "":
			s = e.New // a new file
		case e.Old == "" || !strings.Contains(s, e.Old):
			return "", false
		case len(s)+n*(len(e.New)-len(e.Old)) > maxApplied:
			// Edits that multiply their own text (a red team's 110 KB
			// MultiEdit asked for gigabytes): not replayed, so the write
			// asks as any write to the file does.
			return "", false
		case e.All:
			s = strings.ReplaceAll(s, e.Old, e.New)
		default:
			s = strings.Replace(s, e.Old, e.New, 1)
		}
	}
	return s, true
}

// envFile is the host that exports the variables the file at p sets, as
// HostEnv reads them, or nil: Claude Code for a settings.json or
// settings.local.json in a .claude directory (the project's, a directory
// above it, the user's), Gemini CLI for a .env file or .gemini/.env. It
// does not depend on the host that writes: the agent in one host writes
// what the next session of another loads (a red team's Claude Code Write
// of .env set BASH_ENV, and Gemini CLI's hook shell ran the script before
// agentgate).
func envFile(p string) *Host {
	base, dir := strings.ToLower(filepath.Base(p)), strings.ToLower(filepath.Base(filepath.Dir(p)))
	switch {
	case dir == ".claude" && (base == "settings.json" || base == "settings.local.json"):
		return Claude
	case base == ".env":
		return Gemini
	}
	return nil
}

// envFindings are the steering variables an env file of host h would set
// with content data, as the host reads them.
func envFindings(h *Host, file string, data []byte) []EnvFinding {
	var keys []string
	switch h {
	case Claude:
		env, bad := claudeEnv(data)
		if bad != "" {
			return []EnvFinding{{File: file, Key: "env", Why: bad}}
		}
		for k := range env {
			keys = append(keys, k)
		}
	case Gemini:
		keys = dotenvKeys(data)
	}
	return steeringKeys(file, keys)
}

// patchChanges are what a Codex patch writes into each file it names, by
// the path in its header: an "*** Add File:" section's content whole; an
// "*** Update File:" section's added lines, only for a .env file (lines
// added anywhere set the same keys as lines added at the end; in a JSON
// file they would not). A path named twice, moved, or in a header the
// sections below do not read (patchPaths finds markers anywhere in a
// line) gets no entry: its write is judged without its content.
func patchChanges(patch string) map[string]*WriteChange {
	type section struct {
		add, unknown bool
		lines        []string
	}
	sections := map[string]*section{}
	var cur *section
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSuffix(line, "\r")
		head := strings.TrimSpace(line)
		if !strings.HasPrefix(head, "***") {
			if rest, ok := strings.CutPrefix(line, "+"); ok && cur != nil {
				cur.lines = append(cur.lines, rest)
			}
			continue
		}
		add, isAdd := strings.CutPrefix(head, "*** Add File:")
		upd, isUpd := strings.CutPrefix(head, "*** Update File:")
		to, isMove := strings.CutPrefix(head, "*** Move to:")
		switch {
		case isAdd || isUpd:
			p := strings.TrimSpace(upd)
			if isAdd {
				p = strings.TrimSpace(add)
			}
			if prev := sections[p]; prev != nil {
				prev.unknown = true
				cur = nil
				continue
			}
			cur = &section{add: isAdd}
			sections[p] = cur
		case isMove:
			// The moved file holds the old one's text and this
			// section's changes: not known here, under either name.
			if cur != nil {
				cur.unknown = true
			}
			sections[strings.TrimSpace(to)] = &section{unknown: true}
		default:
			cur = nil
		}
	}
	out := map[string]*WriteChange{}
	for p, sec := range sections {
		if sec.unknown || (!sec.add && !strings.EqualFold(filepath.Base(p), ".env")) {
			continue
		}
		text := strings.Join(sec.lines, "\n")
		if sec.add {
			if len(sec.lines) > 0 {
				text += "\n"
			}
			out[p] = &WriteChange{Whole: &text}
		} else {
			out[p] = &WriteChange{Added: &text}
		}
	}
	return out
}
