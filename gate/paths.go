package gate

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentgate/agentgate/internal/glob"
)

// Paths says which paths a command must not name without a person's
// approval, whatever the allowlist, mode or session memory say.
//
// A pattern is one of:
//   - an absolute path, or one starting with "~/": the path and everything
//     under it ("~/.ssh", "/etc/agentgate/policy.toml");
//   - a relative path with a slash: those components anywhere in a path
//     (".git/config", ".git/hooks");
//   - a name, possibly a glob: a file or directory of that name anywhere
//     ("*.pem", ".env", "id_rsa*").
type Paths struct {
	// Home expands "~" and $HOME; Cwd resolves relative words.
	Home, Cwd string
	// Vars are the environment the command runs with: a word that starts
	// with $NAME or ${NAME} is judged with NAME's value, as bash expands it
	// ("$XDG_CONFIG_HOME/agentgate/config.toml"). A name missing here is
	// left as it is.
	Vars map[string]string
	// Self are agentgate's own files and what could change how commands
	// run: its configuration, policy, trust store, session state, audit
	// log, .git/config, .git/hooks, shell startup files.
	Self []string
	// Sensitive are secrets: reading them sends them to the model.
	Sensitive []string
	// Physical, when set, is the path the kernel reaches for an
	// absolute path, links followed and ".." taken after each ("" when
	// it cannot be resolved): the engine's look at the file system, for
	// the catastrophic rules. Decide stays pure without it.
	Physical func(string) string

	compiled *compiledPaths
	// flow is what Decide read of the text's own assignments and cd
	// commands: its variables override Vars.
	flow *textFlow
}

type compiledPaths struct {
	self, sensitive matcher
	// home and cwd are what the patterns were resolved with.
	home, cwd string
}

// Compile prepares the patterns once, for a caller that judges many
// commands with the same paths (the engine, for the gate, the resolver
// and the vetter of one request). Decide compiles them itself otherwise.
// Paths compiled already for the same home and working directory are
// returned as they are. Change no other field of the result: the
// compiled patterns would not follow.
func (p Paths) Compile() Paths {
	if c := p.compiled; c != nil && c.home == p.Home && c.cwd == p.Cwd {
		return p
	}
	p.compiled = nil
	c := &compiledPaths{self: p.matcher(p.Self), sensitive: p.matcher(p.Sensitive), home: p.Home, cwd: p.Cwd}
	p.compiled = c
	return p
}

func (p Paths) matchers() (self, sensitive matcher) {
	// A split compound's cd moves Cwd after the paths were compiled:
	// those are compiled anew.
	if c := p.compiled; c != nil && c.home == p.Home && c.cwd == p.Cwd {
		return c.self, c.sensitive
	}
	return p.matcher(p.Self), p.matcher(p.Sensitive)
}

// DefaultSensitive are the secrets asked about by default: the patterns
// of [SensitiveDefaults].
var DefaultSensitive = func() []string {
	out := make([]string, len(SensitiveDefaults))
	for i, d := range SensitiveDefaults {
		out[i] = d.Pattern
	}
	return out
}()

// PathNote is a default pattern and why it is there.
type PathNote struct{ Pattern, Note string }

// SensitiveDefaults are the default sensitive patterns, each with its
// reason; config.example.toml documents each (a test keeps them in step).
// A "~/" pattern also matches the same components under any directory
// (another user's home, /root), so these hold for every home.
var SensitiveDefaults = []PathNote{
	{"~/.ssh", "SSH keys, known hosts and agent config"},
	{"~/.aws", "AWS credentials"},
	{"~/.azure", "Azure CLI tokens"},
	{"~/.config/gcloud", "Google Cloud credentials"},
	{"~/.docker/config.json", "registry credentials"},
	{"~/.gnupg", "GnuPG private keys"},
	{"~/.kube", "Kubernetes credentials and cache"},
	{"~/.config/gh/hosts.yml", "GitHub CLI token"},
	{"~/.cargo/credentials", "crates.io token"},
	{"~/.cargo/credentials.toml", "crates.io token"},
	{"~/.terraform.d/credentials.tfrc.json", "Terraform Cloud token"},
	{"~/.config/op", "1Password CLI"},
	{"~/.password-store", "pass(1) store"},
	{"~/.local/share/keyrings", "GNOME keyring"},
	{"~/.claude/.credentials.json", "Claude Code's login token"},
	{"~/.claude.json", "Claude Code's state: its MCP servers' tokens"},
	{"~/.codex/auth.json", "Codex's login token or API key"},
	{"~/.gemini/oauth_creds.json", "Gemini CLI's login token"},
	{"~/.cursor/mcp.json", "Cursor's MCP servers and their tokens"},
	{"~/.local/share/opencode/auth.json", "OpenCode's provider keys"},
	{"$CLAUDE_CONFIG_DIR/.credentials.json", "Claude Code's login token, where CLAUDE_CONFIG_DIR moves it"},
	{"$CODEX_HOME/auth.json", "Codex's login token, where CODEX_HOME moves it"},
	{".config/git/credentials", "git's stored passwords (its XDG file), under any home"},
	{"~/.gem/credentials", "RubyGems token"},
	{"~/.config/rclone/rclone.conf", "rclone remotes' credentials"},
	{"~/.s3cfg", "s3cmd credentials"},
	{"~/.boto", "boto and gsutil credentials"},
	{"~/.terraformrc", "Terraform CLI token"},
	{"~/.m2/settings.xml", "Maven repository passwords"},
	{"~/.gradle/gradle.properties", "Gradle repository credentials"},
	{".netrc", "machine passwords, anywhere"},
	{".npmrc", "npm tokens, anywhere"},
	{".pypirc", "PyPI tokens, anywhere"},
	{".git-credentials", "git's stored passwords, anywhere"},
	{".pgpass", "PostgreSQL passwords"},
	{".my.cnf", "MySQL passwords"},
	{".vault-token", "HashiCorp Vault token"},
	{".htpasswd", "web server password hashes (Apache, nginx basic auth)"},
	{"credentials.json", "a service's credentials (Google OAuth clients, many CLIs)"},
	{"service-account*.json", "cloud service-account keys"},
	{"*.kdbx", "KeePass password databases"},
	{"*.kdb", "KeePass 1 password databases"},
	{".env", "application secrets"},
	{".env.*", "application secrets (.env.local, .env.production ...)"},
	{".env~", "an editor's backup of .env"},
	{".envrc", "direnv: often exports secrets"},
	{"*.tfstate", "Terraform state: holds every secret it manages"},
	{"*.tfstate.backup", "Terraform state backup"},
	{"*.pem", "keys and certificates"},
	{"*.key", "private keys"},
	{"*.p12", "PKCS#12 key stores"},
	{"*.pfx", "PKCS#12 key stores"},
	{"*.jks", "Java key stores"},
	{"*.keystore", "key stores"},
	{"id_rsa*", "SSH keys wherever they are"},
	{"id_dsa*", "SSH keys wherever they are"},
	{"id_ecdsa*", "SSH keys wherever they are"},
	{"id_ed25519*", "SSH keys wherever they are"},
	{".bash_history", "shell history: typed passwords and tokens"},
	{".zsh_history", "shell history"},
	{".zhistory", "shell history"},
	{".sh_history", "shell history"},
	{".history", "shell history"},
	{"fish_history", "fish shell history"},
	{".python_history", "Python REPL history"},
	{".node_repl_history", "Node REPL history"},
	{".psql_history", "PostgreSQL client history"},
	{".mysql_history", "MySQL client history"},
	{".sqlite_history", "SQLite client history"},
	{".rediscli_history", "redis-cli history"},
	{"/etc/shadow", "password hashes"},
	{"/etc/shadow-", "backup of /etc/shadow"},
	{"/etc/gshadow", "group password hashes"},
	{"/etc/gshadow-", "backup of /etc/gshadow"},
	{"/etc/security/opasswd", "old password hashes"},
	{"/etc/sudoers", "who may become root"},
	{"/etc/ssl/private", "TLS private keys"},
	{"/etc/ssh/ssh_host_*_key", "SSH host private keys"},
	{"/run/secrets", "container and systemd secrets"},
	{"/var/run/secrets", "Kubernetes service-account token and other secrets"},
	{"/dev/sd*", "raw disks"},
	{"/dev/hd*", "raw disks"},
	{"/dev/vd*", "raw virtio disks"},
	{"/dev/xvd*", "raw Xen disks"},
	{"/dev/nvme*", "raw NVMe disks"},
	{"/dev/mmcblk*", "raw SD/eMMC disks"},
	{"/dev/dm-*", "device-mapper volumes (decrypted disks)"},
	{"/dev/mapper", "device-mapper volumes"},
	{"/dev/md*", "RAID volumes"},
	{"/dev/loop*", "loop devices"},
	{"/dev/disk", "disks by id, label, uuid, path"},
	{"/dev/input", "keyboards and mice: keystrokes"},
	{"/dev/port", "I/O ports"},
	{"/dev/mem", "physical memory"},
	{"/dev/kmem", "kernel memory"},
	{"/proc/kcore", "kernel memory"},
	{"/proc/*/environ", "a process's environment: tokens"},
	{"/proc/*/cmdline", "a process's arguments: passwords on command lines"},
	{"/proc/*/mem", "a process's memory"},
	{"/proc/*/fd", "a process's open files"},
	{"/proc/*/map_files", "a process's mapped files"},
	{"/proc/*/auxv", "a process's auxiliary vector"},
	{"/proc/*/stack", "a kernel stack"},
}

// DefaultSelf are protected in every setup: files that run commands at the
// next shell start or git command, and agentgate's project files.
var DefaultSelf = []string{
	"~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.bash_logout", "~/.profile", "~/.zshrc",
	"~/.zshenv", "~/.zprofile", "~/.zlogin", "~/.config/fish", "~/.inputrc", "/etc/profile",
	"/etc/bash.bashrc", "/etc/zsh", ".git/config", ".git/hooks", ".agentgate.toml", ".agentgate.local.toml",
	// The agents' own settings, where a hook or a bypass mode is set.
	".claude/settings.json", ".claude/settings.local.json", ".codex/config.toml", ".codex/hooks.json",
	".gemini/settings.json", ".cursor/hooks.json",
}

// pathHit is a word of the command that names a protected path.
type pathHit struct {
	word, pattern string
}

// matcher is a list of patterns prepared once per decision.
type matcher struct {
	p        Paths
	prefixes []pattern // absolute: the path and below
	inner    []pattern // relative with a slash: components anywhere
	names    []pattern // a file or directory name, maybe a glob
	// listed are words a names-only program lists: a name pattern's
	// match there is no read (see protect).
	listed map[string]bool
	// fold is the same patterns in lower case, tried on the path in
	// lower case when the path does not match as it is: on a file system
	// that ignores case (macOS's, Windows', a casefold directory) .ENV is
	// .env and ~/.SSH is ~/.ssh (a red team's "cat .ENV" passed). It
	// is built on first use: most paths are in lower case already, and
	// building it was half of compiling the paths on every call.
	fold *lazyFold
	// lower is set when every pattern is in lower case already: then a
	// path in lower case meets fold exactly as it met the patterns, and
	// fold is not tried (a git grep judges every path of the index).
	lower bool
	// literalNames indexes names' literal patterns by value, for paths:
	// the position in names of the first one with that value.
	literalNames map[string]int
	// literalInner indexes inner's literal patterns by their first
	// component (".ssh" for "/.ssh", ".git" for "/.git/config"): a path
	// is tried only against those whose first component it holds.
	literalInner map[string][]int
	// globs are done when the globs of prefixes, inner and names are
	// compiled (see comps), one for each class; the folded twin shares
	// those of a class it shares.
	globs [3]*sync.Once
}

// class is one of a matcher's lists of patterns.
type class int

const (
	prefixClass class = iota
	innerClass
	nameClass
)

// patterns are m's patterns of class c.
func (m matcher) patterns(c class) []pattern {
	switch c {
	case prefixClass:
		return m.prefixes
	case innerClass:
		return m.inner
	}
	return m.names
}

// newGlobs are the three not yet done.
func newGlobs() [3]*sync.Once {
	o := new([3]sync.Once)
	return [3]*sync.Once{&o[0], &o[1], &o[2]}
}

// lazyFold builds a matcher's lower-case twin once, when first needed.
type lazyFold struct {
	once sync.Once
	of   *matcher
	m    matcher
}

func (l *lazyFold) get() *matcher {
	l.once.Do(func() { l.m = l.of.folded() })
	return &l.m
}

// folded is m with every pattern's value in lower case. It is made from
// m's values, nothing resolved again; a class with no value changed is
// m's own, with its globs and index (TestFoldedIsTheLowerCaseTwin).
func (m *matcher) folded() matcher {
	f := matcher{p: m.p, globs: m.globs, literalNames: m.literalNames, literalInner: m.literalInner}
	fresh := newGlobs()
	var changed [3]bool
	f.prefixes, changed[prefixClass] = foldAll(m.prefixes)
	f.inner, changed[innerClass] = foldAll(m.inner)
	f.names, changed[nameClass] = foldAll(m.names)
	for c, ok := range changed {
		if ok {
			f.globs[c] = fresh[c]
		}
	}
	if changed[innerClass] {
		f.literalInner = nil
		f.indexInner()
	}
	if changed[nameClass] {
		f.literalNames = nil
		f.indexNames()
	}
	return f
}

// foldAll is ts with each value in lower case, and whether any changed:
// ts itself when none did. Otherwise their globs are the new list's to
// compile: only the fields set by newPattern are read, which never
// change.
func foldAll(ts []pattern) ([]pattern, bool) {
	var out []pattern
	for i, t := range ts {
		low := strings.ToLower(t.value)
		if low == t.value {
			if out != nil {
				out[i] = pattern{text: t.text, value: t.value, glob: t.glob, head: t.head}
			}
			continue
		}
		if out == nil {
			out = make([]pattern, len(ts))
			for j, u := range ts[:i] {
				out[j] = pattern{text: u.text, value: u.value, glob: u.glob, head: u.head}
			}
		}
		out[i] = newPattern(t.text, low)
	}
	if out == nil {
		return ts, false
	}
	return out, true
}

type pattern struct {
	text, value string
	// comps are value's components read as bash globs (one engine for
	// every glob the gate judges: internal/glob), and examples, of a name
	// pattern, names it matches ("x.pem" and ".pem" for "*.pem"),
	// literal, against which a glob in a word is tried. Both are set by
	// the matcher's compileGlobs and read through its comps and examples.
	comps, examples []glob.Pattern
	// glob is set for patterns with glob characters ("/dev/sd*", "*.pem");
	// head is an absolute glob's literal part up to its last slash before
	// the first glob character, checked first because it is cheap.
	glob bool
	head string
}

// newPattern prepares a pattern; its globs are compiled when first
// needed (see [matcher.comps]). A request prepares its paths once
// (see [Paths.Compile]), and the case-folded twin takes the patterns
// already in lower case as they are: a cache of patterns by text and
// value, kept for the process, cost more to fill than it saved.
func newPattern(text, value string) pattern {
	t := pattern{text: text, value: value, glob: glob.Meta(value)}
	if i := strings.IndexAny(value, "*?["); i >= 0 && strings.HasPrefix(value, "/") {
		t.head = value[:strings.LastIndexByte(value[:i], '/')+1]
	}
	return t
}

// compileGlobs reads t's value as bash globs.
func (t *pattern) compileGlobs() {
	t.comps = nil
	for _, c := range strings.Split(strings.Trim(t.value, "/"), "/") {
		t.comps = append(t.comps, glob.Compile(c))
	}
	if t.value != "" && !strings.Contains(t.value, "/") {
		// A name pattern: build puts these in names, and only there are
		// examples read.
		t.examples = []glob.Pattern{t.comps[0]}
		if t.glob {
			t.examples = []glob.Pattern{glob.Compile(glob.Escape(example(t.value, "x"))), glob.Compile(glob.Escape(example(t.value, "")))}
		}
	}
}

// comps are the globs of the i-th pattern of class c. The globs of the
// class are compiled, once, when a word first needs one: a path without
// glob characters meets most patterns by their values alone, and
// compiling them all was most of preparing the paths, on every call.
func (m matcher) comps(c class, i int) []glob.Pattern {
	ts := m.patterns(c)
	m.globs[c].Do(func() {
		for j := range ts {
			ts[j].compileGlobs()
		}
	})
	return ts[i].comps
}

// examples are the example names of m.names[i].
func (m matcher) examples(i int) []glob.Pattern {
	m.comps(nameClass, i)
	return m.names[i].examples
}

func (p Paths) matcher(patterns []string) matcher {
	m := p.build(patterns)
	m.indexInner()
	m.lower = true
	for _, ts := range [][]pattern{m.prefixes, m.inner, m.names} {
		for _, t := range ts {
			m.lower = m.lower && strings.ToLower(t.value) == t.value
		}
	}
	m.fold = &lazyFold{of: &m}
	return m
}

// indexNames sets literalNames.
func (m *matcher) indexNames() {
	for i, t := range m.names {
		if t.glob {
			continue
		}
		if m.literalNames == nil {
			m.literalNames = map[string]int{}
		}
		if _, ok := m.literalNames[t.value]; !ok {
			m.literalNames[t.value] = i
		}
	}
}

func (m *matcher) indexInner() {
	for i, t := range m.inner {
		if t.glob {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(t.value, "/"), "/")
		if m.literalInner == nil {
			m.literalInner = map[string][]int{}
		}
		m.literalInner[first] = append(m.literalInner[first], i)
	}
}

// innerLiteral is the first of inner's literal patterns that the path
// abs names: one with its components anywhere in abs, ending abs or
// followed by more (inner's index when one does, -1 otherwise).
func (m matcher) innerLiteral(abs string) int {
	first := -1
	for c := range strings.SplitSeq(abs, "/") {
		for _, i := range m.literalInner[c] {
			if t := m.inner[i]; (first < 0 || i < first) && (strings.HasSuffix(abs, t.value) || containsDir(abs, t.value)) {
				first = i
			}
		}
	}
	return first
}

// containsDir reports whether abs holds dir followed by a slash.
func containsDir(abs, dir string) bool {
	for i := 0; ; {
		j := strings.Index(abs[i:], dir)
		if j < 0 {
			return false
		}
		if k := i + j + len(dir); k < len(abs) && abs[k] == '/' {
			return true
		}
		i += j + 1
	}
}

// build prepares patterns.
func (p Paths) build(patterns []string) matcher {
	var nPrefix, nInner, nNames int
	for _, pat := range patterns {
		switch {
		case strings.HasPrefix(pat, "~/"):
			nPrefix++
			nInner++
		case strings.HasPrefix(pat, "$"):
			nPrefix++
			nInner++
		case strings.HasPrefix(pat, "/"):
			nPrefix++
		case strings.Contains(pat, "/"):
			nInner++
		default:
			nNames++
		}
	}
	all := make([]pattern, 0, nPrefix+nInner+nNames)
	m := matcher{p: p, prefixes: all[:0:nPrefix], inner: all[nPrefix : nPrefix : nPrefix+nInner], names: all[nPrefix+nInner : nPrefix+nInner : nPrefix+nInner+nNames], globs: newGlobs()}
	for _, pat := range patterns {
		switch {
		case strings.HasPrefix(pat, "$"):
			// "$CLAUDE_CONFIG_DIR/.credentials.json": where the
			// environment moves a host's files, when it does. Unset, the
			// pattern names nothing (the host's default place has its
			// own pattern): it used to stay "$CLAUDE_CONFIG_DIR/..." and
			// be read as a directory of that name under the working
			// directory, so that every "*" there seemed to name it.
			exp := p.expandVar(pat)
			if exp == pat {
				break
			}
			if v := p.resolve(pat); strings.HasPrefix(v, "/") {
				m.prefixes = append(m.prefixes, newPattern(pat, v))
			}
			if rel := relativeComponents(exp); rel != "" {
				// A relative value is taken by the host from its own
				// working directory, which need not be the command's
				// (the Bash tool's cd moves only the latter): its
				// components anywhere, as ".git/config" is.
				m.inner = append(m.inner, newPattern(pat, "/"+rel))
			}
		case strings.HasPrefix(pat, "/") || strings.HasPrefix(pat, "~/"):
			m.prefixes = append(m.prefixes, newPattern(pat, p.resolve(pat)))
			if rest, ok := strings.CutPrefix(pat, "~/"); ok && rest != "" && !glob.Meta(rest) {
				// The same file under any home: /root/.ssh, /home/bob/.aws.
				m.inner = append(m.inner, newPattern(pat, "/"+strings.Trim(rest, "/")))
			}
		case strings.Contains(pat, "/"):
			m.inner = append(m.inner, newPattern(pat, "/"+strings.Trim(pat, "/")))
		case pat != "":
			m.names = append(m.names, newPattern(pat, pat))
		}
	}
	m.indexNames()
	return m
}

// relativeComponents is a relative path value as components to match
// anywhere ("./cc/.credentials.json" is "cc/.credentials.json", a leading
// "../" dropped), or "" for an absolute one, one starting with "~", or
// one holding a glob.
func relativeComponents(v string) string {
	if v == "" || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || glob.Meta(v) {
		return ""
	}
	rel := path.Clean(v)
	for strings.HasPrefix(rel, "../") {
		rel = rel[3:]
	}
	if rel == "." || rel == ".." {
		return ""
	}
	return strings.Trim(rel, "/")
}

// namePattern reports whether pat is one of m's name patterns (".env",
// "*.pem"), not a directory or absolute one.
func (m matcher) namePattern(pat string) bool {
	for _, t := range m.names {
		if t.text == pat {
			return true
		}
	}
	return false
}

func (m matcher) empty() bool { return len(m.prefixes)+len(m.inner)+len(m.names) == 0 }

// hit returns the first word of segs that names a pattern.
// hits scans the words of segs once, each resolved once, for the first
// word naming a pattern of self and the first naming one of sensitive.
// It stops at the first self hit, which outranks any sensitive one.
func hits(segs [][]string, self, sensitive matcher) (selfHit, sensitiveHit pathHit, found bool) {
	if self.empty() && sensitive.empty() {
		return
	}
	haveSensitive := false
	var seen []string
	for _, argv := range segs {
		for _, w := range argv {
			if slices.Contains(seen, w) {
				continue
			}
			if len(seen) < 64 {
				seen = append(seen, w)
			}
			for _, cand := range candidates(w) {
				abs := self.p.resolve(cand)
				if abs == "" {
					continue
				}
				isGlob := glob.Meta(cand)
				if pat, ok := self.match(abs, isGlob); ok {
					return pathHit{w, pat}, sensitiveHit, true
				}
				if !haveSensitive {
					if pat, ok := sensitive.match(abs, isGlob); ok && !(sensitive.listed[w] && sensitive.namePattern(pat)) {
						sensitiveHit, haveSensitive = pathHit{w, pat}, true
					}
				}
			}
		}
	}
	return selfHit, sensitiveHit, false
}

// candidates are the parts of a word that may be paths: the word, what
// follows "=" (--output=FILE) or ":" (a PATH-like list), and for a word of
// short flags, every value a flag could have glued to it ("-f.env",
// "-o.git/config", "-nm/etc/shadow").
func candidates(w string) []string {
	return PathCandidates(w)
}

// PathCandidates are the parts of a command word that may name files,
// read as the gate reads them.
func PathCandidates(w string) []string {
	if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && len(w) > 2 {
		out := []string{w}
		if i := strings.IndexByte(w, '='); i >= 0 {
			w = w[:i] + w[i+1:] // -o=FILE
			out = append(out, w[i:])
		}
		for i := 2; i < len(w) && len(out) < 64; i++ {
			out = append(out, w[i:])
		}
		return out
	}
	if strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
		return nil // --flag: its value is the next word
	}
	out := []string{w}
	if _, v, ok := strings.Cut(w, "="); ok && v != "" {
		out = append(out, v)
	}
	if strings.Contains(w, ":") {
		out = append(out, strings.Split(w, ":")...)
	}
	return out
}

// match reports the first pattern that the resolved path abs names;
// isGlob says the word it came from holds glob characters, which bash
// may expand to the pattern's names: then the word's components are read
// as bash globs (over-approximated, see internal/glob) and met with the
// pattern's.
func (m matcher) match(abs string, isGlob bool) (string, bool) {
	if pat, ok := m.match0(abs, isGlob); ok {
		return pat, true
	}
	if m.fold != nil {
		low := strings.ToLower(abs)
		if m.lower && low == abs {
			return "", false // fold would read the same path with the same patterns
		}
		return m.fold.get().match0(low, isGlob)
	}
	return "", false
}

func (m matcher) match0(abs string, isGlob bool) (string, bool) {
	var word, lit []glob.Pattern
	// literal reads abs's components once, for the glob patterns that
	// need them.
	literal := func() []glob.Pattern {
		if lit == nil {
			lit = literalComps(abs)
		}
		return lit
	}
	if isGlob {
		for _, c := range strings.Split(strings.Trim(abs, "/"), "/") {
			word = append(word, glob.CompileValue(c))
		}
	}
	for i, t := range m.prefixes {
		switch {
		case !isGlob && !t.glob:
			if under(abs, t.value) {
				return t.text, true
			}
		case !isGlob && !strings.HasPrefix(abs, t.head):
		case !isGlob:
			if reaches(literal(), m.comps(prefixClass, i), 0) {
				return t.text, true
			}
		default:
			// A glob may expand to the protected path or below it.
			if reaches(word, m.comps(prefixClass, i), 0) {
				return t.text, true
			}
		}
	}
	firstLiteral := len(m.inner)
	if !isGlob {
		if i := m.innerLiteral(abs); i >= 0 {
			firstLiteral = i
		}
	}
	for i, t := range m.inner {
		if i == firstLiteral {
			return t.text, true
		}
		if !isGlob && !t.glob {
			continue // looked up in innerLiteral
		}
		comps := word
		if !isGlob {
			comps = literal()
		}
		for o := range comps {
			if reaches(comps, m.comps(innerClass, i), o) {
				return t.text, true
			}
		}
	}
	base := path.Base(abs)
	var baseGlob glob.Pattern
	if isGlob {
		baseGlob = word[len(word)-1]
	}
	// A literal name is looked up; the glob names before it are tried
	// first, so the first pattern in order is the one reported.
	first := len(m.names)
	if i, ok := m.literalNames[base]; ok {
		first = i
	}
	for i, t := range m.names {
		if i == first {
			return t.text, true
		}
		if !isGlob && !t.glob {
			continue // looked up
		}
		if m.nameMatch(i, base) {
			return t.text, true
		}
		// ".e[!x]v" could expand to ".env" and "*.p*" to "key.pem": the
		// word's glob is met with the pattern's names (bash's globs skip
		// dot files unless the dot is written). Two globs are met only at
		// the pattern's example names ("x.pem", ".pem" for "*.pem"), or
		// every "*.go" would meet "id_rsa*"; the resolver expands the word
		// on disk, with the same glob engine, and judges what it finds.
		if isGlob {
			for _, ex := range m.examples(i) {
				if glob.Intersects(baseGlob, ex, true) {
					return t.text, true
				}
			}
		}
	}
	return "", false
}

// literalComps are the components of an absolute path without globs.
func literalComps(abs string) []glob.Pattern {
	var out []glob.Pattern
	for _, c := range strings.Split(strings.Trim(abs, "/"), "/") {
		out = append(out, glob.Compile(glob.Escape(c)))
	}
	return out
}

// reaches reports whether the path components w, from offset o, may name
// the pattern's components p or a path below them: each meets its
// counterpart. A path that ends early still reaches p when its last
// component holds a "*" (a directory a recursive reader would enter).
func reaches(w, p []glob.Pattern, o int) bool {
	i := 0
	for ; i < len(p) && o+i < len(w); i++ {
		if !glob.Intersects(w[o+i], p[i], true) {
			return false
		}
	}
	if i == len(p) {
		return true
	}
	return o+i > 0 && o+i == len(w) && strings.Contains(w[o+i-1].String(), "*")
}

// expandAll replaces every plain $NAME and ${NAME} of word with its value:
// the text's own static one, the environment's, or nothing. Other
// expansions ($1, ${X:-y}, $(...)) stay as written.
func (p Paths) expandAll(word string) string {
	return replaceVars(p.substitute(word), func(name string) (string, bool) { return p.Vars[name], true }, emptySpecial)
}

// emptySpecial is how many bytes at the start of s (which starts with
// "$") are a parameter that expands to nothing at the top of a text: $!
// (no job in the background yet), $@, $* and $1..$9 (no arguments),
// braced or not ("cat .env$!"); 0 for anything else.
func emptySpecial(s string) int {
	const empty = "!@*123456789"
	switch {
	case len(s) > 1 && strings.IndexByte(empty, s[1]) >= 0:
		return 2
	case len(s) > 3 && s[1] == '{' && s[3] == '}' && strings.IndexByte(empty, s[2]) >= 0:
		return 4
	}
	return 0
}

// replaceVars rewrites each plain $NAME and ${NAME} of word whose value
// says so (ok) with that value. A "$" that starts no name is handed to
// other, when set, which says how many bytes to drop there (0: none).
func replaceVars(word string, value func(name string) (string, bool), other func(s string) int) string {
	var b strings.Builder
	for i := 0; i < len(word); {
		if word[i] != '$' {
			b.WriteByte(word[i])
			i++
			continue
		}
		name, n := varAt(word[i:])
		if name != "" {
			if v, ok := value(name); ok {
				b.WriteString(v)
				i += n
				continue
			}
		} else if other != nil {
			if k := other(word[i:]); k > 0 {
				i += k
				continue
			}
		}
		b.WriteByte('$')
		i++
	}
	return b.String()
}

// expandVar replaces a leading $NAME or ${NAME} with its value from Vars.
func (p Paths) expandVar(word string) string {
	if len(word) < 2 || word[0] != '$' || p.Vars == nil {
		return word
	}
	rest, braced := word[1:], false
	if rest[0] == '{' {
		rest, braced = rest[1:], true
	}
	n := 0
	for n < len(rest) && (rest[n] == '_' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= 'a' && rest[n] <= 'z' || n > 0 && rest[n] >= '0' && rest[n] <= '9') {
		n++
	}
	name, after := rest[:n], rest[n:]
	if braced {
		if !strings.HasPrefix(after, "}") {
			return word
		}
		after = after[1:]
	}
	if name == "HOME" {
		return word // judged below, with Home
	}
	v, ok := p.Vars[name]
	if !ok || n == 0 || (after != "" && after[0] != '/') {
		return word
	}
	return v + after
}

// resolve makes word an absolute, cleaned path: "~" and $HOME become the
// home directory, $NAME its value in Vars, a relative word is taken from
// the working directory.
func (p Paths) resolve(word string) string {
	word = p.expandVar(p.substitute(word))
	switch {
	case word == "~" || word == "$HOME" || word == "${HOME}":
		word = p.Home
	case strings.HasPrefix(word, "~/"):
		word = p.Home + word[1:]
	case strings.HasPrefix(word, "$HOME/"):
		word = p.Home + word[5:]
	case strings.HasPrefix(word, "${HOME}/"):
		word = p.Home + word[7:]
	case strings.HasPrefix(word, "~+/"):
		word = p.Cwd + word[2:]
	case strings.HasPrefix(word, "~"):
		// ~user, ~- and the like name another home or directory, which a
		// pure function cannot look up: judge them as if they were this
		// home, so that ~root/.ssh is still a path to keys.
		if i := strings.IndexByte(word, '/'); i >= 0 {
			word = p.Home + word[i:]
		} else {
			word = p.Home
		}
	}
	if word == "" {
		return ""
	}
	if !filepath.IsAbs(word) {
		if p.Cwd == "" {
			return "/" + path.Clean(word)
		}
		word = p.Cwd + "/" + word
	}
	if strings.HasPrefix(strings.TrimLeft(word, "/"), "proc/") {
		// Before cleaning: /proc/self/cwd/.. is the working directory's
		// parent, not /proc/self.
		word = p.procPath(squeeze(word))
	}
	if !isClean(word) {
		word = path.Clean(word)
	}
	return word
}

// squeeze removes doubled slashes and "." components from an absolute
// path, leaving ".." where it is.
func squeeze(abs string) string {
	parts := strings.Split(abs, "/")
	out := parts[:0]
	for _, c := range parts {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return "/" + strings.Join(out, "/")
}

// procPath reads a /proc path as what it reaches: a thread's files are
// its process's (/proc/PID/task/TID/environ is /proc/PID/environ,
// /proc/thread-self is /proc/self), /proc/PID/root/X is /X, and
// /proc/self/cwd/X is X in the working directory (for another process,
// judged the same way: the pure gate cannot look).
func (p Paths) procPath(abs string) string {
	for i := 0; i < 4; i++ {
		parts := strings.SplitN(abs, "/", 6) // "", "proc", PID, what, ...
		if len(parts) < 4 || parts[1] != "proc" {
			return abs
		}
		rest := ""
		if len(parts) > 4 {
			rest = "/" + strings.Join(parts[4:], "/")
		}
		switch {
		case parts[2] == "thread-self":
			abs = "/proc/self/" + strings.Join(parts[3:], "/")
		case parts[3] == "task" && len(parts) >= 5:
			tail := ""
			if len(parts) == 6 {
				tail = "/" + parts[5]
			}
			abs = "/proc/" + parts[2] + tail
		case parts[3] == "root":
			return path.Clean("/" + rest)
		case parts[3] == "cwd" && p.Cwd != "":
			return path.Clean(p.Cwd + rest)
		default:
			return abs
		}
	}
	return abs
}

// isClean reports whether path.Clean would leave the absolute path p as
// it is, which is the common case and saves its allocation.
func isClean(p string) bool {
	if len(p) > 1 && p[len(p)-1] == '/' {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		rest := p[i+1:]
		if strings.HasPrefix(rest, "/") || rest == "." || rest == ".." ||
			strings.HasPrefix(rest, "./") || strings.HasPrefix(rest, "../") {
			return false
		}
	}
	return true
}

func under(p, dir string) bool {
	if dir == "" || !strings.HasPrefix(p, dir) {
		return false
	}
	return len(p) == len(dir) || p[len(dir)] == '/' || dir[len(dir)-1] == '/'
}

// nameMatch matches a file name against the name pattern m.names[i],
// with a fast path for the common shapes with one star and no other
// glob character: "*.pem", "id_rsa*", "service-account*.json".
func (m matcher) nameMatch(i int, base string) bool {
	t := m.names[i]
	v := t.value
	switch {
	case !t.glob:
		return base == v
	case strings.Count(v, "*") == 1 && !strings.ContainsAny(v, "?[\\"):
		pre, suf, _ := strings.Cut(v, "*")
		return len(base) >= len(pre)+len(suf) && strings.HasPrefix(base, pre) && strings.HasSuffix(base, suf)
	}
	return m.comps(nameClass, i)[0].Match(base)
}

// example turns a name pattern into a name it matches, writing star for
// each "*": "*.pem" into "x.pem" (star "x") or ".pem" (star ""), "id_rsa*"
// into "id_rsax" or "id_rsa", "[ab]c" into "ac".
func example(pattern, star string) string {
	b := make([]byte, 0, len(pattern))
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '*':
			b = append(b, star...)
		case '?':
			b = append(b, 'x')
		case '[':
			j := strings.IndexByte(pattern[i:], ']')
			if j > 1 {
				b = append(b, pattern[i+1])
				i += j
				continue
			}
			b = append(b, c)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// MatchPath reports whether the absolute, cleaned path abs names a
// self-protected pattern (check [CheckSelfProtect]) or a sensitive one
// ([CheckSensitive]), and which.
func (p Paths) MatchPath(abs string) (check Check, pattern string, ok bool) {
	self, sensitive := p.matchers()
	if pat, ok := self.match(abs, false); ok {
		return CheckSelfProtect, pat, true
	}
	if pat, ok := sensitive.match(abs, false); ok {
		return CheckSensitive, pat, true
	}
	return "", "", false
}

// NamePattern reports whether pat is a sensitive name pattern (".env",
// "*.pem"): a names-only program may list what it matches without
// reading it, unlike a directory of secrets ("~/.ssh").
func (p Paths) NamePattern(pat string) bool {
	_, sensitive := p.matchers()
	return sensitive.namePattern(pat)
}

// MatchSensitive is [Paths.MatchPath] for the sensitive patterns only.
func (p Paths) MatchSensitive(abs string) (pattern string, ok bool) {
	_, sensitive := p.matchers()
	return sensitive.match(abs, false)
}

// Resolve makes a word an absolute, cleaned path as the gate reads it:
// "~", "~+" and $HOME expanded, relative words taken from Cwd; "~user"
// is read as this home (only a caller that can look users up knows it).
func (p Paths) Resolve(word string) string { return p.resolve(word) }

// NetDevice reports whether a path is one of the network pseudo-files a
// program opens as a connection: bash's /dev/tcp/HOST/PORT and
// /dev/udp/HOST/PORT (a redirect to one), and gawk's /inet/tcp/...,
// /inet4/... and /inet6/... (a data file operand: a red team's "awk 1
// /inet/tcp/0/127.0.0.1/PORT" was judged a missing file, and reached a
// listener where a host ran it unconfined).
func NetDevice(p string) bool {
	c := path.Clean("/" + strings.TrimLeft(p, "/"))
	for _, dir := range []string{"/dev/tcp", "/dev/udp", "/inet", "/inet4", "/inet6"} {
		if c == dir || strings.HasPrefix(c, dir+"/") {
			return true
		}
	}
	return false
}
