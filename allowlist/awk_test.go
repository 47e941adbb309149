package allowlist_test

import (
	"testing"

	"github.com/agentgate/agentgate/allowlist"
)

// awk programs that only read and print are allowed; every way to run a
// command, write, read other files or the environment asks, however it
// is hidden from a lexer (the red team's regex-after-plus, comments,
// strings).
func TestAwkProgram(t *testing.T) {
	for prog, ok := range map[string]bool{
		`{print $1}`:                                             true,
		`-F: {print $1, $3}`:                                     true,
		`$3 > 100`:                                               true,
		`NR==1 || NR==5`:                                         false, // || holds "|": a question, not a leak
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
	} {
		if got := allowlist.AwkProgramReadOnly(prog) == ""; got != ok {
			t.Errorf("awk %q read-only = %v; want %v (%s)", prog, got, ok, allowlist.AwkProgramReadOnly(prog))
		}
	}
}
