package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/sandbox"
)

// DoctorOptions are the inputs of "agentgate doctor".
type DoctorOptions struct {
	Env   *Env
	Flags ConfigFlags
	Probe func() sandbox.Support
	// Live runs each installed host against a stand-in model to show
	// what its own rules do to agentgate's questions.
	Live bool
}

func newCmdDoctor(env *Env, runF func(*DoctorOptions) error) *cobra.Command {
	o := &DoctorOptions{Env: env, Probe: sandbox.Probe}
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check this machine and configuration: what confinement the kernel enforces",
		Long: `Check what agentgate can do on this machine and say how to fix what is
missing: the confinement this kernel enforces for each sandbox level
(Landlock ABI, seccomp), whether the binary is statically linked, and for
every host agentgate is installed in (claude, codex, gemini, cursor) the
hook entries, a sample of the hook's answers, the host's version against
the one agentgate's tests drive, and the host's own settings that would
bypass agentgate.

--live also runs each installed host that has a live check (Claude Code)
in a throwaway home and project against a stand-in model on 127.0.0.1
that asks for one command agentgate asks about, with one of the host's
allow rules: the host's own allow rules are problems only when the run
shows such a rule running that command unasked. Nothing of your own
settings, keys, audit log or sessions is used; it takes a few seconds.

Exit status: 0 when everything needed is there; 1 when something is
missing or would bypass agentgate (sandbox = "require" on a kernel that
cannot fully confine, a broken hook, a setting shown to skip agentgate's
question); 2 for a configuration error.`,
		Example: `  agentgate doctor
  agentgate doctor --live     # also show, on the installed hosts, what their allow rules do`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return doctorAll(o)
		},
	}
	o.Flags.register(c.Flags())
	c.Flags().BoolVar(&o.Live, "live", false, "run each installed host against a stand-in model to show what its allow rules do")
	return c
}

func doctorRun(o *DoctorOptions) error {
	cfg, err := o.Env.loadConfig(&o.Flags)
	if err != nil {
		return err
	}
	s := o.Probe()
	w := o.Env.Stdout
	fmt.Fprintf(w, "sandbox: %s\n", s)
	for _, l := range sandbox.Levels {
		if l.Confined() {
			fmt.Fprintf(w, "  %-18s %s\n", l, s.Describe(l))
		}
	}
	fmt.Fprintf(w, "  what a read-only command cannot do, and what stops it here:\n")
	for _, k := range s.Promises(sandbox.ReadOnly) {
		by := strings.Join(k.By, " and ")
		if by == "" {
			by = "NOTHING on this kernel"
		}
		fmt.Fprintf(w, "    %-56s %s\n", k.Could, by)
	}
	missing := s.Missing(sandbox.ReadOnly)
	switch {
	case len(missing) == 0:
		fmt.Fprintf(w, "  built-in read-only rules run fully confined\n")
		return nil
	case cfg.SandboxRequire:
		fmt.Fprintf(w, "  problem: sandbox = \"require\" (from %s), so every auto-allowed command asks\n", cfg.SandboxSource)
		fmt.Fprintf(w, "  fix: run on Linux 6.7 or later with Landlock and seccomp enabled (lsm= on the kernel command line)\n")
		return exitStatus(1)
	}
	fmt.Fprintf(w, "  built-in read-only rules run partly confined (best effort); set sandbox = \"require\" to ask instead\n")
	fmt.Fprintf(w, "  user rules whose sandbox level this kernel cannot keep ask\n")
	return nil
}
