//go:build !(linux && (amd64 || arm64))

package sandbox

import (
	"runtime"
	"syscall"
)

// Probe reports what this system enforces: nothing.
func Probe() Support { return Support{OS: runtime.GOOS + "/" + runtime.GOARCH} }

// Apply cannot confine here: it fails when spec requires confinement and
// otherwise does nothing (documented: not confined on this system).
func Apply(spec Spec) error {
	if spec.Require && spec.Level.Confined() {
		return &UnavailableError{Missing: Probe().Missing(spec.Level)}
	}
	return nil
}

// Exec replaces the process with the program, unconfined here.
func Exec(spec Spec, path string, argv, env []string) error {
	if err := Apply(spec); err != nil {
		return err
	}
	return syscall.Exec(path, argv, env)
}

func namespaceAttr(Spec) *syscall.SysProcAttr { return nil }

// initMain is never reached here: there is no namespace to be the first
// process of.
func initMain(spec Spec, path string, argv []string) int { return 125 }

// CanGuard reports whether [Spec.Guard] is carried out here: not without
// Linux's mount namespaces.
const CanGuard = false

// guardMain runs the command unguarded: never reached, since nothing
// asks for a guard here.
func guardMain(spec Spec, path string, argv, env []string) error {
	return syscall.Exec(path, argv, env)
}

// Refused is false here: nothing is asked of the kernel.
func Refused(error) bool { return false }
