//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package e2e

import "golang.org/x/sys/unix"

// tcgets reads a terminal's modes (TCGETS on Linux).
const tcgets = unix.TIOCGETA
