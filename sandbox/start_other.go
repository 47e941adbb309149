//go:build !(linux && (amd64 || arm64))

package sandbox

import "os/exec"

// Forkable is false here: there is nothing to confine a thread with.
func Forkable(Spec) bool { return false }

// StartConfined starts c unconfined (see [Apply] here).
func StartConfined(c *exec.Cmd, spec Spec) error {
	if err := Apply(spec); err != nil {
		return err
	}
	return c.Start()
}
