package allowlist

// The default allowlist: programs and subcommands that only read, each
// with the flags that make it write, delete or run another program. Every
// entry was checked against the program's manual (GNU coreutils, findutils,
// grep, file(1), ripgrep, git); config.example.toml documents each one, and
// a test keeps the two in step.
//
// An entry belongs here only when every flag of the program was checked.
// Programs that can write through a plain argument (uniq IN OUT, xxd IN
// OUT), run code (sed's e and w commands, awk's system(), less's !), or
// change state (date -s is listed with its exception) stay off or carry an
// exception.

// gitDiffExceptions are shared by git diff, log and show: each can write a
// file or run a program named in configuration.
var gitDiffExceptions = []Exception{
	{Text: "--output", Why: "writes the diff to a file"},
	{Text: "--ext-diff", Why: "runs the external diff program from configuration"},
	{Text: "--textconv", Why: "runs textconv filter programs from configuration"},
	{Text: "--show-signature", Why: "runs the gpg program from configuration"},
}

var defaults = []Rule{
	{Prefix: []string{"ls"}, Note: "lists directories"},
	{Prefix: []string{"cat"}, Note: "prints files"},
	{Prefix: []string{"head"}, Note: "prints the start of files"},
	{Prefix: []string{"tail"}, Note: "prints the end of files"},
	{Prefix: []string{"wc"}, Note: "counts lines, words and bytes"},
	{Prefix: []string{"stat"}, Note: "prints file metadata"},
	{Prefix: []string{"file"}, Note: "guesses file types", Except: []Exception{
		{Text: "-C", Why: "compiles a magic file, writing it"},
		{Text: "--compile", Why: "compiles a magic file, writing it"},
		{Text: "-z", Why: "runs decompression programs on the files"},
		{Text: "-Z", Why: "runs decompression programs on the files"},
		{Text: "--uncompress", Why: "runs decompression programs on the files"},
		{Text: "--uncompress-noreport", Why: "runs decompression programs on the files"},
	}},
	{Prefix: []string{"find"}, Note: "searches for files", Except: []Exception{
		{Text: "-exec", Why: "runs a program for each file"},
		{Text: "-execdir", Why: "runs a program for each file"},
		{Text: "-ok", Why: "runs a program for each file"},
		{Text: "-okdir", Why: "runs a program for each file"},
		{Text: "-delete", Why: "deletes files"},
		{Text: "-fprint", Why: "writes to a file"},
		{Text: "-fprint0", Why: "writes to a file"},
		{Text: "-fprintf", Why: "writes to a file"},
		{Text: "-fls", Why: "writes to a file"},
	}},
	{Prefix: []string{"grep"}, Note: "searches file contents"},
	{Prefix: []string{"rg"}, Note: "searches file contents (ripgrep)", Except: []Exception{
		{Text: "--pre", Why: "runs a preprocessor program on every file"},
		{Text: "--pre-glob", Why: "selects files for the --pre program"},
		{Text: "--hostname-bin", Why: "runs a program to get the host name"},
		{Text: "-z", Why: "runs decompression programs on the files"},
		{Text: "--search-zip", Why: "runs decompression programs on the files"},
	}},
	{Prefix: []string{"git", "status"}, Note: "shows the working tree status"},
	{Prefix: []string{"git", "log"}, Note: "shows commit logs", Except: gitDiffExceptions},
	{Prefix: []string{"git", "diff"}, Note: "shows changes", Except: gitDiffExceptions},
	{Prefix: []string{"git", "show"}, Note: "shows objects", Except: gitDiffExceptions},
	{Prefix: []string{"git", "branch"}, Note: "lists branches", Except: []Exception{
		{Text: Positional, Why: "a branch name creates a branch"},
		{Text: "-d", Why: "deletes a branch"},
		{Text: "-D", Why: "deletes a branch"},
		{Text: "--delete", Why: "deletes a branch"},
		{Text: "-m", Why: "renames a branch"},
		{Text: "-M", Why: "renames a branch"},
		{Text: "--move", Why: "renames a branch"},
		{Text: "-c", Why: "copies a branch"},
		{Text: "-C", Why: "copies a branch"},
		{Text: "--copy", Why: "copies a branch"},
		{Text: "-f", Why: "forces creation or reset of a branch"},
		{Text: "--force", Why: "forces creation or reset of a branch"},
		{Text: "-u", Why: "changes upstream configuration"},
		{Text: "--set-upstream-to", Why: "changes upstream configuration"},
		{Text: "--set-upstream", Why: "changes upstream configuration"},
		{Text: "--unset-upstream", Why: "changes upstream configuration"},
		{Text: "-t", Why: "sets up tracking for a new branch"},
		{Text: "--track", Why: "sets up tracking for a new branch"},
		{Text: "--no-track", Why: "creates a branch without tracking"},
		{Text: "--create-reflog", Why: "creates a branch reflog"},
		{Text: "--recurse-submodules", Why: "creates branches in submodules"},
		{Text: "--edit-description", Why: "runs the configured editor and writes the description"},
	}},
	{Prefix: []string{"git", "rev-parse"}, Note: "resolves revisions and repository paths"},
	{Prefix: []string{"git", "ls-files"}, Note: "lists tracked files"},
	{Prefix: []string{"pwd"}, Note: "prints the working directory"},
	{Prefix: []string{"echo"}, Note: "prints its arguments"},
	{Prefix: []string{"true"}, Note: "does nothing, successfully"},
	{Prefix: []string{"which"}, Note: "locates programs on PATH"},
	{Prefix: []string{"basename"}, Note: "strips directories from a path"},
	{Prefix: []string{"dirname"}, Note: "strips the last component of a path"},
	{Prefix: []string{"realpath"}, Note: "resolves a path"},
	{Prefix: []string{"nl"}, Note: "numbers lines"},
	{Prefix: []string{"cut"}, Note: "selects fields of lines"},
	{Prefix: []string{"sort"}, Note: "sorts lines", Except: []Exception{
		{Text: "-o", Why: "writes the result to a file"},
		{Text: "--output", Why: "writes the result to a file"},
		{Text: "--compress-program", Why: "runs a compression program"},
	}},
	{Prefix: []string{"diff"}, Note: "compares files", Except: []Exception{
		{Text: "-l", Why: "runs pr(1) on the output"},
		{Text: "--paginate", Why: "runs pr(1) on the output"},
	}},
	{Prefix: []string{"sha256sum"}, Note: "prints or checks SHA-256 sums"},
	{Prefix: []string{"du"}, Note: "estimates disk usage"},
	{Prefix: []string{"uname"}, Note: "prints system information"},
	{Prefix: []string{"whoami"}, Note: "prints the user name"},
}

// Defaults returns a fresh copy of the embedded default allowlist, every
// rule marked with [DefaultSource].
func Defaults() []Rule {
	out := make([]Rule, len(defaults))
	for i, r := range defaults {
		r.Kind = Allow
		r.Source = DefaultSource
		out[i] = r
	}
	return out
}
