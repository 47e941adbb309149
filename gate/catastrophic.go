package gate

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/agentgate/agentgate/internal/shparse"
)

// CheckCatastrophic names the built-in deny rules for commands that
// destroy a whole system or home directory.
const CheckCatastrophic Check = "catastrophic"

// The built-in catastrophic rules, by the name the policy file uses to
// lift one (policy lift_catastrophic).
const (
	CatastrophicDelete   = "recursive-delete" // rm -r, find -delete of /, /usr, $HOME ...
	CatastrophicPerms    = "recursive-chmod"  // chmod, chown, chgrp -R of the same
	CatastrophicMkfs     = "mkfs"             // mkfs*, mke2fs: formats a file system
	CatastrophicDisk     = "disk-write"       // dd of=, a redirect, tee, cp, shred onto a disk device
	CatastrophicForkBomb = "fork-bomb"        // a function that starts itself twice
)

// CatastrophicRules lists the names of the built-in catastrophic rules.
var CatastrophicRules = []string{CatastrophicDelete, CatastrophicPerms, CatastrophicMkfs, CatastrophicDisk, CatastrophicForkBomb}

// systemDirs are the top-level directories whose loss breaks the system
// or every user's files (Linux and macOS). /tmp is not one of them.
var systemDirs = []string{
	"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/media", "/mnt",
	"/nix", "/opt", "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/usr", "/var",
	"/Applications", "/Library", "/System", "/Users", "/Volumes", "/private",
}

// diskDevices are device names that are whole disks or partitions.
var diskDevices = []string{
	"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk", "/dev/disk", "/dev/rdisk",
	"/dev/md", "/dev/dm-", "/dev/mapper/", "/dev/root",
}

// catastrophic returns a deny reason when a command anywhere in the text
// (each side of an operator, behind sudo or env, inside bash -c) would
// destroy the root, a top-level system directory, the home directory
// itself, a disk, or the machine's process table; lifted names the rules
// the policy turned off. Paths are resolved as the path checks resolve
// them: "~/", "$HOME", "/usr/..", "//" all count, and a project directory
// ("rm -rf build") never does.
func catastrophic(req Request, segs [][]string) (Reason, bool) {
	why, denied, _, _ := catastrophicScan(req, segs)
	return why, denied
}

// catastrophicScan is [catastrophic], which also returns, when nothing is
// denied, a command whose target the gate cannot know but which would be
// catastrophic if it were a critical one: "rm -rf $X" where X is computed
// at run time, "cd $D && rm -rf lib", "dd of=/dev/$X". Such a command
// must stay an ask in every mode.
func catastrophicScan(req Request, segs [][]string) (why Reason, denied bool, unknown Reason, isUnknown bool) {
	c := &catJudge{p: req.Paths}
	linked, destroys := false, false
	for _, argv := range segs {
		c.unknown = ""
		linked = linked || makesLink(argv)
		destroys = destroys || destructive(argv)
		name, msg, ok := c.argv(argv)
		if slices.Contains(req.Lift, name) {
			continue
		}
		if ok {
			return catReason(name, strings.Join(argv, " "), msg), true, Reason{}, false
		}
		if c.unknown != "" && !isUnknown {
			unknown, isUnknown = catReason(c.unknownRule, strings.Join(argv, " "),
				fmt.Sprintf("%s: its target %s is computed when the command runs, and could be the root, a system directory, home or a disk", argv[0], quoteMatch(c.unknown))), true
		}
	}
	if !slices.Contains(req.Lift, CatastrophicDisk) {
		c.unknown = ""
		if dev, ok := c.redirectOntoDisk(req.Text); ok {
			return catReason(CatastrophicDisk, "> "+dev, "writes onto the disk device "+dev+", destroying what it holds"), true, Reason{}, false
		}
		if c.unknown != "" && !isUnknown {
			unknown, isUnknown = catReason(CatastrophicDisk, "> "+c.unknown,
				fmt.Sprintf("a redirect writes to %s, computed when the command runs, which could be a disk device", quoteMatch(c.unknown))), true
		}
	}
	form := req.Script.Of(req.Text).Form()
	if m, ok := blindShell(form); ok && !isUnknown && !slices.Contains(req.Lift, CatastrophicDelete) {
		unknown, isUnknown = catReason(CatastrophicDelete, m, "a shell runs what another program prints, known only when it runs: it could delete the home directory"), true
	}
	if m, ok := writtenScript(form); ok && !isUnknown && !slices.Contains(req.Lift, CatastrophicDelete) {
		unknown, isUnknown = catReason(CatastrophicDelete, m, "runs a script the text writes itself or reads from its input, known only when it runs: it could delete the home directory"), true
	}
	if linked && !destroys && writesThroughRedirect(form) {
		// "ln -s /dev d; cat /dev/zero > d/sda": a redirect through a
		// link made in the same text may write a disk.
		destroys = true
	}
	if linked && destroys && !isUnknown && !slices.Contains(req.Lift, CatastrophicDelete) {
		// "ln -s ~ h && rm -rf h/": the link's target is what is deleted,
		// and the gate reads no link that does not exist yet.
		unknown, isUnknown = catReason(CatastrophicDelete, "ln -s", "a link made in the same text may point anywhere, home included, and a recursive delete, chmod or chown follows it"), true
	}
	name, ok, unread := forkBomb(req.Script, req.Text)
	if ok && !slices.Contains(req.Lift, CatastrophicForkBomb) {
		return catReason(CatastrophicForkBomb, name, fmt.Sprintf("defines %s to start itself again and again (a fork bomb), which stalls the machine", name)), true, Reason{}, false
	}
	if unread != "" && !isUnknown {
		// Not a rule a policy lifts: what is not read may hold anything.
		unknown, isUnknown = catReason(CatastrophicForkBomb, unread,
			fmt.Sprintf("agentgate does not read all of the text (%s), where a function could start itself again and again", unread)), true
	}
	return Reason{}, false, unknown, isUnknown
}

// writesThroughRedirect reports whether the text writes a file through
// an output redirect (other than to /dev/null or a descriptor), as its
// form reads the redirects.
func writesThroughRedirect(f *shparse.Form) bool {
	for _, r := range f.Redirs() {
		if r.Writes() && r.Target != nil && !(r.Target.Literal() && r.Target.Value == "/dev/null") {
			return true
		}
	}
	return false
}

func catReason(rule, match, msg string) Reason {
	return Reason{Check: CheckCatastrophic, Match: match, Rule: rule, Source: "built-in",
		Message: "catastrophic: " + msg}
}

// catJudge judges commands; unknown is set to the first target it could
// not resolve (and unknownRule to the rule it would break), which the
// caller reads and resets.
type catJudge struct {
	p                    Paths
	unknown, unknownRule string
	// positional are the words "set -- WORDS" gave "$@" earlier in the
	// text; depth bounds eval's recursion.
	positional []string
	depth      int
}

// argv judges one simple command.
func (c *catJudge) argv(argv []string) (rule, msg string, ok bool) {
	if len(argv) == 0 || c.depth > 8 {
		return "", "", false
	}
	// The text's own assignments and "set --" name words it computes:
	// "c=-rf; rm $c ~", "c=rm; $c -rf ~", "set -- rm -rf ~; \"$@\"".
	var words []string
	for _, a := range argv {
		switch unquote(a) {
		case "$@", "${@}", "$*", "${*}":
			if c.positional != nil {
				words = append(words, c.positional...)
				continue
			}
		}
		if v := c.p.substitute(unquote(a)); v != unquote(a) && !computedWord(v) {
			if strings.ContainsAny(v, " \t") && !strings.HasPrefix(a, `"`) {
				words = append(words, strings.Fields(v)...) // unquoted: split
				continue
			}
			words = append(words, v)
			continue
		}
		words = append(words, a)
	}
	if len(words) == 0 {
		return "", "", false
	}
	argv = words
	prog := path.Base(argv[0])
	args := argv[1:]
	if prog == "set" && len(args) > 0 && args[0] == "--" {
		c.positional = slices.Clone(args[1:])
	}
	if prog == "eval" && len(args) > 0 {
		for _, a := range args {
			if computedWord(a) {
				// Text computed when it runs ("eval \"$(curl ...)\""):
				// it could be anything, as a computed rm target could.
				c.unknownRule = CatastrophicDelete
				c.noteUnknown(a)
				break
			}
		}
		c.depth++
		defer func() { c.depth-- }()
		return c.argv(args)
	}
	switch prog {
	case "rm", "rmdir", "chmod", "chown", "chgrp", "find":
		c.unknownRule = CatastrophicDelete
		if prog[0] == 'c' {
			c.unknownRule = CatastrophicPerms
		}
	default:
		c.unknownRule = CatastrophicDisk
	}
	if computedWord(argv[0]) {
		// The program is computed when the command runs and the text's
		// own assignments do not name it (those were filled in above):
		// "${X:-rm} -rf /", "r${X}m -rf ~". With a critical target among
		// its words it is as unknown as a computed target.
		if len(args) > 0 {
			saved := c.unknown
			for _, a := range args {
				if t, ok := c.target(a); ok {
					c.unknown, c.unknownRule = saved, CatastrophicDelete
					c.noteUnknown(argv[0] + " " + t)
					return "", "", false
				}
			}
			c.unknown = saved
		}
		return "", "", false
	}
	switch {
	case prog == "xargs":
		// The targets of a destructive command behind xargs come from
		// its standard input: never literal.
		for _, a := range args {
			if xargsDestroys[path.Base(a)] || strings.HasPrefix(path.Base(a), "mkfs") {
				c.unknownRule = CatastrophicDelete
				c.noteUnknown("the names on xargs' standard input")
				break
			}
		}
	case prog == "rm":
		for _, a := range args {
			if v := c.p.substitute(unquote(a)); computedWord(v) && strings.HasPrefix(v, "$") && !strings.Contains(v, "/") {
				// A computed word may be "-rf", or split into flags and
				// a target ("c=-rf; rm $c ~", "rm \"$@\"").
				c.unknownRule = CatastrophicDelete
				c.noteUnknown(a)
			}
		}
		flags, ops := splitFlags(args)
		if slices.Contains(flags, "--no-preserve-root") {
			return CatastrophicDelete, "rm --no-preserve-root exists to delete the root directory", true
		}
		if hasFlag(flags, 'r', "--recursive") || hasFlag(flags, 'R', "") {
			if t, ok := c.anyTarget(ops); ok {
				return CatastrophicDelete, "rm -r deletes " + t + " and everything under it", true
			}
		}
	case prog == "mv":
		// Moving the home directory, the root or a system directory away
		// is deleting it from where everything looks for it ("mv ~
		// /tmp/x" passed in bypass). The sources are every operand but
		// the last, or all of them with -t.
		var srcs []string
		target, end := false, false
		for i := 0; i < len(args); i++ {
			a := unquote(args[i])
			switch {
			case end || a == "-" || !strings.HasPrefix(a, "-"):
				srcs = append(srcs, args[i])
			case a == "--":
				end = true
			case strings.HasPrefix(a, "--"):
				// GNU takes any unambiguous prefix: --t, --targ,
				// --target=DIR are --target-directory; --su, --suffix.
				name, _, glued := strings.Cut(a, "=")
				switch {
				case len(name) >= 3 && strings.HasPrefix("--target-directory", name):
					target = true
					if !glued {
						i++ // the directory moved into, not a source
					}
				case len(name) >= 4 && strings.HasPrefix("--suffix", name) && !glued:
					i++
				}
			default:
				// A cluster of short options: -t or -S takes the rest of
				// the word, or the next word when it ends the cluster
				// (-ft /tmp, -nt /tmp).
				for k := 1; k < len(a); k++ {
					if a[k] == 't' || a[k] == 'S' {
						target = target || a[k] == 't'
						if k == len(a)-1 {
							i++
						}
						break
					}
				}
			}
		}
		if !target && len(srcs) > 0 {
			srcs = srcs[:len(srcs)-1]
		}
		if t, ok := c.anyTarget(srcs); ok {
			return CatastrophicDelete, "mv moves " + t + " away from where everything looks for it", true
		}
	case prog == "chmod" || prog == "chown" || prog == "chgrp":
		flags, ops := splitFlags(args)
		if hasFlag(flags, 'R', "--recursive") {
			if t, ok := c.anyTarget(ops); ok {
				return CatastrophicPerms, prog + " -R changes " + t + " and everything under it", true
			}
		}
	case prog == "find":
		if t, ok := c.findDeletes(args); ok {
			return CatastrophicDelete, "find deletes under " + t, true
		}
	case strings.HasPrefix(prog, "mkfs") || prog == "mke2fs":
		return CatastrophicMkfs, prog + " formats a file system, erasing what it held", true
	case prog == "dd":
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				if dev, ok := c.diskStrict(v, true); ok {
					return CatastrophicDisk, "dd writes onto the disk device " + dev, true
				}
			}
		}
	case prog == "tee" || prog == "cp" || prog == "shred" || prog == "wipefs" || prog == "blkdiscard" || prog == "mkswap":
		_, ops := splitFlags(args)
		for _, a := range ops {
			if dev, ok := c.disk(a); ok {
				return CatastrophicDisk, prog + " writes onto the disk device " + dev, true
			}
		}
	}
	return "", "", false
}

// splitFlags separates flags from operands; after "--" all are operands.
func splitFlags(args []string) (flags, ops []string) {
	for i, a := range args {
		a = unquote(a)
		if a == "--" {
			return flags, append(ops, args[i+1:]...)
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			flags = append(flags, a)
		} else {
			ops = append(ops, args[i])
		}
	}
	return flags, ops
}

// hasFlag reports a short flag, alone or in a cluster (-rf), or the long
// one (a unique abbreviation of it counts, as getopt_long takes it).
func hasFlag(flags []string, short byte, long string) bool {
	for _, f := range flags {
		if strings.HasPrefix(f, "--") {
			if long != "" && len(f) > 3 && strings.HasPrefix(long, f) {
				return true
			}
			continue
		}
		if strings.IndexByte(f[1:], short) >= 0 {
			return true
		}
	}
	return false
}

// findDeletes reports a find whose start point is catastrophic and whose
// expression deletes (-delete, or -exec rm ...).
func (c *catJudge) findDeletes(args []string) (string, bool) {
	i := 0
	for i < len(args) && (args[i] == "-H" || args[i] == "-L" || args[i] == "-P" || strings.HasPrefix(args[i], "-O")) {
		i++
	}
	var starts []string
	for ; i < len(args); i++ {
		a := unquote(args[i])
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		starts = append(starts, args[i])
	}
	deletes := false
	for j, a := range args[i:] {
		a = unquote(a)
		switch a {
		case "-delete":
			deletes = true
		case "-exec", "-execdir", "-ok", "-okdir":
			if rest := args[i+j+1:]; len(rest) > 0 {
				switch path.Base(unquote(rest[0])) {
				case "rm", "shred", "unlink", "chmod", "chown", "chgrp":
					deletes = true
				}
			}
		}
	}
	if !deletes {
		return "", false
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	t, ok := c.anyTarget(starts)
	if ok && namesFilter(args[i:]) && c.homeOnly(starts) {
		// "find ~ -name '*.pyc' -delete" deletes some files under the
		// home, not the home: no deny, which no one could approve, but a
		// sticky ask, since the name test is the only thing between it
		// and everything there.
		c.noteUnknown(t + " (only what " + strings.Join(args[i:], " ") + " selects)")
		return "", false
	}
	return t, ok
}

// homeOnly reports whether every critical one of starts is the home
// itself (not the root, a system directory or a parent of the home,
// where a name test still reaches what the system runs on).
func (c *catJudge) homeOnly(starts []string) bool {
	home := path.Clean(c.p.Home)
	for _, w := range starts {
		if _, ok := c.target(w); !ok {
			continue
		}
		if c.p.resolve(c.p.expandVar(c.p.substitute(unquote(w)))) != home {
			return false
		}
	}
	return home != "" && home != "/"
}

// namesFilter reports whether a find expression deletes only files whose
// name or path matches a pattern that is not everything: -name, -iname,
// -path, -ipath, -wholename, -regex, -iregex with a value other than "*"
// or ".*", and no -o or "," that could widen it.
func namesFilter(expr []string) bool {
	found := false
	for k, a := range expr {
		a = unquote(a)
		switch a {
		case "-o", "-or", ",", "!", "-not":
			return false
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
			if k+1 < len(expr) {
				// A pattern of nothing but wildcards ("*", "?*", "*/*",
				// ".*", ".+") selects everything.
				v := strings.Trim(unquote(expr[k+1]), "^$")
				if strings.Trim(v, "*?/.+") != "" {
					found = true
				}
			}
		}
	}
	return found
}

// anyTarget returns the first operand that names the root, a top-level
// system directory, everything in one of them (/*), or the home directory
// itself.
func (c *catJudge) anyTarget(ops []string) (string, bool) {
	for _, w := range ops {
		if t, ok := c.target(w); ok {
			return t, true
		}
	}
	return "", false
}

func (c *catJudge) target(word string) (string, bool) {
	fl := c.p.flow
	cwd := c.p.Cwd
	if fl != nil && fl.cd {
		cwd = "." // $PWD is wherever the text went: judged as relative
	}
	w := normalizeVars(c.p.expandVar(c.p.substitute(unquote(word))), cwd)
	if w == "" {
		return "", false
	}
	if fl != nil && fl.cd && (strings.Contains(word, "OLDPWD") || fl.dirUnknown && strings.Contains(word, "PWD")) {
		// After the text's own cd, $OLDPWD is where it was, and $PWD
		// wherever it went when that is not known: computed.
		c.noteUnknown(word)
		return "", false
	}
	home := c.p.Home
	homeSpelling := false
	for _, h := range []string{"~", "$HOME", "${HOME}"} {
		if rest, ok := strings.CutPrefix(w, h); ok && (rest == "" || rest[0] == '/') {
			homeSpelling = true
			if home == "" || home == "/" {
				// No home to resolve against: judge the spelling.
				rest = strings.Trim(rest, "/")
				if rest == "" || rest == "." || isEverything(rest) {
					return "the home directory (" + word + ")", true
				}
				return "", false
			}
		}
	}
	if !homeSpelling && (strings.Contains(w, "$") || strings.Contains(w, "`")) {
		// A target of a destructive verb must be literal: a variable, a
		// parameter operator (${HOME%/}) or a substitution ("$(echo ~)")
		// is computed when the command runs and could be the home
		// directory, so the ask is sticky in every mode, bypass too.
		c.noteUnknown(word)
		return "", false
	}
	relative := !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~")
	cwds := []string{c.p.Cwd}
	if relative && fl != nil && fl.cd {
		// "cd / && rm -rf usr": the operand is relative to any
		// directory the text went to.
		cwds = append(cwds, fl.dirs...)
	}
	for _, dir := range cwds {
		if relative && dir == "" {
			continue // relative, and nothing to resolve it from
		}
		p := c.p
		p.Cwd = dir
		if t, ok := criticalTarget(p.resolve(w), word, home); ok {
			return t, true
		}
		if t, ok := c.physical(w, dir, word, home); ok {
			return t, true
		}
	}
	if relative && fl != nil && fl.dirUnknown {
		c.noteUnknown(word)
	}
	return "", false
}

// computedWord reports whether a word of a command is computed when it
// runs: a variable, a parameter operator, a substitution.
func computedWord(w string) bool { return strings.ContainsAny(w, "$`") }

// physical judges w as the kernel reaches it, where the engine can look
// (Paths.Physical): every component but the last resolved on disk, links
// followed, ".." taken after each, so that a planted link makes no
// parent of the home look like the project ("cd lnk && find .. -delete"
// and "chmod -R 000 lnk/.." with lnk -> ~/sub reached the home). The last
// component is followed only when the word ends in "/" (rm -rf lnk
// removes the link; rm -rf lnk/ what it points to).
func (c *catJudge) physical(w, dir, word, home string) (string, bool) {
	if c.p.Physical == nil || strings.ContainsAny(w, "*?[") {
		return "", false
	}
	raw := w
	switch {
	case w == "~" || strings.HasPrefix(w, "~/"):
		raw = home + w[1:]
	case strings.HasPrefix(w, "/"):
	case dir != "":
		raw = dir + "/" + w
	default:
		return "", false
	}
	follow := strings.HasSuffix(raw, "/") || strings.HasSuffix(raw, "/.")
	parent, base := path.Split(strings.TrimRight(raw, "/"))
	ph := c.p.Physical(path.Clean(parent))
	if ph == "" {
		return "", false
	}
	target := path.Join(ph, base)
	if follow {
		if t := c.p.Physical(target); t != "" {
			target = t
		}
	}
	if t, ok := criticalTarget(target, word, home); ok {
		return t, true
	}
	// The home as the kernel knows it (/home/u -> /data/u).
	if ph := c.p.Physical(home); ph != "" && ph != home {
		if t, ok := criticalTarget(target, word, ph); ok {
			return t, true
		}
	}
	return "", false
}

func (c *catJudge) noteUnknown(word string) {
	if c.unknown == "" {
		c.unknown = word
	}
}

// criticalTarget judges a resolved path: the root, a system directory,
// home, or a glob reaching one.
func criticalTarget(abs, word, home string) (string, bool) {
	if abs == "" {
		return "", false
	}
	if critical(abs, home) {
		return describeTarget(abs, word, home), true
	}
	if strings.ContainsAny(abs, "*?[") {
		// A glob: everything in a critical directory (/*, ~/.*), or one
		// that can expand to a critical directory (/u*).
		dir, base := path.Split(abs)
		dir = path.Clean(dir)
		if isEverything(base) && !strings.ContainsAny(dir, "*?[") && critical(dir, home) {
			return "everything in " + describeTarget(dir, word, home), true
		}
		for _, d := range append([]string{home}, systemDirs...) {
			if d == "" || d == "/" {
				continue
			}
			if ok, _ := path.Match(abs, d); ok {
				return describeTarget(d, word, home), true
			}
		}
	}
	return "", false
}

// normalizeVars rewrites the spellings of home and of the working
// directory that bash expands the same way: "${HOME:?}" (and the other
// ${HOME...} forms with a default or check) as "$HOME", and "$PWD",
// "${PWD}", "$(pwd)" and "`pwd`" as the working directory when known.
func normalizeVars(w, cwd string) string {
	if strings.HasPrefix(w, "${HOME") {
		if end := strings.IndexByte(w, '}'); end > 0 {
			mod := w[len("${HOME"):end]
			if mod == "" || strings.ContainsRune(":?-=+", rune(mod[0])) {
				w = "$HOME" + w[end+1:]
			}
		}
	}
	if cwd != "" {
		for _, p := range []string{"$PWD", "${PWD}", "$(pwd)", "`pwd`"} {
			if rest, ok := strings.CutPrefix(w, p); ok && (rest == "" || rest[0] == '/') {
				return cwd + rest
			}
		}
	}
	return w
}

// isEverything reports a glob that matches every name in a directory.
func isEverything(base string) bool {
	switch base {
	case "*", ".*", "**", "*.*", "?*", ".?*", "[!.]*", "[^.]*", ".[!.]*", ".[^.]*":
		return true
	}
	return false
}

// critical reports the root, a top-level system directory, or home.
func critical(abs, home string) bool {
	return abs == "/" || slices.Contains(systemDirs, abs) || (home != "" && home != "/" && (abs == path.Clean(home) || ancestorOf(abs, path.Clean(home))))
}

// ancestorOf reports whether dir holds home below it: deleting ~/.. (or
// /srv/users when the home is /srv/users/u) deletes the home with it.
func ancestorOf(dir, home string) bool {
	return dir != home && strings.HasPrefix(home, strings.TrimSuffix(dir, "/")+"/")
}

func describeTarget(abs, word, home string) string {
	switch {
	case abs == "/":
		return "the root directory (" + word + ")"
	case home != "" && abs == path.Clean(home):
		return "the home directory (" + word + ")"
	case home != "" && ancestorOf(abs, path.Clean(home)):
		return abs + ", which holds the home directory (" + word + ")"
	}
	return "the system directory " + abs + " (" + word + ")"
}

// disk reports whether word resolves to a disk device.
func (c *catJudge) disk(word string) (string, bool) { return c.diskStrict(word, false) }

// diskStrict is disk; strict says word is surely written to (dd of=), so
// that a target computed at run time is noted as unknown.
func (c *catJudge) diskStrict(word string, strict bool) (string, bool) {
	w := c.p.expandVar(c.p.substitute(unquote(word)))
	fl := c.p.flow
	if !strings.HasPrefix(w, "/") && fl != nil && fl.cd {
		// "cd /dev && dd of=sda": relative to where the text went.
		for _, dir := range fl.dirs {
			if dev, ok := diskDevice(path.Join(dir, w)); ok {
				return dev, true
			}
		}
		if fl.dirUnknown && strict {
			c.noteUnknown(word)
		}
	}
	if _, computed := c.p.unknownVar(w); strings.ContainsAny(w, "$`") && (strings.HasPrefix(w, "/dev") || strict) || strict && computed {
		c.noteUnknown(word)
		return "", false
	}
	return diskDevice(w)
}

// diskDevice reports whether writing w could write a disk: any path under
// /dev but the devices known not to be one (/dev/null, a terminal, a
// descriptor). A list of disk names missed /dev/block/8:0, /dev/sg* and
// /dev/nbd*; this is an accept-list of what is not a disk.
func diskDevice(w string) (string, bool) {
	if !strings.HasPrefix(w, "/dev") {
		return "", false
	}
	abs := path.Clean(w)
	if abs == "/dev" || !strings.HasPrefix(abs, "/dev/") {
		return "", false
	}
	for _, d := range diskDevices {
		if strings.HasPrefix(abs, d) && len(abs) > len("/dev/") {
			return abs, true
		}
	}
	if notDisk[abs] {
		return "", false
	}
	for _, p := range notDiskUnder {
		if strings.HasPrefix(abs, p) {
			return "", false
		}
	}
	return abs, true
}

// notDisk and notDiskUnder are the devices a write to cannot harm a disk.
var notDisk = map[string]bool{
	"/dev/null": true, "/dev/zero": true, "/dev/full": true, "/dev/stdout": true, "/dev/stderr": true,
	"/dev/stdin": true, "/dev/tty": true, "/dev/random": true, "/dev/urandom": true, "/dev/console": true,
	"/dev/ptmx": true, "/dev/tcp": true, "/dev/udp": true,
}

var notDiskUnder = []string{"/dev/fd/", "/dev/pts/", "/dev/shm/", "/dev/tcp/", "/dev/udp/", "/dev/mqueue/"}

// redirectOntoDisk finds an output redirect (>, >>, >|, &>, 1>) onto a
// disk device anywhere in the text, quoted or not: the text is read as
// characters, so it also finds one inside bash -c '...'.
func (c *catJudge) redirectOntoDisk(text string) (string, bool) {
	for i := 0; i < len(text); i++ {
		if text[i] != '>' {
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] == '>' || text[j] == '|') {
			j++
		}
		for j < len(text) && strings.IndexByte(" \t\"'\\", text[j]) >= 0 {
			j++
		}
		end := j
		for end < len(text) && strings.IndexByte(" \t\n;&|)\"'<>`", text[end]) < 0 {
			end++
		}
		if dev, ok := c.disk(text[j:end]); ok {
			return dev, true
		}
	}
	return "", false
}

// unquote drops quote characters, which change no path's meaning here.
func unquote(w string) string {
	if !strings.ContainsAny(w, `"'\`) {
		return w
	}
	return strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(w)
}

// forkBomb finds a function that calls itself in a pipeline or in the
// background, and is called: ":(){ :|:& };:" and its renamings. unread
// is why some of the text (or a text it runs) was not read, "" when all
// of it was: a statement the form cannot say may hold one.
func forkBomb(s *shparse.Script, text string) (name string, ok bool, unread string) {
	return forkBombIn(s, text)
}

// forkBombIn finds a function that reaches itself, by name, through
// $FUNCNAME, or through other functions ("a(){ b|b& }; b(){ a; }"), where
// a function on the way starts a pipe or a background job. It reads the
// form of the text and of every text a command in it runs ("bash -c ...",
// "env sh -c ...", "eval ...": [shparse.Stmt.Nested]).
func forkBombIn(s *shparse.Script, text string) (name string, ok bool, unread string) {
	sc := s.Of(text)
	if !sc.Form().Parsed {
		if c := strings.ReplaceAll(text, " ", ""); strings.Contains(c, ":(){:|:&};:") {
			return ":", true, ""
		}
		return "", false, ""
	}
	calls := map[string][]string{}
	spawns := map[string]bool{}
	var collect func(f *shparse.Form, depth int)
	collect = func(f *shparse.Form, depth int) {
		if f.Unknown && unread == "" {
			unread = f.Err
			if unread == "" {
				unread = "a construct it does not know"
			}
		}
		for st := range f.All() {
			if st.Nested != nil && depth < 3 {
				// A shell string inside: its functions count too.
				if n := st.Nested.Script(); n.Err == nil {
					collect(n.Form(), depth+1)
				}
			}
			if st.Kind != shparse.KindFunc {
				continue
			}
			name := st.Name
			for _, body := range st.Children {
				for m := range body.All() {
					switch {
					case m.Kind == shparse.KindCall && len(m.Args) > 0:
						callee := m.Args[0].Value // "\f" and "'f'" call f too
						if !m.Args[0].Static {
							callee = ""
						}
						if m.Args[0].SelfName() {
							callee = name
						}
						if callee != "" {
							calls[name] = append(calls[name], callee)
						}
					case m.Kind == shparse.KindPipe || m.Kind == shparse.KindPipeAll:
						spawns[name] = true
					}
					if m.Background {
						spawns[name] = true
					}
				}
			}
		}
	}
	collect(sc.Form(), 0)
	names := make([]string, 0, len(calls))
	for n := range calls {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, start := range names {
		// Is start on a cycle whose functions include a spawner?
		type node struct {
			name  string
			spawn bool
		}
		seen := map[string]bool{}
		stack := []node{{start, spawns[start]}}
		for len(stack) > 0 {
			cur := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, next := range calls[cur.name] {
				sp := cur.spawn || spawns[next]
				if next == start && sp {
					return start, true, ""
				}
				key := next + fmt.Sprint(sp)
				if !seen[key] && len(seen) < 1024 {
					seen[key] = true
					stack = append(stack, node{next, sp})
				}
			}
		}
	}
	return "", false, unread
}

// makesLink reports an ln that makes a symbolic link.
func makesLink(argv []string) bool {
	if len(argv) == 0 || path.Base(argv[0]) != "ln" {
		return false
	}
	flags, _ := splitFlags(argv[1:])
	return hasFlag(flags, 's', "--symbolic")
}

// destructive reports a command that deletes or changes a whole tree, or
// writes a device: rm -r, chmod/chown/chgrp -R, find -delete, dd, shred,
// rsync --delete, mkfs.
func destructive(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	prog := path.Base(argv[0])
	flags, _ := splitFlags(argv[1:])
	switch prog {
	case "rm":
		return hasFlag(flags, 'r', "--recursive") || hasFlag(flags, 'R', "")
	case "chmod", "chown", "chgrp":
		return hasFlag(flags, 'R', "--recursive")
	case "find":
		return slices.Contains(argv, "-delete")
	case "dd", "shred", "rmdir", "unlink", "truncate":
		return true
	case "rsync":
		return slices.ContainsFunc(argv, func(a string) bool { return strings.HasPrefix(a, "--delete") })
	}
	return strings.HasPrefix(prog, "mkfs") || prog == "mke2fs"
}

// xargsDestroys are the programs whose targets behind xargs would come
// from standard input.
var xargsDestroys = map[string]bool{"rm": true, "rmdir": true, "chmod": true, "chown": true, "chgrp": true, "shred": true,
	"dd": true, "unlink": true, "truncate": true, "find": true, "rsync": true, "mke2fs": true}
