//go:build !race

package prompt_test

const raceEnabled = false
