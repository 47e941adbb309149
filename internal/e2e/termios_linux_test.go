package e2e

import "golang.org/x/sys/unix"

// tcgets reads a terminal's modes (TIOCGETA on macOS and the BSDs).
const tcgets = unix.TCGETS
