package allowlist

import (
	"slices"
	"strings"
)

// Text and file readers: GNU coreutils, findutils, grep, diffutils,
// util-linux, binutils strings, vim's xxd, file(1), tree, ripgrep. Each
// table was checked flag by flag against the program's --help and manual;
// where BSD differs, the stricter reading is kept (noted per flag).

// help, version and zero are flags many entries share. They are
// functions, not variables: the compiler lays out a literal that calls
// one in the binary, where one that copies a variable is built at
// start-up.
func help() Flag    { return Use("--help", "prints help") }
func version() Flag { return Use("--version", "prints the version") }
func zero() Flag    { return Use("-z, --zero-terminated", "lines end with NUL") }

var textEntries = []*Entry{
	{Words: []string{"ls"}, Note: "lists directories", Example: "ls d", Asks: []string{"ls -@ d"}, NamesOnly: true, Flags: []Flag{
		Use("-a, --all", "lists dot files"), Use("-A, --almost-all", "lists dot files but . and .."),
		Use("--author", "prints the author"), Use("-b, --escape", "C escapes"),
		Use("--block-size=SIZE", "size unit"), Use("-B, --ignore-backups", "skips ~ files"),
		Use("-c", "sorts by ctime"), Use("-C", "columns"), Use("--color[=WHEN]", "colours"),
		Use("-d, --directory", "lists directories themselves"), Use("-D, --dired", "Emacs dired output"),
		Use("-f", "directory order"), Use("-F, --classify[=WHEN]", "appends type indicators"),
		Use("--file-type", "appends type indicators"), Use("--format=WORD", "output format"),
		Use("--full-time", "full times"), Use("-g", "long without owner"),
		Use("--group-directories-first", "directories first"), Use("-G, --no-group", "no group"),
		Use("-h, --human-readable", "human sizes"), Use("--si", "powers of 1000"),
		Use("-H, --dereference-command-line", "follows operand symlinks"),
		Use("--dereference-command-line-symlink-to-dir", "follows operand symlinks to directories"),
		Use("--hide=PATTERN", "hides names matching a shell pattern"), Use("--hyperlink[=WHEN]", "hyperlinks"),
		Use("--indicator-style=WORD", "indicator style"), Use("-i, --inode", "inode numbers"),
		Use("-I, --ignore=PATTERN", "hides names matching a shell pattern"), Use("-k, --kibibytes", "1 KiB blocks"),
		Use("-l", "long listing"), Use("-L, --dereference", "follows symlinks"), Use("-m", "comma list"),
		Use("-n, --numeric-uid-gid", "numeric ids"), Use("-N, --literal", "no quoting"), Use("-o", "long without group"),
		Use("-p", "slash after directories"), Use("-q, --hide-control-chars", "hides control characters"),
		Use("--show-control-chars", "shows control characters"), Use("-Q, --quote-name", "quotes names"),
		Use("--quoting-style=WORD", "quoting style"), Use("-r, --reverse", "reverse order"),
		Use("-R, --recursive", "recursive"), Use("-s, --size", "allocated size"), Use("-S", "sorts by size"),
		Use("--sort=WORD", "sort key"), Use("--time=WORD", "which time"), Use("--time-style=STYLE", "time style"),
		Use("-t", "sorts by time"), Use("-T, --tabsize=COLS", "tab size (BSD -T takes no value: the next word is then judged as a path either way)"),
		Use("-u", "access time"), Use("-U", "no sorting"), Use("-v", "version sort"), Use("-w, --width=COLS", "width"),
		Use("-x", "rows"), Use("-X", "sorts by extension"), Use("-Z, --context", "SELinux context"), Use("--zero", "NUL ends lines"),
		Use("-1", "one per line"), help(), version(),
	}},
	{Words: []string{"cat"}, Note: "prints files", Example: "cat f", Asks: []string{"cat -l f"}, Flags: []Flag{
		Use("-A, --show-all", "shows non-printing"), Use("-b, --number-nonblank", "numbers non-blank lines"),
		Use("-e", "-vE"), Use("-E, --show-ends", "shows $ at ends"), Use("-n, --number", "numbers lines"),
		Use("-s, --squeeze-blank", "squeezes blank lines"), Use("-t", "-vT"), Use("-T, --show-tabs", "shows tabs"),
		Use("-u", "ignored"), Use("-v, --show-nonprinting", "shows non-printing"), help(), version(),
	}},
	{Words: []string{"head"}, Note: "prints the start of files", Example: "head f", Asks: []string{"head -f f"}, Numeric: true, Flags: []Flag{
		Use("-c, --bytes=NUM", "bytes"), Use("-n, --lines=NUM", "lines"), Use("-q, --quiet, --silent", "no headers"),
		Use("-v, --verbose", "headers"), zero(), help(), version(),
	}},
	{Words: []string{"tail"}, Note: "prints the end of files", Example: "tail f", Asks: []string{"tail -f log", "tail -F log", "tail --follow=name log"}, Numeric: true, Flags: []Flag{
		Use("-c, --bytes=NUM", "bytes"), Refuse(Forever, "-f, --follow[=HOW]", "follows growth (never ends by itself)"),
		Refuse(Forever, "-F", "follows by name (never ends by itself)"), Use("-n, --lines=NUM", "lines"), Use("--max-unchanged-stats=N", "reopen check"),
		Use("--pid=PID", "stops following when PID dies"), Use("-q, --quiet, --silent", "no headers"),
		Use("--retry", "retries"), Use("-s, --sleep-interval=N", "sleep"), Use("-v, --verbose", "headers"),
		zero(), help(), version(),
	}},
	{Words: []string{"wc"}, Note: "counts lines, words and bytes", Example: "wc f", Asks: []string{"wc --libxo=json f"}, Flags: []Flag{
		Use("-c, --bytes", "bytes"), Use("-m, --chars", "characters"), Use("-l, --lines", "lines"),
		Walks(Lists, "--files0-from=FILE", "reads the list of files from FILE"), Use("-L, --max-line-length", "longest line"),
		Use("-w, --words", "words"), Use("--total=WHEN", "total line"), help(), version(),
	}},
	{Words: []string{"stat"}, Note: "prints file metadata", Example: "stat f", Asks: []string{"stat -x f"}, Flags: []Flag{
		Use("-L, --dereference", "follows links"), Use("-f, --file-system", "file system status (BSD -f takes a format: the next word is then judged as a path either way)"),
		Use("--cached=MODE", "cache use"), Use("-c, --format=FORMAT", "format"), Use("--printf=FORMAT", "format"),
		Use("-t, --terse", "terse"), help(), version(),
	}},
	{Words: []string{"file"}, Note: "guesses file types", Example: "file f", Asks: []string{"file -z a.gz", "file -C -m magic", "file -m magic f"}, Flags: []Flag{
		Use("-b, --brief", "no file names"), Use("-c, --checking-printout", "prints the parsed magic file"),
		Use("-d, --debug", "debug output"), Use("-E", "stops on file system errors"), Use("-e, --exclude=NAME", "skips a test"),
		Use("--exclude-quiet=NAME", "skips a test"), Use("--extension", "prints extensions"),
		Walks(Lists, "-f, --files-from=FILE", "reads the names to test from FILE"), Use("-F, --separator=STRING", "separator"),
		Use("-h, --no-dereference", "does not follow symlinks"), Use("-i, --mime", "MIME type"),
		Use("--mime-type", "MIME type"), Use("--mime-encoding", "MIME encoding"), Use("-k, --keep-going", "all matches"),
		Use("-l, --list", "lists magic strengths"), Use("-L, --dereference", "follows symlinks"),
		Refuse(Unjudged, "-m, --magic-file=FILE", "loads magic files (every file of a directory, following links) and quotes the lines it cannot parse"), Use("-N, --no-pad", "no padding"),
		Use("-n, --no-buffer", "flushes output"), Use("-P, --parameter=NAME", "a limit (name=value)"),
		Use("-r, --raw", "raw output"), Use("-s, --special-files", "reads block and character devices (their paths are judged)"),
		Use("-0, --print0", "NUL after names"), Use("--apple", "Apple creator/type"), help(), Use("-v, --version", "prints the version"),
		Refuse(Writes, "-C, --compile", "compiles a magic file, writing it"),
		Refuse(Writes, "-p, --preserve-date", "restores the access time of the files it reads"),
		Refuse(Runs, "-z, --uncompress", "runs decompression programs on the files"),
		Refuse(Runs, "-Z, --uncompress-noreport", "runs decompression programs on the files"),
		Refuse(Unjudged, "-S, --no-sandbox", "turns off file's own sandbox for its parsers"),
	}},
	{Words: []string{"grep"}, Note: "searches file contents", Example: "grep x f", Asks: []string{"grep -J x f.bz2"}, Flags: grepFlags,
		Operands: Operands{Lead: 1, LeadUnless: []string{"-e", "-f"}}, Numeric: true},
	{Words: []string{"egrep"}, Note: "grep -E", Example: "egrep x f", Asks: []string{"egrep -M x f.xz"}, Flags: grepFlags,
		Operands: Operands{Lead: 1, LeadUnless: []string{"-e", "-f"}}, Numeric: true},
	{Words: []string{"fgrep"}, Note: "grep -F", Example: "fgrep x f", Asks: []string{"fgrep --xz x f.xz"}, Flags: grepFlags,
		Operands: Operands{Lead: 1, LeadUnless: []string{"-e", "-f"}}, Numeric: true},
	rgEntry,
	{Words: []string{"sort"}, Note: "sorts lines", Example: "sort f", Asks: []string{"sort -o f f", "sort --compress-program=gzip f"}, Flags: []Flag{
		Use("-b, --ignore-leading-blanks", "ignores leading blanks"), Use("-d, --dictionary-order", "dictionary order"),
		Use("-f, --ignore-case", "folds case"), Use("-g, --general-numeric-sort", "general numbers"),
		Use("-i, --ignore-nonprinting", "printable only"), Use("-M, --month-sort", "months"),
		Use("-h, --human-numeric-sort", "human numbers"), Use("-n, --numeric-sort", "numbers"),
		Use("-R, --random-sort", "shuffles"), Use("--random-source=FILE", "reads random bytes from FILE"),
		Use("-r, --reverse", "reverse"), Use("--sort=WORD", "sort kind"), Use("-V, --version-sort", "versions"),
		Use("--batch-size=N", "merge batch"), Use("-c, --check[=HOW]", "checks order"), Use("-C", "checks order quietly"),
		Use("--debug", "annotates"), Walks(Lists, "--files0-from=FILE", "reads the list of files from FILE"),
		Use("-k, --key=KEYDEF", "sort key"), Use("-m, --merge", "merges sorted files"), Use("-s, --stable", "stable"),
		Use("-S, --buffer-size=SIZE", "memory buffer"), Use("-t, --field-separator=SEP", "field separator"),
		Use("--parallel=N", "threads"), Use("-u, --unique", "unique"), zero(), help(), version(),
		Refuse(Writes, "-o, --output=FILE", "writes the result to a file"),
		Refuse(Runs, "--compress-program=PROG", "runs a compression program"),
		Use("-T, --temporary-directory=DIR", "where its temporary files go (sort makes them in $TMPDIR anyway, with names of its own)"),
	}},
	{Words: []string{"uniq"}, Note: "filters repeated lines (at most one file: a second is written)", Example: "uniq f", Asks: []string{"uniq f out"},
		Operands: Operands{Max: 1}, Flags: []Flag{
			Use("-c, --count", "counts"), Use("-d, --repeated", "duplicates only"), Use("-D", "all duplicates"),
			Use("--all-repeated[=METHOD]", "all duplicates"), Use("-f, --skip-fields=N", "skips fields"),
			Use("--group[=METHOD]", "groups"), Use("-i, --ignore-case", "folds case"), Use("-s, --skip-chars=N", "skips characters"),
			Use("-u, --unique", "unique only"), zero(), Use("-w, --check-chars=N", "compares N characters"), help(), version(),
		}},
	{Words: []string{"cut"}, Note: "selects fields of lines", Example: "cut -f1 f", Asks: []string{"cut -w -f1 f"}, Flags: []Flag{
		Use("-b, --bytes=LIST", "bytes"), Use("-c, --characters=LIST", "characters"), Use("-d, --delimiter=SEP", "delimiter"),
		Use("-f, --fields=LIST", "fields"), Use("-n", "ignored"), Use("--complement", "complement"),
		Use("-s, --only-delimited", "delimited lines only"), Use("--output-delimiter=STRING", "output delimiter"), zero(), help(), version(),
	}},
	{Words: []string{"nl"}, Note: "numbers lines", Example: "nl f", Asks: []string{"nl --output=out f"}, Flags: []Flag{
		Use("-b, --body-numbering=STYLE", "body style"), Use("-d, --section-delimiter=SEP", "section delimiter"),
		Use("-f, --footer-numbering=STYLE", "footer style"), Use("-h, --header-numbering=STYLE", "header style"),
		Use("-i, --line-increment=N", "increment"), Use("-l, --join-blank-lines=N", "blank lines"),
		Use("-n, --number-format=FORMAT", "format"), Use("-p, --no-renumber", "no reset"),
		Use("-s, --number-separator=STRING", "separator"), Use("-v, --starting-line-number=N", "first number"),
		Use("-w, --number-width=N", "width"), help(), version(),
	}},
	// Without -r, diff still reads every top-level file of two
	// directories (and with -N those only one has): a directory operand
	// is read like a tree.
	{Words: []string{"diff"}, Note: "compares files", Example: "diff a b", Asks: []string{"diff -l a b", "diff --paginate a b"}, Flags: diffFlags, Walks: Tree},
	{Words: []string{"od"}, Note: "dumps files in octal and other formats", Example: "od f", Asks: []string{"od --output=out f"}, Flags: []Flag{
		Use("-A, --address-radix=RADIX", "offset radix"), Use("--endian=ORDER", "byte order"),
		Use("-j, --skip-bytes=N", "skips bytes"), Use("-N, --read-bytes=N", "limits bytes"),
		Use("-S N", "strings"), Use("--strings[=N]", "strings"), Use("-t, --format=TYPE", "output format"),
		Use("-v, --output-duplicates", "no * lines"), Use("-w[=N], --width[=N]", "bytes per line"),
		Use("--traditional", "traditional operands"), Use("-a", "named characters"), Use("-b", "octal bytes"),
		Use("-c", "characters"), Use("-d", "unsigned decimal"), Use("-f", "floats"), Use("-i", "decimal ints"),
		Use("-l", "decimal longs"), Use("-o", "octal"), Use("-s", "decimal shorts"), Use("-x", "hex shorts"),
		Use("-h", "BSD: hex shorts"), Use("-D", "BSD: decimal ints"), Use("-e, -F", "BSD: doubles"),
		Use("-H, -X", "BSD: hex ints"), Use("-O", "BSD: octal ints"), Use("-B", "BSD: octal shorts"), Use("-I, -L", "BSD: decimal longs"),
		help(), version(),
	}},
	{Words: []string{"hexdump"}, Note: "dumps files in hex", Example: "hexdump f", Asks: []string{"hexdump -U f"}, Flags: []Flag{
		Use("-b, --one-byte-octal", "octal bytes"), Use("-X, --one-byte-hex", "hex bytes"), Use("-c, --one-byte-char", "characters"),
		Use("-C, --canonical", "hex and ASCII"), Use("-d, --two-bytes-decimal", "decimal"), Use("-o, --two-bytes-octal", "octal"),
		Use("-x, --two-bytes-hex", "hex"), Use("-L[=WHEN], --color[=WHEN]", "colours"), Use("-e, --format=FORMAT", "format string"),
		Use("-f, --format-file=FILE", "reads format strings from FILE"), Use("-n, --length=N", "bytes"),
		Use("-s, --skip=N", "skips bytes"), Use("-v, --no-squeezing", "no * lines"), Use("-h, --help", "prints help"),
		Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"xxd"}, Note: "hex dump of one file (a second operand is written)", Example: "xxd f", Asks: []string{"xxd -r dump f", "xxd f out"}, SingleDash: true,
		Operands: Operands{Max: 1}, Flags: []Flag{
			Use("-a, -autoskip", "collapses NUL lines"), Use("-b, -bits", "binary digits"), Use("-C, -capitalize", "capital names with -i"),
			Use("-c COLS, -cols COLS", "octets per line"), Use("-E, -EBCDIC", "EBCDIC"), Use("-e", "little-endian"),
			Use("-g N, -groupsize N", "group size"), Use("-h, -help", "prints help"), Use("-i, -include", "C include output"),
			Use("-l N, -len N", "stops after N octets"), Use("-n NAME, -name NAME", "variable name with -i"),
			Use("-o N", "adds to the offset"), Use("-p, -ps, -postscript, -plain", "plain hex"), Use("-s N, -seek N", "starts at offset"),
			Use("-d", "decimal offsets"), Use("-u", "upper case"), Use("-v, -version", "prints the version"),
			Refuse(Writes, "-r, -revert", "turns a hex dump back into binary, which can patch a file"),
		}},
	{Words: []string{"tr"}, Note: "translates characters from standard input", Example: "tr a b", Asks: []string{"tr a b f"},
		Operands: Operands{Strings: true, Max: 2}, Flags: []Flag{
			Use("-c, -C, --complement", "complement"), Use("-d, --delete", "deletes characters from the stream"),
			Use("-s, --squeeze-repeats", "squeezes"), Use("-t, --truncate-set1", "truncates set 1"), help(), version(),
		}},
	{Words: []string{"rev"}, Note: "reverses lines", Example: "rev f", Asks: []string{"rev -r f"}, Flags: []Flag{
		Use("-0, --zero", "NUL ends lines"), Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"tac"}, Note: "prints files last line first", Example: "tac f", Asks: []string{"tac --output=out f"}, Flags: []Flag{
		Use("-b, --before", "separator before"), Use("-r, --regex", "separator is a regex"),
		Use("-s, --separator=STRING", "separator"), help(), version(),
	}},
	{Words: []string{"paste"}, Note: "merges lines of files", Example: "paste a b", Asks: []string{"paste --output=out a b"}, Flags: []Flag{
		Use("-d, --delimiters=LIST", "delimiters"), Use("-s, --serial", "one file at a time"), zero(), help(), version(),
	}},
	{Words: []string{"join"}, Note: "joins lines of two files on a field", Example: "join a b", Asks: []string{"join a b out"}, Operands: Operands{Max: 2}, Flags: []Flag{
		Use("-a FILENUM", "unpaired lines"), Use("-e STRING", "empty fields"), Use("-i, --ignore-case", "folds case"),
		Use("-j FIELD", "join field"), Use("-o FORMAT", "output format"), Use("-t SEP", "separator"),
		Use("-v FILENUM", "unpaired only"), Use("-1 FIELD", "field of file 1"), Use("-2 FIELD", "field of file 2"),
		Use("--check-order", "checks order"), Use("--nocheck-order", "no order check"), Use("--header", "header line"),
		zero(), help(), version(),
	}},
	{Words: []string{"comm"}, Note: "compares two sorted files", Example: "comm a b", Asks: []string{"comm a b out"}, Operands: Operands{Max: 2}, Flags: []Flag{
		Use("-1", "hides column 1"), Use("-2", "hides column 2"), Use("-3", "hides column 3"),
		Use("--check-order", "checks order"), Use("--nocheck-order", "no order check"),
		Use("--output-delimiter=STRING", "delimiter"), Use("--total", "summary"), zero(), help(), version(),
	}},
	{Words: []string{"fold"}, Note: "wraps lines", Example: "fold f", Asks: []string{"fold --output=out f"}, Flags: []Flag{
		Use("-b, --bytes", "counts bytes"), Use("-s, --spaces", "breaks at spaces"), Use("-w, --width=N", "width"), help(), version(),
	}},
	{Words: []string{"fmt"}, Note: "reformats paragraphs", Example: "fmt f", Asks: []string{"fmt --output=out f"}, Numeric: true, Flags: []Flag{
		Use("-c, --crown-margin", "crown margin"), Use("-p, --prefix=STRING", "prefix"), Use("-s, --split-only", "splits only"),
		Use("-t, --tagged-paragraph", "tagged"), Use("-u, --uniform-spacing", "uniform spacing"),
		Use("-w, --width=N", "width"), Use("-g, --goal=N", "goal width"), help(), version(),
	}},
	{Words: []string{"column"}, Note: "formats input into columns", Example: "column f", Asks: []string{"column --output=out f"}, Flags: []Flag{
		Use("-t, --table", "table"), Use("-n, --table-name=NAME", "JSON table name (BSD column has no -n)"),
		Use("-O, --table-order=COLUMNS", "column order"), Use("-N, --table-columns=NAME", "column names"),
		Use("-l, --table-columns-limit=N", "column limit"), Use("-E, --table-noextreme=COLUMNS", "no extreme"),
		Use("-d, --table-noheadings", "no header"), Use("-e, --table-header-repeat", "repeats header"),
		Use("-H, --table-hide=COLUMNS", "hides columns"), Use("-R, --table-right=COLUMNS", "right aligns"),
		Use("-T, --table-truncate=COLUMNS", "truncates"), Use("-W, --table-wrap=COLUMNS", "wraps"),
		Use("-L, --keep-empty-lines", "keeps empty lines"), Use("-J, --json", "JSON"), Use("-r, --tree=COLUMN", "tree column"),
		Use("-i, --tree-id=COLUMN", "tree id"), Use("-p, --tree-parent=COLUMN", "tree parent"),
		Use("-c, --output-width=N", "width"), Use("-o, --output-separator=STRING", "output separator"),
		Use("-s, --separator=STRING", "input separators"), Use("-x, --fillrows", "fills rows"),
		Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
	}},
	{Words: []string{"expand"}, Note: "converts tabs to spaces", Example: "expand f", Asks: []string{"expand --output=out f"}, Numeric: true, Flags: []Flag{
		Use("-i, --initial", "initial tabs only"), Use("-t, --tabs=LIST", "tab stops"), help(), version(),
	}},
	{Words: []string{"unexpand"}, Note: "converts spaces to tabs", Example: "unexpand f", Asks: []string{"unexpand --output=out f"}, Numeric: true, Flags: []Flag{
		Use("-a, --all", "all blanks"), Use("--first-only", "leading blanks only"), Use("-t, --tabs=LIST", "tab stops"), help(), version(),
	}},
	{Words: []string{"seq"}, Note: "prints a sequence of numbers", Example: "seq 3", Asks: []string{"seq --output=out 3"}, Numeric: true,
		Operands: Operands{Strings: true, Max: 3}, Flags: []Flag{
			Use("-f, --format=FORMAT", "format"), Use("-s, --separator=STRING", "separator"),
			Use("-t, --terminator=STRING", "BSD: terminator"), Use("-w, --equal-width", "pads"), help(), version(),
		}},
	{Words: []string{"printf"}, Note: "prints formatted text", Example: "printf x", Asks: []string{"printf -v var x"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Refuse(Writes, "-v NAME", "assigns to a shell variable (bash builtin)"),
	}},
	{Words: []string{"echo"}, Note: "prints its arguments", Example: "echo x", Asks: []string{"echo -x y"}, KeepFlags: true, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-n", "no newline"), Use("-e", "interprets escapes"), Use("-E", "no escapes"),
	}},
	{Words: []string{"strings"}, Note: "prints printable strings in files", Example: "strings f", Asks: []string{"strings @args", "strings -s @args f"}, Numeric: true, Check: atFileCheck, Flags: []Flag{
		Use("-a, --all", "whole file"), Use("-d, --data", "data sections"), Use("-f, --print-file-name", "file names"),
		Use("-n, --bytes=N", "minimum length"), Use("-t, --radix=RADIX", "offset radix"),
		Use("-w, --include-all-whitespace", "whitespace"), Use("-o", "octal offsets"), Use("-T, --target=NAME", "binary format"),
		Use("-e, --encoding=ENC", "encoding"), Use("--unicode=MODE", "unicode"), Use("-U MODE", "unicode"),
		Use("-s, --output-separator=STRING", "separator"), Use("-h, --help", "prints help"), Use("-v, -V, --version", "prints the version"),
	}},
	{Words: []string{"cmp"}, Note: "compares two files byte by byte", Example: "cmp a b", Asks: []string{"cmp a b 0 0 out"}, Operands: Operands{Max: 4}, Flags: []Flag{
		Use("-b, --print-bytes", "prints bytes"), Use("-i, --ignore-initial=SKIP", "skips bytes"),
		Use("-l, --verbose", "all differences"), Use("-n, --bytes=N", "limits bytes"), Use("-s, --quiet, --silent", "no output"),
		help(), Use("-v, --version", "prints the version"),
	}},
	{Words: []string{"tree"}, Note: "lists directories as a tree", Example: "tree d", Asks: []string{"tree -o out d", "tree -R -H . d", "tree --fromfile list"}, SingleDash: true, NamesOnly: true, Flags: []Flag{
		Use("-a", "all files"), Use("-d", "directories only"), Use("-l", "follows symlinks"), Use("-f", "full paths"),
		Use("-x", "one file system"), Use("-L N", "depth"), Use("-P PATTERN", "lists only names matching"),
		Use("-I PATTERN", "hides names matching"), Walks(Tree|Dot, "--gitignore", "uses .gitignore"), Use("--gitfile=FILE", "reads ignore patterns from FILE"),
		Use("--ignore-case", "folds case"), Use("--matchdirs", "patterns on directories"), Use("--metafirst", "metadata first"),
		Use("--prune", "prunes empty directories"), Walks(Tree|Dot, "--info", "prints .info comments"), Use("--infofile=FILE", "reads comments from FILE"),
		Use("--noreport", "no report"), Use("--charset=NAME", "charset"), Use("--filelimit=N", "file limit"),
		Use("-q", "? for non-printing"), Use("-N", "as is"), Use("-Q", "quotes"), Use("-p", "permissions"), Use("-u", "owner"),
		Use("-g", "group"), Use("-s", "size"), Use("-h", "human sizes"), Use("--si", "powers of 1000"), Use("--du", "directory sizes"),
		Use("-D", "dates"), Use("--timefmt=FORMAT", "time format"), Use("-F", "type indicators"), Use("--inodes", "inodes"),
		Use("--device", "devices"), Use("-v", "version sort"), Use("-t", "time sort"), Use("-c", "ctime sort"),
		Use("-U", "no sort"), Use("-r", "reverse"), Use("--dirsfirst", "directories first"), Use("--filesfirst", "files first"),
		Use("--sort=TYPE", "sort key"), Use("-i", "no indentation"), Use("-A", "ANSI lines"), Use("-S", "CP437 lines"),
		Use("-n", "no colour"), Use("-C", "colour"), Use("-X", "XML"), Use("-J", "JSON"),
		Refuse(Secrets, "--fromfile", "reads a listing from the operand files, which prints their contents"),
		Refuse(Secrets, "--fromtabfile", "reads a tabbed listing from the operand files, which prints their contents"),
		Use("--help", "prints help"), Use("--version", "prints the version"),
		Refuse(Writes, "-o FILE", "writes the output to a file"),
		Refuse(Writes, "-R", "reruns itself in each directory with -o 00Tree.html, writing files"),
		Refuse(Unjudged, "-H BASEHREF", "HTML output, usually written with -R or -o"),
	}},
	{Words: []string{"readlink"}, Note: "prints symlink targets", Example: "readlink f", Asks: []string{"readlink --output=out f"}, Flags: []Flag{
		Use("-f, --canonicalize", "canonical path"), Use("-e, --canonicalize-existing", "canonical, existing"),
		Use("-m, --canonicalize-missing", "canonical, missing allowed"), Use("-n, --no-newline", "no newline"),
		Use("-q, --quiet", "quiet"), Use("-s, --silent", "quiet"), Use("-v, --verbose", "errors"),
		Use("-z, --zero", "NUL ends lines"), help(), version(),
	}},
	{Words: []string{"realpath"}, Note: "resolves a path", Example: "realpath f", Asks: []string{"realpath --output=out f"}, Flags: []Flag{
		Use("-e, --canonicalize-existing", "must exist"), Use("-m, --canonicalize-missing", "need not exist"),
		Use("-L, --logical", "logical"), Use("-P, --physical", "physical"), Use("-q, --quiet", "quiet"),
		Use("--relative-to=DIR", "relative to DIR"), Use("--relative-base=DIR", "relative below DIR"),
		Use("-s, --strip, --no-symlinks", "no symlinks"), Use("-z, --zero", "NUL ends lines"), help(), version(),
	}},
	{Words: []string{"basename"}, Note: "strips directories from a path", Example: "basename a/b", Asks: []string{"basename --output=out a/b"}, Flags: []Flag{
		Use("-a, --multiple", "several names"), Use("-s, --suffix=STRING", "removes a suffix"), Use("-z, --zero", "NUL ends lines"), help(), version(),
	}},
	{Words: []string{"dirname"}, Note: "strips the last component of a path", Example: "dirname a/b", Asks: []string{"dirname --output=out a/b"}, Flags: []Flag{
		Use("-z, --zero", "NUL ends lines"), help(), version(),
	}},
	{Words: []string{"du"}, Note: "estimates disk usage", Example: "du d", Asks: []string{"du -n d"}, NamesOnly: true, Flags: []Flag{
		Use("-0, --null", "NUL ends lines"), Use("-a, --all", "files too"), Use("--apparent-size", "apparent size"),
		Use("-B, --block-size=SIZE", "block size"), Use("-b, --bytes", "bytes"), Use("-c, --total", "total"),
		Use("-D, --dereference-args", "follows operand symlinks"), Use("-d, --max-depth=N", "depth"),
		Walks(Lists, "--files0-from=FILE", "reads the list of files from FILE"), Use("-H", "follows operand symlinks"),
		Use("-h, --human-readable", "human sizes"), Use("--inodes", "inodes"), Use("-k", "KiB"), Use("-L, --dereference", "follows symlinks"),
		Use("-l, --count-links", "hard links"), Use("-m", "MiB"), Use("-P, --no-dereference", "no symlinks"),
		Use("-S, --separate-dirs", "separate"), Use("--si", "powers of 1000"), Use("-s, --summarize", "summary"),
		Use("-t, --threshold=SIZE", "threshold"), Use("--time[=WORD]", "times"), Use("--time-style=STYLE", "time style"),
		Use("-X, --exclude-from=FILE", "reads exclude patterns from FILE"), Use("--exclude=PATTERN", "excludes"),
		Use("-x, --one-file-system", "one file system"), Use("-g", "BSD: GiB"), Use("-A", "BSD: apparent size"),
		Use("-I PATTERN", "BSD: excludes"), help(), version(),
	}},
	{Words: []string{"md5sum"}, Note: "prints or checks MD5 sums", Example: "md5sum f", Asks: []string{"md5sum -r f"}, Flags: sumFlags},
	{Words: []string{"sha1sum"}, Note: "prints or checks SHA-1 sums", Example: "sha1sum f", Asks: []string{"sha1sum -a 1 f"}, Flags: sumFlags},
	{Words: []string{"sha224sum"}, Note: "prints or checks SHA-224 sums", Example: "sha224sum f", Asks: []string{"sha224sum --length=224 f"}, Flags: sumFlags},
	{Words: []string{"sha256sum"}, Note: "prints or checks SHA-256 sums", Example: "sha256sum f", Asks: []string{"sha256sum -a 256 f"}, Flags: sumFlags},
	{Words: []string{"sha384sum"}, Note: "prints or checks SHA-384 sums", Example: "sha384sum f", Asks: []string{"sha384sum --base64 f"}, Flags: sumFlags},
	{Words: []string{"sha512sum"}, Note: "prints or checks SHA-512 sums", Example: "sha512sum f", Asks: []string{"sha512sum -U f"}, Flags: sumFlags},
	{Words: []string{"b2sum"}, Note: "prints or checks BLAKE2 sums", Example: "b2sum f", Asks: []string{"b2sum --algorithm=blake2b f"}, Flags: []Flag{Use("-l, --length=N", "digest bits")}, shared: [][]Flag{sumFlags}},
	{Words: []string{"cksum"}, Note: "prints or checks checksums", Example: "cksum f", Asks: []string{"cksum -o 1 f"}, Flags: []Flag{
		Use("-a, --algorithm=TYPE", "digest"), Walks(Lists, "-c, --check", "checks sums listed in the files, opening the files they name"), Use("-l, --length=N", "digest bits"),
		Use("--tag", "BSD style"), Use("--untagged", "reversed style"), Use("--base64", "base64 digest"), Use("--raw", "raw digest"),
		Use("-z, --zero", "NUL ends lines"), Use("--ignore-missing", "ignores missing"), Use("--quiet", "quiet"),
		Use("--status", "status only"), Use("--strict", "strict"), Use("-w, --warn", "warns"), Use("--debug", "debug"), help(), version(),
	}},
	{Words: []string{"test"}, Note: "evaluates a file or string test", Example: "test -f f", Asks: []string{`test -v x\[\$\(id\)\]`}, KeepFlags: true, ExactFlags: true, Flags: testFlags},
	{Words: []string{"["}, Note: "evaluates a file or string test", Example: "[ -f f ]", Asks: []string{`[ -v x\[\$\(id\)\] ]`}, KeepFlags: true, ExactFlags: true, Flags: testFlags},
	{Words: []string{"pwd"}, Note: "prints the working directory", Example: "pwd", Asks: []string{"pwd x"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-L, --logical", "logical"), Use("-P, --physical", "physical"), help(), version(),
	}},
	{Words: []string{"true"}, Note: "does nothing, successfully", Example: "true", Asks: []string{"true --version"}, KeepFlags: true, Operands: Operands{Strings: true}},
	{Words: []string{"false"}, Note: "does nothing, unsuccessfully", Example: "false", Asks: []string{"false --version"}, KeepFlags: true, Operands: Operands{Strings: true}},
	{Words: []string{"sum"}, Note: "prints BSD or System V checksums", Example: "sum f", Asks: []string{"sum -c f"}, Flags: []Flag{
		Use("-r", "BSD algorithm"), Use("-s, --sysv", "System V algorithm"), help(), version(),
	}},
	{Words: []string{"look"}, Note: "prints the lines of a sorted file that begin with a string", Example: "look abc words.txt", Asks: []string{"look -x abc words.txt"}, Operands: Operands{Lead: 1}, Flags: []Flag{
		Use("-a, --alternative", "alternative dictionary"), Use("-b", "BSD: binary search"), Use("-d, --alphanum", "alphanumerics only"),
		Use("-f, --ignore-case", "ignores case"), Use("-t, --terminate=CHAR", "termination character"),
		Use("-h, --help", "prints help"), Use("-V, --version", "prints the version"),
	}, Hazards: []Hazard{
		// util-linux look reads the file WORDLIST names when it is given
		// none: a host that runs an allowed command with its own
		// environment (Cursor) would print a key for "look -- -".
		{Env: "WORDLIST", Why: "WORDLIST names the file look reads when given none (it could be a key)"},
	}},
	{Words: []string{"which"}, Note: "locates programs on PATH", Example: "which ls", Asks: []string{"which -a --skip-alias ls"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-a, --all", "all matches"), Use("-s", "BSD: status only"),
	}},
}

var sumFlags = []Flag{
	Use("-b, --binary", "binary mode"), Walks(Lists, "-c, --check", "checks sums listed in the files, opening the files they name"), Use("--tag", "BSD style"),
	Use("-t, --text", "text mode"), Use("-z, --zero", "NUL ends lines"), Use("--ignore-missing", "ignores missing"),
	Use("--quiet", "quiet"), Use("--status", "status only"), Use("--strict", "strict"), Use("-w, --warn", "warns"), help(), version(),
}

// testFlags are test(1)'s unary and binary operators; their operands are
// judged as paths (they are stat'ed, never read).
var testFlags = []Flag{
	Use("-b", "block device"), Use("-c", "character device"), Use("-d", "directory"), Use("-e", "exists"),
	Use("-f", "regular file"), Use("-g", "set-group-ID"), Use("-G", "owned by the group"), Use("-h, -L", "symlink"),
	Use("-k", "sticky"), Use("-N", "modified since read"), Use("-O", "owned by the user"), Use("-p", "FIFO"),
	Use("-r", "readable"), Use("-s", "not empty"), Use("-S", "socket"), Use("-t", "descriptor is a terminal"),
	Use("-u", "set-user-ID"), Use("-w", "writable"), Use("-x", "executable"), Use("-n", "string not empty"),
	Use("-z", "string empty"), Use("-a", "and, or exists"), Use("-o", "or"),
	Refuse(Runs, "-v", "bash's variable test evaluates an array subscript of the name, and runs the commands in it (x[$(cmd)])"),
	Use("-nt", "newer than"), Use("-ot", "older than"), Use("-ef", "same file"), Use("-eq", "equal"), Use("-ne", "not equal"),
	Use("-lt", "less"), Use("-le", "less or equal"), Use("-gt", "greater"), Use("-ge", "greater or equal"),
	Use("-R", "name reference (bash)"),
}

var grepFlags = []Flag{
	Use("-E, --extended-regexp", "extended regexps"), Use("-F, --fixed-strings", "fixed strings"),
	Use("-G, --basic-regexp", "basic regexps"), Use("-P, --perl-regexp", "Perl regexps"),
	Use("-e, --regexp=PATTERN", "the pattern"), Use("-f, --file=FILE", "reads patterns from FILE"),
	Use("-i, --ignore-case", "folds case"), Use("-y", "folds case"), Use("--no-ignore-case", "keeps case"),
	Use("-w, --word-regexp", "whole words"), Use("-x, --line-regexp", "whole lines"), Use("-z, --null-data", "NUL lines"),
	Use("-s, --no-messages", "no errors"), Use("-v, --invert-match", "inverts"), Use("-V, --version", "prints the version"),
	help(), Use("-m, --max-count=N", "stops after N"), Use("-b, --byte-offset", "offsets"), Use("-n, --line-number", "line numbers"),
	Use("--line-buffered", "line buffering"), Use("-H, --with-filename", "file names"), Use("-h, --no-filename", "no file names"),
	Use("--label=LABEL", "name for standard input"), Use("-o, --only-matching", "matches only"), Use("-q, --quiet, --silent", "quiet"),
	Use("--binary-files=TYPE", "binary files"), Use("-a, --text", "binary as text"), Use("-I", "skips binary files"),
	WalksWhen("recurse", Tree|Dot, "-d, --directories=ACTION", "directories"), Use("-D, --devices=ACTION", "devices"),
	Walks(Tree|Dot, "-r, --recursive", "recursive"),
	Walks(Tree|Dot|Follows, "-R, --dereference-recursive", "recursive, following symlinks"), Use("--include=GLOB", "only files matching"),
	Use("--exclude=GLOB", "skips files matching"), Use("--exclude-from=FILE", "reads skip patterns from FILE"),
	Use("--exclude-dir=GLOB", "skips directories matching"), Use("-L, --files-without-match", "non-matching files"),
	Use("-l, --files-with-matches", "matching files"), Use("-c, --count", "counts"), Use("-T, --initial-tab", "tabs"),
	Use("-Z, --null", "NUL after names (BSD -Z decompresses in-process)"), Use("-B, --before-context=N", "context before"),
	Use("-A, --after-context=N", "context after"), Use("-C, --context=N", "context"), Use("--group-separator=SEP", "separator"),
	Use("--no-group-separator", "no separator"), Use("--color[=WHEN], --colour[=WHEN]", "colours"), Use("-U, --binary", "binary"),
	Walks(Follows, "-O", "BSD: follows command-line symlinks"), Walks(Follows, "-S", "BSD: follows symlinks"),
	Use("-p", "BSD: no symlinks"),
}

var diffFlags = []Flag{
	Use("--normal", "normal diff"), Use("-q, --brief", "whether files differ"), Use("-s, --report-identical-files", "reports identical"),
	Use("-c", "context format"), Use("-C N", "context lines"), Use("--context[=N]", "context format"), Use("-u", "unified format"),
	Use("-U N", "unified lines"), Use("--unified[=N]", "unified format"), Use("-e, --ed", "ed script (printed)"),
	Use("-n, --rcs", "RCS format"), Use("-y, --side-by-side", "two columns"), Use("-W, --width=N", "width"),
	Use("--left-column", "left column"), Use("--suppress-common-lines", "no common lines"),
	Use("-p, --show-c-function", "C function"), Use("-F, --show-function-line=REGEX", "function lines"),
	Use("--label=LABEL", "label"), Use("-t, --expand-tabs", "expands tabs"), Use("-T, --initial-tab", "tabs"),
	Use("--tabsize=N", "tab size"), Use("--suppress-blank-empty", "no blank"), Walks(Tree, "-r, --recursive", "recursive"),
	Use("--no-dereference", "no symlinks"), Use("-N, --new-file", "absent as empty"), Use("--unidirectional-new-file", "absent first as empty"),
	Use("--ignore-file-name-case", "folds names"), Use("--no-ignore-file-name-case", "keeps case"),
	Use("-x, --exclude=PATTERN", "excludes"), Use("-X, --exclude-from=FILE", "reads exclude patterns from FILE"),
	Use("-S, --starting-file=FILE", "starts at FILE"), Walks(Root, "--from-file=FILE", "compares FILE to each operand"),
	Walks(Root, "--to-file=FILE", "compares each operand to FILE"), Use("-i, --ignore-case", "folds case"),
	Use("-E, --ignore-tab-expansion", "tabs"), Use("-Z, --ignore-trailing-space", "trailing space"),
	Use("-b, --ignore-space-change", "space changes"), Use("-w, --ignore-all-space", "all space"),
	Use("-B, --ignore-blank-lines", "blank lines"), Use("-I, --ignore-matching-lines=REGEX", "matching lines"),
	Use("-a, --text", "as text"), Use("--strip-trailing-cr", "strips CR"), Use("-D, --ifdef=NAME", "#ifdef output"),
	Use("--old-group-format=FORMAT", "format"), Use("--new-group-format=FORMAT", "format"),
	Use("--unchanged-group-format=FORMAT", "format"), Use("--changed-group-format=FORMAT", "format"),
	Use("--line-format=FORMAT", "format"), Use("--old-line-format=FORMAT", "format"), Use("--new-line-format=FORMAT", "format"),
	Use("--unchanged-line-format=FORMAT", "format"), Use("-d, --minimal", "minimal"), Use("--horizon-lines=N", "horizon"),
	Use("--speed-large-files", "heuristics"), Use("--color[=WHEN]", "colours"), Use("--palette=STRING", "colours"),
	help(), Use("-v, --version", "prints the version"),
	Refuse(Runs, "-l, --paginate", "runs pr(1) on the output"),
}

// rgEntry is ripgrep 14 (rg --help): it reads .gitignore, .ignore and
// .rgignore files, and $RIPGREP_CONFIG_PATH names a file of extra flags,
// which the engine's environment must not carry (see the package notes).
var rgEntry = &Entry{Words: []string{"rg"}, Note: "searches file contents (ripgrep)", Example: "rg x f", Asks: []string{"rg --pre cat x f", "rg -z x f.gz", "rg --hostname-bin=hostname x"}, Numeric: true, Walks: Tree | Dot,
	Operands: Operands{Lead: 1, LeadUnless: []string{"-e", "-f", "--files", "--type-list"}}, Flags: []Flag{
		Use("-e, --regexp=PATTERN", "the pattern"), Use("-f, --file=FILE", "reads patterns from FILE"),
		Use("-A, --after-context=N, -B, --before-context=N, -C, --context=N", "context"), Use("--binary, --no-binary", "binary files"),
		Use("--block-buffered, --no-block-buffered, --line-buffered, --no-line-buffered", "buffering"),
		Use("-b, --byte-offset, --no-byte-offset", "offsets"), Use("-s, --case-sensitive", "case"), Use("--color=WHEN", "colours"),
		Use("--colors=SPEC", "colour spec"), Use("--column, --no-column", "columns"), Use("--context-separator=SEP, --no-context-separator", "separator"),
		Use("-c, --count, --count-matches", "counts"), Use("--crlf, --no-crlf", "CRLF"), Use("--debug, --trace", "debug"),
		Use("--dfa-size-limit=N", "limit"), Use("-E, --encoding=ENCODING, --no-encoding", "encoding"),
		Use("--engine=NAME", "regex engine"), Use("--field-context-separator=SEP, --field-match-separator=SEP", "separators"),
		Use("--files", "lists files"), Use("-l, --files-with-matches, --files-without-match", "names"),
		Use("-F, --fixed-strings, --no-fixed-strings", "fixed"), Walks(Follows, "-L, --follow, --no-follow", "symlinks"),
		Use("--generate=KIND", "man page or completions"), Use("-g, --glob=GLOB, --iglob=GLOB", "globs"),
		Use("--glob-case-insensitive, --no-glob-case-insensitive", "glob case"), Use("--heading, --no-heading", "headings"),
		Use("-h, --help", "prints help"), Use("-., --hidden, --no-hidden", "hidden files"),
		Use("--ignore-file=FILE", "reads ignore patterns from FILE"), Use("--ignore-file-case-insensitive, --no-ignore-file-case-insensitive", "case"),
		Use("-i, --ignore-case", "folds case"), Use("--include-zero, --no-include-zero", "zero counts"),
		Use("-v, --invert-match, --no-invert-match", "inverts"), Use("--json, --no-json", "JSON"),
		Use("-n, --line-number, -N, --no-line-number", "line numbers"), Use("-x, --line-regexp", "whole lines"),
		Use("-M, --max-columns=N, --max-columns-preview, --no-max-columns-preview", "long lines"), Use("-m, --max-count=N", "limit"),
		Use("-d, --max-depth=N, --maxdepth=N", "depth"), Use("--max-filesize=SIZE", "size"), Use("--mmap, --no-mmap", "mmap"),
		Use("-U, --multiline, --no-multiline, --multiline-dotall, --no-multiline-dotall", "multiline"),
		Use("--no-config", "ignores RIPGREP_CONFIG_PATH"), Use("--no-ignore, --ignore", "ignore files"),
		Use("--no-ignore-dot, --no-ignore-exclude, --no-ignore-files, --no-ignore-global, --no-ignore-messages, --no-ignore-parent, --no-ignore-vcs", "ignore files"),
		Use("--no-messages, --messages", "errors"), Use("--no-require-git, --require-git", "git"), Use("--no-unicode, --unicode", "unicode"),
		Use("-0, --null, --null-data", "NUL"), Use("--one-file-system, --no-one-file-system", "file systems"),
		Use("-o, --only-matching", "matches"), Use("--passthru", "all lines"), Use("--path-separator=SEP", "separator"),
		Use("-P, --pcre2, --no-pcre2, --pcre2-version", "PCRE2"), Use("-p, --pretty", "pretty"), Use("-q, --quiet", "quiet"),
		Use("--regex-size-limit=N", "limit"), Use("-r, --replace=STRING", "replacement in the output (no file is changed)"),
		Use("--smart-case, -S", "smart case"), Use("--sort=KEY, --sortr=KEY", "sort"),
		Use("--sort-files, --no-sort-files", "sort"), Use("--stats, --no-stats", "statistics"), Use("--stop-on-nonmatch", "stops"),
		Use("-a, --text, --no-text", "text"), Use("-j, --threads=N", "threads"), Use("--trim, --no-trim", "trims"),
		Use("-t, --type=TYPE, -T, --type-not=TYPE", "file types"), Use("--type-add=SPEC", "defines a file type for this run"),
		Use("--type-clear=TYPE", "clears a file type"), Use("--type-list", "lists types"), Use("-u, --unrestricted", "fewer filters"),
		Use("-V, --version", "prints the version"), Use("--vimgrep", "vim format"), Use("-H, --with-filename, -I, --no-filename", "names"),
		Use("-w, --word-regexp", "words"),
		Refuse(Runs, "--pre=COMMAND", "runs a preprocessor program on every file"),
		Refuse(Runs, "--pre-glob=GLOB", "selects files for the --pre program"),
		Refuse(Runs, "--hostname-bin=COMMAND", "runs a program to get the host name"),
		Refuse(Runs, "-z, --search-zip", "runs decompression programs on the files"),
		Use("--no-pre", "no preprocessor"), Use("--no-search-zip", "no decompression"),
	}}

// atFileCheck refuses "@FILE" words: binutils programs read more
// options from the file (strings @list could hold "--target" or further
// files), which the table cannot see. libiberty's expandargv replaces
// every argument that starts with "@", a flag's value too: "strings -s
// @list f" and "strings -T @list f" read list's words as arguments, and
// printed a key named there. So every value is looked at, strings
// included, not only operands and paths.
func atFileCheck(c *Call) *Refusal {
	words := slices.Concat(c.Operands, c.Paths, c.Strings)
	for _, u := range c.Flags {
		if u.HasValue {
			words = append(words, u.Value)
		}
	}
	for _, w := range words {
		if strings.HasPrefix(w, "@") {
			return refuse(w, "reads more options and file names from %s", w[1:])
		}
	}
	return nil
}

// versionHazards are the files a version manager's shim reads to choose
// which program a name runs: rustup's rust-toolchain.toml can name a
// directory of the project ("path = ..."), so "rustc --version" ran a
// planted script; pyenv, rbenv, nodenv, asdf and the like read theirs.
var versionHazards = []Hazard{
	{File: "rust-toolchain", Why: "rustup runs the toolchain it names, which may be a directory of the project"},
	{File: "rust-toolchain.toml", Why: "rustup runs the toolchain it names, which may be a directory of the project"},
	{File: ".python-version", Why: "pyenv's shim runs the interpreter it names"},
	{File: ".ruby-version", Why: "rbenv's shim runs the interpreter it names"},
	{File: ".node-version", Why: "a Node.js version manager runs the node it names"},
	{File: ".nvmrc", Why: "a Node.js version manager runs the node it names"},
	{File: ".tool-versions", Why: "asdf's shims run the versions it names"},
	{File: ".java-version", Why: "jenv's shim runs the java it names"},
	{File: ".sdkmanrc", Why: "SDKMAN runs the versions it names"},
	{File: ".terraform-version", Why: "tfenv runs the terraform it names"},
}

// versionEntries print an interpreter's or toolchain's version and stop:
// "node --version" asked although nothing else is read. Each is only the
// program and its version flag, no operand. Programs with an opt-in pack
// (cargo, docker, gh, go, kubectl, npm, pip, pnpm, uv, yarn) have theirs
// there, with their global flags. They are made from versions in init.
var versionEntries []*Entry

// versions are the version entries' programs and flags, each with a
// command that asks: what the program would run or write were the
// version flag not the whole command. The entries are made from them in
// init (see builtin).
var versions = []struct{ prog, flag, ask string }{
	{"node", "--version", "node --version -e 'process.exit(1)'"}, {"node", "-v", "node -v app.js"},
	{"python3", "--version", "python3 --version -c 'import os'"}, {"python3", "-V", "python3 -V -m http.server"},
	{"python", "--version", "python --version script.py"}, {"python", "-V", "python -V -c 'import os'"},
	{"ruby", "--version", "ruby --version -e 'exit 1'"}, {"ruby", "-v", "ruby -v script.rb"},
	{"perl", "--version", "perl --version -e 'unlink q(f)'"}, {"perl", "-v", "perl -v script.pl"},
	{"php", "--version", "php --version -r 'echo 1;'"}, {"java", "-version", "java -version -jar app.jar"},
	{"java", "--version", "java --version Main.java"}, {"javac", "-version", "javac -version Main.java"},
	{"javac", "--version", "javac --version -d out Main.java"}, {"rustc", "--version", "rustc --version main.rs"},
	{"rustc", "-V", "rustc -V -o out main.rs"}, {"npx", "--version", "npx --version cowsay"},
	{"deno", "--version", "deno --version run main.ts"}, {"bun", "--version", "bun --version run build"},
	{"gcc", "--version", "gcc --version -o a.out x.c"}, {"g++", "--version", "g++ --version x.cc"},
	{"clang", "--version", "clang --version -fplugin=./x.so x.c"}, {"make", "--version", "make --version install"},
	{"cmake", "--version", "cmake --version -P script.cmake"}, {"terraform", "--version", "terraform --version apply"},
	{"dotnet", "--version", "dotnet --version run"}, {"swift", "--version", "swift --version script.swift"},
	{"mvn", "--version", "mvn --version deploy"}, {"gradle", "--version", "gradle --version build"},
}

// mvnHazards are the files of the project Maven's launcher reads before
// it prints anything: bin/mvn puts the words of the first .mvn/jvm.config
// it finds, from the working directory up, on java's command line, so a
// jvm.config linked to a key printed it ("Could not find or load main
// class SECRET"), and one holding "-javaagent:x.jar" or "@FILE" runs code
// or reads a file; .mvn/maven.config adds Maven options and
// .mvn/extensions.xml loads extensions.
var mvnHazards = []Hazard{
	{File: ".mvn/jvm.config", Why: "Maven's launcher puts its words on java's command line (an agent, an @file), whatever the Maven command"},
	{File: ".mvn/maven.config", Why: "Maven reads more options from it"},
	{File: ".mvn/extensions.xml", Why: "Maven loads the extensions it names"},
}

// versionEntry is the entry of one of versions.
func versionEntry(prog, flag, ask string) *Entry {
	hs := versionHazards
	if prog == "mvn" {
		hs = slices.Concat(versionHazards, mvnHazards)
	}
	return &Entry{Words: []string{prog, flag}, Note: "prints the version", Example: prog + " " + flag,
		Asks: []string{ask}, Operands: Operands{None: true}, Hazards: hs}
}
