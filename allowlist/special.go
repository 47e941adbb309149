package allowlist

import (
	"slices"
	"strings"
)

// Programs whose operands are a small language of their own: find's
// expression, sed's script, date's +FORMAT, jq's filter, ps's BSD letters.

// findFlags are GNU find's options, tests, actions and operators (checked
// against find(1) of findutils 4.9), with the BSD-only forms noted.
var findFlags = []Flag{
	Use("-H", "follows operand symlinks"), Use("-L", "follows symlinks"), Use("-P", "never follows symlinks"),
	Use("-D DEBUGOPTS", "debug output"), Use("-O0, -O1, -O2, -O3", "optimisation level"),
	Use("-E", "BSD: extended regexps"), Use("-X", "BSD: warns on xargs-unsafe names"), Use("-s", "BSD: sorted traversal"),
	Use("-x", "BSD: one file system"), Use("-f PATH", "BSD: a starting point"),
	Use("-daystart", "times from the start of today"), Use("-follow", "follows symlinks"),
	Use("-regextype TYPE", "regex dialect"), Use("-warn", "warnings"), Use("-nowarn", "no warnings"),
	Use("-depth", "contents before the directory"), Use("-d", "BSD: -depth"),
	Walks(Lists, "-files0-from FILE", "reads starting points from FILE"), Use("-help, --help", "prints help"),
	Use("-ignore_readdir_race", "ignores vanished files"), Use("-noignore_readdir_race", "reports vanished files"),
	Use("-maxdepth N", "depth limit"), Use("-mindepth N", "minimum depth"), Use("-mount", "one file system"),
	Use("-noleaf", "no leaf optimisation"), Use("-xdev", "one file system"), Use("-version, --version", "prints the version"),
	Use("-amin N", "accessed minutes ago"), Use("-anewer FILE", "accessed after FILE changed"), Use("-atime N", "accessed days ago"),
	Use("-cmin N", "changed minutes ago"), Use("-cnewer FILE", "changed after FILE"), Use("-context PATTERN", "SELinux context"),
	Use("-ctime N", "changed days ago"), Use("-empty", "empty"), Use("-executable", "executable"), Use("-false", "false"),
	Use("-fstype TYPE", "file system type"), Use("-gid N", "group id"), Use("-group NAME", "group"),
	Use("-ilname PATTERN", "symlink target, any case"), Use("-iname PATTERN", "name, any case"), Use("-inum N", "inode"),
	Use("-ipath PATTERN", "path, any case"), Use("-iregex PATTERN", "path regex, any case"),
	Use("-iwholename PATTERN", "path, any case"), Use("-links N", "link count"), Use("-lname PATTERN", "symlink target"),
	Use("-mmin N", "modified minutes ago"), Use("-mtime N", "modified days ago"), Use("-name PATTERN", "name"),
	Use("-newer FILE", "modified after FILE"), Use("-nogroup", "no group"), Use("-nouser", "no user"),
	Use("-path PATTERN", "path"), Use("-perm MODE", "permissions"), Use("-readable", "readable"),
	Use("-regex PATTERN", "path regex"), Use("-samefile FILE", "same inode as FILE"), Use("-size N", "size"),
	Use("-true", "true"), Use("-type TYPE", "type"), Use("-uid N", "user id"), Use("-used N", "accessed days after change"),
	Use("-user NAME", "user"), Use("-wholename PATTERN", "path"), Use("-writable", "writable"), Use("-xtype TYPE", "type after symlinks"),
	Use("-ls", "lists"), Use("-print", "prints"), Use("-print0", "prints with NUL"), Use("-printf FORMAT", "prints a format"),
	Use("-prune", "skips a directory"), Use("-quit", "stops"), Use("-not", "negation"), Use("-a, -and", "and"),
	Use("-o, -or", "or"),
	Refuse(Deletes, "-delete", "deletes files"),
	Refuse(Runs, "-ok", "runs a program for each file, after asking on the terminal"),
	Refuse(Runs, "-okdir", "runs a program for each file, after asking on the terminal"),
	Refuse(Writes, "-fls FILE", "writes to a file"), Refuse(Writes, "-fprint FILE", "writes to a file"),
	Refuse(Writes, "-fprint0 FILE", "writes to a file"), Refuse(Writes, "-fprintf FILE FORMAT", "writes to a file"),
	// -newerXY: X and Y each one of a (access), B (birth), c (change), m
	// (modification); Y may also be t, a date.
	Use("-neweraa FILE", "newer than a time or FILE"), Use("-neweraB FILE", "newer than a time or FILE"), Use("-newerac FILE", "newer than a time or FILE"),
	Use("-neweram FILE", "newer than a time or FILE"), Use("-newerat DATE", "newer than a time or FILE"),
	Use("-newerBa FILE", "newer than a time or FILE"), Use("-newerBB FILE", "newer than a time or FILE"), Use("-newerBc FILE", "newer than a time or FILE"),
	Use("-newerBm FILE", "newer than a time or FILE"), Use("-newerBt DATE", "newer than a time or FILE"),
	Use("-newerca FILE", "newer than a time or FILE"), Use("-newercB FILE", "newer than a time or FILE"), Use("-newercc FILE", "newer than a time or FILE"),
	Use("-newercm FILE", "newer than a time or FILE"), Use("-newerct DATE", "newer than a time or FILE"),
	Use("-newerma FILE", "newer than a time or FILE"), Use("-newermB FILE", "newer than a time or FILE"), Use("-newermc FILE", "newer than a time or FILE"),
	Use("-newermm FILE", "newer than a time or FILE"), Use("-newermt DATE", "newer than a time or FILE"),
}

// sedCheck allows only scripts that print: see [SedScriptReadOnly].
func sedCheck(c *Call) *Refusal {
	scripts := c.Values("-e")
	if len(scripts) == 0 {
		if len(c.Operands) == 0 {
			return refuse("sed", "has no script")
		}
		scripts = []string{c.Operands[0]}
	}
	for _, s := range scripts {
		if why := SedScriptReadOnly(s); why != "" {
			return refuse(s, "%s", why)
		}
	}
	return nil
}

// SedScriptReadOnly parses a sed script and returns "" when it only
// prints: addresses (N, $, /re/, \cREc, first~step, addr,+N, addr,~N,
// 0,/re/ with I and M), "!", blocks, and the commands = l p P d D n N g
// G h H x z F q Q b t T : #, s with flags g p i I m M and a number, and
// y. Anything else, above all w W r R e and s///w or s///e, returns why
// it asks.
func SedScriptReadOnly(script string) string {
	p := sedParser{s: script}
	return p.script()
}

type sedParser struct {
	s string
	i int
}

func (p *sedParser) eof() bool { return p.i >= len(p.s) }
func (p *sedParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

func (p *sedParser) skipSpace() {
	for !p.eof() && strings.IndexByte(" \t\n;", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *sedParser) script() string {
	depth := 0
	for {
		p.skipSpace()
		if p.eof() {
			if depth != 0 {
				return "sed script has an unclosed {"
			}
			return ""
		}
		if p.peek() == '}' {
			if depth == 0 {
				return "sed script has an unmatched }"
			}
			depth--
			p.i++
			continue
		}
		if p.peek() == '#' {
			for !p.eof() && p.peek() != '\n' {
				p.i++
			}
			continue
		}
		if why := p.address(); why != "" {
			return why
		}
		p.skipBlank()
		if p.peek() == ',' {
			p.i++
			p.skipBlank()
			if p.peek() == '+' || p.peek() == '~' {
				p.i++
				if !p.number() {
					return "sed address has +/~ without a number"
				}
			} else if why := p.address(); why != "" {
				return why
			}
		}
		p.skipBlank()
		for p.peek() == '!' {
			p.i++
			p.skipBlank()
		}
		if p.eof() {
			return "sed script ends after an address"
		}
		cmd := p.s[p.i]
		p.i++
		switch cmd {
		case '{':
			depth++
			continue
		case '=', 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', 'z', 'F':
		case 'l', 'q', 'Q', 'L':
			p.skipBlank()
			p.number()
		case 'b', 't', 'T', ':':
			p.skipBlank()
			start := p.i
			for !p.eof() && strings.IndexByte(";\n} \t", p.peek()) < 0 {
				p.i++
			}
			if cmd == ':' && p.i == start {
				return "sed label without a name"
			}
		case 's':
			if why := p.substitute(); why != "" {
				return why
			}
		case 'y':
			delim, ok := p.delimiter()
			if !ok {
				return "sed y has a bad delimiter"
			}
			for range 2 {
				if !p.until(delim) {
					return "sed y is not closed"
				}
			}
		case 'w', 'W', 'r', 'R':
			return "sed command " + string(cmd) + " reads or writes a file named in the script"
		case 'e':
			return "sed command e runs a shell command"
		default:
			return "sed command " + string(cmd) + " is not one that only prints"
		}
		p.skipBlank()
		if !p.eof() && strings.IndexByte(";\n}#", p.peek()) < 0 {
			return "sed script has text after a command: " + p.s[p.i:min(len(p.s), p.i+10)]
		}
	}
}

func (p *sedParser) skipBlank() {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.i++
	}
}

func (p *sedParser) number() bool {
	start := p.i
	for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
		p.i++
	}
	return p.i > start
}

// address reads an optional address.
func (p *sedParser) address() string {
	switch c := p.peek(); {
	case c >= '0' && c <= '9':
		p.number()
		if p.peek() == '~' {
			p.i++
			if !p.number() {
				return "sed address first~step lacks the step"
			}
		}
	case c == '$':
		p.i++
	case c == '/' || c == '\\':
		if c == '\\' {
			p.i++
		}
		delim, ok := p.delimiter()
		if !ok {
			return "sed address has a bad delimiter"
		}
		if !p.until(delim) {
			return "sed address regex is not closed"
		}
		for p.peek() == 'I' || p.peek() == 'M' {
			p.i++
		}
	}
	return ""
}

// delimiter reads the delimiter character of s, y or \cREc.
func (p *sedParser) delimiter() (byte, bool) {
	if p.eof() {
		return 0, false
	}
	d := p.s[p.i]
	if d == '\\' || d == '\n' || d == ' ' || d >= 0x80 {
		return 0, false
	}
	p.i++
	return d, true
}

// until moves past the next unescaped delim; a newline inside is refused.
func (p *sedParser) until(delim byte) bool {
	for !p.eof() {
		c := p.s[p.i]
		switch {
		case c == '\\':
			p.i += 2
			continue
		case c == '\n':
			return false
		case c == delim:
			p.i++
			return true
		}
		p.i++
	}
	return false
}

func (p *sedParser) substitute() string {
	delim, ok := p.delimiter()
	if !ok {
		return "sed s has a bad delimiter"
	}
	for range 2 {
		if !p.until(delim) {
			return "sed s is not closed"
		}
	}
	for !p.eof() {
		switch c := p.peek(); {
		case c == 'g' || c == 'p' || c == 'i' || c == 'I' || c == 'm' || c == 'M' || (c >= '0' && c <= '9'):
			p.i++
		case c == 'w' || c == 'W':
			return "sed s///w writes a file"
		case c == 'e':
			return "sed s///e runs the pattern space as a shell command"
		default:
			return ""
		}
	}
	return ""
}

var sedEntry = &Entry{Words: []string{"sed"}, Note: "prints lines selected or changed by a script that only prints (parsed)",
	Example: "sed -n 1p f", Asks: []string{"sed -i s/a/b/ f", "sed 's/a/b/w out' f", "sed -f script.sed f"}, Check: sedCheck, Operands: Operands{Lead: 1, LeadUnless: []string{"-e"}}, Flags: []Flag{
		Use("-n, --quiet, --silent", "prints only with p"), Use("--debug", "annotates"),
		Use("-e, --expression=PATTERN", "a script (parsed: only printing commands)"),
		Use("-E, -r, --regexp-extended", "extended regexps"), Use("-s, --separate", "files apart"),
		Use("-l, --line-length=N", "l wrap length"), Use("--posix", "POSIX only"), Use("-u, --unbuffered", "unbuffered"),
		Use("-z, --null-data", "NUL lines"), Use("--sandbox", "refuses e, r and w"), help(), version(),
		Refuse(Writes, "-i, --in-place[=SUFFIX]", "edits files in place"),
		Refuse(Writes, "-I", "BSD: edits files in place"),
		Refuse(Unjudged, "-f, --file=FILE", "reads the script from a file, which is not judged"),
		Refuse(Unjudged, "--follow-symlinks", "only matters with -i"), Refuse(Unjudged, "-b, --binary", "only matters with -i"),
	}}

// dateCheck allows only a +FORMAT operand: any other operand sets the
// clock ("date 0101120026").
func dateCheck(c *Call) *Refusal {
	// A date string that starts TZ="NAME" makes date load the time zone
	// file NAME, from any path: a FIFO there held date until its time
	// limit. -f's dates can say the same, unseen (-f asks for that).
	for _, u := range c.Flags {
		if name := u.Canonical(); (name == "-d" || name == "--date") && strings.Contains(strings.ToUpper(u.Value), "TZ=") {
			return refuse(u.Value, "loads the time zone file that a TZ=\"FILE\" in it names, which is not judged")
		}
	}
	for _, o := range c.Operands {
		if !strings.HasPrefix(o, "+") {
			return refuse(o, "an operand of date that is not +FORMAT sets the clock")
		}
	}
	return nil
}

var dateEntry = &Entry{Words: []string{"date"}, Note: "prints the date (+FORMAT only)", Example: "date +%Y", Asks: []string{"date -s 2020-01-01", "date 0101120026", `date -d 'TZ="/tmp/f" now'`, "date -f dates"}, Check: dateCheck,
	Operands: Operands{Strings: true, Max: 1}, Flags: []Flag{
		Use("-d, --date=STRING", "shows another date"), Use("--debug", "annotates"),
		Use("-I[=FORMAT], --iso-8601[=FORMAT]", "ISO 8601"),
		Refuse(Unjudged, "-f, --file=FILE", "reads dates from FILE, which may name a time zone file to read (TZ=\"FILE\"), not judged"),
		Use("--resolution", "resolution"), Use("-R, --rfc-email", "RFC 5322"), Use("--rfc-3339=FORMAT", "RFC 3339"),
		Use("-r, --reference=FILE", "modification time of FILE (BSD -r takes seconds: judged as a path either way)"),
		Use("-u, --utc, --universal", "UTC"), help(), version(),
		Refuse(Writes, "-s, --set=STRING", "sets the clock"),
		Refuse(Writes, "-n", "BSD: sets the clock without timed"),
		Refuse(Unjudged, "-j", "BSD: parses a date, which with other flags may set the clock"),
		Refuse(Unjudged, "-v", "BSD: adjusts a date"),
	}}

// jqCheck refuses filters that read the environment or modules.
func jqCheck(c *Call) *Refusal {
	filter := ""
	if len(c.Operands) > 0 {
		filter = c.Operands[0]
	}
	if why := jqFilterReadOnly(filter); why != "" {
		return refuse(filter, "%s", why)
	}
	return nil
}

// jqFilterReadOnly returns why a jq filter asks: it reads the
// environment (env, $ENV) or modules (import, include, modulemeta).
// String literals are skipped; ".env" is a field name.
func jqFilterReadOnly(f string) string {
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '"':
			for i++; i < len(f) && f[i] != '"'; i++ {
				if f[i] == '\\' {
					i++
					if i < len(f) && f[i] == '(' {
						// "\(expr)" interpolation holds code: judge the
						// rest as code rather than skip it.
						return jqFilterReadOnly(f[i+1:])
					}
				}
			}
		case c == '$' && i+1 < len(f) && strings.IndexByte(" \t\n\r#", f[i+1]) >= 0:
			// jq 1.6 reads "$ ENV" as $ENV: a blank (or a comment) may
			// stand between "$" and the name. Judge the name as if glued.
			j := i + 1
			for j < len(f) && strings.IndexByte(" \t\n\r", f[j]) >= 0 {
				j++
			}
			if j < len(f) && f[j] == '#' {
				return "jq filter has a comment after \"$\", which hides the variable's name"
			}
			if why := jqFilterReadOnly("$" + f[j:]); why != "" {
				return why
			}
			i = j - 1
		case c == '$' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(f) && (f[j] == '_' || f[j] >= 'a' && f[j] <= 'z' || f[j] >= 'A' && f[j] <= 'Z' || f[j] >= '0' && f[j] <= '9') {
				j++
			}
			word := f[i:j]
			field := i > 0 && f[i-1] == '.'
			i = j - 1
			if field {
				continue
			}
			switch word {
			case "env", "$ENV", "$__prog_args":
				return "jq filter reads the environment (" + word + "), which may hold secrets"
			case "import", "include", "modulemeta", "get_search_list":
				return "jq filter loads modules (" + word + ")"
			case "input_filename", "$__loc__", "get_prog_origin", "get_jq_origin":
			}
		}
	}
	return ""
}

var jqEntry = &Entry{Words: []string{"jq"}, Note: "filters JSON (not env, $ENV, modules, or files read through options)",
	Example: "jq . f", Asks: []string{"jq -n env", "jq -f prog.jq f", "jq --rawfile k notes.txt . f"}, Check: jqCheck, Operands: Operands{Lead: 1}, Flags: []Flag{
		Use("-c, --compact-output", "compact"), Use("-n, --null-input", "null input"), Use("-e, --exit-status", "exit status"),
		Use("-s, --slurp", "slurps"), Use("-r, --raw-output", "raw strings"), Use("--raw-output0", "raw with NUL"),
		Use("-j, --join-output", "no newlines"), Use("-a, --ascii-output", "ASCII"), Use("-R, --raw-input", "raw input"),
		Use("-C, --color-output", "colours"), Use("-M, --monochrome-output", "no colours"), Use("-S, --sort-keys", "sorts keys"),
		Use("--tab", "tabs"), Use("--indent N", "indent"), Use("--unbuffered", "unbuffered"), Use("--stream", "streams"),
		Use("--stream-errors", "stream errors"), Use("--seq", "RS separators"), Use("--arg NAME STRING", "a string variable"),
		Use("--argjson NAME STRING", "a JSON variable"), Use("--args", "remaining operands are strings (still judged as paths)"),
		Use("--jsonargs", "remaining operands are JSON (still judged as paths)"), Use("-h, --help", "prints help"),
		Use("-V, --version", "prints the version"), Use("--build-configuration", "prints the build"),
		Refuse(Unjudged, "-f, --from-file=FILE", "reads the filter from a file, which is not judged"),
		Refuse(Unjudged, "-L DIR", "adds a module search directory"),
		Refuse(Unjudged, "--rawfile NAME FILE", "reads a file into a variable"),
		Refuse(Unjudged, "--slurpfile NAME FILE", "reads a file into a variable"),
	}}

// psCheck refuses the BSD "e" letter, which prints the environment of
// other processes, and any BSD letter it does not know.
func psCheck(c *Call) *Refusal {
	for _, o := range c.Operands {
		for _, r := range o {
			if !strings.ContainsRune("aAcCfghjlLmnrsStTuvwxXZH0123456789,", r) {
				return refuse(o, "BSD-style ps letter %q is not one known to only read (e prints other processes' environments)", r)
			}
		}
	}
	return nil
}

var psEntry = &Entry{Words: []string{"ps"}, Note: "lists processes (not BSD e, which prints environments)", Example: "ps aux", Asks: []string{"ps eww", "ps -E"},
	Check: psCheck, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-A, -e", "all processes"), Use("-a", "all with a terminal"), Use("-d", "all but leaders"), Use("-N, --deselect", "negates"),
		Use("-C NAME", "by command"), Use("-G, --Group=GROUP", "by real group"), Use("-g, --group=GROUP", "by group"),
		Use("-p, --pid=PID", "by pid"), Use("--ppid=PID", "by parent"), Use("-q, --quick-pid=PID", "by pid"),
		Use("-s, --sid=SID", "by session"), Use("-t, --tty=TTY", "by terminal"), Use("-U, --User=USER", "by real user"),
		Use("-u, --user=USER", "by user"), Use("-c", "scheduler"), Use("--context", "security context"),
		Use("-f", "full format"), Use("-F", "extra full"), Use("--format=FORMAT, -o FORMAT, -O FORMAT", "columns"),
		Use("-j", "jobs"), Use("-l", "long"), Use("-M, -Z", "security data"), Use("-y", "no flags"),
		Use("--cols=N, --columns=N, --width=N", "width"), Use("--cumulative", "cumulative"), Use("-H, --forest", "tree"),
		Use("--headers", "repeats headers"), Use("--no-headers, --no-heading", "no header"), Use("--lines=N, --rows=N", "rows"),
		Use("--signames", "signal names"), Use("--sort=SPEC", "sort key"), Use("-w", "wide"),
		Use("-L", "threads"), Use("-m", "threads after processes"), Use("-T", "threads"), Use("-V, --version", "prints the version"),
		Use("--help[=SECTION]", "prints help"), Use("-n FILE", "name list file"), Use("-x", "BSD-style x"),
		Refuse(Secrets, "-E", "BSD: prints the environment of processes"),
	}}

// calFlags are util-linux cal's and BSD ncal's.
var calFlags = []Flag{
	Use("-1, --one, -3, --three, -y, --year, -Y, --twelve, -j, --julian, -m, --monday, -s, --sunday, -w, --week[=N], -v, --vertical, --iso, -h, -b, -C, -J, -e, -o, -p", "layout"),
	Use("-n, --months=N", "months"), Use("-S, --span", "span"), Use("--color[=WHEN]", "colours"), Use("-c, --columns=N", "columns"),
	Use("-A N, -B N", "months after and before"), Use("-d YYYY-MM", "BSD: a month"), Use("-H YYYY-MM-DD", "BSD: highlight"),
	Use("--reform=VALUE", "calendar reform"), Use("-V, --version", "prints the version"), Use("--help", "prints help"),
}

// findEntry's Check, findExecCheck, reads builtin: it is set in init.
var findEntry = &Entry{Words: []string{"find"}, Note: "searches for files (-exec and -execdir only with a reader of the catalogue)", Example: "find . -name x", Asks: []string{"find . -delete", "find . -exec rm {} +", "find . -fprint out"},
	ExactFlags: true, KeepFlags: true, NamesOnly: true, Flags: findFlags, Exec: []string{"-exec", "-execdir"}}

var sysEntries = []*Entry{
	findEntry,
	sedEntry, dateEntry, jqEntry, psEntry,
	// awk ends its options at the program, as POSIX getopt does (mawk,
	// gawk): "awk {print} -v FILE" reads a file named -v and FILE, which
	// must be judged as the paths they are.
	{Words: []string{"awk"}, Note: awkNote, Example: "awk {print} f", StopAtOperand: true, Check: awkCheck, Operands: Operands{Lead: 1}, Flags: awkFlags,
		Asks: []string{`awk 'BEGIN{system("id")}'`, "awk -f prog.awk f"}},
	// gawk's inplace extension rewrites the files it reads.
	{Words: []string{"gawk"}, Note: awkNote, Example: "gawk {print} f", StopAtOperand: true, Check: awkCheck, Operands: Operands{Lead: 1}, Flags: awkFlags,
		Asks: []string{"gawk -i inplace {print} f", "gawk -l filefuncs {print} f", "gawk -o {print} f"}},
	{Words: []string{"mawk"}, Note: awkNote, Example: "mawk {print} f", StopAtOperand: true, Check: awkCheck, Operands: Operands{Lead: 1}, Flags: awkFlags,
		Asks: []string{"mawk -W exec prog.awk f", `mawk '{print > "out"}' f`}},
	{Words: []string{"nawk"}, Note: awkNote, Example: "nawk {print} f", StopAtOperand: true, Check: awkCheck, Operands: Operands{Lead: 1}, Flags: awkFlags,
		Asks: []string{`nawk '{print | "sh"}' f`, "nawk --dump-variables {print} f"}},
	{Words: []string{"id"}, Note: "prints user and group ids", Example: "id", Asks: []string{"id -A"}, Operands: Operands{Strings: true, Max: 1}, Flags: []Flag{
		Use("-a", "ignored"), Use("-Z, --context", "security context"), Use("-g, --group", "group"), Use("-G, --groups", "groups"),
		Use("-n, --name", "names"), Use("-r, --real", "real ids"), Use("-u, --user", "user"), Use("-z, --zero", "NUL"),
		Use("-p", "BSD: human readable"), Use("-P", "BSD: passwd line (no password hash)"), help(), version(),
	}},
	{Words: []string{"groups"}, Note: "prints group names", Example: "groups", Asks: []string{"groups --output=out"}, Operands: Operands{Strings: true}, Flags: []Flag{help(), version()}},
	{Words: []string{"whoami"}, Note: "prints the user name", Example: "whoami", Asks: []string{"whoami x"}, Operands: Operands{None: true}, Flags: []Flag{help(), version()}},
	{Words: []string{"hostname"}, Note: "prints the host name (an operand sets it)", Example: "hostname", Asks: []string{"hostname evil", "hostname -F name", "hostname -b"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-a, --alias", "aliases"), Use("-A, --all-fqdns", "all FQDNs"), Use("-d, --domain", "DNS domain"),
		Use("-f, --fqdn, --long", "FQDN"), Use("-i, --ip-address", "addresses"), Use("-I, --all-ip-addresses", "all addresses"),
		Use("-s, --short", "short name"), Use("-y, --yp, --nis", "NIS domain"), Use("-h, --help", "prints help"),
		Use("-V, --version", "prints the version"),
		Refuse(Writes, "-b, --boot", "sets a default host name"), Refuse(Writes, "-F, --file=FILE", "sets the host name from a file"),
	}},
	{Words: []string{"uname"}, Note: "prints system information", Example: "uname -a", Asks: []string{"uname -S evil"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-a, --all", "all"), Use("-s, --kernel-name", "kernel"), Use("-n, --nodename", "node"), Use("-r, --kernel-release", "release"),
		Use("-v, --kernel-version", "version"), Use("-m, --machine", "machine"), Use("-p, --processor", "processor"),
		Use("-i, --hardware-platform", "platform"), Use("-o, --operating-system", "system"), help(), version(),
	}},
	{Words: []string{"whereis"}, Note: "locates a program's binary, source and manual files (names only)", Example: "whereis ls", Asks: []string{"whereis -B /tmp -f ls"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-b", "binaries only"), Use("-m", "manuals only"), Use("-s", "sources only"), Use("-u", "unusual entries"),
		Use("-l", "prints the lookup paths"), Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"pidof"}, Note: "prints the process ids of running programs", Example: "pidof bash", Asks: []string{"pidof -z bash"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-s", "one id only"), Use("-c", "same root only"), Use("-n", "no stat of network files"), Use("-x", "scripts too"),
		Use("-q", "quiet"), Use("-w", "kernel threads too"), Use("-t", "threads"), Use("-o PID", "omits an id"), Use("-S SEP", "separator"),
	}},
	{Words: []string{"type"}, Note: "says how the shell would read a name (builtin, program, keyword)", Example: "type ls", Asks: []string{"type -z ls"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-a", "every reading"), Use("-f", "no functions"), Use("-p", "program path"), Use("-P", "program path, searching PATH"), Use("-t", "one word"),
	}},
	{Words: []string{"lsmod"}, Note: "lists the loaded kernel modules", Example: "lsmod", Asks: []string{"lsmod x"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	// An interval operand makes vmstat and iostat repeat until stopped:
	// they run with flags alone.
	{Words: []string{"vmstat"}, Note: "prints virtual memory statistics once (an interval operand repeats)", Example: "vmstat -s", Asks: []string{"vmstat 2"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-a, --active", "active memory"), Use("-f, --forks", "forks"), Use("-m, --slabs", "slabs"), Use("-n, --one-header", "one header"),
		Use("-s, --stats", "event counters"), Use("-d, --disk", "disks"), Use("-D, --disk-sum", "disk summary"),
		Use("-p, --partition=NAME", "one partition"), Use("-S, --unit=CHAR", "unit"), Use("-t, --timestamp", "timestamps"),
		Use("-w, --wide", "wide"), Use("-y, --no-first", "skips the first report"), Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"iostat"}, Note: "prints CPU and device I/O statistics once (an interval operand repeats)", Example: "iostat -x", Asks: []string{"iostat 2", "iostat -o JSON"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-c", "CPU only"), Use("-d", "devices only"), Use("-h", "human"), Use("-k", "kB"), Use("-m", "MB"), Use("-N", "device mapper names"),
		Use("-s", "short"), Use("-t", "timestamps"), Use("-x", "extended"), Use("-y", "skips the first report"), Use("-z", "omits idle devices"),
		Use("--compact", "one line per device"), Use("--human", "human"), Use("--pretty", "pretty"), Use("-V", "prints the version"),
	}},
	{Words: []string{"lspci"}, Note: "lists PCI devices", Example: "lspci -nnk", Asks: []string{"lspci -xxx", "lspci -F dump", "lspci -q"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-v", "verbose (repeatable)"), Use("-k", "kernel drivers"), Use("-n", "numbers (repeatable)"), Use("-t", "tree"),
		Use("-m", "machine readable (repeatable)"), Use("-D", "domain numbers"), Use("-P", "bridge paths (repeatable)"), Use("-b", "bus-centric"),
		Use("-s SLOT", "one slot"), Use("-d VENDOR", "one vendor:device"), Use("--help", "prints help"), Use("--version", "prints the version"),
	}},
	{Words: []string{"lsusb"}, Note: "lists USB devices", Example: "lsusb -t", Asks: []string{"lsusb -D /dev/bus/usb/001/001"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-v, --verbose", "verbose"), Use("-t, --tree", "tree"), Use("-s SLOT", "bus and device"), Use("-d VENDOR", "vendor:product"),
		Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"uptime"}, Note: "prints how long the system has run", Example: "uptime", Asks: []string{"uptime -x"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-p, --pretty", "pretty"), Use("-s, --since", "since"), Use("-r, --raw", "raw numbers"), Use("-c, --container", "container uptime"), Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"df"}, Note: "prints file system usage", Example: "df -h", Asks: []string{"df --output=source --sync-all"}, Flags: []Flag{
		Use("-a, --all", "all"), Use("-B, --block-size=SIZE", "block size"), Use("-h, --human-readable", "human"),
		Use("-H, --si", "powers of 1000"), Use("-i, --inodes", "inodes"), Use("-k", "KiB"), Use("-l, --local", "local"),
		Use("--no-sync", "no sync"), Use("--output[=LIST]", "columns"), Use("-P, --portability", "POSIX"),
		Use("--sync", "syncs first"), Use("--total", "total"), Use("-t, --type=TYPE", "by type"), Use("-T, --print-type", "types"),
		Use("-x, --exclude-type=TYPE", "excludes type"), Use("-v", "ignored"), Use("-m", "BSD: MiB"), Use("-g", "BSD: GiB"),
		help(), version(),
	}},
	{Words: []string{"free"}, Note: "prints memory usage", Example: "free -h", Asks: []string{"free -s 1"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-b, --bytes", "bytes"), Use("--kilo", "kB"), Use("--mega", "MB"), Use("--giga", "GB"), Use("--tera", "TB"),
		Use("--peta", "PB"), Use("-k, --kibi", "KiB"), Use("-m, --mebi", "MiB"), Use("-g, --gibi", "GiB"), Use("--tebi", "TiB"),
		Use("--pebi", "PiB"), Use("-h, --human", "human"), Use("--si", "powers of 1000"), Use("-l, --lohi", "low/high"),
		Use("-t, --total", "total"), Use("-v, --committed", "committed"), Refuse(Forever, "-s, --seconds=N", "repeats every N seconds until stopped"),
		Use("-c, --count=N", "repeat count"), Use("-w, --wide", "wide"), Use("--help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"lsblk"}, Note: "lists block devices", Example: "lsblk", Asks: []string{"lsblk --output-file=out"}, Flags: []Flag{
		Use("-A, --noempty", "no empty"), Use("-D, --discard", "discard"), Use("-E, --dedup=COLUMN", "dedup"),
		Use("-I, --include=LIST", "majors"), Use("-J, --json", "JSON"), Use("-M, --merge", "merges"), Use("-O, --output-all", "all columns"),
		Use("-P, --pairs", "pairs"), Use("-S, --scsi", "SCSI"), Use("-N, --nvme", "NVMe"), Use("-v, --virtio", "virtio"),
		Use("-T[=COLUMN], --tree[=COLUMN]", "tree"), Use("-a, --all", "all"), Use("-b, --bytes", "bytes"), Use("-d, --nodeps", "no deps"),
		Use("-e, --exclude=LIST", "excludes"), Use("-f, --fs", "file systems"), Use("-i, --ascii", "ASCII"), Use("-l, --list", "list"),
		Use("-m, --perms", "permissions"), Use("-n, --noheadings", "no header"), Use("-o, --output=LIST", "columns"),
		Use("-p, --paths", "paths"), Use("-r, --raw", "raw"), Use("-s, --inverse", "inverse"), Use("-t, --topology", "topology"),
		Use("-w, --width=N", "width"), Use("-x, --sort=COLUMN", "sort"), Use("-y, --shell", "shell names"), Use("-z, --zoned", "zones"),
		Use("--sysroot=DIR", "system root"), Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"lscpu"}, Note: "prints CPU information", Example: "lscpu", Asks: []string{"lscpu x"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-a, --all", "all"), Use("-b, --online", "online"), Use("-B, --bytes", "bytes"), Use("-C[=LIST], --caches[=LIST]", "caches"),
		Use("-c, --offline", "offline"), Use("-J, --json", "JSON"), Use("-e[=LIST], --extended[=LIST]", "extended"),
		Use("-p[=LIST], --parse[=LIST]", "parsable"), Use("-s, --sysroot=DIR", "system root"), Use("-x, --hex", "hex"),
		Use("-y, --physical", "physical"), Use("--output-all", "all columns"), Use("-h, --help", "prints help"),
		Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"pgrep"}, Note: "finds processes by name", Example: "pgrep x", Asks: []string{"pgrep -q x"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-d, --delimiter=STRING", "delimiter"), Use("-l, --list-name", "names"), Use("-a, --list-full", "command lines"),
		Use("-v, --inverse", "negates"), Use("-w, --lightweight", "threads"), Use("-c, --count", "counts"), Use("-f, --full", "full command line"),
		Use("-g, --pgroup=LIST", "process groups"), Use("-G, --group=LIST", "groups"), Use("-i, --ignore-case", "folds case"),
		Use("-n, --newest", "newest"), Use("-o, --oldest", "oldest"), Use("-O, --older=N", "older"), Use("-P, --parent=LIST", "parents"),
		Use("-s, --session=LIST", "sessions"), Use("-t, --terminal=LIST", "terminals"), Use("-u, --euid=LIST", "users"),
		Use("-U, --uid=LIST", "real users"), Use("-x, --exact", "exact"), Use("-F, --pidfile=FILE", "reads pids from FILE"),
		Use("-L, --logpidfile", "locked pid file"), Use("-r, --runstates=LIST", "states"), Use("-A, --ignore-ancestors", "no ancestors"),
		Use("--cgroup=LIST", "cgroups"), Use("--ns=PID", "namespace"), Use("--nslist=LIST", "namespaces"),
		Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
		Refuse(Unjudged, "-q", "pkill's queue flag; not judged"),
	}},
	{Words: []string{"cal"}, Note: "prints a calendar", Example: "cal", Asks: []string{"cal --output=out"}, Operands: Operands{Strings: true, Max: 3}, Flags: calFlags},
	{Words: []string{"ncal"}, Note: "prints a calendar", Example: "ncal", Asks: []string{"ncal --output=out"}, Operands: Operands{Strings: true, Max: 3}, Flags: calFlags},
	// who's one operand is the login file it reads (who FILE), and two are
	// "who am i": judged as paths, since a FIFO there held who until its
	// time limit.
	{Words: []string{"who"}, Note: "lists logged-in users (an operand names the login file it reads)", Example: "who", Asks: []string{"who a b c"}, Operands: Operands{Max: 2}, Flags: []Flag{
		Use("-a, --all, -b, --boot, -d, --dead, -H, --heading, --ips, -l, --login, --lookup, -m, -p, --process, -q, --count, -r, --runlevel, -s, --short, -t, --time, -T, -w, --mesg, --message, --writable, -u, --users", "what to list"),
		help(), version(),
	}},
	{Words: []string{"w"}, Note: "lists logged-in users and what they run", Example: "w", Asks: []string{"w a b"}, Operands: Operands{Strings: true, Max: 1}, Flags: []Flag{
		Use("-h, --no-header, -u, --no-current, -s, --short, -f, --from, -o, --old-style, -i, --ip-addr, -p, --pids", "output"),
		Use("--help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"last"}, Note: "lists past logins", Example: "last", Asks: []string{"last --output=out"}, Numeric: true, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-a, --hostlast, -d, --dns, -F, --fulltimes, -i, --ip, -R, --nohostname, -w, --fullnames, -x, --system", "output"),
		Use("-f, --file=FILE", "reads another login file"), Use("-n, --limit=N", "lines"), Use("-s, --since=TIME, -t, --until=TIME, -p, --present=TIME", "times"),
		Use("--time-format=FORMAT", "time format"), Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"zcat"}, Note: "prints decompressed files", Example: "zcat f.gz", Asks: []string{"zcat -o out f.gz", "zcat -f -S v .en"}, Flags: []Flag{
		Use("-f, --force", "also uncompressed input"), Use("-l, --list", "lists"), Use("-q, --quiet", "quiet"), Walks(Tree, "-r, --recursive", "recursive"),
		Use("--synchronous", "synchronous"), Use("-t, --test", "tests"), Use("-v, --verbose", "verbose"),
		help(), version(),
		// "zcat -f -S v .en" reads .env: a name that is not there is
		// opened with the suffix added, a name the gate never judged.
		Refuse(Unjudged, "-S, --suffix=STRING", "opens each operand with this suffix added, a name that is not judged"),
	}},
	{Words: []string{"gzip"}, Note: gzipNote, Example: "gzip -c f", Asks: []string{"gzip f", "gzip -r d"}, Numeric: true, Check: gzipCheck, Flags: gzipFlags},
	{Words: []string{"gunzip"}, Note: gzipNote, Example: "gunzip -c f", Asks: []string{"gunzip f.gz", "gunzip -f -S .txt f.txt"}, Numeric: true, Check: gzipCheck, Flags: gzipFlags},
	{Words: []string{"nproc"}, Note: "prints the number of CPUs", Example: "nproc", Asks: []string{"nproc x"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("--all", "all CPUs"), Use("--ignore=N", "ignores N"), help(), version(),
	}},
	{Words: []string{"arch"}, Note: "prints the machine architecture", Example: "arch", Asks: []string{"arch x"}, Operands: Operands{None: true}, Flags: []Flag{help(), version()}},
	{Words: []string{"locale"}, Note: "prints locale settings", Example: "locale", Asks: []string{"locale --output=out"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-a, --all-locales", "locales"), Use("-m, --charmaps", "charmaps"), Use("-c, --category-name", "categories"),
		Use("-k, --keyword-name", "keywords"), Use("-v, --verbose", "verbose"), Use("-?, --help", "prints help"),
		Use("--usage", "usage"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"tty"}, Note: "prints the terminal name", Example: "tty", Asks: []string{"tty x"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-s, --silent, --quiet", "status only"), help(), version(),
	}},
}

// xargsEntry runs a catalogue command with words read from standard
// input appended (or put in place of -I's string). Those words are
// unknown, so the command's entry must have no flag that does more than
// read and must not count its operands (uniq IN OUT): any word can then
// only be a read flag, an operand, or an error.
var xargsEntry = &Entry{Words: []string{"xargs"}, Note: "runs a read-only catalogue command on words from standard input",
	Example: "xargs cat", Asks: []string{"xargs rm", "xargs -p cat", "xargs -o vi"}, StopAtOperand: true, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-0, --null", "NUL-separated input"), Walks(Lists, "-a, --arg-file=FILE", "reads the words from FILE"),
		Use("-d, --delimiter=SEP", "delimiter"), Use("-E EOF", "end-of-input string"), Use("-e[=EOF], --eof[=EOF]", "end-of-input string"),
		Use("-I PATTERN", "puts each word in place of this string"), Use("-i[=PATTERN], --replace[=PATTERN]", "puts each word in place of {}"),
		Use("-L N", "lines per command"), Use("--max-lines[=N]", "lines per command: GNU xargs takes the value only after = (\"--max-lines sh cat\" runs sh), whatever its --help says"), Use("-l[=N]", "lines per command"), Use("-n, --max-args=N", "words per command"),
		Use("-P, --max-procs=N", "parallel runs"), Use("-r, --no-run-if-empty", "no run without input"), Use("-s, --max-chars=N", "line length"),
		Use("--show-limits", "limits"), Use("-t, --verbose", "prints commands"), Use("-x, --exit", "exits on long lines"), help(), version(),
		Refuse(Unjudged, "-o, --open-tty", "gives the command the terminal"), Refuse(Unjudged, "-p, --interactive", "asks on the terminal"),
		Refuse(Unjudged, "--process-slot-var=NAME", "sets an environment variable of the command"),
		Refuse(Unjudged, "-J REPLSTR", "BSD: puts all the words in place of this string"),
		Refuse(Unjudged, "-R N, -S N", "BSD: how many replacements, how long"),
	}}

// xargsReading is xargsEntry with every flag read, refused ones too: the
// layout of an xargs command whatever it may do (see [XargsCommand]).
var xargsReading = &onceValue[*Entry]{make: func() *Entry {
	flags := slices.Clone(xargsEntry.FlagList())
	for i := range flags {
		flags[i].Effect = Reads
	}
	return &Entry{Words: xargsEntry.Words, StopAtOperand: true, Operands: xargsEntry.Operands, Flags: flags}
}}

// XargsCommand reads xargs' options as the catalogue's xargs entry reads
// them, refused ones included (-p, -o, BSD's -J): where in argv the
// command it runs starts, and the replacement string of -I, -i or
// --replace ("" when the words are appended). The rules that judge what
// xargs would run read it here, so they and the catalogue never disagree
// on which word is a value. ok is false when an option is not known, a
// value is missing, or no command is named (xargs would run echo).
func XargsCommand(argv []string) (start int, repl string, ok bool) {
	_, start, repl, ok = XargsRead(argv)
	return start, repl, ok
}

// XargsRead is [XargsCommand] with the options as read (their values:
// -d's delimiter, -E's end string).
func XargsRead(argv []string) (c *Call, start int, repl string, ok bool) {
	if len(argv) < 2 {
		return nil, 0, "", false
	}
	c = &Call{}
	if _, r := xargsReading.get().scan(c, argv[1:], false); r != nil || len(c.Operands) == 0 {
		return nil, 0, "", false
	}
	for _, u := range c.Flags {
		switch u.Canonical() {
		case "-I":
			repl = u.Value
		case "-i", "--replace":
			repl = "{}"
			if u.HasValue {
				repl = u.Value
			}
		}
	}
	return c, len(argv) - len(c.Operands), repl, true
}

// builtinEntry is the built-in entry that judges argv, the one with the
// most words ("git log" before "git"), skip aside; nil when none does. It
// is how a runner's command (xargs CMD, find -exec CMD) is looked up.
func builtinEntry(argv []string, skip *Entry) *Entry {
	var e *Entry
	for _, x := range builtin {
		if _, _, ok := x.Judge(argv); ok && x != skip && (e == nil || len(x.Words) > len(e.Words)) {
			e = x
		}
	}
	return e
}

func xargsCheck(c *Call) *Refusal {
	if len(c.Operands) == 0 {
		return refuse("xargs", "names no command (it would run echo); name the command")
	}
	e := builtinEntry(c.Operands, xargsEntry)
	if e == nil {
		return refuse(c.Operands[0], "xargs would run %s, which is not in the read-only catalogue", c.Operands[0])
	}
	inner, r, _ := e.Judge(c.Operands)
	if r != nil {
		return r
	}
	if e.FlagRisk() || e.Operands.Max > 0 || e.Operands.None || len(e.Words) > 1 {
		return refuse(c.Operands[0], "words from standard input could become flags or operands that %s must not get", e.Name())
	}
	c.Paths = append(c.Paths, inner.Paths...)
	c.Strings = append(c.Strings[:0:0], inner.Strings...)
	return nil
}

// ipCheck allows "ip [flags] OBJECT [show|list|ls [args]]" for objects
// that only report; any other action (add, del, set, flush) changes the
// network.
func ipCheck(c *Call) *Refusal {
	if len(c.Operands) == 0 {
		return refuse("ip", "names no object")
	}
	switch c.Operands[0] {
	case "addr", "address", "a", "route", "r", "ro", "link", "l", "neigh", "neighbour", "n", "rule", "ru", "maddr", "m", "netns", "tunnel", "tuntap":
	default:
		return refuse(c.Operands[0], "is not an ip object known to only report")
	}
	if len(c.Operands) > 1 {
		switch c.Operands[1] {
		case "show", "list", "ls", "lst", "sh", "s":
		default:
			return refuse(c.Operands[1], "ip action other than show changes the network")
		}
	}
	return nil
}

// ifconfigCheck: an interface name alone shows it; more words set it.
func ifconfigCheck(c *Call) *Refusal {
	if len(c.Operands) > 1 {
		return refuse(c.Operands[1], "ifconfig with more than an interface name changes it")
	}
	return nil
}

// unzipCheck allows only the listing and testing modes.
func unzipCheck(c *Call) *Refusal {
	if !c.Has("-l", "-v", "-t", "-Z", "-z") {
		return refuse("unzip", "without -l, -v, -t or -Z extracts files")
	}
	return nil
}

// moreSysEntries follow xargs in the catalogue's order (see builtin).
var moreSysEntries = []*Entry{
	{Words: []string{"ip"}, Note: "shows addresses, routes and links (show forms only)", Example: "ip addr", Asks: []string{"ip link set eth0 down", "ip -b cmds", "ip -n ns addr"}, Check: ipCheck,
		Operands: Operands{Strings: true}, Flags: []Flag{
			Use("-4, -6, -0", "family"), Use("-s, -stats, -statistics", "statistics"), Use("-d, -details", "details"), Use("-h, -human", "human"),
			Use("-j, -json", "JSON"), Use("-p, -pretty", "pretty"), Use("-br, -brief", "brief"), Use("-c, -color", "colours"),
			Use("-o, -oneline", "one line"), Use("-r, -resolve", "names"), Use("-f, -family", "family"), Use("-t, -timestamp", "timestamps"),
			Refuse(Unjudged, "-b, -batch, -force", "reads commands from a file"), Refuse(Unjudged, "-n, -netns", "switches network namespace"),
		}, SingleDash: true},
	{Words: []string{"ifconfig"}, Note: "shows network interfaces (no settings)", Example: "ifconfig", Asks: []string{"ifconfig eth0 down"}, Check: ifconfigCheck,
		Operands: Operands{Strings: true}, Flags: []Flag{Use("-a", "all"), Use("-s", "short"), Use("-v", "verbose")}},
	{Words: []string{"dmesg"}, Note: "prints the kernel log (not clearing it)", Example: "dmesg", Asks: []string{"dmesg -c", "dmesg -w", "dmesg -n 1"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-T, --ctime, -H, --human, -x, --decode, -k, --kernel, -u, --userspace, -t, --notime, -L, --color[=WHEN], -r, --raw, -d, --show-delta, -e, --reltime, -P, --nopager, -J, --json, -S, --syslog", "output"),
		Refuse(Forever, "-w, --follow, -W, --follow-new", "waits for new messages (never ends by itself)"),
		Use("-l, --level=LIST", "levels"), Use("-f, --facility=LIST", "facilities"), Use("--since=TIME, --until=TIME", "times"),
		Use("--time-format=FORMAT", "time format"), Use("-s, --buffer-size=N", "buffer"), Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
		Refuse(Deletes, "-c, --read-clear, -C, --clear", "clears the kernel log"), Refuse(Writes, "-D, --console-off, -E, --console-on, -n, --console-level=LEVEL", "changes the console"),
		Refuse(Unjudged, "-F, --file=FILE", "reads another file"),
	}},
	{Words: []string{"unzip"}, Note: "lists or tests a zip archive (-l, -v, -t, -Z; never extracts)", Example: "unzip -l a.zip", Asks: []string{"unzip a.zip", "unzip -o a.zip -d dir"}, Check: unzipCheck,
		Flags: []Flag{
			Use("-l", "lists"), Use("-v", "lists verbosely"), Use("-t", "tests"), Use("-z", "prints the comment"), Use("-Z", "zipinfo mode"),
			Use("-q, -qq", "quiet"), Use("-1, -2, -s, -m, -h, -M, -T", "zipinfo columns"),
			Refuse(Writes, "-d DIR, -o, -n, -f, -u, -x, -j, -p, -c, -a, -b, -C, -L, -X, -K, -D, -P, -:", "extracts or needs a password"),
		}},
}

// tarCheck allows the listing mode only, of a local archive: GNU tar
// takes "host:file" for a remote archive and runs rsh or ssh to reach it.
func tarCheck(c *Call) *Refusal {
	if !c.Has("-t") {
		return refuse("tar", "without -t (--list) extracts or creates archives")
	}
	for _, f := range c.Values("-f") {
		if strings.Contains(f, ":") && !c.Has("--force-local") {
			return refuse(f, "an archive name with a colon is a remote archive, reached by running rsh or ssh")
		}
	}
	return nil
}

var tarEntry = &Entry{Words: []string{"tar"}, Note: "lists an archive (-t only; never extracts)", Example: "tar -tf a.tar", Asks: []string{"tar xf a.tar", "tar -tf host:a.tar", "tar -tf a.tar --to-command=sh"}, Check: tarCheck,
	OldStyle: true, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-t, --list", "lists"), Use("-f, --file=FILE", "the archive"), Use("-v, --verbose", "verbose"),
		Use("-z, --gzip, --gunzip, --ungzip, -j, --bzip2, -J, --xz, --lzip, --lzma, --lzop, --zstd, -Z, --compress, --uncompress, -a, --auto-compress", "runs the usual decompressor"),
		Use("--force-local", "an archive name with a colon is local"), Use("--wildcards, --no-wildcards, --anchored, --no-anchored, --ignore-case, --no-ignore-case", "member patterns"),
		Use("--exclude=PATTERN", "excludes"), Use("-X, --exclude-from=FILE", "reads exclude patterns from FILE"), Walks(Lists, "-T, --files-from=FILE", "reads member names from FILE"),
		Use("--null, --no-null", "NUL names"), Use("--numeric-owner", "numbers"), Use("--utc", "UTC"), Use("--full-time", "full times"),
		Use("-R, --block-number", "block numbers"), Use("--show-transformed-names, --show-stored-names", "names"), Use("-b, --blocking-factor=N", "blocking"),
		Use("--quoting-style=STYLE", "quoting"), Use("-i, --ignore-zeros", "zero blocks"), Use("--occurrence[=N]", "occurrence"),
		Use("--strip-components=N", "strips components"), Use("--help, --usage", "prints help"), Use("--version", "prints the version"),
		Refuse(Writes, "-x, --extract, --get, -c, --create, -r, --append, -u, --update, -A, --catenate, --concatenate, --delete", "extracts or writes archives"),
		Refuse(Runs, "-I, --use-compress-program=PROG", "runs a program"), Refuse(Runs, "--to-command=COMMAND", "runs a program"),
		Refuse(Runs, "--rsh-command=COMMAND", "runs a program"), Refuse(Runs, "-F, --info-script=FILE, --new-volume-script=FILE", "runs a program"),
		Refuse(Runs, "--checkpoint-action=ACTION", "can run a program"), Refuse(Writes, "-O, --to-stdout, -C, --directory=DIR, -d, --diff, --compare", "extracts or compares"),
		Refuse(Writes, "-g, --listed-incremental=FILE, -G, --incremental, --index-file=FILE, -V, --label=TEXT", "writes or reads state files"),
	}}

// findExecCheck judges the commands of find -exec and -execdir: each
// must be a reader of the built-in catalogue that is allowed with a found
// file in place of "{}" ("find . -name '*.py' -exec wc -l {} \;"). The
// files it reads are every file under find's starting points, which the
// engine walks like a recursive read (resolve.XargsInputs), so a key
// there asks. A found name always starts with a starting point ("./x",
// "src/x"), never with "-".
func findExecCheck(c *Call) *Refusal {
	if len(c.Execs) == 0 {
		return nil
	}
	if c.Has("-L", "-follow", "-H") {
		return refuse("-exec", "find follows symlinks here, so the command could read files outside the trees judged")
	}
	for _, argv := range c.Execs {
		if !slices.Contains(argv, "{}") {
			return refuse(argv[0], "-exec without {} runs %s on nothing found", argv[0])
		}
		found := make([]string, len(argv))
		for i, w := range argv {
			found[i] = w
			if w == "{}" {
				found[i] = "./found"
			} else if strings.Contains(w, "{}") {
				return refuse(w, "holds {} inside a word, which find replaces with a file name")
			}
		}
		e := builtinEntry(found, xargsEntry)
		if e == nil || e.Words[0] == "find" {
			return refuse(argv[0], "find -exec would run %s, which is not a reader of the read-only catalogue", argv[0])
		}
		// What find runs is not what the engine plans: git under find
		// would run without gitsafe's overrides, a pack's program without
		// its pinned settings.
		if len(e.Words) > 1 || e.Words[0] == "git" || e.Pack != "" || len(e.Hazards) > 0 {
			return refuse(argv[0], "find -exec runs %s without the protections agentgate gives it when it runs it itself", e.Name())
		}
		inner, r, _ := e.Judge(found)
		if r != nil {
			return r
		}
		if e.Operands.Max > 0 || e.Operands.None {
			return refuse(argv[0], "%s takes a limited number of operands: more found files could become an output file", e.Name())
		}
		for _, p := range inner.Paths {
			if p != "./found" {
				c.Paths = append(c.Paths, p)
			}
		}
		c.Strings = append(c.Strings, inner.Strings...)
	}
	return nil
}

// The gzip and gunzip entries write only to standard output (-c), or
// list (-l) or test (-t): without one of them each file is replaced with
// its (de)compressed form. With -r they read every file of a directory
// operand's tree.
const gzipNote = "(de)compresses to standard output, lists or tests (-c, -l, -t only)"

// gzipFlags are gzip's and gunzip's.
var gzipFlags = []Flag{
	Use("-c, --stdout, --to-stdout", "writes to standard output"), Use("-d, --decompress, --uncompress", "decompresses"),
	Use("-f, --force", "also links and uncompressed input"), Use("-k, --keep", "keeps input files"), Use("-l, --list", "lists"),
	Use("-n, --no-name, -N, --name", "names"), Use("-q, --quiet", "quiet"), Walks(Tree, "-r, --recursive", "recursive"),
	Use("--rsyncable", "rsync-friendly"), Use("--synchronous", "synchronous"),
	// "gzip -dcf -S v .en" reads .env (see zcat's).
	Refuse(Unjudged, "-S, --suffix=STRING", "opens each operand with this suffix added, a name that is not judged"),
	Use("-t, --test", "tests"), Use("-v, --verbose", "verbose"), Use("--fast, --best", "level"), Use("-L, --license", "license"),
	Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
}

// gzipCheck refuses a gzip or gunzip that would write files: one with
// operands and none of -c, -l, -t (help and version print only).
func gzipCheck(c *Call) *Refusal {
	if len(c.Operands) == 0 || c.Has("-c", "-l", "-t", "-h", "-V", "-L") {
		return nil
	}
	return refuse(c.Operands[0], "replaces each file with its (de)compressed form; -c writes to standard output instead")
}
