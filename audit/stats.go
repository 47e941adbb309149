package audit

import (
	"sort"
	"strings"

	"github.com/agentgate/agentgate/gate"
)

// Count is one key and how often it came.
type Count struct {
	Key   string `json:"key"`
	Count int    `json:"count"`
}

// PrefixRate is how often a prefix escalated and was approved.
type PrefixRate struct {
	Prefix      string  `json:"prefix"`
	Escalations int     `json:"escalations"`
	Approved    int     `json:"approved"`
	Rate        float64 `json:"approval_rate"`
}

// StatsReport is what "audit stats" prints; its JSON keys come in
// alphabetical order, as they always have.
type StatsReport struct {
	Commands    []Count      `json:"commands"`
	Escalations int          `json:"escalations"`
	Outcomes    []Count      `json:"outcomes"`
	Prefixes    []PrefixRate `json:"prefixes"`
	Sessions    []Count      `json:"sessions"`
}

// Stats counts the escalations q selects: by outcome, and the top
// commands, prefixes (with how many were approved) and sessions. Memory
// stays bounded on any log: past a bound, the rarest keys are dropped.
func Stats(path string, q Query, top int, warn func(error)) (StatsReport, error) {
	outcomes := newCounter(1 << 20)
	commands, prefixes, sessions := newCounter(50000), newCounter(20000), newCounter(20000)
	approvedBy := map[string]int{}
	r := StatsReport{}
	err := Escalations(path, q, warn, func(e Entry, o Outcome) {
		r.Escalations++
		commands.add(e.Command)
		p := Prefix(e.Command)
		prefixes.add(p)
		sessions.add(e.Session)
		outcomes.add(string(o))
		if o.Approved() {
			approvedBy[p]++
		}
	})
	if err != nil {
		return r, err
	}
	for _, p := range prefixes.top(top) {
		r.Prefixes = append(r.Prefixes, PrefixRate{p.Key, p.Count, approvedBy[p.Key], float64(approvedBy[p.Key]) / float64(p.Count)})
	}
	r.Outcomes, r.Commands, r.Sessions = outcomes.top(len(outcomes.m)), commands.top(top), sessions.top(top)
	if r.Prefixes == nil {
		r.Prefixes = []PrefixRate{}
	}
	return r, nil
}

// Candidate is a rule "audit suggest" proposes, with its evidence.
type Candidate struct {
	Prefix string
	// Sandbox is the level the rule must carry (gate.Suggest).
	Sandbox     string
	Approved    int
	First, Last string
}

// Suggest proposes rules from the escalations q selects: prefixes
// approved at least min times and never denied, whose approved commands
// held no operator, and that gate.Suggest offers (never a plain prefix
// for a program that deletes, overwrites or runs code), most approved
// first.
func Suggest(path string, q Query, min int, warn func(error)) ([]Candidate, error) {
	type cand struct {
		Candidate
		denied    int
		operators bool
	}
	cands := map[string]*cand{}
	err := Escalations(path, q, warn, func(e Entry, o Outcome) {
		if e.Decision == "deny" {
			return
		}
		p := suggestPrefix(e.Command)
		if p == "" {
			return
		}
		c := cands[p]
		if c == nil {
			if len(cands) >= 100000 {
				return
			}
			c = &cand{Candidate: Candidate{Prefix: p, First: e.Time, Last: e.Time}}
			cands[p] = c
		}
		c.First, c.Last = minString(c.First, e.Time), maxString(c.Last, e.Time)
		if o.Approved() {
			c.Approved++
			c.operators = c.operators || hasOperator(e.Command)
		} else {
			// Denied, or a host's dialog that sent no result (Claude Code
			// sends none when the person says No): no approval.
			c.denied++
		}
	})
	if err != nil {
		return nil, err
	}
	var out []Candidate
	for _, c := range cands {
		s := gate.Suggest(strings.Fields(c.Prefix))
		if s.Prefix != c.Prefix || c.Approved < min || c.denied > 0 || c.operators {
			continue
		}
		c.Sandbox = s.Sandbox
		out = append(out, c.Candidate)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Approved != out[j].Approved {
			return out[i].Approved > out[j].Approved
		}
		return out[i].Prefix < out[j].Prefix
	})
	return out, nil
}

func hasOperator(s string) bool {
	return strings.ContainsAny(s, ";&|`<>\n\r") || strings.Contains(s, "$(") || strings.Contains(s, "${")
}

func minString(a, b string) string {
	if b < a {
		return b
	}
	return a
}

func maxString(a, b string) string {
	if b > a {
		return b
	}
	return a
}

// counter counts keys with bounded memory: past max keys, the rarest are
// dropped (they cannot be among the most frequent).
type counter struct {
	max int
	m   map[string]int
}

func newCounter(max int) *counter { return &counter{max: max, m: map[string]int{}} }

func (c *counter) add(k string) {
	c.m[k]++
	if len(c.m) > c.max {
		floor := 1
		for len(c.m) > c.max/2 {
			for k, v := range c.m {
				if v <= floor {
					delete(c.m, k)
				}
			}
			floor++
		}
	}
}

func (c *counter) top(n int) []Count {
	out := make([]Count, 0, len(c.m))
	for k, v := range c.m {
		out = append(out, Count{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Key < out[j].Key
	})
	return out[:min(n, len(out))]
}
