// Package session names the session an agentgate call belongs to and
// remembers, per session, what a person approved or denied.
package session

import (
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// ID names the session: the explicit name (from --session or
// the host's conversation id) when there is one, else the caller's Unix session:
// its id together with the start time of its leader, so that a reused id
// is a new session. It returns "" when neither is known.
func ID(explicit string) string {
	if explicit != "" {
		return explicit
	}
	sid, err := unix.Getsid(0)
	if err != nil {
		return ""
	}
	if start, ok := startTime(sid); ok {
		return fmt.Sprintf("sid-%d-%s", sid, start)
	}
	return fmt.Sprintf("sid-%d", sid)
}

// startTime reads field 22 (starttime, in clock ticks since boot) of
// /proc/PID/stat.
func startTime(pid int) (string, bool) {
	fields, ok := fsutil.StatFields(strconv.Itoa(pid))
	if !ok || len(fields) < 20 {
		return "", false
	}
	return fields[19], true
}
