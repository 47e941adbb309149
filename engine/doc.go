// Package engine is agentgate's one escalation engine. exec, check and
// hook all call it, so they cannot drift apart: the same judgement (the
// pure decision of package gate, then the checks that look at the world),
// the same route through session memory, the circuit breaker and the mode,
// the same audit records, and the same plan for running what was checked.
//
// The engine never talks to a person. Where a person must answer, [Engine.Route]
// says [Prompt] and the caller asks (exec on /dev/tty; a hook through its
// host) and hands the answer back to [Engine.Answer].
//
// Where no one can be asked, [NoOneToAsk] refuses and keeps the command as
// a [Pending] request; a person approves it from another terminal
// ([Engine.ApprovePending]) and the exact retry routes to Run once
// (approved_out_of_band). A hook's host runs commands itself and reports
// how they ended in a later process: [Escalation.Later] keeps a record for
// that and [Engine.Resume] finishes it under the same id. A host that
// runs a rewrite of an ask once the person said yes (Claude Code) is
// handed "agentgate exec --host-ticket T": [Escalation.HostAsk] keeps the
// approval under T's hash, and the exact command, judged the same, routes
// to Run once (approved_host) in that exec.
//
// # Guarantees
//
//   - Deny beats ask beats allow: a deny verdict is refused in every mode;
//     a sticky ask (sensitive path, self-protection, ask rule) is never
//     turned into a run by a mode or by session memory.
//   - Session memory is keyed by the exact command text and the working
//     directory, and never runs anything in the ci or readonly mode.
//   - An approval from another terminal runs exactly the command text, in
//     the directory and session it was asked for, once, within
//     [GrantTTL]; never in the ci or readonly mode, never a deny.
//   - Route reads state and writes nothing, so check can report exactly
//     what exec would do; only Answer, the record functions and the
//     pending-request functions write.
//   - A command that escalated runs only after its audit record is
//     written.
package engine
