//go:build e2e

package clients

import (
	"testing"

	"github.com/agentgate/agentgate/internal/e2e/harness"
)

// agentgateBinary is agentgate built from this tree (harness.Binary).
func agentgateBinary(t *testing.T) string { return harness.Binary(t) }

// ptyRun is a real client running under a pseudo-terminal (startPty).
type ptyRun struct{ *harness.Pty }
