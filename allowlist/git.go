package allowlist

import (
	"slices"
	"strings"
)

// git subcommands that only read, checked against git 2.4x's manual pages
// (git-log, git-diff, git-rev-list, git-grep ...). Git accepts unique
// abbreviations of long options, as getopt_long does, so an abbreviation
// of a refused flag asks. Programs git runs from its configuration
// (pager, diff drivers, textconv, gpg) are neutralised by gitsafe; the
// flags that ask for them explicitly ask here too.

// gitGlobals are the options before the subcommand.
var gitGlobals = &Entry{Words: []string{"git"}, Note: "git options before the subcommand", Flags: []Flag{
	Use("-C DIR", "runs as if started in DIR (judged as a path)"), Use("--no-pager, -P", "no pager"),
	Use("--no-optional-locks", "no optional locks"), Use("--literal-pathspecs", "literal pathspecs"),
	Use("--glob-pathspecs", "glob pathspecs"), Use("--noglob-pathspecs", "literal pathspecs"),
	Use("--icase-pathspecs", "case-insensitive pathspecs"), Use("--no-replace-objects", "no replace refs"),
	Use("--no-lazy-fetch", "no lazy fetch"), Use("--no-advice", "no advice"), Use("--bare", "bare repository"),
	Use("--version", "prints the version"), Use("--help", "prints help"),
	Refuse(Runs, "-c NAME", "sets configuration, which can name programs git runs"),
	Refuse(Runs, "--config-env=NAME", "sets configuration, which can name programs git runs"),
	Refuse(Runs, "-p, --paginate", "runs the configured pager"),
	Refuse(Runs, "--exec-path[=DIR]", "runs git programs from another directory"),
	Refuse(Unjudged, "--git-dir=DIR", "uses another repository and its configuration"),
	Refuse(Unjudged, "--work-tree=DIR", "uses another working tree"),
	Refuse(Unjudged, "--namespace=NAME", "uses a ref namespace"),
	Refuse(Unjudged, "--super-prefix=PATH", "internal"),
	Refuse(Unjudged, "--list-cmds=LIST", "lists commands, including configured aliases"),
}}

var gitDiffFlags = []Flag{
	Use("-p, -u, --patch", "patch"), Use("-s, --no-patch", "no patch"), Use("-U[=N], --unified[=N]", "context lines (git takes the number attached only: -U7)"),
	Use("--output-indicator-new=CHAR, --output-indicator-old=CHAR, --output-indicator-context=CHAR", "indicators"),
	Use("--raw", "raw"), Use("--patch-with-raw", "patch and raw"), Use("--indent-heuristic, --no-indent-heuristic", "heuristic"),
	Use("--minimal", "minimal"), Use("--patience", "patience"), Use("--histogram", "histogram"), Use("--anchored=TEXT", "anchored"),
	Use("--diff-algorithm=ALGO", "algorithm"), Use("--stat[=N]", "diffstat"), Use("--stat-width=N, --stat-name-width=N, --stat-graph-width=N, --stat-count=N", "diffstat"),
	Use("--compact-summary", "summary"), Use("--numstat", "numstat"), Use("--shortstat", "shortstat"),
	Use("-X[=PARAMS], --dirstat[=PARAMS]", "dirstat"), Use("--cumulative", "cumulative"), Use("--dirstat-by-file[=PARAMS]", "dirstat"),
	Use("--summary", "summary"), Use("--patch-with-stat", "patch and stat"), Use("-z", "NUL"), Use("--name-only", "names"),
	Use("--name-status", "names and status"), Use("--submodule[=FORMAT]", "submodules"), Use("--color[=WHEN]", "colours"),
	Use("--no-color", "no colours"), Use("--color-moved[=MODE]", "moved lines"), Use("--no-color-moved", "no moved"),
	Use("--color-moved-ws=MODES", "moved whitespace"), Use("--no-color-moved-ws", "no moved whitespace"),
	Use("--word-diff[=MODE]", "word diff"), Use("--word-diff-regex=REGEX", "word regex"), Use("--color-words[=REGEX]", "word colours"),
	Use("--no-renames", "no renames"), Use("--rename-empty, --no-rename-empty", "empty renames"), Use("--check", "whitespace check"),
	Use("--ws-error-highlight=KIND", "highlight"), Use("--full-index", "full index"), Use("--binary", "binary patch"),
	Use("--abbrev[=N]", "abbreviation"), Use("--no-abbrev", "no abbreviation"), Use("-B[=N], --break-rewrites[=N]", "rewrites"),
	Use("-M[=N], --find-renames[=N]", "renames"), Use("-C[=N], --find-copies[=N]", "copies"), Use("--find-copies-harder", "copies"),
	Use("-D, --irreversible-delete", "short deletes"), Use("-l N", "rename limit"), Use("--diff-filter=FILTER", "filter"),
	Use("-S STRING", "pickaxe"), Use("-G REGEX", "pickaxe regex"), Use("--find-object=OBJECT", "object"),
	Use("--pickaxe-all", "pickaxe all"), Use("--pickaxe-regex", "pickaxe regex"), Use("-O ORDERFILE", "reads the order from a file"),
	Use("--skip-to=FILE, --rotate-to=FILE", "starts at a path"), Use("-R", "reverse"), Use("--relative[=PATH]", "relative"),
	Use("--no-relative", "not relative"), Use("-a, --text", "text"), Use("--ignore-cr-at-eol", "CR"),
	Use("--ignore-space-at-eol", "space at eol"), Use("-b, --ignore-space-change", "space change"),
	Use("-w, --ignore-all-space", "all space"), Use("--ignore-blank-lines", "blank lines"),
	Use("-I, --ignore-matching-lines=REGEX", "matching lines"), Use("--inter-hunk-context=N", "hunk context"),
	Use("-W, --function-context", "function context"), Use("--exit-code", "exit code"), Use("--quiet", "quiet"),
	Use("--no-ext-diff", "no external diff"), Use("--no-textconv", "no textconv"), Use("--ignore-submodules[=WHEN]", "submodules"),
	Use("--src-prefix=PREFIX, --dst-prefix=PREFIX, --line-prefix=PREFIX", "prefixes"), Use("--no-prefix, --default-prefix", "prefixes"),
	Use("--ita-invisible-in-index, --ita-visible-in-index", "intent to add"),
	Refuse(Writes, "--output=FILE", "writes the diff to a file"),
	Refuse(Runs, "--ext-diff", "runs the external diff program from configuration"),
	Refuse(Runs, "--textconv", "runs textconv filter programs from configuration"),
}

// gitLogOwn are git log's flags beside the diff flags it shares
// (gitLogFlags is both, as an entry reads them).
var gitLogOwn = []Flag{
	Use("-n, --max-count=N", "limit"), Use("--skip=N", "skips"), Use("--since=DATE, --after=DATE, --since-as-filter=DATE", "since"),
	Use("--until=DATE, --before=DATE", "until"), Use("--author=PATTERN, --committer=PATTERN", "author"),
	Use("--grep-reflog=PATTERN, --grep=PATTERN", "message"), Use("--all-match", "all match"), Use("--invert-grep", "inverts"),
	Use("-i, --regexp-ignore-case", "folds case"), Use("--basic-regexp", "basic"), Use("-E, --extended-regexp", "extended"),
	Use("-F, --fixed-strings", "fixed"), Use("-P, --perl-regexp", "Perl"), Use("--remove-empty", "stops at empty"),
	Use("--merges", "merges"), Use("--no-merges", "no merges"), Use("--min-parents=N, --max-parents=N", "parents"),
	Use("--no-min-parents, --no-max-parents", "parents"), Use("--first-parent", "first parent"),
	Use("--exclude-first-parent-only", "first parent"), Use("--not", "negates"), Use("--all", "all refs"),
	Use("--branches[=PATTERN], --tags[=PATTERN], --remotes[=PATTERN]", "refs"), Use("--glob=PATTERN, --exclude=PATTERN", "refs"),
	Use("--exclude-hidden=KIND", "hidden refs"), Use("--reflog", "reflogs"), Use("--alternate-refs", "alternates"),
	Use("--single-worktree", "one worktree"), Use("--ignore-missing", "ignores missing"), Use("--bisect", "bisect"),
	Use("--stdin", "reads revisions from standard input"), Use("--cherry-mark, --cherry-pick", "cherry"),
	Use("--left-only, --right-only", "one side"), Use("--cherry", "cherry"), Use("-g, --walk-reflogs", "reflog walk"),
	Use("--merge", "merge"), Use("--boundary", "boundary"), Use("--simplify-by-decoration", "simplifies"),
	Use("--show-pulls", "pulls"), Use("--full-history", "full"), Use("--dense, --sparse", "density"),
	Use("--simplify-merges", "simplifies"), Use("--ancestry-path[=COMMIT]", "ancestry"), Use("--date-order, --author-date-order, --topo-order", "order"),
	Use("--reverse", "reverse"), Use("--no-walk[=HOW], --do-walk", "walk"), Use("--pretty[=FORMAT], --format=FORMAT", "format"),
	Use("--abbrev-commit, --no-abbrev-commit", "abbreviation"), Use("--oneline", "one line"), Use("--encoding=ENCODING", "encoding"),
	Use("--expand-tabs[=N], --no-expand-tabs", "tabs"), Use("--notes[=REF], --no-notes, --show-notes[=REF]", "notes"),
	Use("--relative-date", "relative dates"), Use("--date=FORMAT", "date format"), Use("--parents, --children", "parents"),
	Use("--left-right", "sides"), Use("--graph", "graph"), Use("--show-linear-break[=BARRIER]", "breaks"),
	Use("-c, --cc, --dd", "combined diff"), Use("--remerge-diff", "remerge"), Use("--no-diff-merges", "no merge diffs"),
	Use("--diff-merges=FORMAT", "merge diffs"), Use("--combined-all-paths", "paths"), Use("-m", "merge diffs"), Use("-r", "recursive"),
	Use("-t", "trees"), Use("--follow", "follows renames"), Use("--no-decorate, --decorate[=STYLE]", "decorations"),
	Use("--decorate-refs=PATTERN, --decorate-refs-exclude=PATTERN", "decorations"), Use("--clear-decorations", "decorations"),
	Use("--source", "source ref"), Use("--mailmap, --no-mailmap, --use-mailmap, --no-use-mailmap", "mailmap"),
	Use("--full-diff", "full diff"), Use("--log-size", "sizes"), Use("-L RANGE", "line history of RANGE:FILE"),
	Use("--count", "counts (rev-list)"), Use("--in-commit-order", "order"), Use("--objects, --objects-edge, --no-object-names, --object-names", "objects (rev-list)"),
	Use("--timestamp", "timestamps (rev-list)"), Use("--header", "raw headers (rev-list)"), Use("--disk-usage[=HUMAN]", "disk usage (rev-list)"),
	Use("--unpacked", "unpacked (rev-list)"), Use("--missing=ACTION", "missing objects (rev-list)"),
	Refuse(Runs, "--show-signature", "runs the gpg program from configuration"),
}

// gitLogFlags are git log's flags and the diff flags, for an entry.
var gitLogFlags = [][]Flag{gitLogOwn, gitDiffFlags}

// gitListOnly allows operands (patterns) only in the listing form of git
// tag and git branch: otherwise a name creates a tag or a branch.
func gitListOnly(c *Call, listing ...string) *Refusal {
	if len(c.Operands) > 0 && !c.Has(listing...) {
		return refuse(c.Operands[0], "a name without --list creates a %s", c.Entry.Words[1])
	}
	return nil
}

func gitBranchCheck(c *Call) *Refusal { return gitListOnly(c, "--list") }

func gitTagCheck(c *Call) *Refusal {
	return gitListOnly(c, "--list", "-n", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at")
}

func gitReplaceCheck(c *Call) *Refusal { return gitListOnly(c, "-l", "--list") }

var gitGrepFlags = []Flag{
	Use("--cached", "index"),
	Refuse(Secrets, "--untracked", "searches untracked files too, which no path check saw (a .env, a key)"),
	Refuse(Secrets, "--no-index", "searches the whole directory tree like grep -r, outside what git tracks"),
	Use("--no-exclude-standard, --exclude-standard", "ignore files"), Use("--recurse-submodules", "submodules"),
	Use("-a, --text", "text"), Refuse(Runs, "--textconv", "runs textconv filters from configuration"), Use("--no-textconv", "no textconv"),
	Use("-i, --ignore-case", "folds case"), Use("-I", "no binary"), Use("--max-depth=N", "depth"), Use("-r, --recursive, --no-recursive", "recursion"),
	Use("-w, --word-regexp", "words"), Use("-v, --invert-match", "inverts"), Use("-h, -H", "file names"), Use("--full-name", "full names"),
	Use("-E, --extended-regexp, -G, --basic-regexp", "regexps"), Use("-P, --perl-regexp", "Perl"), Use("-F, --fixed-strings", "fixed"),
	Use("-n, --line-number", "line numbers"), Use("--column", "columns"), Use("-l, --files-with-matches, --name-only", "names"),
	Use("-L, --files-without-match", "names"), Use("-z, --null", "NUL"), Use("-o, --only-matching", "matches"), Use("-c, --count", "counts"),
	Use("--color[=WHEN], --no-color", "colours"), Use("--break", "breaks"), Use("--heading", "headings"),
	Use("-p, --show-function", "functions"), Use("-C, --context=N, -A, --after-context=N, -B, --before-context=N", "context"),
	Use("-W, --function-context", "function context"), Use("-m, --max-count=N", "limit"), Use("--threads=N", "threads"),
	Use("-f FILE", "reads patterns from FILE"), Use("-e PATTERN", "the pattern"), Use("--and, --or, --not", "operators"),
	Use("--all-match", "all match"), Use("-q, --quiet", "quiet"),
	Refuse(Runs, "-O, --open-files-in-pager[=PAGER]", "opens the files in a pager program"),
}

var gitConfigFlags = []Flag{
	Use("--get, --get-all", "prints the values of one key"), Use("--global, --system, --local, --worktree", "scope"),
	Use("--show-origin, --show-scope", "where it is set"), Use("--type=TYPE, --bool, --int, --bool-or-int, --path, --expiry-date", "type"),
	Use("--default=VALUE", "default"), Use("-z, --null", "NUL"), Use("--includes, --no-includes", "includes"), Use("--all", "all values"),
	Refuse(Secrets, "-l, --list", "prints every setting, credentials in URLs and headers included"),
	Refuse(Secrets, "--get-regexp, --get-urlmatch", "prints many settings, credentials included"),
	Refuse(Writes, "--add, --unset, --unset-all, --replace-all, --rename-section, --remove-section", "changes configuration"),
	Refuse(Runs, "-e, --edit", "runs the editor"), Refuse(Unjudged, "-f, --file=FILE, --blob=BLOB", "reads another file"),
}

// gitConfigCheck allows reading one key, never one that may hold a
// credential, and never setting: "git config KEY VALUE" has two operands.
func gitConfigCheck(c *Call) *Refusal {
	if len(c.Operands) != 1 {
		return refuse(c.Entry.Name(), "reads one key")
	}
	k := strings.ToLower(c.Operands[0])
	for _, s := range []string{"url", "credential", "token", "password", "pass", "auth", "header", "secret", "cookie", "proxy", "key"} {
		if strings.Contains(k, s) {
			return refuse(c.Operands[0], "key may hold a credential")
		}
	}
	return nil
}

// remoteHazards: "git remote -v" prints URLs, which may hold a password
// or token ("https://user:token@host/...").
var remoteHazards = []Hazard{{File: ".git/config", Match: gitURLCredentials, Why: "a remote URL holds credentials, which git remote would print"}}

var gitEntries = []*Entry{
	{Words: []string{"git", "--version"}, Note: "prints the version", Example: "git --version", Asks: []string{"git --version --help"}, Operands: Operands{None: true}, Flags: []Flag{Use("--build-options", "build options")}},
	{Words: []string{"git", "version"}, Note: "prints the version", Example: "git version", Asks: []string{"git version --help"}, Operands: Operands{None: true}, Flags: []Flag{Use("--build-options", "build options")}},
	{Words: []string{"git", "status"}, Note: "shows the working tree status", Example: "git status", Asks: []string{"git status --help"}, Flags: []Flag{
		Use("-s, --short", "short"), Use("-b, --branch", "branch"), Use("--show-stash", "stash"), Use("--porcelain[=VERSION]", "porcelain"),
		Use("--long", "long"), Use("-v, --verbose", "verbose"), Use("-u[=MODE], --untracked-files[=MODE]", "untracked"),
		Use("--ignore-submodules[=WHEN]", "submodules"), Use("--ignored[=MODE]", "ignored"), Use("-z", "NUL"),
		Use("--column[=OPTIONS], --no-column", "columns"), Use("--ahead-behind, --no-ahead-behind", "ahead/behind"),
		Use("--renames, --no-renames, --find-renames[=N]", "renames"),
	}},
	{Words: []string{"git", "log"}, Note: "shows commit logs", Example: "git log", Asks: []string{"git log --output=log.txt", "git log --show-signature"}, Numeric: true, shared: gitLogFlags},
	{Words: []string{"git", "whatchanged"}, Note: "shows commit logs with changes", Example: "git whatchanged", Asks: []string{"git whatchanged --ext-diff"}, Numeric: true, shared: gitLogFlags},
	{Words: []string{"git", "rev-list"}, Note: "lists commits", Example: "git rev-list HEAD", Asks: []string{"git rev-list --output=out HEAD"}, Numeric: true, shared: gitLogFlags},
	{Words: []string{"git", "shortlog"}, Note: "summarises commit logs", Example: "git shortlog", Asks: []string{"git shortlog --output=authors.txt"}, Numeric: true, Flags: []Flag{
		Use("-s, --summary", "counts"), Use("-n, --numbered", "sorts by count"), Use("-e, --email", "emails"), Use("--group=TYPE", "grouping"),
		Use("-c", "by committer"),
		Use("-w[=WIDTH]", "wrapping"), Use("--committer", "by committer"),
	}, shared: gitLogFlags},
	{Words: []string{"git", "reflog", "show"}, Note: "shows the reflog", Example: "git reflog show", Asks: []string{"git reflog show --show-signature"}, Numeric: true, shared: gitLogFlags},
	{Words: []string{"git", "reflog"}, Note: "shows the reflog", Example: "git reflog", Asks: []string{"git reflog expire --expire=now --all", "git reflog delete HEAD@{1}"}, Numeric: true, shared: gitLogFlags, Operands: Operands{None: true}},
	{Words: []string{"git", "stash", "list"}, Note: "lists stashes", Example: "git stash list", Asks: []string{"git stash list -p --ext-diff"}, Numeric: true, shared: gitLogFlags},
	{Words: []string{"git", "diff"}, Note: "shows changes", Example: "git diff", Asks: []string{"git diff --output=patch.diff", "git diff --ext-diff"}, Walks: Outside, Flags: []Flag{
		Use("--cached, --staged", "index"), Use("--merge-base", "merge base"), Walks(Tree, "--no-index", "two paths"),
		Use("-1, --base, -2, --ours, -3, --theirs, -0", "stages"),
	}, shared: [][]Flag{gitDiffFlags}},
	{Words: []string{"git", "show"}, Note: "shows objects", Example: "git show", Asks: []string{"git show --textconv HEAD:f", "git show --show-signature"}, Numeric: true, shared: gitLogFlags},
	{Words: []string{"git", "stash", "show"}, Note: "shows a stash", Example: "git stash show", Asks: []string{"git stash show -p --textconv"}, Flags: []Flag{
		Use("-u, --include-untracked, --only-untracked", "untracked"),
	}, shared: [][]Flag{gitDiffFlags}},
	{Words: []string{"git", "branch"}, Note: "lists branches (a name needs --list)", Example: "git branch", Asks: []string{"git branch -D feature", "git branch feature", "git branch -m old new"}, Check: gitBranchCheck,
		Operands: Operands{Strings: true}, Flags: []Flag{
			Use("-a, --all", "all"), Use("-r, --remotes", "remotes"), Use("-l, --list", "lists branches matching patterns"),
			Use("-v, --verbose", "verbose"), Use("-q, --quiet", "quiet"), Use("--show-current", "current"),
			Use("--contains=COMMIT?, --no-contains=COMMIT?", "contains (git takes the next word as the commit, if any)"),
			Use("--merged=COMMIT?, --no-merged=COMMIT?", "merged (git takes the next word as the commit, if any)"),
			Use("--points-at=OBJECT", "points at"), Use("--sort=KEY", "sort"), Use("--format=FORMAT", "format"),
			Use("--column[=OPTIONS], --no-column", "columns"), Use("--color[=WHEN], --no-color", "colours"),
			Use("-i, --ignore-case", "folds case"), Use("--abbrev[=N], --no-abbrev", "abbreviation"), Use("--omit-empty", "omits empty"),
			Refuse(Deletes, "-d, -D, --delete", "deletes a branch"), Refuse(Writes, "-m, -M, --move", "renames a branch"),
			Refuse(Writes, "-c, -C, --copy", "copies a branch"), Refuse(Writes, "-f, --force", "forces creation or reset of a branch"),
			Refuse(Writes, "-u, --set-upstream-to=REF, --set-upstream", "changes upstream configuration"),
			Refuse(Writes, "--unset-upstream", "changes upstream configuration"), Refuse(Writes, "-t, --track[=HOW], --no-track", "sets up tracking"),
			Refuse(Writes, "--create-reflog", "creates a reflog"), Refuse(Writes, "--recurse-submodules", "creates branches in submodules"),
			Refuse(Runs, "--edit-description", "runs the configured editor and writes the description"),
		}},
	{Words: []string{"git", "tag"}, Note: "lists tags (a name needs --list)", Example: "git tag", Asks: []string{"git tag v1.0", "git tag -d v1.0", "git tag -s v1.0"},
		Check:    gitTagCheck,
		Operands: Operands{Strings: true}, Flags: []Flag{
			Use("-l, --list", "lists tags matching patterns"), Use("-n[=N]", "annotation lines"), Use("--sort=KEY", "sort"),
			Use("--contains[=COMMIT], --no-contains[=COMMIT]", "contains"), Use("--merged[=COMMIT], --no-merged[=COMMIT]", "merged"),
			Use("--points-at[=OBJECT]", "points at"), Use("--format=FORMAT", "format"), Use("--column[=OPTIONS], --no-column", "columns"),
			Use("--color[=WHEN]", "colours"), Use("-i, --ignore-case", "folds case"), Use("--omit-empty", "omits empty"),
			Refuse(Writes, "-a, --annotate", "creates an annotated tag"), Refuse(Runs, "-s, --sign, -u, --local-user=KEY", "signs with gpg"),
			Refuse(Writes, "-f, --force", "replaces a tag"), Refuse(Deletes, "-d, --delete", "deletes tags"),
			Refuse(Runs, "-v, --verify", "runs gpg to verify"), Refuse(Writes, "-m, --message=TEXT", "creates a tag"),
			Refuse(Writes, "-F, --file=FILE", "creates a tag"), Refuse(Runs, "-e, --edit", "runs the editor"),
			Refuse(Writes, "--cleanup=MODE", "creates a tag"), Refuse(Writes, "--create-reflog", "creates a reflog"),
		}},
	{Words: []string{"git", "rev-parse"}, Note: "resolves revisions and repository paths", Example: "git rev-parse HEAD", Asks: []string{"git rev-parse --parseopt"}, Flags: []Flag{
		Use("--verify", "verify"), Use("-q, --quiet", "quiet"), Use("--sq, --sq-quote", "quoting"), Use("--short[=N]", "short"),
		Use("--abbrev-ref[=MODE]", "ref names"), Use("--symbolic, --symbolic-full-name", "symbolic"), Use("--all", "all refs"),
		Use("--branches[=PATTERN], --tags[=PATTERN], --remotes[=PATTERN]", "refs"), Use("--glob=PATTERN, --exclude=PATTERN", "refs"),
		Use("--exclude-hidden=KIND", "hidden refs"), Use("--disambiguate=PREFIX", "objects"), Use("--local-env-vars", "variables"),
		Use("--path-format=MODE", "path format"), Use("--git-dir, --git-common-dir, --absolute-git-dir", "git directory"),
		Use("--is-inside-git-dir, --is-inside-work-tree, --is-bare-repository, --is-shallow-repository", "tests"),
		Use("--resolve-git-dir=PATH", "checks a git directory"), Use("--git-path=PATH", "a path inside .git"),
		Use("--show-toplevel, --show-superproject-working-tree, --shared-index-path", "paths"),
		Use("--show-object-format[=MODE], --show-ref-format", "formats"), Use("--show-cdup, --show-prefix", "paths"),
		Use("--since=DATE, --after=DATE, --until=DATE, --before=DATE", "dates"), Use("--default=REV", "default"),
		Use("--prefix=PATH", "prefix"), Use("--revs-only, --no-revs, --flags, --no-flags", "filters"), Use("--not", "negates"),
		Use("--stop-at-non-option, --keep-dashdash", "parsing"), Use("--end-of-options", "ends options"),
		Refuse(Unjudged, "--parseopt", "reads an option spec from standard input"),
	}},
	{Words: []string{"git", "ls-files"}, Note: "lists tracked files", Example: "git ls-files", Asks: []string{"git ls-files --help"}, NamesOnly: true, Flags: []Flag{
		Use("-c, --cached, -d, --deleted, -m, --modified, -o, --others, -i, --ignored, -s, --stage, -u, --unmerged, -k, --killed", "selection"),
		Use("--directory, --no-empty-directory, --eol, --deduplicate", "listing"), Use("-x, --exclude=PATTERN", "excludes"),
		Use("-X, --exclude-from=FILE", "reads exclude patterns from FILE"), Use("--exclude-per-directory=FILE", "per-directory ignore file"),
		Use("--exclude-standard", "standard excludes"), Use("--error-unmatch", "errors"), Use("--with-tree=TREE", "tree"),
		Use("--full-name", "full names"), Use("--recurse-submodules", "submodules"), Use("--abbrev[=N]", "abbreviation"),
		Use("--format=FORMAT", "format"), Use("-t, -v, -f", "tags"), Use("-z", "NUL"), Use("--debug", "debug"),
		Use("--sparse", "sparse"), Use("--resolve-undo", "resolve undo"),
	}},
	{Words: []string{"git", "blame"}, Note: "shows who changed each line", Example: "git blame f", Asks: []string{"git blame --contents=other f", "git blame --textconv f"}, Flags: []Flag{
		Use("-b", "blank boundary"), Use("--root", "root"), Use("--show-stats", "stats"), Use("-L RANGE", "lines"),
		Use("-l", "long hashes"), Use("-t", "raw times"), Use("-S FILE", "reads revisions from FILE"), Use("--reverse", "reverse"),
		Use("--first-parent", "first parent"), Use("-p, --porcelain, --line-porcelain", "porcelain"), Use("--incremental", "incremental"),
		Use("--encoding=ENCODING", "encoding"), Use("--date=FORMAT", "dates"), Use("--progress, --no-progress", "progress"),
		Use("-M[=N]", "moved lines"), Use("-C[=N]", "copied lines"), Use("--ignore-rev=REV", "ignores a revision"),
		Use("--ignore-revs-file=FILE", "reads revisions to ignore from FILE"), Use("--color-lines, --color-by-age", "colours"),
		Use("--minimal", "minimal"), Use("-c", "annotate format"), Use("--score-debug", "debug"),
		Use("-f, --show-name, -n, --show-number, -s, -e, --show-email, -w", "columns"), Use("--abbrev[=N]", "abbreviation"),
		Use("--since=DATE", "since"), Use("--no-textconv", "no textconv"),
		Refuse(Unjudged, "--contents=FILE", "blames the contents of another file"),
		Refuse(Runs, "--textconv", "runs textconv filters from configuration"),
	}},
	{Words: []string{"git", "describe"}, Note: "names a commit from tags", Example: "git describe", Asks: []string{"git describe --help"}, Flags: []Flag{
		Use("--dirty[=MARK], --broken[=MARK]", "working tree state"), Use("--all, --tags, --contains", "refs"),
		Use("--abbrev[=N]", "abbreviation"), Use("--candidates=N", "limits"), Use("--exact-match, --debug, --long, --always, --first-parent", "output"),
		Use("--match=PATTERN, --exclude=PATTERN", "patterns"),
	}},
	{Words: []string{"git", "cat-file"}, Note: "prints repository objects", Example: "git cat-file -p HEAD", Asks: []string{"git cat-file --textconv HEAD:f", "git cat-file --filters --path=f HEAD"}, Flags: []Flag{
		Use("-t, -s, -e, -p", "type, size, existence, content"), Use("--batch[=FORMAT], --batch-check[=FORMAT], --batch-command[=FORMAT]", "reads object names from standard input"),
		Use("--batch-all-objects, --buffer, --unordered, --follow-symlinks, -Z, -z", "batch modes"), Use("--allow-unknown-type", "unknown types"),
		Use("--use-mailmap, --no-use-mailmap, --mailmap, --no-mailmap", "mailmap"),
		Refuse(Runs, "--textconv", "runs textconv filters from configuration"),
		Refuse(Runs, "--filters", "runs smudge and other filters from configuration"),
		Refuse(Unjudged, "--path=PATH", "only used with --textconv or --filters"),
	}},
	{Words: []string{"git", "ls-tree"}, Note: "lists a tree object", Example: "git ls-tree HEAD", Asks: []string{"git ls-tree --help"}, Flags: []Flag{
		Use("-d, -r, -t, -l, --long, -z", "listing"), Use("--name-only, --name-status, --object-only", "names"),
		Use("--full-name, --full-tree", "paths"), Use("--abbrev[=N]", "abbreviation"), Use("--format=FORMAT", "format"),
	}},
	{Words: []string{"git", "show-ref"}, Note: "lists references", Example: "git show-ref", Asks: []string{"git show-ref --help"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("--head, --heads, --tags, --branches", "refs"), Use("-d, --dereference", "peels tags"), Use("-s, --hash[=N]", "hashes"),
		Use("--abbrev[=N]", "abbreviation"), Use("-q, --quiet", "quiet"), Use("--verify, --exists", "checks"),
		Use("--exclude-existing[=PATTERN]", "filters standard input"),
	}},
	{Words: []string{"git", "for-each-ref"}, Note: "lists references with a format", Example: "git for-each-ref", Asks: []string{"git for-each-ref --help"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("--count=N", "limit"), Use("-s, --shell, -p, --perl, --python, --tcl", "quoting"), Use("--sort=KEY", "sort"),
		Use("--format=FORMAT", "format"), Use("--color[=WHEN]", "colours"), Use("--points-at=OBJECT", "points at"),
		Use("--merged[=COMMIT], --no-merged[=COMMIT], --contains[=COMMIT], --no-contains[=COMMIT]", "filters"),
		Use("--ignore-case, --omit-empty, --include-root-refs", "filters"), Use("--exclude=PATTERN", "excludes"),
		Use("--stdin", "reads patterns from standard input"),
	}},
	{Words: []string{"git", "name-rev"}, Note: "names revisions", Example: "git name-rev HEAD", Asks: []string{"git name-rev --help"}, Flags: []Flag{
		Use("--tags, --all, --name-only, --no-undefined, --always", "output"), Use("--refs=PATTERN, --exclude=PATTERN", "patterns"),
		Use("--annotate-stdin, --stdin", "reads standard input"),
	}},
	{Words: []string{"git", "merge-base"}, Note: "finds common ancestors", Example: "git merge-base a b", Asks: []string{"git merge-base --help"}, Flags: []Flag{
		Use("-a, --all, --octopus, --independent, --is-ancestor, --fork-point", "modes"),
	}},
	{Words: []string{"git", "archive"}, Note: "writes an archive of a tree to standard output", Example: "git archive HEAD", Asks: []string{"git archive -o out.tar HEAD", "git archive --remote=git@host:r HEAD", "git archive --exec=./x --remote=r HEAD"},
		Numeric: true, Operands: Operands{Strings: true}, Flags: []Flag{
			Use("--format=FMT", "tar, zip, tar.gz ..."), Use("--prefix=PREFIX", "a path prefix inside the archive"),
			Use("-l, --list", "lists the formats"), Use("-v, --verbose", "names the files on standard error"),
			Use("--worktree-attributes", "reads .gitattributes from the working tree"), Use("--mtime=TIME", "file times"),
			Refuse(Writes, "-o, --output=FILE", "writes the archive to a file"),
			Refuse(Network, "--remote=REPO", "fetches the archive from another repository"),
			Refuse(Runs, "--exec=PROGRAM", "runs git-upload-archive, or the program named, for --remote"),
			Refuse(Unjudged, "--add-file=FILE, --add-virtual-file=PATH:CONTENT", "adds a file from the disk, which is not judged as a path"),
		}},
	{Words: []string{"git", "count-objects"}, Note: "counts loose objects", Example: "git count-objects", Asks: []string{"git count-objects --help"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-v, --verbose", "verbose"), Use("-H, --human-readable", "human sizes"),
	}},
	{Words: []string{"git", "show-branch"}, Note: "shows branches and their commits", Example: "git show-branch", Asks: []string{"git show-branch --help"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("-r, --remotes, -a, --all, --current", "refs"), Use("--topo-order, --date-order, --sparse", "order"),
		Use("--more=N", "more"), Use("--list, --merge-base, --independent, --no-name, --sha1-name, --topics", "modes"),
		Use("-g[=N], --reflog[=N]", "reflog"), Use("--color[=WHEN], --no-color", "colours"),
	}},
	{Words: []string{"git", "worktree", "list"}, Note: "lists worktrees", Example: "git worktree list", Asks: []string{"git worktree list --help"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("--porcelain, -v, --verbose, -z", "output"), Use("--expire=TIME", "prunable annotation"),
	}},
	{Words: []string{"git", "remote"}, Note: "lists remotes (no subcommand)", Example: "git remote", Asks: []string{"git remote add origin https://example.com/r", "git remote remove origin"}, Operands: Operands{None: true}, Flags: []Flag{
		Use("-v, --verbose", "prints URLs"),
	}, Hazards: remoteHazards},
	{Words: []string{"git", "remote", "get-url"}, Note: "prints a remote's URL", Example: "git remote get-url origin", Asks: []string{"git remote get-url --help"}, Operands: Operands{Strings: true, Max: 1}, Flags: []Flag{
		Use("--push", "push URL"), Use("--all", "all URLs"),
	}, Hazards: remoteHazards},
	{Words: []string{"git", "check-ignore"}, Note: "tells whether paths are ignored", Example: "git check-ignore f", Asks: []string{"git check-ignore --help"}, Flags: []Flag{
		Use("-q, --quiet, -v, --verbose, -n, --non-matching, --no-index, -z", "output"), Use("--stdin", "reads paths from standard input"),
	}},
	{Words: []string{"git", "cherry"}, Note: "finds commits not yet upstream", Example: "git cherry main", Asks: []string{"git cherry --help"}, Operands: Operands{Strings: true, Max: 3}, Flags: []Flag{
		Use("-v", "subjects"), Use("--abbrev[=N]", "abbreviation"),
	}},
	{Words: []string{"git", "notes", "list"}, Note: "lists notes", Example: "git notes list", Asks: []string{"git notes list --help"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("--ref=REF", "notes ref"),
	}},
	{Words: []string{"git", "notes", "show"}, Note: "shows a note", Example: "git notes show", Asks: []string{"git notes show --help"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("--ref=REF", "notes ref"),
	}},
	{Words: []string{"git", "bisect", "log"}, Note: "shows the bisect log", Example: "git bisect log", Asks: []string{"git bisect log --help"}, Operands: Operands{None: true}},
	{Words: []string{"git", "diff-tree"}, Note: "compares trees", Example: "git diff-tree HEAD", Asks: []string{"git diff-tree --output=out HEAD"}, Numeric: true, Flags: []Flag{
		Use("--stdin", "reads commits from standard input"), Use("--root, --merge-base, --always, --no-commit-id, -v, -s", "output"),
	}, shared: gitLogFlags},
	{Words: []string{"git", "diff-index"}, Note: "compares a tree with the index or working tree", Example: "git diff-index HEAD", Asks: []string{"git diff-index --ext-diff HEAD"}, Flags: []Flag{
		Use("--cached, --merge-base, -m", "modes"),
	}, shared: [][]Flag{gitDiffFlags}},
	{Words: []string{"git", "diff-files"}, Note: "compares the index with the working tree", Example: "git diff-files", Asks: []string{"git diff-files --textconv"}, Flags: []Flag{
		Use("-q, -0, -1, --base, -2, --ours, -3, --theirs", "modes"),
	}, shared: [][]Flag{gitDiffFlags}},
	{Words: []string{"git", "range-diff"}, Note: "compares two commit ranges", Example: "git range-diff a...b", Asks: []string{"git range-diff --output=out a...b"}, Flags: []Flag{
		Use("--creation-factor=N, --no-dual-color, --left-only, --right-only, --no-notes, --notes[=REF]", "modes"),
	}, shared: [][]Flag{gitDiffFlags}},
	{Words: []string{"git", "annotate"}, Note: "shows who changed each line", Example: "git annotate f", Asks: []string{"git annotate --contents=other f"}, Flags: []Flag{
		Use("-b, --root, --show-stats, -l, -t, --reverse, --first-parent, -p, --porcelain, --incremental, --minimal, -c, -f, -n, -s, -e, -w, --no-textconv", "output"),
		Use("-L RANGE", "lines"), Use("-M[=N], -C[=N]", "moves and copies"), Use("--encoding=ENCODING, --date=FORMAT, --abbrev=N, --since=DATE", "formats"),
		Refuse(Unjudged, "--contents=FILE", "annotates the contents of another file"), Refuse(Runs, "--textconv", "runs textconv filters from configuration"),
	}},
	{Words: []string{"git", "var"}, Note: "prints a git logical variable", Example: "git var GIT_EDITOR", Asks: []string{"git var -l"}, Operands: Operands{Strings: true, Max: 1}, Flags: []Flag{
		Refuse(Secrets, "-l", "lists the configuration too, which can hold credentials"),
	}},
	{Words: []string{"git", "symbolic-ref"}, Note: "prints what a symbolic ref points to (one operand; two would set it)", Example: "git symbolic-ref HEAD", Asks: []string{"git symbolic-ref HEAD refs/heads/x", "git symbolic-ref -d HEAD"},
		Operands: Operands{Strings: true, Max: 1}, Flags: []Flag{
			Use("-q, --quiet, --short, --no-recurse, --recurse", "output"), Refuse(Deletes, "-d, --delete", "deletes the ref"),
			Refuse(Writes, "-m REASON", "sets the ref"),
		}},
	{Words: []string{"git", "hash-object"}, Note: "computes object ids of files (not -w)", Example: "git hash-object f", Asks: []string{"git hash-object -w f", "git hash-object --stdin-paths"}, Flags: []Flag{
		Use("-t TYPE", "type"), Use("--stdin", "reads standard input"), Refuse(Unjudged, "--stdin-paths", "hashes the files named on standard input, which the gate cannot see (an object id of a secret lets a planted index entry pass as the file's own)"),
		Use("--path=PATH", "path for filters"), Use("--no-filters", "no filters"), Use("--literally", "any type"),
		Refuse(Writes, "-w", "writes the object into the repository"),
	}},
	{Words: []string{"git", "replace"}, Note: "lists replace refs", Example: "git replace -l", Asks: []string{"git replace -d abc", "git replace a b"}, Operands: Operands{Strings: true}, Check: gitReplaceCheck, Flags: []Flag{
		Use("-l, --list", "lists"), Use("--format=FORMAT", "format"),
		Refuse(Writes, "-f, --force, -d, --delete, --edit, -e, --graft, --convert-graft-file, --raw", "changes replace refs"),
	}},
	{Words: []string{"git", "sparse-checkout", "list"}, Note: "lists sparse-checkout patterns", Example: "git sparse-checkout list", Asks: []string{"git sparse-checkout list --help"}, Operands: Operands{None: true}},
	{Words: []string{"git", "bundle", "verify"}, Note: "checks a bundle file", Example: "git bundle verify b", Asks: []string{"git bundle verify --help"}, Flags: []Flag{Use("-q, --quiet", "quiet")}},
	{Words: []string{"git", "bundle", "list-heads"}, Note: "lists a bundle's refs", Example: "git bundle list-heads b", Asks: []string{"git bundle list-heads --help"}},
	{Words: []string{"git", "rerere", "status"}, Note: "lists paths with recorded resolutions", Example: "git rerere status", Asks: []string{"git rerere status --help"}, Operands: Operands{None: true}},
	{Words: []string{"git", "config"}, Note: "prints one setting (--get; not --list, not credentials)", Example: "git config --get user.name", Asks: []string{"git config --get user.password", "git config user.name x", "git config --list"},
		Check: gitConfigCheck, Operands: Operands{Strings: true, Max: 1}, Flags: gitConfigFlags},
	{Words: []string{"git", "config", "get"}, Note: "prints one setting (not credentials)", Example: "git config get user.name", Asks: []string{"git config get --list", "git config get remote.origin.url"},
		Check: gitConfigCheck, Operands: Operands{Strings: true, Max: 1}, Flags: gitConfigFlags},
	{Words: []string{"git", "fsck"}, Note: "checks the object database", Example: "git fsck", Asks: []string{"git fsck --lost-found"}, Operands: Operands{Strings: true}, Flags: []Flag{
		Use("--unreachable, --dangling, --no-dangling, --root, --tags, --cache, --no-reflogs, --full, --no-full, --connectivity-only, --strict, --verbose, --progress, --no-progress, --name-objects, --references, --no-references", "checks"),
		Refuse(Writes, "--lost-found", "writes dangling objects into .git/lost-found"),
	}},
	{Words: []string{"git", "grep"}, Note: "searches tracked files", Example: "git grep x", Asks: []string{"git grep --no-index x", "git grep --untracked x", "git grep -O x"}, Numeric: true, Flags: gitGrepFlags,
		Operands: Operands{Lead: 1, LeadUnless: []string{"-e", "-f"}}},
}

// unlessDeclared are flags added when the entry is first built, each
// only where no flag of the entry has one of its names: every git
// subcommand refuses --help, which starts the manual viewer, which runs
// a pager, unless it says otherwise. Telling at start-up read every git
// entry's flags on every call, and marking each entry then wrote to
// every page of the git tables.
func (e *Entry) unlessDeclared() []Flag {
	if slices.Contains(gitEntries, e) {
		return gitHelp
	}
	return nil
}

var gitHelp = []Flag{Refuse(Runs, "--help", "starts a manual viewer, which runs a pager")}

// GitOption is one of git's options before the subcommand, read with the
// catalogue's table of them (gitGlobals): the one list of git's global
// options, which the catalogue, gitsafe and the gate all read.
type GitOption struct {
	// Name is the option as written ("-C", "--git-dir").
	Name string
	// Value is its value, attached ("--git-dir=x") or the next word.
	Value    string
	HasValue bool
	// Effect is what the catalogue says it does.
	Effect Effect
}

// ReadGit reads the global options of a git command line (argv[0] is
// git), as git's own handle_options does: each option a whole word, never
// abbreviated or bundled, a value in the next word or after "=". sub is
// the index of the subcommand in argv (len(argv) when there is none).
// Reading stops at a word that is not one of the options the catalogue
// lists; why then names it, and sub is that word's index.
func ReadGit(argv []string) (opts []GitOption, sub int, why string) {
	idx := gitGlobals.flagIndex()
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if !strings.HasPrefix(w, "-") || w == "-" {
			return opts, i, ""
		}
		name, value, eq := strings.Cut(w, "=")
		f := idx[name]
		if f == nil || !strings.HasPrefix(name, "--") && (eq || len(name) != 2) {
			return opts, i, w + " is not one of git's global options the catalogue lists"
		}
		o := GitOption{Name: name, Effect: f.Effect}
		switch {
		case eq && f.Value == "":
			return opts, i, w + " gives a value to a git option that takes none"
		case eq:
			o.Value, o.HasValue = value, true
		case f.Value != "" && !f.Optional:
			if i+1 >= len(argv) {
				return opts, i, w + " lacks its value"
			}
			i++
			o.Value, o.HasValue = argv[i], true
		}
		opts = append(opts, o)
	}
	return opts, len(argv), ""
}
