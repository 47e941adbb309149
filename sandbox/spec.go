package sandbox

import (
	"encoding/json"
	"fmt"
)

// Spec is the confinement of one command.
type Spec struct {
	Level Level `json:"level"`
	// Program is the resolved path of the program that is executed; it
	// gets the execute right, and so does its ELF interpreter's directory.
	Program string `json:"program"`
	// TmpDir is the private scratch directory (TMPDIR), writable; it is
	// executable only at the Workspace level.
	TmpDir string `json:"tmpdir,omitempty"`
	// Root is the project root a Workspace command may write under.
	Root string `json:"root,omitempty"`
	// Writable are extra paths a Workspace command may write under.
	Writable []string `json:"writable,omitempty"`
	// Protect are paths under the writable tree a Workspace command may
	// not change: the repository's .git, the agents' project settings,
	// agentgate's project files ([Protected]). Each is bound read-only
	// over itself in a mount namespace of the command's own, so that a
	// write, an unlink or a rename of it fails; Landlock, which grants on
	// whole hierarchies, cannot take them out of the tree.
	Protect []string `json:"protect,omitempty"`
	// Watch are the paths whose entry must stand as it was when the
	// command ends ([Watched]): agentgate compares them before and after
	// and moves aside what the command made there ([Snapshot.Restore]).
	// The helper does not read them.
	Watch []string `json:"watch,omitempty"`
	// Guard are agentgate's own directories (configuration, state with
	// the trust store, sessions, pending requests and the installed hook
	// binary, the audit log's) for a command that runs unconfined (Level
	// None: a person approved it, or bypass mode let it run): bound
	// read-only over themselves in a mount namespace of its own, the
	// directories between Root (the home) and each bound writable over
	// themselves so that none can be renamed away, and CAP_SYS_ADMIN
	// taken from a root command, so that it cannot unmount them. A
	// planted build script run by an approved "make" cannot turn the gate
	// off, trust the agent's project file or approve its own requests.
	Guard []string `json:"guard,omitempty"`
	// Inner marks the helper the workspace's first process starts inside
	// its namespaces, which are set up already ([initMain]).
	Inner bool `json:"inner,omitempty"`
	// Require makes Apply fail rather than run partly confined.
	Require bool `json:"require,omitempty"`
	// LandlockABI, when set, is the most of Landlock used: the tests stand
	// for an older kernel with it (-1: none). It can only weaken the
	// confinement, as Level "none" can: choosing a Spec is agentgate's.
	LandlockABI int `json:"landlock_abi,omitempty"`
}

// signalScopeABI is the Landlock ABI that scopes signals to the domain.
const signalScopeABI = 6

// kernel is what the kernel enforces for this spec: the probe, less what
// LandlockABI leaves out.
func (s Spec) kernel(sup Support) Support {
	switch {
	case s.LandlockABI < 0:
		sup.LandlockABI = 0
	case s.LandlockABI > 0 && s.LandlockABI < sup.LandlockABI:
		sup.LandlockABI = s.LandlockABI
	}
	return sup
}

// encode and decode carry a Spec to the re-executed helper.
func (s Spec) encode() string {
	b, _ := json.Marshal(s)
	return string(b)
}

func decodeSpec(text string) (Spec, error) {
	var s Spec
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return s, fmt.Errorf("sandbox: bad specification: %w", err)
	}
	if _, err := ParseLevel(string(s.Level)); err != nil {
		return s, fmt.Errorf("sandbox: %w", err)
	}
	return s, nil
}

// Guarding reports whether spec only guards agentgate's own files.
func (s Spec) Guarding() bool { return !s.Level.Confined() && len(s.Guard) > 0 }
