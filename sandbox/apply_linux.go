//go:build linux && (amd64 || arm64)

package sandbox

import (
	"debug/elf"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Probe reports what this kernel enforces.
func Probe() Support {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		abi = 0
	}
	return Support{LandlockABI: abi, Seccomp: seccompAvailable(), OS: runtime.GOOS}
}

// Exec confines the process as spec says and replaces it with the program.
// It returns only on failure; then the process may already be partly
// confined, and the caller must not go on to run anything else.
func Exec(spec Spec, path string, argv, env []string) error {
	if err := Apply(spec); err != nil {
		return err
	}
	return syscall.Exec(path, argv, env)
}

// Apply confines the calling thread, which it locks to this goroutine and
// which must be the one that calls execve: execve ends every other thread,
// and the program inherits this thread's Landlock domain, seccomp filter,
// no_new_privs and capabilities. It is meant to be followed at once by
// execve; it cannot be undone.
func Apply(spec Spec) error { return apply(spec, false) }

// apply is Apply; forked is set when a child is forked from the thread
// rather than the thread calling execve (see [StartConfined]).
func apply(spec Spec, forked bool) error {
	if !spec.Level.Confined() {
		return nil
	}
	runtime.LockOSThread() // never unlocked: this thread execs
	if spec.Level == Workspace && !spec.Inner {
		// The helper runs in its own mount namespace (namespaceAttr);
		// a command that cannot get its protected paths read-only does
		// not run.
		if err := bindReadOnly(spec.Root, spec.Protect); err != nil {
			return fmt.Errorf("sandbox: the project's protected files cannot be kept read-only: %w", err)
		}
	}
	sup := spec.kernel(Probe())
	if spec.Require {
		if missing := sup.Missing(spec.Level); len(missing) > 0 {
			return &UnavailableError{Missing: missing}
		}
	}
	dropBoundingSet()
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: no_new_privs: %w", err)
	}
	if sup.LandlockABI > 0 {
		if err := restrictLandlock(spec, sup.LandlockABI); err != nil {
			return fmt.Errorf("sandbox: landlock: %w", err)
		}
	}
	if sup.Seccomp {
		// A command forked from a thread of agentgate shares its Landlock
		// domain with that thread until the thread ends, and Landlock lets
		// a domain signal its own: the filter's signal rules stand on every
		// kernel then, so no signal by pid reaches agentgate.
		if err := loadFilter(spec.Level, sup.LandlockABI >= signalScopeABI && !forked); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
	}
	if err := dropCapabilities(); err != nil {
		return fmt.Errorf("sandbox: capabilities: %w", err)
	}
	// Every descriptor above 2 closes at exec: an inherited fd 3 opened
	// for writing would be a way out of the file system rules.
	if err := unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC); err != nil {
		closeOnExecByHand()
	}
	return nil
}

// dropBoundingSet empties the capability bounding set, so that a root
// process gains no capability back at execve. Without CAP_SETPCAP (not
// root) the set cannot be changed, and no_new_privs keeps execve from
// raising privileges anyway.
func dropBoundingSet() {
	if !haveCap(unix.CAP_SETPCAP) {
		return // every drop would fail: not worth 40 system calls
	}
	last := 63
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); errors.Is(err, unix.EINVAL) {
			break
		}
	}
}

// haveCap reports whether the calling thread's effective set holds c.
func haveCap(c int) bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return true // unknown: try the drops
	}
	return data[c/32].Effective&(1<<(uint(c)%32)) != 0
}

// dropCapabilities clears the effective, permitted and inheritable sets
// of the calling thread.
func dropCapabilities() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	return unix.Capset(&hdr, &data[0])
}

// closeOnExecByHand is the fallback for kernels without close_range.
func closeOnExecByHand() {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
}

// Access rights, in the names of the Landlock documentation.
const (
	readFile   = ll.AccessFSReadFile
	readDir    = ll.AccessFSReadDir
	execute    = ll.AccessFSExecute
	writeFile  = ll.AccessFSWriteFile
	truncate   = ll.AccessFSTruncate
	scratchRWX = ll.AccessFSReadFile | ll.AccessFSReadDir | ll.AccessFSWriteFile | ll.AccessFSTruncate |
		ll.AccessFSRemoveDir | ll.AccessFSRemoveFile | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSym
)

// restrictLandlock builds the ruleset of rules.go for spec and enforces it
// on every thread, best effort: a right this kernel's ABI does not know is
// left out (Probe says which).
func restrictLandlock(spec Spec, abi int) error {
	cfg := landlockConfigs[len(landlockConfigs)-1]
	if abi < len(landlockConfigs) {
		cfg = landlockConfigs[abi] // an older kernel, as a test stands for one
	}
	cfg = cfg.BestEffort()
	if spec.Level.Network() {
		// Sockets allowed: TCP and UDP ports, abstract sockets and (from
		// ABI 9) path-named Unix sockets such as docker.sock.
		cfg.HandledAccessNet = 0
		cfg.Scoped &^= ll.ScopeAbstractUnixSocket
		cfg.HandledAccessFS &^= ll.AccessFSResolveUnix
	}
	// A rule asks only for rights the configuration handles: an older
	// ABI's configuration refuses a rule with a right it does not know.
	pathAccess := func(a landlock.AccessFSSet, paths ...string) landlock.FSRule {
		return landlock.PathAccess(a&cfg.HandledAccessFS, paths...)
	}
	withRefer := func(r landlock.FSRule) landlock.FSRule {
		if abi >= 2 {
			return r.WithRefer()
		}
		return r
	}
	var rules []landlock.Rule
	// Read everything but /dev: a rule per entry of the root directory,
	// since Landlock grants on whole hierarchies and cannot subtract one.
	rules = append(rules, pathAccess(readDir, "/"))
	ents, err := os.ReadDir("/")
	if err != nil {
		return err
	}
	for _, e := range ents {
		p := "/" + e.Name()
		if p == "/dev" {
			continue
		}
		mode := e.Type()
		if mode&os.ModeSymlink != 0 { // /bin -> usr/bin: the rule lands on the target
			st, err := os.Stat(p)
			if err != nil {
				continue
			}
			mode = st.Mode().Type()
		}
		switch {
		case mode.IsDir():
			rules = append(rules, pathAccess(readFile|readDir, p))
		case mode.IsRegular():
			rules = append(rules, pathAccess(readFile, p))
		}
	}
	rules = append(rules, pathAccess(readFile|readDir|execute, execDirs...).IgnoreIfMissing())
	if spec.Program != "" {
		rules = append(rules, pathAccess(readFile|execute, spec.Program).IgnoreIfMissing())
		// The loader itself, not its directory: a program planted with a
		// loader path inside the project must not make the whole
		// directory executable.
		if interp := elfInterpreter(spec.Program); interp != "" {
			rules = append(rules, pathAccess(readFile|execute, interp).IgnoreIfMissing())
		}
	}
	rules = append(rules,
		pathAccess(readFile|writeFile|truncate, "/dev/null"),
		pathAccess(readFile, readableDevices...).IgnoreIfMissing())
	scratch := landlock.AccessFSSet(scratchRWX)
	if spec.Level == Workspace {
		scratch |= execute
		for _, p := range append([]string{spec.Root}, spec.Writable...) {
			if p != "" {
				rules = append(rules, withRefer(pathAccess(scratch, p)).IgnoreIfMissing())
			}
		}
	}
	if spec.TmpDir != "" {
		rules = append(rules, withRefer(pathAccess(scratch, spec.TmpDir)))
	}
	// Enforced on this thread only: it is the one that calls execve, which
	// ends every other thread, so the program starts with exactly this
	// thread's domain. (Restricting every thread of the Go runtime as
	// well costs a round of signals for nothing.)
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil || fd < 0 {
		return err
	}
	defer unix.Close(fd)
	return ll.LandlockRestrictSelf(fd, flags)
}

// landlockConfigs are go-landlock's configurations by ABI version.
var landlockConfigs = []landlock.Config{landlock.V1, landlock.V1, landlock.V2, landlock.V3, landlock.V4,
	landlock.V5, landlock.V6, landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11}

// elfInterpreter is the program's ELF interpreter (the dynamic loader),
// or "" for a static program, a script, or anything unreadable.
func elfInterpreter(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type != elf.PT_INTERP {
			continue
		}
		b := make([]byte, p.Filesz)
		if _, err := p.ReadAt(b, 0); err != nil {
			return ""
		}
		return strings.TrimRight(string(b), "\x00")
	}
	return ""
}
