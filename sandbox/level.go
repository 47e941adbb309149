package sandbox

import (
	"fmt"
	"strings"
)

// Level is how much a confined command may do.
type Level string

// The levels, from the tightest to none at all.
const (
	// ReadOnly: read, no writes, no network, no privileges.
	ReadOnly Level = "read-only"
	// ReadOnlyNetwork is ReadOnly with sockets allowed, for tools that read
	// remote state. Weaker: such a command can send what it reads.
	ReadOnlyNetwork Level = "read-only+network"
	// Workspace allows writes and execution under the project root, the
	// extra writable paths and a private scratch directory; no network.
	Workspace Level = "workspace"
	// None runs the command as it is.
	None Level = "none"
)

// Levels lists every level, tightest first.
var Levels = []Level{ReadOnly, ReadOnlyNetwork, Workspace, None}

// ParseLevel checks a level name.
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels {
		if string(l) == s {
			return l, nil
		}
	}
	names := make([]string, len(Levels))
	for i, l := range Levels {
		names[i] = fmt.Sprintf("%q", l)
	}
	return "", fmt.Errorf("unknown sandbox level %q; use one of %s", s, strings.Join(names, ", "))
}

// rank orders levels by what they allow: a higher rank allows more.
func (l Level) rank() int {
	switch l {
	case ReadOnly:
		return 0
	case ReadOnlyNetwork:
		return 1
	case Workspace:
		return 2
	case None:
		return 3
	}
	return 0 // unknown levels count as the tightest
}

// Looser returns the level that allows more of a and b: a compound whose
// parts were allowed at different levels runs at the loosest of them.
func Looser(a, b Level) Level {
	if b.rank() > a.rank() {
		return b
	}
	return a
}

// Tighter returns the level that allows less of a and b: settings only
// tighten across sources, and a policy floor caps user rules.
func Tighter(a, b Level) Level {
	if b.rank() < a.rank() {
		return b
	}
	return a
}

// Confined reports whether the level confines at all.
func (l Level) Confined() bool { return l != None && l != "" }

// Network reports whether the level allows sockets.
func (l Level) Network() bool { return l == ReadOnlyNetwork || l == None }

// Writes reports whether the level allows writes beyond scratch space.
func (l Level) Writes() bool { return l == Workspace || l == None }
