package gate

import (
	"strings"

	"github.com/agentgate/agentgate/internal/shparse"
)

// unreadTilde names the first word of f holding a "~" that the gate would
// read otherwise than bash does, or "" when there is none. The gate and
// the resolver read a path that starts with "~" as the home ("~/x",
// "~+/x" as the working directory); bash makes it so only for a tilde
// that starts the word unquoted, whose prefix up to an unquoted slash is
// "~" or "~+". Every other "~" reaches the program as written, or as
// something the gate cannot look up, while a path of it was judged as
// the home's:
//
//   - quoted or escaped: "cat '~/x'" reads ./~/x, a directory the agent
//     made, with x a link to a key (a red team's);
//   - after "=" or ":", or inside a flag's value: "diff
//     --from-file=~/x a.txt" reads ./~/x, and "cat a=~/x" reads
//     ./a=$HOME/x, bash expanding a tilde in an assignment-like word;
//   - another home or the directory stack: "~user", "~1", "~+1", "~-2",
//     which bash leaves as written when there is no such user or entry
//     ("cat ~nosuchuser/x" read ./~nosuchuser/x).
//
// A text holding one is judged incomplete: a sticky ask. "HEAD~1" and
// "a/~/b" hold no path the gate reads from a tilde, and pass.
func unreadTilde(form *shparse.Form) string {
	for w := range form.Words() {
		if w.Dynamic() != "" {
			continue // not judged from its value: asked elsewhere
		}
		fields, err := w.Fields()
		if err != nil {
			continue
		}
		for _, v := range fields {
			for _, c := range append([]string{v}, PathCandidates(v)...) {
				if strings.HasPrefix(c, "~") && (c != v || len(fields) != 1 || !w.HomeTilde()) {
					return wordText(w)
				}
			}
		}
	}
	return ""
}
