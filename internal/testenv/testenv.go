// Package testenv holds what every test binary that starts copies of
// itself needs before it starts them.
package testenv

import (
	"os"
	"strings"
)

// NoRaceExitSleep tells the race runtime of every process this one
// starts not to sleep before exiting. A -race binary waits a second at
// exit (GORACE atexit_sleep_ms defaults to 1000) so that goroutines still
// running can report; each agentgate a test starts, each confinement
// helper and each concurrent audit writer paid that second, and the
// suite spent most of its wall-clock time asleep. Races are still
// reported as they happen; only the wait for late reports at exit goes.
// A GORACE that already sets atexit_sleep_ms is left as it is.
func NoRaceExitSleep() {
	old := os.Getenv("GORACE")
	if strings.Contains(old, "atexit_sleep_ms") {
		return
	}
	os.Setenv("GORACE", strings.TrimSpace(old+" atexit_sleep_ms=0"))
}
