package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// HelperArg is the first argument of agentgate's hidden re-executed
// helper: a command that runs as agentgate's child (so that agentgate can
// wait for it and clean up after it) is confined in a fresh agentgate
// process that then executes it. Go cannot run code between fork and
// exec, so the helper is that code.
const HelperArg = "__sandbox-exec"

// Command returns the command that runs path with argv and env confined by
// spec, through the helper. self is agentgate's own executable.
func Command(self string, spec Spec, path string, argv, env []string) *exec.Cmd {
	args := append([]string{"agentgate", HelperArg, spec.encode(), path}, argv...)
	return &exec.Cmd{Path: self, Args: args, Env: env, SysProcAttr: namespaceAttr(spec)}
}

// HelperMain is the helper's entry point, given the arguments after
// HelperArg. It returns only on failure, with the shell's status for a
// program that could not run (126), after saying why on stderr.
func HelperMain(args []string) int {
	if len(args) < 3 {
		fmt.Fprintln(os.Stderr, "agentgate: error: the sandbox helper is internal to agentgate")
		return 125
	}
	spec, err := decodeSpec(args[0])
	if err == nil && spec.Level == Workspace && !spec.Inner && os.Getpid() == 1 {
		return initMain(spec, args[1], args[2:])
	}
	if err == nil && spec.Guarding() {
		err = guardMain(spec, args[1], args[2:], os.Environ())
	} else if err == nil {
		err = Exec(spec, args[1], args[2:], os.Environ())
	}
	var ue *UnavailableError
	if errors.As(err, &ue) {
		fmt.Fprintf(os.Stderr, "agentgate: error: %v\nagentgate: hint: the configuration requires full confinement (sandbox = \"require\")\n", err)
		return 126
	}
	fmt.Fprintf(os.Stderr, "agentgate: error: cannot run %s: %v\n", args[2], err)
	if errors.Is(err, os.ErrNotExist) {
		return 127
	}
	return 126
}
