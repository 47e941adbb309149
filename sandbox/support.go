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

// A mechanism is a kernel feature that keeps a promise.
type mechanism struct {
	name    string
	abi     int  // the Landlock ABI it needs; 0 for seccomp
	seccomp bool // the seccomp filter
}

func (m mechanism) on(s Support) bool {
	if m.seccomp {
		return s.Seccomp
	}
	return s.LandlockABI >= m.abi
}

var (
	landlockFS     = mechanism{name: "Landlock", abi: 1}
	landlockTrunc  = mechanism{name: "Landlock ABI 3", abi: 3}
	landlockSignal = mechanism{name: "Landlock ABI 6", abi: signalScopeABI}
	seccompFilter  = mechanism{name: "seccomp", seccomp: true}
)

// A promise is one thing a confined command cannot do, said as what it
// could still do where nothing keeps the promise, with the mechanisms
// that keep it (any one is enough; where there are two, the second is a
// second layer).
type promise struct {
	could    string // "write files": what the command could do without it
	readOnly bool   // promised by the read-only levels only
	noNet    bool   // promised by the levels without network only
	by       []mechanism
}

// promises are what confinement promises, in the order doctor lists them
// (the package documentation says each in full).
var promises = []promise{
	{could: "write files", readOnly: true, by: []mechanism{landlockFS}},
	{could: "write outside the project", by: []mechanism{landlockFS}},
	{could: "execute planted files", by: []mechanism{landlockFS}},
	// seccomp refuses truncate(2), but an open with O_TRUNC needs Landlock
	// ABI 3 (the filter cannot refuse O_TRUNC: every "2>/dev/null" of a
	// confined shell opens with it).
	{could: "truncate files", readOnly: true, by: []mechanism{landlockTrunc}},
	{could: "execute memory files (memfd, execveat)", readOnly: true, by: []mechanism{seccompFilter}},
	{could: "change file modes, times or attributes", readOnly: true, by: []mechanism{seccompFilter}},
	{could: "reach the network", noNet: true, by: []mechanism{seccompFilter}},
	{could: "signal processes outside", by: []mechanism{landlockSignal, seccompFilter}},
	{could: "trace processes outside", by: []mechanism{landlockFS, seccompFilter}},
	{could: "change other processes' scheduling, priority or limits", by: []mechanism{seccompFilter}},
	{could: "type into the terminal", by: []mechanism{seccompFilter}},
	{could: "share memory or messages with processes outside", by: []mechanism{seccompFilter}},
	{could: "change the kernel, mounts or namespaces", by: []mechanism{seccompFilter}},
}

func (p promise) at(l Level) bool {
	if p.readOnly && l == Workspace {
		return false
	}
	if p.could == "write outside the project" && l != Workspace {
		return false // the read-only levels promise more: no writes at all
	}
	return !p.noNet || !l.Network()
}

// Kept is one promise of a level and what keeps it on this kernel.
type Kept struct {
	// Could is what the command could do were the promise not kept.
	Could string `json:"could"`
	// By names the mechanisms that keep it here; empty when none does.
	By []string `json:"by"`
}

// Promises lists what level l promises and what keeps each promise here.
func (s Support) Promises(l Level) []Kept {
	if !l.Confined() {
		return nil
	}
	var out []Kept
	for _, p := range promises {
		if !p.at(l) {
			continue
		}
		k := Kept{Could: p.could, By: []string{}}
		if s.OS == "linux" {
			for _, m := range p.by {
				if m.on(s) {
					k.By = append(k.By, m.name)
				}
			}
		}
		out = append(out, k)
	}
	return out
}

// Missing lists what a command confined at level l could still do on this
// kernel: the promises nothing keeps here.
func (s Support) Missing(l Level) []string {
	var out []string
	for _, k := range s.Promises(l) {
		if len(k.By) == 0 {
			out = append(out, k.Could)
		}
	}
	return out
}

// Describe says what confinement level l gets on this kernel:
// "read-only", "read-only, partial: could still ...", "unavailable" or
// "none".
func (s Support) Describe(l Level) string {
	if !l.Confined() {
		return string(None)
	}
	if s.OS != "linux" || (s.LandlockABI == 0 && !s.Seccomp) {
		return "unavailable"
	}
	if m := s.Missing(l); len(m) > 0 {
		return fmt.Sprintf("%s, partial: could still %s", l, strings.Join(m, ", "))
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
	return "sandbox: this kernel cannot fully confine the command: it could still " + strings.Join(e.Missing, ", ")
}
