package cmd

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "5d45431abcdef0123456"}, {Key: "vcs.time", Value: "2026-12-01T19:00:00Z"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{nil, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: vcs}, "v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "devel 5d45431abcde+dirty (2026-12-01T19:00:00Z)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
	}
	for _, tt := range tests {
		if got := versionOf(tt.bi); got != tt.want {
			t.Errorf("versionOf(%v) = %q, want %q", tt.bi, got, tt.want)
		}
	}
}
