package hook

import (
	"strings"

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
	if sc.Err != nil {
		return "", false
	}
	f := sc.Form()
	if len(f.Stmts) != 1 || !f.Complete() {
		return "", false
	}
	st := f.Stmts[0]
	if st.Kind != shparse.KindCall || st.Negated || st.Background || len(st.Assigns) > 0 || len(st.Args) != 1 || len(st.Redirs) != 1 {
		return "", false
	}
	// The program's name as written: "'apply_patch'" is not the form
	// Codex applies.
	if name := st.Args[0].Text; name != "apply_patch" && name != "applypatch" {
		return "", false
	}
	r := st.Redirs[0]
	if r.Op != "<<" || r.Fd != "" || r.Target == nil || !r.Target.Quoted() {
		return "", false
	}
	body, ok := r.Body()
	if !ok || body == "" || !strings.Contains(body, "*** Begin Patch") {
		return "", false
	}
	return body, true
}
