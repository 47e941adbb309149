package cmd

import "runtime/debug"

// Version is agentgate's version: set with -ldflags "-X
// github.com/agentgate/agentgate/cmd.Version=v1.2.3", else taken from the
// module build information.
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
