//go:build race

package prompt_test

// raceEnabled is true under the race detector.
const raceEnabled = true
