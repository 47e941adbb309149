package runner

import "golang.org/x/sys/unix"

// becomeSubreaper makes agentgate the parent of every orphan its command
// leaves (PR_SET_CHILD_SUBREAPER).
func becomeSubreaper() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }
