package e2e

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The agentgate the README builds is statically linked (issue 17): a
// host's project settings can set LD_PRELOAD for the hook process, and a
// dynamically linked agentgate would run the planted library before its
// first line. The plant is shown to work on a dynamically linked program
// (the system's true), and to do nothing to agentgate.
func TestStaticBinaryIgnoresLDPreload(t *testing.T) {
	bin := agentgateBinary(t)
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatalf("%s has an ELF interpreter: it is dynamically linked", bin)
		}
	}
	f.Close()

	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed: cannot build the planted library")
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "preloaded")
	src := filepath.Join(dir, "plant.c")
	os.WriteFile(src, []byte(`#include <stdio.h>
__attribute__((constructor)) static void plant(void) { FILE *f = fopen("`+marker+`", "w"); if (f) fclose(f); }
`), 0o644)
	so := filepath.Join(dir, "plant.so")
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", so, src).CombinedOutput(); err != nil {
		t.Skipf("cannot build the planted library: %v\n%s", err, out)
	}
	truePath, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true(1)")
	}
	c := exec.Command(truePath)
	c.Env = append(os.Environ(), "LD_PRELOAD="+so)
	c.Run()
	if _, err := os.Stat(marker); err != nil {
		t.Skip("LD_PRELOAD does not work on this system's true(1), so the test would show nothing")
	}
	os.Remove(marker)
	c = exec.Command(bin, "check", "--", "ls")
	c.Env = append(os.Environ(), "LD_PRELOAD="+so, "AGENTGATE_TTY=none")
	c.Run()
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the planted LD_PRELOAD library ran inside agentgate")
	}
}
