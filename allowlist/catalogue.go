package allowlist

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	globpkg "github.com/agentgate/agentgate/internal/glob"
)

// Entry is one program (or program and subcommand, "git log") of the
// read-only catalogue: every flag it accepts, with what its value is, and
// the flags that make it write, delete, run programs or reach the network,
// listed only to say why a command using one asks. A flag the entry does
// not list asks: a program's next release can add one that writes.
type Entry struct {
	// Words are the program and its subcommands: {"git", "log"}.
	Words []string
	// Note says what the entry allows, for the person.
	Note string
	// Flags are the entry's flags, read (Use) or refused (Refuse).
	Flags []Flag
	// Operands says how the words that are not flags are read.
	Operands Operands
	// SingleDash marks programs whose long options take one dash
	// ("find -name", "tree -P"): a word is matched whole against the
	// flags, never split into a bundle of short flags.
	SingleDash bool
	// KeepFlags marks programs that do not end their options at "--"
	// (echo prints it): every word after it is still judged as a flag.
	KeepFlags bool
	// Numeric accepts "-NUM" (head -5, git log -3).
	Numeric bool
	// ExactFlags marks programs that match every flag as a whole word,
	// with no bundles or attached values (find, test).
	ExactFlags bool
	// OldStyle marks tar's first word, which may be a bundle of letters
	// without a dash ("tar tvf a.tar" is "tar -tvf a.tar").
	OldStyle bool
	// StopAtOperand ends the options at the first operand, as POSIX
	// getopt does: xargs's command and its flags follow.
	StopAtOperand bool
	// NamesOnly marks programs that print the names (and metadata) of
	// their operands, never their contents (ls, git ls-files, find
	// without -exec): an operand that names a secret is no read of it.
	// Files named by flag values are still judged (tree --infofile).
	NamesOnly bool
	// Walks is what every command of the entry reads as trees (rg reads
	// its operands' trees, diff a directory operand's files); flags add
	// theirs (see [Walk]).
	Walks Walk
	// Exec are flags that take a command up to a word ";" or "{} +"
	// (find -exec): the command is kept in [Call.Execs] for the Check to
	// judge, never read as the entry's own flags.
	Exec []string
	// Check, when set, judges what the table cannot: a sed script, a date
	// format, a find expression. It returns a refusal or nil.
	Check func(c *Call) *Refusal
	// Hazards are files or variables that make a command of the entry
	// do more than read (see [Hazards]).
	Hazards []Hazard
	// Pack names the opt-in pack the entry belongs to ("" for built-in
	// entries), and Sandbox the confinement its commands run in.
	Pack, Sandbox string
	// Example is a command the entry allows, used by the tests to try
	// every flag (the flag is put after the entry's words).
	Example string
	// Asks are commands of the entry that must ask, each for a word the
	// entry itself refuses: a flag it marks as writing, deleting, running
	// programs, reaching the network or printing secrets, an operand it
	// does not take (uniq's second, which is written), a value its Check
	// refuses. Where an entry refuses no flag, a flag its table does not
	// hold stands for the rest (often another system's spelling, "ls -@",
	// "stat -x", or a write-ish one, "--output=FILE"). Every entry has at
	// least one, of its own surface rather than a generic one, and
	// TestCatalogueAsks fails when one runs or asks for another reason:
	// they are what a reviewer reads to see what the entry keeps out. A
	// comment says why where the flag's note does not.
	Asks []string

	// shared are lists of flags the entry shares with others (git log's
	// diff flags, a program's global options), read after Flags when the
	// entry is first built: copying them into every entry at start-up
	// was a megabyte and a millisecond of every call, and a literal that
	// appends is built at start-up where one that names them is laid
	// out in the binary.
	shared [][]Flag

	once  sync.Once
	list  []Flag
	index map[string]*Flag
}

// Operands says how an entry reads the words that are not flags.
type Operands struct {
	// Lead is how many leading operands are patterns or strings, not
	// paths (grep's PATTERN). LeadUnless lists flags that give the
	// pattern instead (grep -e, -f): with one of them there is no lead.
	Lead       int
	LeadUnless []string
	// Strings marks every operand a string (echo, printf, seq).
	Strings bool
	// Max is the most operands allowed (0: any number); None allows none.
	Max  int
	None bool
}

// Effect is what a flag does.
type Effect int

const (
	// Reads: the flag only changes what is read or how it is shown.
	Reads Effect = iota
	// Writes a file or changes state.
	Writes
	// Deletes files or objects.
	Deletes
	// Runs another program or code.
	Runs
	// Network reaches another machine.
	Network
	// Secrets prints the environment, credentials or other processes'
	// secrets.
	Secrets
	// Unjudged: the catalogue does not judge this form; it asks.
	Unjudged
	// Forever: the command follows or repeats until it is stopped
	// (tail -f, free -s, kubectl get -w). It asks: through a hook or in
	// CI nobody is watching to stop it, and the agent waits.
	Forever
)

func (e Effect) String() string {
	return [...]string{"reads", "writes", "deletes", "runs programs", "network", "prints secrets", "not judged", "runs until stopped"}[e]
}

// Flag is one flag of an entry.
type Flag struct {
	// Names as written in the spec: "-n", "--line-number", "-name".
	Names []string
	// Value is the placeholder of the flag's value ("" when it takes
	// none), as the manuals write it; [KindOf] says what it is.
	Value string
	// Optional values are only taken attached ("--color=auto", "-n3").
	Optional bool
	// LastArg values are taken from the next word when there is one, and
	// are absent when the flag is the last word (git's
	// PARSE_OPT_LASTARG_DEFAULT: "git branch --merged [COMMIT]"). The spec
	// writes them "--merged=COMMIT?".
	LastArg bool
	// Bare are the names that take no value although the flag takes an
	// optional one: in "-c, --check[=HOW]" only the long name does, so
	// "-co" is -c and -o, never -c with the value "o".
	Bare []string
	// More are the placeholders of further words the flag takes
	// ("--arg NAME VALUE" takes VALUE too).
	More   []string
	Effect Effect
	Note   string
	// Walk is what the flag makes the program read beyond the files its
	// words name (grep -r reads its operands' trees); with WalkWhen, only
	// when the flag's value abbreviates that word (grep -d recurse).
	Walk     Walk
	WalkWhen string

	// parts are the flags of a spec that groups several under one note
	// ("-A, --after-context=N, --no-context"): each with its own value.
	// The entry reads them one by one (see [Entry.FlagList]).
	parts []Flag

	// spec is the flag as Use and Refuse were given it, read when its
	// entry is first used: the catalogue holds thousands of flags, and
	// one command needs the few entries it names (reading them all at
	// start-up was a third of every call's time).
	spec string
}

// Spec gives the flag as a manual writes it: "-n, --line-number",
// "-m, --max-count=N", "--color[=WHEN]", "-name PATTERN".
func (f Flag) Spec() string {
	s := strings.Join(f.Names, ", ")
	switch {
	case f.Value == "":
	case f.Optional:
		s += "[=" + f.Value + "]"
	case len(f.More) > 0:
		s += " " + f.Value + " " + strings.Join(f.More, " ")
	case strings.HasPrefix(f.Names[len(f.Names)-1], "--"):
		s += "=" + f.Value
	default:
		s += " " + f.Value
	}
	return s
}

// IsPath reports whether the flag's value is judged as a path, whatever
// it is (the reference's column); [Flag.JudgedAsPath] decides for a value.
func (f Flag) IsPath() bool { return f.Value != "" && f.Kind().judgedAsPath() }

// JudgedAsPath reports whether value, given to the flag, is judged as a
// path: a number's value is one unless it is a number.
func (f Flag) JudgedAsPath(value string) bool { return KindOf(f.Value).JudgesAsPath(value) }

// Kind is what the flag's value is.
func (f Flag) Kind() ValueKind { return KindOf(f.Value) }

// ValueKind is what a flag's value, or a further word it takes, is. The
// catalogue writes a placeholder as the manuals do (FILE, N, PATTERN);
// placeholderKinds gives each its kind, once, and every check reads the
// kind, never the word.
type ValueKind int

const (
	// NoValue: the flag takes none.
	NoValue ValueKind = iota
	// PathValue names a file or directory, or may: judged against the
	// protected and sensitive paths. A placeholder whose meaning varies
	// between programs (SPEC, KEY, TEMPLATE) is one.
	PathValue
	// PatternValue is matched against names or text, never opened.
	PatternValue
	// StringValue is text the program shows or compares, never opens.
	StringValue
	// NumberValue is a number; a word that is not one is judged as a
	// path, so a placeholder wrongly typed here costs nothing.
	NumberValue
	// URLValue and HostValue name another machine. They are judged as
	// paths too (file:// opens a file), and no flag taking one may only
	// read (TestNetworkValuesAreRefused): which host a command reaches is
	// the catalogue's to fix, never the agent's.
	URLValue
	HostValue
)

func (k ValueKind) String() string {
	return [...]string{"none", "a path", "a pattern", "a string", "a number", "a URL", "a host"}[k]
}

// judgedAsPath reports whether a value of the kind may be judged as a
// path (a number's is when it is not a number).
func (k ValueKind) judgedAsPath() bool { return k != NoValue && k != PatternValue && k != StringValue }

// JudgesAsPath reports whether value, of the kind, is judged as a path.
func (k ValueKind) JudgesAsPath(value string) bool {
	if k == NumberValue {
		return !isNumber(strings.TrimPrefix(strings.TrimPrefix(value, "-"), "+"))
	}
	return k.judgedAsPath()
}

// KindOf is the kind of a placeholder. One the table does not hold is a
// path (TestEveryPlaceholderIsTyped fails on it, so that a new entry's
// author says what its words are).
func KindOf(placeholder string) ValueKind {
	if placeholder == "" {
		return NoValue
	}
	if k, ok := placeholderKinds[placeholder]; ok {
		return k
	}
	return PathValue
}

// placeholderKinds types every placeholder the catalogue uses. Numbers
// are checked to be numbers; a kind chosen wrongly between path and the
// others errs only where a path is called a string, so a word is a
// string or a pattern here only when no program of the catalogue opens
// it.
var placeholderKinds = map[string]ValueKind{
	// Files and directories, and words that are one for some programs.
	"FILE": PathValue, "DIR": PathValue, "PATH": PathValue, "ORDERFILE": PathValue, "LIB": PathValue,
	"PATH:CONTENT": PathValue, "TEMPLATE": PathValue, "TTY": PathValue, "REPO": PathValue, "SPEC": PathValue,
	"PROGRAM": PathValue, "PROG": PathValue, "COMMAND": PathValue, "PAGER": PathValue,
	"OPTIONS": PathValue, "FLAGS": PathValue, "PARAMS": PathValue, "DEBUGOPTS": PathValue,
	"KEY": PathValue, "KEYDEF": PathValue, "VALUE": PathValue, "QUERY": PathValue, "SELECTOR": PathValue,
	"LIST": PathValue, "FIELD": PathValue, "FIELDS": PathValue, "PREFIX": PathValue, "SUFFIX": PathValue,
	"REPLSTR": PathValue, "BASEHREF": PathValue, "EOF": PathValue, "MARK": PathValue, "PART": PathValue,
	"SECTION": PathValue, "TOKEN": PathValue, "PASSWORD": PathValue, "ID": PathValue, "SID": PathValue, "OBJECT": PathValue,
	// Revisions: "HEAD:.env" names a file of the tree, so they are paths.
	"BRANCH": PathValue, "COMMIT": PathValue, "REF": PathValue, "REV": PathValue, "SHA": PathValue,
	"TREE": PathValue, "BLOB": PathValue, "RANGE": PathValue,
	// Words a program takes from a fixed set, or a name of its own: not
	// opened, but judged as paths all the same, since a misread costs
	// only a question.
	"WHEN": PathValue, "WORD": PathValue, "STYLE": PathValue, "TYPE": PathValue, "KIND": PathValue,
	"KINDS": PathValue, "LEVEL": PathValue, "MODE": PathValue, "MODES": PathValue, "HOW": PathValue,
	"WHERE": PathValue, "ORDER": PathValue, "STATE": PathValue, "STATUS": PathValue, "ACTION": PathValue,
	"ALGO": PathValue, "ENCODING": PathValue, "ENC": PathValue, "FMT": PathValue, "GROUP": PathValue,
	"USER": PathValue, "VERSION": PathValue, "TRIPLE": PathValue, "CHAR": PathValue, "COLUMN": PathValue,
	"METHOD": PathValue, "HUMAN": PathValue, "BOOL": PathValue, "CONDITION": PathValue, "REASON": PathValue,
	"FLAG": PathValue, "NAMES": PathValue, "BARRIER": PathValue,
	"DATE": PathValue, "TIME": PathValue, "DURATION": PathValue, "YYYY-MM": PathValue, "YYYY-MM-DD": PathValue,
	// Patterns and strings: never opened by the programs that take them.
	"PATTERN": PatternValue, "REGEX": PatternValue, "GLOB": PatternValue,
	"STRING": StringValue, "FORMAT": StringValue, "NAME": StringValue, "TEXT": StringValue, "EXPR": StringValue,
	"CHARS": StringValue, "SEP": StringValue, "FILTER": StringValue, "LABEL": StringValue,
	"SLOT": StringValue, "VENDOR": StringValue,
	// Numbers.
	"N": NumberValue, "NUM": NumberValue, "COLS": NumberValue, "COLUMNS": NumberValue, "WIDTH": NumberValue,
	"SIZE": NumberValue, "PID": NumberValue, "UID": NumberValue, "FILENUM": NumberValue, "RADIX": NumberValue,
	"SKIP": NumberValue,
	// Other machines.
	"URL": URLValue, "HOST": HostValue,
}

// Walk is what a flag, or a whole entry, makes its program read beyond
// the files its words name. The resolver walks what the call's [Call.Walk]
// says, and nothing it knows of a program by name: a recursion the
// catalogue does not declare is one the gate would not see, so every
// program that recurses says so here (TestWalkersDeclareTheirWalk).
type Walk uint8

const (
	// Tree: each path operand that is a directory is read as a whole
	// tree, hidden files included (grep -r, zcat -r, diff).
	Tree Walk = 1 << iota
	// Dot: with no path operand, the tree read is "." (grep -r, rg).
	Dot
	// Root: the flag's value is read as an operand is (diff --to-file).
	Root
	// Follows: the walk follows symbolic links (grep -R, rg -L).
	Follows
	// Outside: a path operand outside the work tree makes every operand
	// a tree (git diff, which compares files outside a repository as
	// --no-index does).
	Outside
	// Lists: the flag's value is a file that names the files to read
	// (find -files0-from, tar -T, xargs -a), which the gate cannot see.
	Lists
)

// String says what the walk reads, for the reference.
func (w Walk) String() string {
	var out []string
	for _, b := range []struct {
		bit  Walk
		says string
	}{{Tree, "reads the trees of its directory operands"}, {Dot, "\".\" when there is none"}, {Root, "reads its value as an operand"},
		{Follows, "follows symlinks"}, {Outside, "reads operands outside the work tree as trees"}, {Lists, "reads the names of the files to open from its value"}} {
		if w&b.bit != 0 {
			out = append(out, b.says)
		}
	}
	return strings.Join(out, ", ")
}

// Walks is a flag that only reads, and makes its program read what w
// says.
//
// Like [Use] and [Refuse] it only returns a literal, which the compiler
// folds into the table that holds it: a flag changed after it is made
// (a method that set Walk did) is built by code at every start-up,
// writing to every page of the tables it is in.
func Walks(w Walk, spec, note string) Flag {
	return Flag{spec: spec, Effect: Reads, Note: note, Walk: w}
}

// WalksWhen is [Walks] when the flag's value abbreviates word (GNU's
// argmatch: "grep -d rec").
func WalksWhen(word string, w Walk, spec, note string) Flag {
	return Flag{spec: spec, Effect: Reads, Note: note, Walk: w, WalkWhen: word}
}

// walks reports whether a use of the flag with value makes the walk.
func (f *Flag) walks(value string) bool {
	if f.Walk == 0 {
		return false
	}
	// Two letters: "re" could be read or recurse, and errs to a walk.
	return f.WalkWhen == "" || len(value) >= 2 && strings.HasPrefix(f.WalkWhen, value)
}

// Walk is what the call reads as trees: the walk's kind, and its roots
// (the path operands, the values of Root flags, "." for Dot when there
// is no operand). w is 0 when it reads no tree.
func (c *Call) Walk() (w Walk, roots []string) {
	if c.Entry != nil {
		w = c.Entry.Walks
	}
	var values []string
	for _, u := range c.Flags {
		if u.Flag == nil || !u.Flag.walks(u.Value) {
			continue
		}
		w |= u.Flag.Walk
		if u.Flag.Walk&Root != 0 && u.HasValue {
			values = append(values, u.Value)
		}
	}
	if w &^= Lists; w&(Tree|Outside) == 0 {
		return 0, nil
	}
	lead := 0
	if c.Entry != nil && !c.Has(c.Entry.Operands.LeadUnless...) {
		lead = c.Entry.Operands.Lead
	}
	if c.Entry == nil || !c.Entry.Operands.Strings {
		roots = append(roots, c.Operands[min(lead, len(c.Operands)):]...)
	}
	if len(roots) == 0 && w&Dot != 0 {
		roots = []string{"."}
	}
	return w, append(roots, values...)
}

// MayWalk is what a command of argv's program may read as trees: what
// the entries for it, and their flags, declare (0 when none does). A
// command the catalogue cannot read (a user's rule allowed it) is then
// walked at its widest: every word a root, "." too where a walk may
// start there.
func MayWalk(argv []string) Walk {
	var w Walk
	for _, e := range entriesOf(argv) {
		w |= e.Walks
		for _, f := range e.FlagList() {
			w |= f.Walk
		}
	}
	return w &^ Lists
}

// entriesOf are the entries that declare a walk for argv's program whose
// words argv holds in order (git diff for "git -P diff ~").
func entriesOf(argv []string) []*Entry {
	if len(argv) == 0 {
		return nil
	}
	return holding(argv, walkers(progName(argv[0])))
}

// Describes reports whether the catalogue has an entry for argv's program
// whose words argv holds in order ("tar" for "/usr/bin/tar -cf - .";
// none for "git add .", whose git has entries for other subcommands
// only), walking or not. It builds no flag table.
func Describes(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	return len(holding(argv, entriesByProgram.get()[progName(argv[0])])) > 0
}

func progName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// holding are the entries among es whose words after the program argv
// holds in order.
func holding(argv []string, es []*Entry) []*Entry {
	var out []*Entry
	for _, e := range es {
		at := 1
		for _, w := range e.Words[1:] {
			i := slices.Index(argv[at:], w)
			if i < 0 {
				at = -1
				break
			}
			at += i + 1
		}
		if at >= 0 {
			out = append(out, e)
		}
	}
	return out
}

// Lists is the first flag of the call that names the files to read in
// a file the gate cannot see (see [Lists]), or "".
func (c *Call) Lists() string {
	for _, u := range c.Flags {
		if u.Flag != nil && u.Flag.Walk&Lists != 0 {
			return u.Name
		}
	}
	return ""
}

// MayList is, for a command the catalogue cannot read (a user's rule
// allowed it), a word that may be a flag naming the files to read in a
// file: any spelling of one that an entry of its program declares (a
// long name or an abbreviation of it, a short letter anywhere in a
// bundle, in tar's dashless first word too), and the long names GNU
// programs use for it. It errs towards finding one.
func MayList(argv []string) (string, bool) {
	longs := []string{"--files0-from", "--files-from", "--arg-file"}
	var shorts []byte
	exact := map[string]bool{} // names of flags that are not lists: getopt_long takes an exact name first
	oldStyle := false
	for _, e := range entriesOf(argv) {
		oldStyle = oldStyle || e.OldStyle
		for _, f := range e.FlagList() {
			for _, n := range f.Names {
				switch {
				case f.Walk&Lists == 0:
					exact[n] = true
				case len(n) == 2 && n[0] == '-':
					shorts = append(shorts, n[1])
				default:
					longs = append(longs, n)
				}
			}
		}
	}
	for i, w := range argv[min(1, len(argv)):] {
		name, _, _ := strings.Cut(w, "=")
		for _, l := range longs {
			if name == l || len(name) >= 3 && strings.HasPrefix(name, "--") && strings.HasPrefix(l, name) && !exact[name] {
				return name, true
			}
		}
		bundle := strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") || oldStyle && i == 0 && !strings.HasPrefix(w, "-")
		if j := strings.IndexAny(w, string(shorts)); bundle && j >= 0 && len(shorts) > 0 {
			return "-" + w[j:j+1], true
		}
	}
	return "", false
}

// entriesByProgram are the entries of the catalogue, built in and in
// packs, by their program's name. Only the names are read: no flag table
// is built.
var entriesByProgram = &onceValue[map[string][]*Entry]{make: func() map[string][]*Entry {
	m := map[string][]*Entry{}
	add := func(es []*Entry) {
		for _, e := range es {
			if len(e.Words) > 0 {
				m[e.Words[0]] = append(m[e.Words[0]], e)
			}
		}
	}
	add(builtin)
	for _, p := range packs.get() {
		add(p.Entries)
	}
	return m
}}

var (
	walkersMu sync.Mutex
	walkersOf = map[string][]*Entry{}
)

// walkers are the entries of prog that declare a walk, built in or in
// packs. Telling needs their flag tables: they are built for prog on its
// first call, and for no other program (building every walking entry's
// table at the first call was most of what MayWalk cost).
func walkers(prog string) []*Entry {
	walkersMu.Lock()
	defer walkersMu.Unlock()
	if ws, ok := walkersOf[prog]; ok {
		return ws
	}
	var out []*Entry
	for _, e := range entriesByProgram.get()[prog] {
		if e.Walks != 0 || slices.ContainsFunc(e.FlagList(), func(f Flag) bool { return f.Walk != 0 }) {
			out = append(out, e)
		}
	}
	walkersOf[prog] = out
	return out
}

// Use is a flag that only reads.
func Use(spec, note string) Flag {
	return Flag{spec: spec, Effect: Reads, Note: note}
}

// Refuse is a flag that makes the command ask, with what it does.
func Refuse(e Effect, spec, note string) Flag {
	return Flag{spec: spec, Effect: e, Note: note}
}

// parseSpec reads "-m, --max-count=N", "--color[=WHEN]", "-name PATTERN",
// and specs that group several flags under one note,
// "--context-separator=SEP, --no-context-separator".
//
// Every name takes the value written after it, and none when none is
// written, with one exception, the manuals' own: a one-letter name
// written just before a long name with a required value is that flag's
// short spelling and takes the value too ("-m, --max-count=N"). One value
// read for a whole group once let a switch eat the next word, so that
// "rg --no-context-separator SECRET .env" took .env for the pattern.
func parseSpec(spec string, e Effect, note string) Flag {
	names := strings.Split(spec, ", ")
	var parts []Flag
	for i := 0; i < len(names); i++ {
		run := []string{names[i]}
		if isShort(names[i]) && i+1 < len(names) && requiredValue(names[i+1]) {
			run = append(run, names[i+1])
			i++
		}
		f := parseRun(run)
		f.Effect, f.Note = e, note
		parts = append(parts, f)
	}
	// Runs that agree (all bare, or the same value) are one flag.
	merged := parts[:1]
	for _, p := range parts[1:] {
		last := &merged[len(merged)-1]
		if p.Value == "" && last.Value == "" && !last.Optional && !p.Optional {
			last.Names = append(last.Names, p.Names...)
			continue
		}
		merged = append(merged, p)
	}
	f := merged[0]
	if len(merged) > 1 {
		f.parts = merged
	}
	return f
}

// isShort reports a one-letter name, "-m".
func isShort(name string) bool { return len(name) == 2 && name[0] == '-' && name[1] != '-' }

// requiredValue reports a long name with a required value, "--max-count=N".
func requiredValue(n string) bool {
	i := strings.IndexAny(n, "=[ ")
	return strings.HasPrefix(n, "--") && i > 0 && n[i] != '['
}

// parseRun reads the names of one flag.
func parseRun(names []string) Flag {
	var f Flag
	for _, n := range names {
		name, value := n, ""
		if i := strings.IndexAny(n, "=[ "); i > 0 {
			name, value = n[:i], n[i:]
		}
		switch {
		case strings.HasPrefix(value, "[="):
			f.Value, f.Optional = strings.TrimSuffix(value[2:], "]"), true
		case value == "":
			f.Bare = append(f.Bare, name)
		default:
			vs := strings.Fields(value[1:])
			f.Value, f.More = vs[0], vs[1:]
			if v, ok := strings.CutSuffix(f.Value, "?"); ok {
				f.Value, f.LastArg = v, true
			}
		}
		f.Names = append(f.Names, name)
	}
	if !f.Optional {
		f.Bare = nil
	}
	return f
}

// Refusal says why a command of an entry asks.
type Refusal struct {
	// Word is the argument that asks.
	Word string
	// Why says it for the person: "writes the result to a file".
	Why string
}

func (r *Refusal) Error() string { return fmt.Sprintf("%s: %s", r.Word, r.Why) }

func refuse(word, format string, args ...any) *Refusal {
	return &Refusal{Word: word, Why: fmt.Sprintf(format, args...)}
}

// FlagUse is a flag found in a command, with its value.
type FlagUse struct {
	Flag *Flag
	// Name is the flag as matched ("--max-count", "-m").
	Name     string
	Value    string
	HasValue bool
}

// Call is a command parsed against its entry.
type Call struct {
	Entry    *Entry
	Flags    []FlagUse
	Operands []string
	// Paths are the words and flag values judged as paths; Strings are
	// those judged as patterns or strings.
	Paths, Strings []string
	// Dir, when set, is the directory the command runs in ("git -C DIR").
	Dir string
	// Execs are the commands of the entry's Exec flags, without their
	// terminator.
	Execs [][]string
}

// Has reports whether the call uses the flag with any of names.
func (c *Call) Has(names ...string) bool {
	for _, u := range c.Flags {
		for _, n := range names {
			if slices.Contains(u.Flag.Names, n) {
				return true
			}
		}
	}
	return false
}

// Values returns the values of a flag, by any of its names.
func (c *Call) Values(name string) []string {
	var out []string
	for _, u := range c.Flags {
		if u.HasValue && slices.Contains(u.Flag.Names, name) {
			out = append(out, u.Value)
		}
	}
	return out
}

// FlagList returns the entry's flags one by one: a spec that groups
// several flags under one note gives each its own (see [parseSpec]).
// Every reading of the entry's flags goes through it.
func (e *Entry) FlagList() []Flag {
	e.build()
	return e.list
}

func (e *Entry) build() {
	e.once.Do(func() {
		unless := e.unlessDeclared()
		n := len(e.Flags) + len(unless)
		for _, fs := range e.shared {
			n += len(fs)
		}
		// One list, grown once (a spec of several flags adds a few):
		// building git status's was 50 kB of every hooked git status.
		list := expandFlags(make([]Flag, 0, n+n/4), e.Flags)
		for _, fs := range e.shared {
			list = expandFlags(list, fs)
		}
		declared := len(list)
		list = expandFlags(list, unless)
		index := make(map[string]*Flag, 2*len(list))
		add := func(i int) {
			for _, name := range list[i].Names {
				if index[name] == nil {
					index[name] = &list[i]
				}
			}
		}
		for i := range declared {
			add(i)
		}
		// The flags added unless declared: each only where no flag of
		// the entry's own has one of its names.
		kept := list[:declared]
		for _, f := range list[declared:] {
			if !slices.ContainsFunc(f.Names, func(n string) bool { return index[n] != nil }) {
				kept = append(kept, f)
			}
		}
		for i := declared; i < len(kept); i++ {
			add(i)
		}
		e.list, e.index = kept, index
	})
}

// expandFlags appends flags to out one by one, the specs read: a spec
// that groups several flags under one note gives each its own.
func expandFlags(out, flags []Flag) []Flag {
	for _, f := range flags {
		if f.spec != "" {
			walk, when := f.Walk, f.WalkWhen
			f = parseSpec(f.spec, f.Effect, f.Note)
			f.Walk, f.WalkWhen = walk, when
			for i := range f.parts {
				f.parts[i].Walk, f.parts[i].WalkWhen = walk, when
			}
		}
		if f.parts == nil {
			out = append(out, f)
			continue
		}
		out = append(out, f.parts...)
	}
	return out
}

func (e *Entry) flagIndex() map[string]*Flag {
	e.build()
	return e.index
}

// Name is the entry's words, joined.
func (e *Entry) Name() string { return strings.Join(e.Words, " ") }

// Parse reads args (the words after the entry's words) against the
// entry: every flag must be known and only read, the operands must fit.
// It returns the call, or the refusal that makes the command ask.
func (e *Entry) Parse(args []string) (*Call, *Refusal) {
	c := &Call{Entry: e}
	// Old style with two letters that take values ("tfb a.tar 20") gives
	// them the next words in turn, unlike a dash bundle: left unconverted,
	// it is an operand, and the Check asks.
	if e.OldStyle && len(args) > 0 && args[0] != "" && !strings.HasPrefix(args[0], "-") &&
		len(args[0])-len(strings.Trim(args[0], "fbTXCIFgVLNK")) < 2 && strings.Count(args[0], "f")+strings.Count(args[0], "b") < 2 {
		args = append([]string{"-" + args[0]}, args[1:]...)
	}
	if _, r := e.scan(c, args, false); r != nil {
		return nil, r
	}
	o := e.Operands
	switch {
	case o.None && len(c.Operands) > 0:
		return nil, refuse(c.Operands[0], "%s takes no operand here", e.Name())
	case o.Max > 0 && len(c.Operands) > o.Max:
		return nil, refuse(c.Operands[o.Max], "%s takes at most %d operand(s) here; another may be an output file", e.Name(), o.Max)
	}
	lead := o.Lead
	if c.Has(o.LeadUnless...) {
		lead = 0
	}
	for i, w := range c.Operands {
		if o.Strings || i < lead {
			c.Strings = append(c.Strings, w)
		} else {
			c.Paths = append(c.Paths, w)
		}
	}
	if e.Check != nil {
		if r := e.Check(c); r != nil {
			return nil, r
		}
	}
	return c, nil
}

// scan reads the flags and operands of args into c. With stop, it stops
// at the first operand (a subcommand) and returns its index.
func (e *Entry) scan(c *Call, args []string, stop bool) (int, *Refusal) {
	idx := e.flagIndex()
	ended := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case stop && (w == "--" || !strings.HasPrefix(w, "-") || w == "-"):
			return i, nil
		case ended || w == "-" || !strings.HasPrefix(w, "-"):
			c.Operands = append(c.Operands, w)
			ended = ended || e.StopAtOperand
			continue
		case w == "--" && e.KeepFlags:
			c.Operands = append(c.Operands, w)
			continue
		case w == "--":
			ended = true
			continue
		case e.Numeric && isNumber(w[1:]):
			continue
		case slices.Contains(e.Exec, w):
			j := i + 1
			for j < len(args) && args[j] != ";" && !(args[j] == "+" && j > i+1 && args[j-1] == "{}") {
				j++
			}
			if j >= len(args) || j == i+1 {
				return i, refuse(w, "lacks its command and its ; or {} +")
			}
			c.Execs = append(c.Execs, args[i+1:j])
			i = j
			continue
		}
		var uses []FlagUse
		var r *Refusal
		var next bool
		switch {
		case e.ExactFlags:
			uses, next, r = e.exact(idx, w, i+1 < len(args))
		case e.SingleDash || strings.HasPrefix(w, "--"):
			uses, next, r = e.long(idx, w, i+1 < len(args))
		default:
			uses, next, r = e.short(idx, w, i+1 < len(args))
		}
		if r != nil {
			return i, r
		}
		if next {
			i++
			uses[len(uses)-1].Value, uses[len(uses)-1].HasValue = args[i], true
		}
		if n := len(uses); n > 0 {
			for _, m := range uses[n-1].Flag.More {
				if i++; i >= len(args) {
					return i, refuse(w, "lacks its %s", m)
				}
				if !KindOf(m).JudgesAsPath(args[i]) {
					c.Strings = append(c.Strings, args[i])
				} else {
					c.Paths = append(c.Paths, args[i])
				}
			}
		}
		for _, u := range uses {
			if u.Flag.Effect != Reads {
				return i, refuse(w, "%s (%s)", u.Flag.Note, u.Flag.Effect)
			}
			if u.HasValue {
				if u.Flag.JudgedAsPath(u.Value) {
					c.Paths = append(c.Paths, u.Value)
				} else {
					c.Strings = append(c.Strings, u.Value)
				}
			}
		}
		c.Flags = append(c.Flags, uses...)
	}
	return len(args), nil
}

// long matches a word "--name", "--name=value", an unambiguous
// abbreviation "--na", or for SingleDash entries "-name".
func (e *Entry) long(idx map[string]*Flag, w string, more bool) ([]FlagUse, bool, *Refusal) {
	name, value, eq := strings.Cut(w, "=")
	f := idx[name]
	if f == nil && strings.HasPrefix(name, "--") && len(name) > 2 {
		// GNU getopt_long and git accept any unambiguous abbreviation; an
		// abbreviation of a refused flag is refused, whatever else it
		// could stand for.
		var found []*Flag
		list := e.FlagList()
		for i := range list {
			for _, n := range list[i].Names {
				if strings.HasPrefix(n, name) && !slices.Contains(found, &list[i]) {
					found = append(found, &list[i])
				}
			}
		}
		for _, g := range found {
			if g.Effect != Reads {
				return nil, false, refuse(w, "may abbreviate %s, which %s (%s)", g.Names[len(g.Names)-1], g.Note, g.Effect)
			}
		}
		switch len(found) {
		case 1:
			f = found[0]
		case 0:
		default:
			return nil, false, refuse(w, "is an ambiguous abbreviation")
		}
	}
	if f == nil {
		if e.SingleDash && !strings.HasPrefix(w, "--") && !eq {
			// find-style programs still take short bundles ("tree -aL 2").
			if uses, next, r := e.short(idx, w, more); r == nil {
				return uses, next, nil
			}
		}
		return nil, false, refuse(w, "is not a flag %s is known to only read with", e.Name())
	}
	u := FlagUse{Flag: f, Name: name}
	switch {
	case eq && (f.Value == "" || slices.Contains(f.Bare, name)):
		return nil, false, refuse(w, "gives a value to a flag that takes none")
	case eq:
		u.Value, u.HasValue = value, true
		return []FlagUse{u}, false, nil
	case f.Value != "" && !f.Optional:
		if !more {
			if f.LastArg {
				return []FlagUse{u}, false, nil
			}
			return nil, false, refuse(w, "lacks its value")
		}
		return []FlagUse{u}, true, nil
	}
	return []FlagUse{u}, false, nil
}

// short matches a bundle of one-letter flags, "-nr", "-m5", "-m 5".
func (e *Entry) short(idx map[string]*Flag, w string, more bool) ([]FlagUse, bool, *Refusal) {
	var uses []FlagUse
	for j := 1; j < len(w); j++ {
		name := "-" + w[j:j+1]
		f := idx[name]
		if f == nil || w[j] == '-' {
			return nil, false, refuse(w, "holds %s, which is not a flag %s is known to only read with", name, e.Name())
		}
		u := FlagUse{Flag: f, Name: name}
		if f.Value != "" && !slices.Contains(f.Bare, name) {
			if rest := w[j+1:]; rest != "" {
				u.Value, u.HasValue = rest, true
				return append(uses, u), false, nil
			}
			if f.Optional {
				return append(uses, u), false, nil
			}
			if !more {
				return nil, false, refuse(w, "lacks the value of %s", name)
			}
			return append(uses, u), true, nil
		}
		uses = append(uses, u)
	}
	return uses, false, nil
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// FlagRisk reports whether a word that bash expands into a flag could make
// a command of the entry do more than read: the entry lists flags that
// write, delete, run programs or reach the network, or judges its
// operands with a Check. For the others, every flag the program has was
// checked to only read, so an expansion can only be a read flag or one
// the program rejects.
func (e *Entry) FlagRisk() bool {
	if e.Check != nil {
		return true
	}
	for _, f := range e.FlagList() {
		if f.Effect != Reads {
			return true
		}
	}
	return false
}

// exact matches a whole word against the flags of an ExactFlags entry.
func (e *Entry) exact(idx map[string]*Flag, w string, more bool) ([]FlagUse, bool, *Refusal) {
	f := idx[w]
	if f == nil {
		return nil, false, refuse(w, "is not a flag %s is known to only read with", e.Name())
	}
	u := FlagUse{Flag: f, Name: w}
	if f.Value == "" || f.Optional {
		return []FlagUse{u}, false, nil
	}
	if !more {
		return nil, false, refuse(w, "lacks its value")
	}
	return []FlagUse{u}, true, nil
}

// GlobRisk reports whether a word that bash expands from glob, a glob
// at the start of the word, could become a flag that makes a command of
// the entry do more than read. For an ExactFlags entry only a refused
// flag's whole name matters ("*.py" can never be "-delete"); otherwise
// any expansion might, when the entry has such flags (see FlagRisk).
func (e *Entry) GlobRisk(glob string) bool {
	if !e.FlagRisk() {
		return false
	}
	// find's Check judges only its -exec commands: a glob that could
	// become "-exec" is as risky as one that could become "-delete".
	if !e.ExactFlags || e.Check != nil && len(e.Exec) == 0 {
		return true
	}
	names := slices.Clone(e.Exec)
	for _, f := range e.FlagList() {
		if f.Effect != Reads {
			names = append(names, f.Names...)
		}
	}
	g := globpkg.CompileValue(glob)
	for _, n := range names {
		if g.Match(n) {
			return true
		}
	}
	return false
}
