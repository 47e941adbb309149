package allowlist

// The default allowlist is the built-in catalogue (see [Builtin]): one
// rule per entry, whose flags are an accept-list. Every entry was checked
// flag by flag against the program's manual and --help; config.example.toml
// lists each one, and a test keeps the two in step.
//
// An entry belongs here only when every flag it accepts was checked.
// Programs that run code through their operands (awk's system(), less's !,
// xargs) stay off; sed, find, date, jq and ps have their operands parsed.

// Defaults returns a fresh copy of the default allowlist, one rule per
// entry of the built-in catalogue, every rule marked with [DefaultSource].
func Defaults() []Rule {
	out := make([]Rule, len(builtin))
	for i, e := range builtin {
		out[i] = Rule{Kind: Allow, Prefix: e.Words, Note: e.Note, Source: DefaultSource, Entry: e}
	}
	return out
}
