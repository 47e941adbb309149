package engine

import (
	"testing"

	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/shparse"
)

// A text that runs git chooses what git reads through a value agentgate
// cannot read without naming GIT_* itself (red team round 7: each was
// approved while the repository it names was clean, and ran the
// core.fsmonitor planted there afterwards): a sourced or evaluated file,
// a variable or an xargs word handed to env or to git's own options, an
// xargs that hands git its words.
func TestGitChoiceUnreadIndirect(t *testing.T) {
	judge := func(s string) *Judgement {
		j := &Judgement{}
		j.Request = gate.Request{Text: s, Script: shparse.Of(s)}
		j.Decision = gate.Decide(j.Request)
		return j
	}
	for _, s := range []string{
		`. ./e.sh; git status > st.txt`,
		`source e.sh; git status > st.txt`,
		`set -a; . ./e.sh; git status > st.txt`,
		`bash -c ". ./e.sh; git status" > st.txt`,
		`eval "$(cat e.sh)"; git status > st.txt`,
		`cat n | xargs -I{} env {} git status > st.txt`,
		`xargs -a n -I{} env {} git status > st.txt`,
		`cat p | xargs -I{} git --git-dir={} status > st.txt`,
		`cat p | xargs git > st.txt`,
		`cat p | xargs -I% git --git-dir=% status > st.txt`,
		`cat p | xargs --replace env {} git status > st.txt`,
		`while read -r l; do env "$l" git status; done < n > st.txt`,
		`for l in $(cat n); do env $l git status; done > st.txt`,
		`git --git-dir=$(cat p) status > st.txt`,
		`git -C "$(dirname $(cat p))" status > st.txt`,
		`git $(cat p) status > st.txt`,
		`find .. -name .git -exec git --git-dir={} status \; > st.txt`,
	} {
		if gitChoiceUnread(judge(s)) == "" {
			t.Errorf("%s: what git reads is chosen by a value agentgate cannot read, and was not named", s)
		}
	}
	for _, s := range []string{
		`git status > st.txt`,
		`echo $GIT_DIR; git status`,
		`git commit -m "$msg" > st.txt`,
		`git -C ../other status > st.txt`,
		`find . -name '*.go' -exec git add {} + > st.txt`,
		`timeout 5 git status > st.txt`,
		`echo a | xargs git status > st.txt`,
		`cat n > st.txt`,
	} {
		if name := gitChoiceUnread(judge(s)); name != "" {
			t.Errorf("%s: named %q, though every word choosing what git reads is literal", s, name)
		}
	}
}
