package gate

import (
	"runtime"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
)

// A text with more commands than MaxSegments is not checked whole
// against the rules, so it asks, even when every command is read-only.
func TestSegmentCapAsks(t *testing.T) {
	text := strings.Repeat("true; ", MaxSegments+10) + "true"
	d := Decide(Request{Text: text, Rules: allowlist.Defaults(), Split: true})
	if d.Verdict() == Allow {
		t.Fatalf("%d commands: allowed; want an ask past MaxSegments", MaxSegments+11)
	}
	if !d.Sticky() {
		t.Fatalf("%d commands: a plain ask, which bypass mode runs; want it sticky", MaxSegments+11)
	}
	short := strings.Repeat("true; ", 10) + "true"
	if d := Decide(Request{Text: short, Rules: allowlist.Defaults(), Split: true}); d.Verdict() != Allow {
		t.Fatalf("11 commands: %s (%s); want allow", d.Verdict(), d.Primary())
	}
}

// A catastrophic command hidden past the segment bound is never one bypass
// mode runs: the rules saw only the first MaxSegments commands, so the
// whole is a sticky ask (it was a plain ask, for "true" being unknown, and
// bypass ran "rm -rf ~").
func TestCatastrophicPastTheBoundIsNotRunInBypass(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("true; ", MaxSegments+10) + "rm -rf ~",
		strings.Repeat("sudo env nice true; ", MaxSegments/2) + "rm -rf ~",
		"echo " + strings.Repeat("$(echo ", 9000) + "x" + strings.Repeat(")", 9000) + "; rm -rf ~",
	} {
		d := Decide(Request{Text: text, Rules: allowlist.Defaults(), Paths: Paths{Home: "/home/u", Cwd: "/home/u/p"}})
		if d.Verdict() == Allow || d.Verdict() == Ask && !d.Sticky() {
			t.Errorf("%.40q...: %s (sticky %v, %s); want deny or a sticky ask", text, d.Verdict(), d.Sticky(), d.Primary())
		}
	}
}

// Nested substitutions repeat the text inside them as a word of the
// command around them; the words collect collects are bounded, so the
// work after the parse grows with the text, not with its square. Measured
// in bytes allocated (deterministic), not time: a nest four times deeper
// may cost about four times as much (it cost sixteen times as much, 81 MiB
// for a 64 KiB nest, before MaxSegmentBytes).
func TestNestedSubstitutionsStayLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		text := "echo " + strings.Repeat("$(echo ", n) + "x" + strings.Repeat(")", n)
		req := Request{Text: text, Rules: allowlist.Defaults(), Paths: Paths{Home: "/home/u", Cwd: "/home/u/p"}}
		Decide(req) // warm: the catalogue's tables are built on first use
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d := Decide(req)
		runtime.ReadMemStats(&after)
		if d.Verdict() == Allow {
			t.Fatalf("a %d-deep nest of substitutions: allowed", n)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(2000), alloc(8000)
	if ratio := float64(large) / float64(small); ratio > 6 {
		t.Fatalf("a nest 4 times deeper allocated %.1f times as much (%d vs %d bytes): quadratic", ratio, large, small)
	}
	if large > 64<<20 {
		t.Fatalf("an 8000-deep nest (56 KiB) allocated %d MiB", large>>20)
	}
}

// TestSegmentBytesBound: a text whose commands' words pass
// MaxSegmentBytes within the depth the form reads (each nested "$( )"
// repeats the text inside it as a word) is asked about whole, stickily,
// for the bound: the form's depth bound alone would let 24 levels of a
// 64 KiB text through.
func TestSegmentBytesBound(t *testing.T) {
	n := 20
	text := "echo " + strings.Repeat("$(echo ", n) + strings.Repeat("a", 60<<10) + strings.Repeat(")", n)
	d := Decide(Request{Text: text, Rules: allowlist.Defaults(), Paths: Paths{Home: "/home/u", Cwd: "/home/u/p"}})
	if d.Verdict() == Allow || !d.Sticky() || !strings.Contains(d.Primary().Message, "bytes") {
		t.Fatalf("words past MaxSegmentBytes: %s, sticky %v (%s)", d.Verdict(), d.Sticky(), d.Primary())
	}
}
