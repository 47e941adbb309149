package hook

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/internal/shparse"
)

// shellPatch is the patch of a shell command that is exactly Codex's
// shell form of apply_patch: "apply_patch <<'EOF'" (or applypatch) with
// the patch as a quoted here-document and nothing else: no other word,
// redirect, assignment or command. Codex applies such a command as a
// patch (the model is taught to send patches this way), so it is judged
// as the apply_patch tool is, by the files it writes. Only a quoted
// delimiter is taken: then bash would not expand the body either, so
// both readings of the patch are the same text. Anything else is not a
// patch, and is judged as the shell command it is.
func shellPatch(sc *shparse.Script) (string, bool) {
	f, err := sc.File, sc.Err
	if err != nil || f == nil || len(f.Stmts) != 1 {
		return "", false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(call.Assigns) > 0 || len(call.Args) != 1 || len(st.Redirs) != 1 {
		return "", false
	}
	if name := call.Args[0].Lit(); name != "apply_patch" && name != "applypatch" {
		return "", false
	}
	r := st.Redirs[0]
	if r.Op != syntax.Hdoc || r.N != nil || r.Word == nil || r.Hdoc == nil || len(r.Word.Parts) != 1 {
		return "", false
	}
	switch r.Word.Parts[0].(type) {
	case *syntax.SglQuoted, *syntax.DblQuoted:
	default:
		return "", false
	}
	body := r.Hdoc.Lit()
	if body == "" || !strings.Contains(body, "*** Begin Patch") {
		return "", false
	}
	return body, true
}
