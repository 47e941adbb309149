package hook

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/engine"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/sandbox"
)

// The agent's other doors: a host's file tools read, search and write
// files without a shell, so a hook on the shell tool alone let Claude
// Code's Read print .env and its Write change .git/config. agentgate
// judges them with the same engine:
//
//   - a read (Read, read_file, read_many_files) is judged as "cat -- PATH"
//     and a search (Grep, grep_search) as "grep -r -e PATTERN -- PATH": the
//     sensitive paths, symlinks, /proc, hard links, FIFOs and recursive
//     walks are judged exactly as for the shell;
//   - a write (Write, Edit, MultiEdit, NotebookEdit, write_file, replace)
//     to a self-protected path (agentgate's files, the hosts' settings and
//     hook files, .git/config, .git/hooks, shell start-up files, .envrc,
//     .gitmodules), its links followed, asks; one that would make a
//     host's env file set a steering variable is denied (filechange.go);
//     elsewhere it is the agent's own work;
//   - a listing (Glob, glob, list_directory) prints names, not contents.
//
// A tool agentgate has no objection to is passed (no answer), so the host's
// own permission flow decides as if agentgate were not there: an "allow"
// would skip the host's own question for a write.

// FileAccess is what a file tool does with its paths.
type FileAccess int

// The accesses.
const (
	FileRead FileAccess = iota + 1
	FileSearch
	FileList
	FileWrite
)

// fileTool says how a host's file tool names its paths.
type fileTool struct {
	access FileAccess
	// pathFields name the path (the first present wins); listFields
	// name a list of paths or globs.
	pathFields, listFields []string
	// pattern names a search's pattern.
	pattern string
	// patch names a field holding a Codex patch, whose file headers
	// name the paths it writes.
	patch string
	// nodeGlobs says listFields hold node-glob patterns (Gemini CLI's
	// read_many_files), not bash's: see [nodeGlobReads].
	nodeGlobs bool
	// decodes says the host reads each path as Gemini CLI does before it
	// opens it (see [geminiPaths]).
	decodes bool
	// change says how a write's input gives what it writes.
	change changeShape
}

// FileUse is a file tool call, decoded.
type FileUse struct {
	Tool   string
	Access FileAccess
	// Paths are as the tool input gives them; relative ones are taken
	// from the event's cwd. A search with no path searches the cwd.
	Paths   []string
	Pattern string
	// Trees and Includes are the directories a node-glob with a
	// wildcard in a directory walks, and the names it reads there.
	Trees, Includes []string
	// Change is what a write puts into its file, when the input says it
	// plainly.
	Change *WriteChange
	// PatchChanges are what a Codex patch writes, by the path in its
	// header (see [patchChanges]).
	PatchChanges map[string]*WriteChange
}

var claudeFileTools = map[string]fileTool{
	"Read":         {access: FileRead, pathFields: []string{"file_path"}},
	"NotebookRead": {access: FileRead, pathFields: []string{"notebook_path"}},
	"Grep":         {access: FileSearch, pathFields: []string{"path"}, pattern: "pattern"},
	"Glob":         {access: FileList, pathFields: []string{"path"}},
	"LS":           {access: FileList, pathFields: []string{"path"}},
	"Write":        {access: FileWrite, pathFields: []string{"file_path"}, change: wholeFile},
	"Edit":         {access: FileWrite, pathFields: []string{"file_path"}, change: oneEdit},
	"MultiEdit":    {access: FileWrite, pathFields: []string{"file_path"}, change: multiEdits},
	"NotebookEdit": {access: FileWrite, pathFields: []string{"notebook_path"}},
}

var geminiFileTools = map[string]fileTool{
	"read_file":       {access: FileRead, pathFields: []string{"file_path", "absolute_path", "path"}, decodes: true},
	"read_many_files": {access: FileRead, listFields: []string{"include", "paths"}, nodeGlobs: true, decodes: true},
	"grep_search":     {access: FileSearch, pathFields: []string{"dir_path", "path"}, pattern: "pattern", decodes: true},
	"glob":            {access: FileList, pathFields: []string{"dir_path", "path"}, decodes: true},
	"list_directory":  {access: FileList, pathFields: []string{"dir_path", "path"}, decodes: true},
	"write_file":      {access: FileWrite, pathFields: []string{"file_path"}, decodes: true, change: wholeFile},
	"replace":         {access: FileWrite, pathFields: []string{"file_path"}, decodes: true, change: oneEdit},
}

// geminiPaths are the paths Gemini CLI 0.61.0 may open for p: p itself,
// and p as its file tools read it first, percent-decoded
// (decodeURIComponent), without a leading "@", and with ".." taken as
// text before the links ("LINK/../notes"). A red team's "%2Eenv.local",
// "@.env.local" and "LINK/../notes.txt" read secrets agentgate judged
// under the raw name.
func geminiPaths(p string) []string {
	out := []string{p}
	add := func(v string) {
		if v != "" && !contains(out, v) {
			out = append(out, v)
		}
	}
	for _, v := range []string{p, percentDecoded(p)} {
		add(v)
		add(strings.TrimPrefix(v, "@"))
	}
	for _, v := range slices.Clone(out) {
		add(filepath.Clean(v))
	}
	return out
}

// percentDecoded is p with every %XX replaced by its byte, as
// decodeURIComponent does; p itself when it holds none or a malformed one
// (decodeURIComponent throws, and the tool reads p as it is).
func percentDecoded(p string) string {
	if !strings.Contains(p, "%") {
		return p
	}
	v, err := url.PathUnescape(p)
	if err != nil {
		return p
	}
	return v
}

// codexFileTools are Codex's tools beside the shell that its PreToolUse
// hook reports: apply_patch, its only way to write files without the
// shell, and view_image, which reads one. (Codex offers the model no other
// file tool.)
var codexFileTools = map[string]fileTool{
	"apply_patch": {access: FileWrite, patch: "command"},
	"view_image":  {access: FileRead, pathFields: []string{"path"}},
}

// ClaudeFileMatcher, GeminiFileMatcher and CodexFileMatcher select the
// file tools in a host's hook matcher, beside the shell tool.
var (
	ClaudeFileMatcher = "Bash|Read|NotebookRead|Grep|Glob|LS|Write|Edit|MultiEdit|NotebookEdit"
	GeminiFileMatcher = "run_shell_command|read_file|read_many_files|grep_search|glob|list_directory|write_file|replace"
	CodexFileMatcher  = "^(Bash|apply_patch|view_image)$"
)

// patchPaths are the files a Codex patch may add, update, delete or move
// to: what follows "*** Add File: ", "*** Update File: ", "*** Delete
// File: " or "*** Move to: " anywhere in a line. Codex trims a header
// line of any white space, Unicode's too, before it reads it (a red team
// indented ".git/config"'s header with a tab and it was applied), so a
// marker is looked for wherever it is, inside added lines too: one too
// many paths costs an ask, one too few a write to .git.
func patchPaths(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSuffix(line, "\r")
		for _, h := range []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
			for rest := line; ; {
				i := strings.Index(rest, h)
				if i < 0 {
					break
				}
				rest = rest[i+len(h):]
				raw := strings.TrimPrefix(rest, " ")
				if p := strings.TrimSpace(raw); p != "" {
					out = append(out, p)
					if raw != p && strings.TrimRightFunc(raw, unicode.IsSpace) != p {
						out = append(out, strings.TrimRightFunc(raw, unicode.IsSpace))
					}
				}
			}
		}
	}
	return out
}

// decodeFile reads a file tool's input. A field that is there but not a
// string (or list of strings) is malformed: deny.
func decodeFile(tool string, t fileTool, raw json.RawMessage) (*FileUse, error) {
	var in map[string]json.RawMessage
	if err := json.Unmarshal(raw, &in); err != nil || in == nil {
		return nil, malformed("tool_input is not an object")
	}
	u := &FileUse{Tool: tool, Access: t.access}
	for _, f := range t.pathFields {
		v, ok := in[f]
		if !ok || string(v) == "null" {
			continue
		}
		s, ok := jsonString(v)
		if !ok {
			return nil, malformed("tool_input.%s is not a string", f)
		}
		if s != "" {
			if t.decodes {
				u.Paths = append(u.Paths, geminiPaths(s)...)
			} else {
				u.Paths = append(u.Paths, s)
			}
		}
		break
	}
	for _, f := range t.listFields {
		v, ok := in[f]
		if !ok || string(v) == "null" {
			continue
		}
		var list []string
		if err := json.Unmarshal(v, &list); err != nil {
			s, isString := jsonString(v)
			if !isString {
				return nil, malformed("tool_input.%s is not a list of strings", f)
			}
			list = []string{s}
		}
		if t.decodes {
			var all []string
			for _, e := range list {
				all = append(all, geminiPaths(e)...)
			}
			list = all
		}
		if t.nodeGlobs {
			var all []string
			for _, e := range list {
				trees, includes, names := nodeGlobReads(e)
				u.Trees, u.Includes = append(u.Trees, trees...), append(u.Includes, includes...)
				all = append(all, names...)
			}
			list = all
		}
		u.Paths = append(u.Paths, list...)
	}
	if t.patch != "" {
		s, ok := jsonString(in[t.patch])
		if !ok {
			return nil, malformed("tool_input.%s is not a string", t.patch)
		}
		u.Paths = append(u.Paths, patchPaths(s)...)
		u.PatchChanges = patchChanges(s)
	}
	u.Change = decodeChange(t.change, in)
	if t.pattern != "" {
		if v, ok := in[t.pattern]; ok {
			s, ok := jsonString(v)
			if !ok {
				return nil, malformed("tool_input.%s is not a string", t.pattern)
			}
			u.Pattern = s
		}
	}
	if (t.access == FileRead || t.access == FileWrite) && len(u.Paths)+len(u.Trees) == 0 {
		return nil, malformed("%s names no file", tool)
	}
	return u, nil
}

// fileText is the shell command a read or search is judged as.
func (u *FileUse) fileText() string {
	var b strings.Builder
	switch u.Access {
	case FileSearch:
		b.WriteString("grep -r -e " + Quote(u.Pattern) + " --")
		if len(u.Paths) == 0 {
			b.WriteString(" .")
		}
	default:
		if len(u.Paths) == 0 {
			break
		}
		b.WriteString("cat --")
	}
	for _, p := range u.Paths {
		b.WriteString(" " + Quote(p))
	}
	if len(u.Trees) > 0 {
		if b.Len() > 0 {
			b.WriteString(" && ")
		}
		b.WriteString("grep -r")
		for _, in := range u.Includes {
			b.WriteString(" --include=" + Quote(in))
		}
		b.WriteString(" -e '' --")
		for _, t := range u.Trees {
			b.WriteString(" " + Quote(t))
		}
	}
	return b.String()
}

// file decides a file tool call.
func (g *Gate) file(h *Host, ev Event) Answer {
	u := ev.File
	for _, p := range append(u.Paths, u.Pattern) {
		if strings.ContainsRune(p, 0) {
			return Answer{Decision: Deny, Reason: "the tool input holds a NUL byte"}
		}
	}
	if u.Access == FileList {
		return Answer{Decision: Pass}
	}
	if ev.Cwd == "" {
		return Answer{Decision: Deny, Reason: "agentgate denied " + u.Tool + ": the directory it works in is not known: " + ev.CwdProblem}
	}
	// The host reads or writes itself: nothing is rewritten or confined
	// (the proposal is not Hardened).
	eng := g.Engine
	var j *engine.Judgement
	if u.Access == FileWrite {
		j = g.judgeWrite(h, ev)
	} else {
		j = eng.Judge(g.proposal(h, ev, u.fileText()), g.Config)
	}
	r := eng.Route(j)
	switch {
	case r.Action == engine.Run && r.Outcome == "":
		return Answer{Decision: Pass}
	case r.Action == engine.Run:
		x := eng.Escalate(j)
		if err := x.Approve(r.Outcome); err != nil {
			return Answer{Decision: Deny, Reason: err.Error()}
		}
		_ = x.Later()
		return Answer{Decision: Pass}
	case r.Action == engine.Prompt && h.CanAsk(ev):
		x := eng.Escalate(j)
		if err := x.Approve(audit.OutcomeAskedHost); err != nil {
			return Answer{Decision: Deny, Reason: err.Error()}
		}
		_ = x.Later()
		reason := askReason(j)
		if u.Access == FileWrite {
			reason = "agentgate: " + visible.String(j.Decision.Primary().String())
		}
		return Answer{Decision: Ask, Reason: reason}
	case r.Action == engine.Prompt:
		r = engine.NoOneToAsk(h.Name + " cannot ask a person here")
	}
	dn := eng.Escalate(j).Refuse(r)
	return Answer{Decision: Deny, Reason: strings.Replace(denyReason(dn), "agentgate denied ", "agentgate denied "+u.Tool+" (judged as) ", 1)}
}

// judgeWrite judges a write: self-protected paths, their links followed,
// ask (sticky); other writes are the agent's own work.
func (g *Gate) judgeWrite(h *Host, ev Event) *engine.Judgement {
	u := ev.File
	text := u.Tool + " " + strings.Join(quoteAll(u.Paths), " ")
	j := g.Engine.Judge(g.proposal(h, ev, "true"), g.Config)
	j.Request.Text = text
	paths := g.Config.Paths(g.Home, ev.Cwd)
	escalate := func(p, pat, why string) *engine.Judgement {
		j.Decision = gate.Escalate(j.Decision, gate.Reason{Check: gate.CheckSelfProtect, Match: p, Rule: pat,
			Message: fmt.Sprintf("%s writes %s, %s (%s)", u.Tool, shellWord(p), why, pat)})
		return j
	}
	const changes = "which changes how commands run or what agentgate and the host allow"
	roots := g.writeRoots()
	// git's state is read once for the call, from every directory it
	// writes in and the working directory (each repository once), and
	// only when a path gets that far.
	var state gitsafe.GitState
	var stateErr error
	stateRead := false
	gitState := func() (gitsafe.GitState, error) {
		if !stateRead {
			dirs := []string{ev.Cwd}
			for _, p := range u.Paths {
				if !filepath.IsAbs(p) {
					p = filepath.Join(ev.Cwd, p)
				}
				dirs = append(dirs, filepath.Dir(writeTarget(filepath.Clean(p))))
			}
			state, stateErr = gitsafe.StateDirs(dirs, g.environ())
			stateRead = true
		}
		return state, stateErr
	}
	for _, p := range u.Paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(ev.Cwd, abs)
		}
		abs = filepath.Clean(abs)
		target := writeTarget(abs)
		// The home and the XDG directories are reached by their physical
		// paths too (a symbolic link on the way to the home, FreeBSD's
		// /home): each candidate is also read under the name the
		// patterns use.
		cands := []string{abs, target}
		for _, c := range []string{abs, target} {
			cands = append(cands, roots.logical(c)...)
		}
		for _, cand := range cands {
			check, pat, ok := paths.MatchPath(cand)
			if !ok || check != gate.CheckSelfProtect {
				// A host's env file (Gemini CLI loads a project's .env,
				// .gemini/.env and ~/.env into its own environment, which
				// its hooks and shell inherit): writing one sets what
				// steers them, whichever host's agent writes it.
				if !writeProtected(cand, g.Home) && !roots.protected(cand) && envFile(cand) == nil {
					continue
				}
				pat = filepath.Base(cand)
			}
			if f, reader := g.hostEnvWrite(u, p, cands, target); f != nil {
				j.Decision = gate.Forbid(j.Decision, gate.Reason{Check: gate.CheckHostEnv, Match: f.Key, Rule: pat,
					Message: fmt.Sprintf("%s would make %s set %s, which %s; %s exports it to every hook and command it starts, through a shell that acts on it before agentgate runs",
						u.Tool, shellWord(p), f.Key, f.Why, reader.Title)})
				return j
			}
			return escalate(p, pat, changes)
		}
		// A file with other names: one of them may be .git/config, a
		// hook or ~/.bashrc, and a write changes them all (the host
		// writes into the file, not a new one).
		if fi, err := os.Lstat(target); err == nil && fi.Mode().IsRegular() && fsutil.Links(fi) > 1 {
			return escalate(p, "a hard link", "a file with other names, which may be protected ones")
		}
		// A directory this write makes a git directory (HEAD, objects
		// and refs, the last of them written here): git takes it for a
		// bare repository when it runs there, and its config names
		// programs (core.pager, core.fsmonitor).
		if d, ok := completesGitDir(target); ok {
			return escalate(p, d, "a file of a directory git takes for a repository, whose configuration the next git command there trusts or runs")
		}
		// git's own directories wherever the repository keeps them (a
		// separate git directory, a .git file's gitdir, core.hooksPath):
		// the person's next git command runs what is written there.
		st, err := gitState()
		if d, ok := st.Holds(target); ok {
			return escalate(p, d, "a file of git's state or hooks, which the next git command trusts or runs")
		}
		if err != nil {
			return escalate(p, "git's state", "where git's state cannot be told apart: "+err.Error())
		}
	}
	return j
}

// hostEnvWrite is the first steering variable a write of p would make one of
// the hosts' own env files set (see filechange.go), and the host that
// reads the file, or nil. What the file holds now is read only when it is
// a regular file (a FIFO planted there must not stall the decision) of
// modest size; else the change is applied to nothing, which can only find
// what the tool input itself adds.
func (g *Gate) hostEnvWrite(u *FileUse, p string, cands []string, target string) (*EnvFinding, *Host) {
	change := u.Change
	if u.PatchChanges != nil {
		change = u.PatchChanges[p]
	}
	if change == nil {
		return nil, nil
	}
	for _, c := range cands {
		reader := envFile(c)
		if reader == nil {
			continue
		}
		now := ""
		if b, err := fsutil.ReadRegular(target, 1<<20); err == nil {
			now = string(b)
		}
		after, ok := change.Apply(now)
		if !ok {
			return nil, nil
		}
		if fs := envFindings(reader, c, []byte(after)); len(fs) > 0 {
			return &fs[0], reader
		}
		return nil, nil
	}
	return nil, nil
}

// completesGitDir is the directory above target (or target itself) that
// git would take for a git directory once target is written: it holds
// (or the write makes) HEAD, and objects and refs or a commondir. A red
// team wrote sub/config naming core.pager, then sub/objects/.keep,
// sub/refs/.keep and sub/HEAD, each an ordinary write, and "git branch"
// in sub ran the pager; the repository's own state check sees a git
// directory only once it is one.
func completesGitDir(target string) (string, bool) {
	for d, rel := target, ""; ; {
		first, _, _ := strings.Cut(rel, string(filepath.Separator))
		has := func(name string, dir bool) bool {
			if first == name {
				return true
			}
			fi, err := os.Stat(filepath.Join(d, name))
			return err == nil && fi.IsDir() == dir
		}
		if rel != "" && has("HEAD", false) && (has("objects", true) && has("refs", true) || has("commondir", false)) {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		rel = filepath.Join(filepath.Base(d), rel)
		d = parent
	}
}

// environ is the hook's environment, as git would read it.
func (g *Gate) environ() []string {
	if g.Getenv == nil {
		return nil
	}
	var out []string
	for _, k := range []string{"HOME", "PATH", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM"} {
		if v := g.Getenv(k); v != "" {
			out = append(out, k+"="+v)
		}
	}
	if g.Home != "" {
		out = append(out, "HOME="+g.Home)
	}
	return out
}

// writeRoots are the directories whose files writeProtected names
// relative to the home, under each of their names: the home, the XDG
// configuration, state and data directories and the hosts' own
// (CLAUDE_CONFIG_DIR, CODEX_HOME) where they are set elsewhere.
type writeRoots struct {
	// home is the home's physical path when it differs from the name.
	home, physicalHome string
	// config and state are the XDG directories (physical), with what
	// they stand for under the home.
	xdg []xdgRoot
}

type xdgRoot struct{ dir, inHome string }

func (g *Gate) writeRoots() writeRoots {
	r := writeRoots{home: filepath.Clean(g.Home)}
	if g.Home == "" {
		return r
	}
	if phys := fsutil.Resolve(r.home); phys != r.home {
		r.physicalHome = phys
	}
	// The hosts' own directories where their variables move them
	// (agentgate install writes the hook into $CLAUDE_CONFIG_DIR's
	// settings.json then): what the home's .claude and .codex are.
	moved := []struct{ env, inHome string }{{"XDG_CONFIG_HOME", ".config"}, {"XDG_STATE_HOME", ".local/state"}, {"XDG_DATA_HOME", ".local/share"}}
	for _, h := range engine.HostDirs {
		if h.Env != "" {
			moved = append(moved, struct{ env, inHome string }{h.Env, h.InHome})
		}
	}
	for _, x := range moved {
		v := ""
		if g.Getenv != nil {
			v = g.Getenv(x.env)
		}
		if !filepath.IsAbs(v) {
			continue
		}
		for _, d := range uniq(filepath.Clean(v), fsutil.Resolve(v)) {
			r.xdg = append(r.xdg, xdgRoot{dir: d, inHome: x.inHome})
		}
	}
	return r
}

// logical is p spelled under the home's name, where p is under the
// home's physical path or an XDG directory.
func (r writeRoots) logical(p string) []string {
	var out []string
	if r.physicalHome != "" {
		if rest, ok := strings.CutPrefix(p, r.physicalHome); ok && (rest == "" || rest[0] == '/') {
			out = append(out, r.home+rest)
		}
	}
	for _, x := range r.xdg {
		if rest, ok := strings.CutPrefix(p, x.dir); ok && (rest == "" || rest[0] == '/') {
			out = append(out, filepath.Join(r.home, x.inHome)+rest)
		}
	}
	return out
}

// protected reports a path under an XDG directory that writeProtected
// names under the home (git's global config in $XDG_CONFIG_HOME/git).
func (r writeRoots) protected(p string) bool {
	for _, l := range r.logical(p) {
		if writeProtected(l, r.home) {
			return true
		}
	}
	return false
}

// writeTarget is the file a write to abs changes: every link on the way
// followed, a dangling one too, since a write creates its target (a red
// team's "notes.txt -> .git/commondir", which did not exist yet, let a
// patch plant git's common directory), and the missing components taken
// as they are written (a write creates its directories): fsutil.Resolve,
// the walk gitsafe judges repository paths with.
func writeTarget(abs string) string { return fsutil.Resolve(abs) }

// writeProtected are names a write makes dangerous beyond the
// self-protected paths a read may still name: direnv runs .envrc on the
// next cd; .gitmodules names submodule URLs and update commands; and
// everything under .git is git's state, which read-only git commands
// trust (a red team planted an index listing .env and a path through a
// link to ~/.ssh, and git grep printed both). The project names a
// workspace command may not change are the same list here (the agents'
// settings, .mcp.json, .vscode, hook managers: sandbox.IsProtectedName),
// wherever they stand; and in the home, what git, ssh, the hosts and the
// shell's PATH trust (a red team's Write of ~/.gitconfig, ~/.ssh/config,
// ~/.claude.json, ~/.codex/rules and ~/.local/bin/git was left to the
// host's own dialog as an ordinary write).
func writeProtected(abs, home string) bool {
	// In lower case: on a file system that ignores case, .GIT/hooks is
	// .git/hooks.
	abs, home = strings.ToLower(abs), strings.ToLower(home)
	switch filepath.Base(abs) {
	case ".envrc", ".gitmodules", ".git":
		return true
	}
	if strings.Contains(abs, "/.git/") {
		return true
	}
	for _, c := range strings.Split(abs, string(filepath.Separator)) {
		if sandbox.IsProtectedName(c) {
			return true
		}
	}
	if home == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Clean(home), abs)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, p := range homeWriteProtected {
		if rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	// ~/.gitconfig-work and the like: what an includeIf names, whose own
	// includes git lists only where its condition holds.
	return strings.HasPrefix(rel, ".gitconfig")
}

// homeWriteProtected are the files and directories of the home, relative
// to it, whose contents other programs trust or run.
var homeWriteProtected = []string{
	".gitconfig", ".config/git", ".ssh", ".claude.json", ".claude", ".codex", ".gemini", ".cursor",
	".local/bin", "bin", ".config/agentgate", ".local/state/agentgate", ".npmrc", ".pypirc", ".netrc",
	".config/pip", ".cargo/config.toml", ".cargo/config", ".cargo/bin", ".docker/config.json", ".kube/config",
	".aws/config", ".aws/credentials", ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc",
	".zshenv", ".zprofile", ".zlogin", ".config/fish", ".inputrc", ".vimrc", ".config/nvim", ".direnvrc",
	".config/direnv", ".config/systemd/user", ".config/autostart", ".gnupg", ".mailmap",
	// A red team's, each an ordinary write before: the start-up files
	// of the shells beside bash's and zsh's own (Debian's ~/.bashrc
	// sources ~/.bash_aliases), the environment of the next login, go's
	// environment file (GOFLAGS=-toolexec runs a program at every build)
	// and Python's user site, whose .pth files run at every start.
	".bash_aliases", ".bash_logout", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".logout",
	".pam_environment", ".config/environment.d", ".xprofile", ".xsessionrc", ".config/go/env", ".local/lib",
	// Round 5: Maven's launcher (bin/mvn) sources ~/.mavenrc as shell
	// code before anything else, so the allowed "mvn --version" printed
	// ~/.ssh/id_rsa once a Write had planted it.
	".mavenrc",
}

func quoteAll(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = shellWord(p)
	}
	return out
}

func uniq(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}
