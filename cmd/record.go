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
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi)
}

// versionOf is the module's version, or for a build from a checkout
// "devel" with the commit it was built from (and "+dirty" when the work
// tree had changes), so that a record or a bug report names the code.
func versionOf(bi *debug.BuildInfo) string {
	if bi == nil {
		return "devel"
	}
	v := bi.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v = "devel " + rev
	if dirty {
		v += "+dirty"
	}
	if at != "" {
		v += " (" + at + ")"
	}
	return v
}
