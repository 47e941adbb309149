package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
)

// Exit codes of agentgate itself. Any other status is the command's own.
const (
	exitOK        = 0
	exitAsk       = 1 // check: the command would ask
	exitUsage     = 2 // bad flags or arguments, bad configuration
	exitCheckDeny = 3 // check: the command would be denied
	exitError     = 125
	exitDenied    = 126
)

// usageError is a mistake in how agentgate was called: exit 2, nothing run.
type usageError struct {
	msg, hint string
}

func (e *usageError) Error() string { return e.msg }

func usagef(hint, format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), hint: hint}
}

// exitStatus passes a status through silently: the command's own, or one
// whose message was already printed (a denial, a check result).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// internalError is a failure of agentgate itself: exit 125.
type internalError struct{ err error }

func (e *internalError) Error() string { return e.err.Error() }
func (e *internalError) Unwrap() error { return e.err }

// hinted is an error with a next step for the user.
type hinted interface{ Hint() string }

// exitCode prints err the agentgate way and picks the exit code. Errors
// that cobra returns untyped are about flags or arguments: usage errors.
func exitCode(err error, stderr io.Writer) int { return report(err, stderr, nil) }

// cliError is an error as agentgate reports it: a code for programs, a
// message and a next step for people, and the exit status. classify
// makes one of any error; report renders it as text or as JSON, from the
// same value.
type cliError struct {
	// The JSON keys are in alphabetical order, as they always were.
	Code string `json:"code"`
	Hint string `json:"hint"`
	Msg  string `json:"message"`
	Exit int    `json:"-"`
}

// classify reads err as a cliError; silent is true for an exit status
// whose message was printed already.
func classify(err error) (ce cliError, silent bool) {
	var (
		st  exitStatus
		ue  *usageError
		ie  *internalError
		cfe *configError
		de  *deniedError
	)
	switch {
	case errors.As(err, &st):
		return cliError{Exit: int(st)}, true
	case errors.As(err, &de):
		return cliError{Code: "NOT_CONFIRMED", Msg: de.msg, Hint: de.hint, Exit: exitDenied}, false
	case errors.Is(err, syscall.EROFS):
		// What agentgate runs unconfined has agentgate's own files
		// read-only (sandbox.Spec.Guard): an approve, trust or config
		// change from inside it is refused there.
		return cliError{Code: "READ_ONLY", Msg: err.Error(), Exit: exitError,
			Hint: "agentgate's files are read-only inside a command agentgate ran for an approval or in bypass mode, which may not approve, deny, trust or change them: run this from your own terminal"}, false
	case errors.As(err, &cfe):
		return cliError{Code: "CONFIG", Msg: cfe.Error(), Exit: exitUsage}, false
	case errors.As(err, &ue):
		return cliError{Code: "USAGE", Msg: ue.msg, Hint: ue.hint, Exit: exitUsage}, false
	case errors.As(err, &ie):
		hint := ""
		if h, ok := ie.err.(hinted); ok {
			hint = h.Hint()
		}
		return cliError{Code: "INTERNAL", Msg: ie.Error(), Hint: hint, Exit: exitError}, false
	}
	return cliError{Code: "USAGE", Msg: err.Error(), Hint: "run 'agentgate --help' for usage", Exit: exitUsage}, false
}

// report is exitCode; with jsonOut set (the call had --json), the error
// is one JSON object on jsonOut instead of text on stderr, as a denial
// is: {"ok":false,"error":{"code":"USAGE","message":...,"hint":...}}.
func report(err error, stderr, jsonOut io.Writer) int {
	if err == nil {
		return exitOK
	}
	ce, silent := classify(err)
	switch {
	case silent:
	case jsonOut != nil:
		ce.Msg, ce.Hint = strings.TrimSpace(ce.Msg), strings.TrimSpace(ce.Hint)
		out, _ := json.Marshal(map[string]any{"ok": false, "error": ce})
		fmt.Fprintf(jsonOut, "%s\n", out)
	default:
		printError(stderr, ce.Msg, ce.Hint)
	}
	return ce.Exit
}

func printError(w io.Writer, msg, hint string) {
	fmt.Fprintf(w, "agentgate: error: %s\n", strings.TrimSpace(msg))
	if hint != "" {
		fmt.Fprintf(w, "agentgate: hint: %s\n", hint)
	}
}

func warnf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "agentgate: warning: "+format+"\n", args...)
}

// jsonRequested reports whether the arguments before "--" ask for JSON
// output, so that even an error in parsing them is reported as JSON.
func jsonRequested(args []string) bool {
	want := false
	for _, a := range args {
		switch a {
		case "--":
			return want
		case "--json", "--json=true", "--json=1":
			want = true
		case "--json=false", "--json=0":
			want = false
		}
	}
	return want
}
