// Package gate decides whether a proposed shell command runs at once,
// needs a person's approval, or is refused. It is pure: no I/O, no
// globals, and it never panics (an internal error is an ask).
//
// [Decide] takes a [Request] (the command text, or an argv, and the rules
// from every source) and returns a [Decision]: [Allow], [Ask] or [Deny]
// with an ordered chain of [Reason]s naming what was checked, what matched,
// which rule and where it came from. A Decision can only be built with a
// reason, and its zero value asks. The package keeps no mutable state:
// its tables (operators, wrappers, risk notes) never change.
//
// # Threat model
//
// The proposer (an AI agent) writes the command text, and may write files
// in the working directory, including file names a glob could expand to,
// the repository's .git/config and its .agentgate.toml. It does not control
// agentgate's own environment or flags, which the harness sets. The gate
// therefore decides from what is known safe (the allowlist) and treats
// everything it cannot be sure of as a question: text it cannot judge,
// operators anywhere (quoting is not reasoned about), words whose value
// depends on the environment, expansions that could produce a flag.
//
// # Guarantees
//
//   - Deny beats ask beats allow, whatever the rule's source. A deny rule
//     is matched against every command in the text, also inside
//     substitutions, behind wrappers (sudo, env, xargs ...) and inside
//     "bash -c" scripts.
//   - A command is allowed only if it is one simple command whose words,
//     after quote removal, start with an allow rule's prefix, and no word
//     hits an argument exception of any matching rule ([Decision.Argv] are
//     those words; [Decision.Literal] says they are exactly the argv).
//   - Commands naming protected or sensitive [Paths], and commands an ask
//     rule matches, give a sticky ask ([Decision.Sticky]) that no mode or
//     memory may turn into an allow.
//   - With [Request.Split], a compound is allowed only when every part is,
//     joined by && || ; | and with harmless redirects only.
//
// Risk notes ([Decision.Risks]) explain an escalation; they never decide.
package gate
