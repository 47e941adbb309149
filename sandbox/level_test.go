package sandbox

import (
	"strings"
	"testing"
)

func TestLevels(t *testing.T) {
	for _, l := range Levels {
		if got, err := ParseLevel(string(l)); err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %q, %v", l, got, err)
		}
	}
	if _, err := ParseLevel("readonly"); err == nil || !strings.Contains(err.Error(), `"read-only"`) {
		t.Errorf("a misspelt level: %v", err)
	}
	for _, tt := range []struct{ a, b, looser, tighter Level }{
		{ReadOnly, None, None, ReadOnly},
		{ReadOnlyNetwork, Workspace, Workspace, ReadOnlyNetwork},
		{ReadOnly, ReadOnlyNetwork, ReadOnlyNetwork, ReadOnly},
		{Level("bogus"), None, None, Level("bogus")},
	} {
		if got := Looser(tt.a, tt.b); got != tt.looser {
			t.Errorf("Looser(%q, %q) = %q", tt.a, tt.b, got)
		}
		if got := Tighter(tt.b, tt.a); got != tt.tighter {
			t.Errorf("Tighter(%q, %q) = %q", tt.b, tt.a, got)
		}
	}
}

func TestDescribe(t *testing.T) {
	full := Support{OS: "linux", LandlockABI: 7, Seccomp: true}
	for _, tt := range []struct {
		s    Support
		l    Level
		want string
	}{
		{full, ReadOnly, "read-only"},
		{full, None, "none"},
		// seccomp keeps what Landlock ABI 6 would (signals), not what ABI 3
		// would (an open with O_TRUNC)
		{Support{OS: "linux", LandlockABI: 5, Seccomp: true}, ReadOnly, "read-only"},
		{Support{OS: "linux", LandlockABI: 3, Seccomp: true}, ReadOnlyNetwork, "read-only+network"},
		{Support{OS: "linux", LandlockABI: 1, Seccomp: true}, ReadOnlyNetwork, "read-only+network, partial: could still truncate files"},
		{Support{OS: "linux", LandlockABI: 2}, ReadOnly, "read-only, partial: could still truncate files, execute memory files (memfd, execveat), " +
			"change file modes, times or attributes, reach the network, signal processes outside, change other processes' scheduling, priority or limits, " +
			"type into the terminal, share memory or messages with processes outside, change the kernel, mounts or namespaces"},
		{Support{OS: "linux", LandlockABI: 7}, Workspace, "workspace, partial: could still reach the network, change other processes' scheduling, priority or limits, " +
			"type into the terminal, share memory or messages with processes outside, change the kernel, mounts or namespaces"},
		{Support{OS: "linux", Seccomp: true}, ReadOnly, "read-only, partial: could still write files, execute planted files, truncate files"},
		{Support{OS: "linux", Seccomp: true}, Workspace, "workspace, partial: could still write outside the project, execute planted files"},
		{Support{OS: "linux"}, ReadOnly, "unavailable"},
		{Support{OS: "darwin"}, Workspace, "unavailable"},
	} {
		if got := tt.s.Describe(tt.l); got != tt.want {
			t.Errorf("%+v %s: %q, want %q", tt.s, tt.l, got, tt.want)
		}
	}
}
