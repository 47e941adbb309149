package hook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Codex has no ask a hook can give: it rejects permissionDecision "ask"
// and runs the call. It does ask a person about a command one of its own
// exec-policy rules marks "prompt", and it matches those rules against
// the command a PreToolUse hook rewrote (read in 0.169.0's source, seen
// with the binary). So install writes rules for agentgate's marked
// rewrite, "<agentgate> exec --host-why=CLASS --host-ticket", one per
// reason class, whose justification Codex shows (codexwhy.go), and the
// hook answers an ask with allow and that rewrite, ticketed as for Claude
// Code: Codex shows the person the rewrite, and why agentgate asks, and
// runs it once they say yes. Codex tries the
// rule only on a command it can split into plain words (tree-sitter's
// bash grammar, no expansions): agentgate's path unquoted, every other
// word in single quotes, and a single quote inside one written '"'"'
// (0.169.0 gives up on the usual '\'' and then matches no rule).
//
// Where the person would not be asked, the ask is denied with an id
// instead, as before: the approval policy is never (codex exec always),
// approvals go to Codex's automatic reviewer (a model), Codex's sandbox
// is on and the model's call did not ask to run outside it (an approved
// command would run inside it, where agentgate exec can neither use the
// ticket up nor record anything; the reason tells the model to call again
// with "sandbox_permissions": "require_escalated", which Codex runs,
// once approved, outside its sandbox), the rule is missing, agentgate's path
// cannot be a plain word, another PermissionRequest hook could approve
// in the person's place, or a PowerShell is installed (Codex runs a
// command the model sends with "shell": "pwsh" through it, and matches
// no bash rule then). The ticket is unarmed besides: it approves nothing
// until Codex's PermissionRequest event, which it sends once it has
// decided to ask about exactly that rewrite, arms it. A rewrite Codex
// runs without asking claims nothing.

// CodexRuleName is the name of agentgate's rules file in
// $CODEX_HOME/rules.
const CodexRuleName = "agentgate.rules"

// codexRuleHeader starts agentgate's rules file: uninstall removes only a
// file that starts with it.
const codexRuleHeader = "# Written by agentgate install codex; agentgate uninstall codex removes it.\n"

// CodexRuleFile is agentgate's rules file in Codex's home.
func CodexRuleFile(codexHome string) string {
	return filepath.Join(codexHome, "rules", CodexRuleName)
}

// CodexRuleText is the rules file for agentgate at self: Codex asks the
// person before it runs agentgate's marked rewrite, and refuses it under
// approval policy never. One rule per reason class (codexwhy.go) gives
// Codex's approval the class's words; the last, for a rewrite that names
// no class, agentgate's own rewrites never match. It is "" when self
// cannot be a plain word.
func CodexRuleText(self string) string {
	if !plainWord(self) {
		return ""
	}
	var b strings.Builder
	b.WriteString(codexRuleHeader +
		"# Codex asks you before it runs a command agentgate wants a person to approve,\n" +
		"# rewritten into agentgate exec with a one-time ticket. Its approval shows the\n" +
		"# justification of the rule the rewrite matches: why agentgate asks.\n")
	rule := func(pattern []string, text string) {
		b.WriteString("prefix_rule(\n    pattern = [\"" + strings.Join(pattern, "\", \"") + "\"],\n" +
			"    decision = \"prompt\",\n" +
			"    justification = \"agentgate asks you: " + text + "; the command after -- runs only if you say yes\",\n)\n")
	}
	for _, w := range codexWhys {
		rule([]string{self, "exec", codexWhyFlag + w.Key, "--host-ticket"}, w.Text)
	}
	rule([]string{self, "exec", "--host-ticket"}, "this rewrite names no reason, which agentgate's own always do (agentgate check explains a command)")
	return b.String()
}

// codexWhyFlag is exec's flag that names the reason class of a marked
// rewrite, for Codex's rules to match.
const codexWhyFlag = "--host-why="

// plainWord reports whether s is a word Codex's parser takes as it is,
// unquoted: letters, digits and / . _ + - @ : , % only.
func plainWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._+-@:,%", r)) {
			return false
		}
	}
	return true
}

// codexQuote quotes s in single quotes, each single quote inside closed,
// double-quoted and reopened: a word Codex's parser reads. It does not
// read the usual form, a backslash before the quote.
func codexQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// codexMark is what starts agentgate's marked rewrite, after its path and
// its reason class.
const codexMark = " --host-ticket "

// codexAskRewrite is the marked rewrite of text for Codex: the words the
// rule for reason class why matches first, then exec's flags and the
// text, each quoted.
func codexAskRewrite(self, why, session, text string, flags []string, ticket string) string {
	var b strings.Builder
	b.WriteString(self + " exec " + codexWhyFlag + why + codexMark + ticket + " --non-interactive")
	for _, f := range flags {
		b.WriteString(" " + codexQuote(f))
	}
	if session != "" && !strings.ContainsFunc(session, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		b.WriteString(" --session " + codexQuote(session))
	}
	b.WriteString(" -- " + codexQuote(text))
	return b.String()
}

// codexMarkedTicket is the ticket of agentgate's marked rewrite command,
// read from where the hook wrote it: right after the mark, at the start,
// which names a reason class or none.
func codexMarkedTicket(self, command string) (string, bool) {
	rest, ok := strings.CutPrefix(command, self+" exec ")
	if !ok || !plainWord(self) {
		return "", false
	}
	if why, after, ok := strings.Cut(rest, " "); ok && strings.HasPrefix(why, codexWhyFlag) {
		rest = " " + after
	} else {
		rest = " " + rest
	}
	rest, ok = strings.CutPrefix(rest, codexMark)
	if !ok {
		return "", false
	}
	ticket, _, ok := strings.Cut(rest, " ")
	return ticket, ok && ticket != ""
}

// codexAskProblem says why Codex would not ask a person about agentgate's
// marked rewrite of ev's command ("" when it would).
func codexAskProblem(w Where, self string, ev Event) string {
	if !plainWord(self) {
		return fmt.Sprintf("agentgate's path %q holds a character Codex's rules cannot match", self)
	}
	home := w.env("CODEX_HOME")
	if !filepath.IsAbs(home) {
		home = filepath.Join(w.Home, ".codex")
	}
	f := CodexRuleFile(home)
	if data, err := os.ReadFile(f); err != nil || string(data) != CodexRuleText(self) {
		return "agentgate's rule for it is not in " + f + " (run 'agentgate install codex')"
	}
	if f := codexOtherRules(w, home, self); f != "" {
		return "a rules file other than agentgate's names agentgate (" + f + "): Codex could show its rule's words in place of why agentgate asks"
	}
	if p := PowerShell(w); p != "" {
		return "a PowerShell is installed (" + p + "), through which Codex runs a command without its rules"
	}
	if h := codexPermissionHooks(w, home, self); h != "" {
		return "another PermissionRequest hook on the shell (" + h + ") may approve it without you"
	}
	return codexTurnProblem(ev)
}

// codexOtherRules names a rules file Codex may load, other than
// agentgate's, that names agentgate ("" when there is none): $CODEX_HOME's,
// the system's, and a .codex/rules in the project or above it. Codex
// shows the justification of the longest prompt rule that matches, and of
// the last one loaded among equals (seen with 0.169.0: a rule for
// agentgate's prefix in a file that sorts after agentgate.rules put its
// words in the approval), so such a rule could replace agentgate's
// reason with any text. A file that cannot be read counts.
func codexOtherRules(w Where, home, self string) string {
	dirs := []string{filepath.Join(home, "rules"), "/etc/codex/rules"}
	if filepath.IsAbs(w.Project) {
		for d := filepath.Clean(w.Project); ; d = filepath.Dir(d) {
			dirs = append(dirs, filepath.Join(d, ".codex", "rules"))
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	mine := CodexRuleFile(home)
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*.rules"))
		for _, f := range files {
			if f == mine {
				continue
			}
			if data, err := os.ReadFile(f); err != nil || strings.Contains(string(data), filepath.Base(self)) {
				return f
			}
		}
	}
	return ""
}

// codexPermissionHooks names a PermissionRequest hook on Codex's shell
// tool other than agentgate's, in the user's or the project's hooks.json
// ("" when there is none): Codex takes its allow as the approval, and
// does not ask the person.
func codexPermissionHooks(w Where, home, self string) string {
	files := []string{filepath.Join(home, "hooks.json")}
	if filepath.IsAbs(w.Project) {
		files = append(files, filepath.Join(w.Project, ".codex", "hooks.json"))
	}
	for _, f := range files {
		doc, data, err := readSettings(f)
		if err != nil {
			return f + " cannot be read: " + err.Error()
		}
		if data == nil {
			continue
		}
		other := ""
		eachHandler(doc, "PermissionRequest", true, func(h handler) {
			if other == "" && matchesShell(h.matcher, "codex") && !ours(h.command, "codex", self) {
				other = fmt.Sprintf("%q in %s", h.command, f)
			}
		})
		if other != "" {
			return other
		}
	}
	return ""
}

// PowerShell is a PowerShell Codex would find for a model that asks for
// one ("" when there is none): pwsh or powershell on PATH, or where
// 0.169.0 looks besides.
func PowerShell(w Where) string {
	var dirs []string
	for _, d := range filepath.SplitList(w.env("PATH")) {
		if filepath.IsAbs(d) {
			dirs = append(dirs, d)
		}
	}
	var cands []string
	for _, d := range dirs {
		cands = append(cands, filepath.Join(d, "pwsh"), filepath.Join(d, "powershell"))
	}
	cands = append(cands, powerShellPaths...)
	for _, c := range cands {
		if info, err := os.Stat(c); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return c
		}
	}
	return ""
}

// powerShellPaths are where Codex 0.169.0 looks for PowerShell besides
// PATH (and where its installers put it).
var powerShellPaths = []string{"/usr/local/bin/pwsh", "/opt/microsoft/powershell/7/pwsh"}

// codexTurn is what Codex records of a turn's settings when it starts it:
// a turn_context line of the session's transcript.
type codexTurn struct {
	TurnID            string          `json:"turn_id"`
	ApprovalPolicy    json.RawMessage `json:"approval_policy"`
	ApprovalsReviewer string          `json:"approvals_reviewer"`
	PermissionProfile struct {
		Type string `json:"type"`
	} `json:"permission_profile"`
}

// codexTurnProblem says why, by the settings of ev's turn, Codex would not
// ask a person about a command ("" when it would).
func codexTurnProblem(ev Event) string {
	if ev.Mode != "default" {
		return fmt.Sprintf("its approval policy is never (permission mode %q)", ev.Mode)
	}
	t, err := readCodexTurn(ev.Transcript, ev.TurnID)
	if err != nil {
		return "this turn's settings could not be read from its transcript: " + err.Error()
	}
	var policy string
	if json.Unmarshal(t.ApprovalPolicy, &policy) != nil {
		return "its approval policy is " + string(t.ApprovalPolicy)
	}
	switch {
	case policy != "on-request" && policy != "on-failure" && policy != "untrusted":
		return "its approval policy is " + policy
	case t.ApprovalsReviewer != "user":
		return fmt.Sprintf("its approvals go to %q, not to you", t.ApprovalsReviewer)
	case t.PermissionProfile.Type != "disabled":
		// Codex runs an approved command inside its sandbox, where exec
		// can neither claim the ticket nor record anything, unless the
		// call asked to run outside it: then Codex runs it, once the
		// person said yes, unsandboxed (codex-rs/core/src/tools/
		// sandboxing.rs, sandbox_override_for_first_attempt).
		esc, err := readCodexEscalation(ev.Transcript, ev.TurnID, ev.ToolUseID, ev.Command)
		if err != nil && !errors.Is(err, errNoCall) {
			return "this call could not be read from its transcript: " + err.Error()
		}
		if !esc {
			return fmt.Sprintf("its sandbox is on (%s) and this call did not ask to run outside it: an approved command would run inside it, where agentgate cannot claim the approval or record it. "+
				"To be asked in Codex's approval, call exec_command again with exactly the same cmd and \"sandbox_permissions\": \"require_escalated\": once the person says yes, Codex runs it outside its sandbox, through agentgate exec, which confines it", t.PermissionProfile.Type)
		}
	}
	return ""
}

// codexTranscriptWindow is how much of a transcript's end is read for a
// turn's settings.
const codexTranscriptWindow = 64 << 20

// codexTurnWait is how long the hook waits for Codex to write the turn's
// settings, which it does as the turn starts.
var codexTurnWait = 2 * time.Second

// readCodexTurn reads the settings of turn turnID from the transcript at
// path: the last turn_context line with that id.
func readCodexTurn(path, turnID string) (codexTurn, error) {
	if !filepath.IsAbs(path) || turnID == "" {
		return codexTurn{}, errors.New("the event names no transcript or turn")
	}
	deadline := time.Now().Add(codexTurnWait)
	for {
		t, err := scanCodexTurn(path, turnID)
		if err == nil || !errors.Is(err, errNoTurn) || time.Now().After(deadline) {
			return t, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var errNoTurn = errors.New("no turn_context line for this turn")

func scanCodexTurn(path, turnID string) (codexTurn, error) {
	var found *codexTurn
	err := scanCodexTranscript(path, func(line []byte) {
		if !bytes.Contains(line, []byte(`"turn_context"`)) {
			return
		}
		var rec struct {
			Type    string    `json:"type"`
			Payload codexTurn `json:"payload"`
		}
		if json.Unmarshal(line, &rec) == nil && rec.Type == "turn_context" && rec.Payload.TurnID == turnID {
			found = &rec.Payload
		}
	})
	if err != nil {
		return codexTurn{}, err
	}
	if found == nil {
		return codexTurn{}, errNoTurn
	}
	return *found, nil
}

// scanCodexTranscript gives each line of the transcript's last
// codexTranscriptWindow bytes to each.
func scanCodexTranscript(path string, each func(line []byte)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	r := bufio.NewReaderSize(f, 1<<16)
	if off := info.Size() - codexTranscriptWindow; off > 0 {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return err
		}
		r.Reset(f)
		if _, err := r.ReadBytes('\n'); err != nil { // a partial line
			return nil
		}
	}
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			each(line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// The model asks Codex to run a command outside its sandbox in the call
// itself: exec_command's "sandbox_permissions": "require_escalated". A
// hook's event does not carry it (Codex gives the hook the command only,
// and takes back only a new command: codex-rs/core/src/tools/handlers/
// unified_exec/exec_command.rs, pre_tool_use_payload and
// with_updated_hook_input), but Codex records the call in the session's
// transcript before it runs the hook, and the hook reads it there.
//
// Nothing rests on this reading but whom the person is asked by: should
// Codex run an approved rewrite inside its sandbox after all, exec there
// can neither claim the ticket nor write anything, and runs nothing.

// codexCall is a function_call line of a Codex transcript.
type codexCall struct {
	Type      string `json:"type"`
	CallID    string `json:"call_id"`
	Arguments string `json:"arguments"`
	Meta      struct {
		TurnID string `json:"turn_id"`
	} `json:"internal_chat_message_metadata_passthrough"`
}

var errNoCall = errors.New("no function_call line for this call")

// readCodexEscalation reports whether the model's call callID, in turn
// turnID, for command, asked Codex to run it outside its sandbox: the last
// function_call line with that id (and, where it names one, that turn)
// whose cmd is command, with "sandbox_permissions": "require_escalated".
func readCodexEscalation(path, turnID, callID, command string) (bool, error) {
	if !filepath.IsAbs(path) || callID == "" {
		return false, errors.New("the event names no transcript or call")
	}
	deadline := time.Now().Add(codexTurnWait)
	for {
		esc, err := scanCodexEscalation(path, turnID, callID, command)
		if err == nil || !errors.Is(err, errNoCall) || time.Now().After(deadline) {
			return esc, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func scanCodexEscalation(path, turnID, callID, command string) (bool, error) {
	var found *bool
	err := scanCodexTranscript(path, func(line []byte) {
		if !bytes.Contains(line, []byte(`"function_call"`)) {
			return
		}
		var rec struct {
			Type    string    `json:"type"`
			Payload codexCall `json:"payload"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.Type != "response_item" || rec.Payload.Type != "function_call" ||
			rec.Payload.CallID != callID || rec.Payload.Meta.TurnID != "" && rec.Payload.Meta.TurnID != turnID {
			return
		}
		var args struct {
			Cmd                string `json:"cmd"`
			SandboxPermissions string `json:"sandbox_permissions"`
		}
		if json.Unmarshal([]byte(rec.Payload.Arguments), &args) != nil || args.Cmd != command {
			return
		}
		esc := args.SandboxPermissions == "require_escalated"
		found = &esc
	})
	if err != nil {
		return false, err
	}
	if found == nil {
		return false, errNoCall
	}
	return *found, nil
}
