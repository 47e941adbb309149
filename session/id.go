// Package session names the session an agentgate call belongs to and
// remembers, per session, what a person approved or denied.
package session

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
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
// /proc/PID/stat. The command name (field 2) may hold spaces and
// parentheses, so fields are counted after its closing parenthesis.
func startTime(pid int) (string, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", false
	}
	fields := strings.Fields(s[i+1:])
	// fields[0] is field 3 (state); starttime is field 22.
	if len(fields) < 20 {
		return "", false
	}
	return fields[19], true
}
