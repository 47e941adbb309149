package shparse

import (
	"fmt"
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// MaxBraceFields bounds the words one brace expansion may make before the
// gate expands it: "{a,b}{a,b}..." or "{1..99999999}" would otherwise cost
// time and memory out of all proportion to the text. Past it: ask.
const MaxBraceFields = 1024

// BudgetError says an expansion was not done because it would pass its
// budget; the command asks.
type BudgetError struct {
	What  string
	Limit int
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%s would make more than %d words: too large to judge", e.What, e.Limit)
}

// BraceFields counts, without expanding, how many words brace expansion
// makes of w, saturating just past MaxBraceFields. It counts in steps
// bounded by the number of brace parts, whatever the ranges say.
func BraceFields(w *syntax.Word) int {
	if braceDepth(w) > maxBraceDepth {
		// syntax.SplitBraces takes time and memory far out of proportion
		// to a deeply nested word: "echo {{{{..." of 64 KiB ran agentgate
		// for 13 minutes and 24 GB before the kernel killed it.
		return saturated
	}
	c := *w // SplitBraces replaces the Parts slice of the word it is given
	c.Parts = append([]syntax.WordPart(nil), w.Parts...)
	if !syntax.SplitBraces(&c) {
		return 1
	}
	return wordCount(&c, 0)
}

const saturated = MaxBraceFields + 1

// maxBraceDepth bounds how deeply the braces of one word may open before
// it is parsed for brace expansion (the count below stops at the same
// depth).
const maxBraceDepth = 64

// braceDepth is how deeply the unquoted literal braces of w open, an
// unclosed "{" counting as open to the end. Every "{" counts, escaped or
// not, so it never reads a word as shallower than SplitBraces does.
func braceDepth(w *syntax.Word) int {
	depth, deepest := 0, 0
	for _, p := range w.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		for i := 0; i < len(lit.Value); i++ {
			switch lit.Value[i] {
			case '{':
				if depth++; depth > deepest {
					deepest = depth
				}
			case '}':
				if depth > 0 {
					depth--
				}
			}
		}
	}
	return deepest
}

func wordCount(w *syntax.Word, depth int) int {
	if depth > 64 {
		return saturated
	}
	n := 1
	for _, p := range w.Parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		n = satMul(n, braceCount(b, depth+1))
	}
	return n
}

func braceCount(b *syntax.BraceExp, depth int) int {
	if b.Sequence {
		if len(b.Elems) < 2 {
			return saturated
		}
		from, to := b.Elems[0].Lit(), b.Elems[1].Lit()
		f, err1 := strconv.ParseInt(from, 10, 64)
		t, err2 := strconv.ParseInt(to, 10, 64)
		if err1 != nil || err2 != nil {
			if len(from) == 0 || len(to) == 0 {
				return saturated
			}
			f, t = int64(from[0]), int64(to[0])
		}
		step := int64(1)
		if len(b.Elems) > 2 {
			if s, err := strconv.ParseInt(b.Elems[2].Lit(), 10, 64); err == nil && s != 0 {
				step = s
				if step < 0 {
					step = -step
				}
			}
		}
		span := t - f
		if span < 0 {
			span = -span
		}
		if span < 0 || span/step >= saturated { // overflow, or too many
			return saturated
		}
		return int(span/step) + 1
	}
	n := 0
	for _, e := range b.Elems {
		n += wordCount(e, depth)
		if n > MaxBraceFields {
			return saturated
		}
	}
	return n
}

func satMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > saturated/b {
		return saturated
	}
	return a * b
}
