package sandbox

import (
	"fmt"
	"strings"
)

// Support is what this kernel can enforce.
type Support struct {
	// LandlockABI is the Landlock ABI version, 0 when there is none.
	LandlockABI int `json:"landlock_abi"`
	// Seccomp is true when seccomp filters can be loaded.
	Seccomp bool `json:"seccomp"`
	// OS is the operating system; confinement exists on Linux only.
	OS string `json:"os"`
}

// layer is one part of the confinement and what it needs from the kernel.
type layer struct {
	name    string
	abi     int  // minimum Landlock ABI; 0 for none
	seccomp bool // needs seccomp
	network bool // only at levels without network
	why     string
}

// layers are the parts of the confinement, each with what it needs. A
// missing one makes the confinement partial.
var layers = []layer{
	{name: "file system (Landlock)", abi: 1, why: "no writes, no execution of planted files"},
	{name: "truncation (Landlock ABI 3)", abi: 3, why: "truncate(2) of a file"},
	{name: "TCP (Landlock ABI 4)", abi: 4, network: true, why: "second layer for the socket ban"},
	{name: "signals and abstract sockets (Landlock ABI 6)", abi: 6, why: "signalling processes outside"},
	{name: "system call filter (seccomp)", seccomp: true, why: "no sockets, no terminal injection, no kernel changes"},
}

// Missing lists the layers of level l this kernel cannot enforce.
func (s Support) Missing(l Level) []string {
	if !l.Confined() {
		return nil
	}
	if s.OS != "linux" {
		return []string{"confinement (Linux only)"}
	}
	var out []string
	for _, y := range layers {
		if y.network && l.Network() {
			continue
		}
		if (y.abi > 0 && s.LandlockABI < y.abi) || (y.seccomp && !s.Seccomp) {
			out = append(out, y.name)
		}
	}
	return out
}

// Describe says what confinement level l gets on this kernel:
// "read-only", "read-only, partial: no ...", "unavailable" or "none".
func (s Support) Describe(l Level) string {
	if !l.Confined() {
		return string(None)
	}
	if s.OS != "linux" || (s.LandlockABI == 0 && !s.Seccomp) {
		return "unavailable"
	}
	if m := s.Missing(l); len(m) > 0 {
		return fmt.Sprintf("%s, partial: no %s", l, strings.Join(m, ", no "))
	}
	return string(l)
}

// String is the machine's level, as "agentgate doctor" prints it.
func (s Support) String() string {
	if s.OS != "linux" {
		return "no confinement on " + s.OS
	}
	ll := "no Landlock"
	if s.LandlockABI > 0 {
		ll = fmt.Sprintf("Landlock ABI %d", s.LandlockABI)
	}
	sc := "no seccomp"
	if s.Seccomp {
		sc = "seccomp"
	}
	return ll + ", " + sc
}

// UnavailableError is full confinement that this kernel cannot give.
type UnavailableError struct{ Missing []string }

func (e *UnavailableError) Error() string {
	return "sandbox: this kernel cannot fully confine the command: no " + strings.Join(e.Missing, ", no ")
}
