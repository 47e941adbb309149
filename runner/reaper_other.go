//go:build !linux

package runner

// becomeSubreaper: other systems have no subreaper; the limit reaches the
// command's group and what /proc (where there is one) shows under it.
func becomeSubreaper() {}
