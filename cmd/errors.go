package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
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

// report is exitCode; with jsonOut set (the call had --json), the error
// is one JSON object on jsonOut instead of text on stderr, as a denial
// is: {"ok":false,"error":{"code":"USAGE","message":...,"hint":...}}.
func report(err error, stderr, jsonOut io.Writer) int {
	if err == nil {
		return exitOK
	}
	if jsonOut != nil {
		var st exitStatus
		if errors.As(err, &st) {
			return int(st)
		}
		var b strings.Builder
		code := exitCode(err, &b)
		msg, hint, _ := strings.Cut(strings.TrimPrefix(b.String(), "agentgate: error: "), "\nagentgate: hint: ")
		name := map[int]string{exitUsage: "USAGE", exitError: "INTERNAL", exitDenied: "NOT_CONFIRMED"}[code]
		var ce *configError
		if errors.As(err, &ce) {
			name = "CONFIG"
		}
		out, _ := json.Marshal(map[string]any{"ok": false, "error": map[string]string{
			"code": name, "message": strings.TrimSpace(msg), "hint": strings.TrimSpace(hint)}})
		fmt.Fprintf(jsonOut, "%s\n", out)
		return code
	}
	var (
		st exitStatus
		ue *usageError
		ie *internalError
		ce *configError
		de *deniedError
	)
	switch {
	case errors.As(err, &st):
		return int(st)
	case errors.As(err, &de):
		printError(stderr, de.msg, de.hint)
		return exitDenied
	case errors.As(err, &ce):
		printError(stderr, ce.Error(), "")
		return exitUsage
	case errors.As(err, &ue):
		printError(stderr, ue.msg, ue.hint)
		return exitUsage
	case errors.As(err, &ie):
		hint := ""
		if h, ok := ie.err.(hinted); ok {
			hint = h.Hint()
		}
		printError(stderr, ie.Error(), hint)
		return exitError
	default:
		printError(stderr, err.Error(), "run 'agentgate --help' for usage")
		return exitUsage
	}
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
