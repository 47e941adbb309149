// Package quietinit keeps the prompt's libraries quiet at start-up.
//
// lipgloss v2 detects the colour profile of stdout in a package-level
// variable: on a terminal that reads terminfo and, inside tmux, runs
// "tmux info". That would happen on every agentgate start, before the
// gate decides anything, and the allow path must not touch the terminal
// or run anything but the command. The profile is only used by lipgloss's
// print helpers, which agentgate does not use (the prompt detects its own
// profile on /dev/tty when it is shown).
//
// Go initialises packages in import-path order whenever their imports
// allow (the Go 1.21 specification), and "github.com/agentgate/..." sorts
// before "github.com/charmbracelet/colorprofile", which lipgloss needs: so
// this package's init runs first and sets NO_COLOR, which makes the
// detection return early. main calls Restore before anything else, so
// the command's environment is untouched.
package quietinit

import "os"

var (
	saved, hadSaved = os.LookupEnv("NO_COLOR")
	_               = os.Setenv("NO_COLOR", "1")
)

// Restore puts NO_COLOR back as it was.
func Restore() {
	if hadSaved {
		os.Setenv("NO_COLOR", saved)
	} else {
		os.Unsetenv("NO_COLOR")
	}
}
