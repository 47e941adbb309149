package cmd

import (
	"os"
	"testing"

	"github.com/agentgate/agentgate/internal/testenv"
)

// exec's confined commands run through a helper, this test binary
// started again; under -race each would sleep a second at exit.
func TestMain(m *testing.M) {
	testenv.NoRaceExitSleep()
	os.Exit(m.Run())
}
