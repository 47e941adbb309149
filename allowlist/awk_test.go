package allowlist_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
)

// awk programs that only read and print are allowed; every way to run a
// command, write, read other files or the environment asks, however it
// is hidden from a lexer (the red team's regex-after-plus, comments,
// strings).
func TestAwkProgram(t *testing.T) {
	for prog, ok := range awkPrograms {
		if got := allowlist.AwkProgramReadOnly(prog) == ""; got != ok {
			t.Errorf("awk %q read-only = %v; want %v (%s)", prog, got, ok, allowlist.AwkProgramReadOnly(prog))
		}
	}
}

// Every program the table allows, run by each awk installed here over a
// small input, leaves the directory as it was: what the reading calls a
// comparison is one for the real awk too.
func TestAwkAllowedWritesNothing(t *testing.T) {
	var awks []string
	for _, name := range []string{"awk", "mawk", "gawk", "original-awk", "busybox"} {
		if p, err := exec.LookPath(name); err == nil {
			awks = append(awks, p)
		}
	}
	if len(awks) == 0 {
		t.Skip("no awk installed")
	}
	for prog := range awkPrograms {
		if allowlist.AwkProgramReadOnly(prog) != "" {
			continue
		}
		for _, awk := range awks {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "in"), []byte("1 2 out\n3 4 f\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{prog, "in"}
			if filepath.Base(awk) == "busybox" {
				args = append([]string{"awk"}, args...)
			}
			c := exec.Command(awk, args...)
			c.Dir = dir
			_ = c.Run() // some dialects refuse a program; none may write
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("%s %q left %d entries in its directory; the reading called it read-only", awk, prog, len(entries))
			}
		}
	}
}

var awkPrograms = map[string]bool{
	`{print $1}`:                    true,
	`-F: {print $1, $3}`:            true,
	`$3 > 100`:                      true,
	`NR==1 || NR==5`:                true, // "||" is "or"
	`NR > 1 {print}`:                true, // a comparison outside print
	`BEGIN{x=1} {if (NR>1) print}`:  true,
	`{print ($1 > 2)}`:              true, // parenthesised: a comparison
	`{print $1, (length($0) > 80)}`: true,
	`{n = split($0, a, "|"); print a[n > 1 ? 2 : 1]}`: true, // "|" in a string, ">" in brackets
	`length($0) > 72 {print FILENAME ": " $0}`:        true,
	`/a|b/ {print}`:                             false, // "|" in a regex span: the text rule
	`{print (1) > "out"}`:                       false,
	`{print $1 >> "out"}`:                       false,
	`{print $1 >= 2}`:                           false, // mawk reads "> =": a redirect
	`{print $1 > $2 ".txt"}`:                    false,
	`{if (NR > 1) print $0 > "out"}`:            false,
	`{print $1; if ($2 > 3) x++} {print > "f"}`: false,
	`{print $1 / 2 > "f" / 1}`:                  false, // a "/" span holding ">"
	`{x = 1 /"/; print > "f" }`:                 false, // a quote in a "/" span
	`{print "a\"" > "f"}`:                       false, // an escaped quote
	`{print "unterminated > "f"}`:               false,
	`{print $1 \
 > "f"}`: false, // a backslash outside strings
	`{print a[1] > "f"}`:       false,
	`{printf("%s", $1) > "f"}`: false,
	"{print $1\n > \"f\"}":     false,
	`{print $1 # > "not a redirect"
}`: true, // a comment
	`{print} # x | y`:                                        true,
	`{s += $2} END {print s}`:                                true,
	`/error/ {n++} END {print n}`:                            true,
	`{print $1 > "out"}`:                                     false,
	`{printf "%s\n", $1 > "/tmp/x"}`:                         false,
	`{print | "sh"}`:                                         false,
	`{"id" | getline x}`:                                     false,
	`BEGIN{system("id")}`:                                    false,
	`BEGIN{x = 1 + /#/ } BEGIN{system("id")}`:                false,
	`# system("id")` + "\n{print}":                           false,
	`BEGIN{print ENVIRON["AWS_SECRET"]}`:                     false,
	`BEGIN{ARGV[1]="/root/.ssh/id_rsa"; ARGC=2} {print}`:     false,
	`@load "rwarray"`:                                        false,
	`BEGIN{while ((getline l < "/etc/shadow") > 0) print l}`: false,
	`{print > "/inet/tcp/0/127.0.0.1/80"}`:                   false,
	`{print $1 |& "cat"}`:                                    false,
	// The red team's: a "/" after "1." read as a regex, so that the
	// quotes paired differently from awk's and hid a pipe or a redirect.
	`{ x = 1. / 1 + / "/ ; print | "a=#;cat ~/.s?h/id_*;env" }`: false,
	`{ x = 1. / 1 + / "/ ; print > "out# " }`:                   false,
	`{ if (0) y = 1; else /a+/ + / "/ ; print | "a=#;id -u" }`:  false,
	`{ x++ / 1 + / "/ ; print | "a=#;id" }`:                     false,
	`{ x = 1. / 1 + / y / ; print > f }`:                        false, // no quote: the spans decide
	`NR > 1 && /foo/ {print $1}`:                                true,
	`$3 > 10 && /x/ {print "big"}`:                              false, // "/" and a quote: the text rule
}

// awk ends its options at the program (mawk, gawk): what follows is
// files, "-v" and "-F" too, judged as the paths they are.
func TestAwkEndsOptionsAtProgram(t *testing.T) {
	c, ok := allowlist.Read(allowlist.Defaults(), []string{"awk", "{print}", "-v", "/h/.ssh/id_rsa"})
	if !ok || !slices.Contains(c.Paths, "-v") && !slices.Contains(c.Operands, "-v") {
		t.Fatalf("awk {print} -v FILE read as %+v, %v; want -v and FILE as operands", c, ok)
	}
	if !slices.Contains(c.Paths, "/h/.ssh/id_rsa") && !slices.Contains(c.Operands, "/h/.ssh/id_rsa") {
		t.Fatalf("the file after -v is not an operand: %+v", c)
	}
}
