//go:build linux && arm64

package sandbox

import "golang.org/x/net/bpf"

const auditArch = 0xc00000b7 // AUDIT_ARCH_AARCH64

// foreignABI is empty: arm64 has no second ABI that carries its audit
// value (32-bit ARM system calls carry AUDIT_ARCH_ARM and are refused by
// the architecture check).
var foreignABI []bpf.Instruction

var archSyscalls = map[string]uint32{}

// notOnThisArch are calls of rules.go that arm64 never had: its C library
// uses the *at forms, which are filtered.
var notOnThisArch = []string{"chmod", "chown", "lchown", "utime", "utimes", "futimesat"}
