package gate_test

import (
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

// What the text does before a word (assigns a variable, changes
// directory, runs git through a runner) cannot take a command out of
// the built-in catastrophic rules or the sticky asks: in bypass mode,
// which runs ordinary asks, none of these may run.
func TestFlowHeld(t *testing.T) {
	tests := []struct {
		cmd  string
		deny bool // denied by a catastrophic rule; otherwise a sticky ask
	}{
		// F11: variables assigned in the text.
		{`X=~; rm -rf $X`, true},
		{`X=~; rm -rf "$X"`, true},
		{`X=/usr; rm -rf $X`, true},
		{`X=/usr; rm -rf ${X}/`, true},
		{`export X=~; rm -rf $X`, true},
		{`declare X=/usr; rm -rf ${X}`, true},
		{`local X=/; rm -rf $X/*`, false}, // local assigns nothing outside a function
		{`local X=x; rm -rf /usr$X`, true},
		{`declare -l X=/USR; rm -rf $X`, false}, // -l lowers the value
		{`typeset -u X=/usr/lib; rm -rf ${X,,}`, false},
		{`declare -i X; X=x; rm -rf /usr/lib$X`, false},
		{`X=/; Y=$X/usr; rm -rf $Y`, true},
		{`X=~; bash -c "rm -rf $X"`, true},
		{`X=sda; dd if=/dev/zero of=/dev/$X`, true},
		{`X=/dev/sda; dd if=/dev/zero of=$X`, true},
		{`X=sda; cat /dev/zero > /dev/$X`, true},
		// F11: a relative target after cd.
		{`cd / && rm -rf usr`, true},
		{`cd /; rm -rf usr`, true},
		{`cd / || true; rm -rf usr`, true},
		{`pushd / && rm -rf usr`, true},
		{`cd /usr && cd .. && rm -rf etc`, true},
		{`cd / && chmod -R 000 etc`, true},
		{`cd / && rm -rf "$PWD/usr"`, true},
		{`cd /dev && dd if=/dev/zero of=sda`, true},
		{`bash -c 'cd / && rm -rf usr'`, true},
		// F11: busybox and toybox run their applets.
		{`busybox rm -rf /usr`, true},
		{`toybox rm -rf /`, true},
		{`/bin/busybox rm -rf ~`, true},
		// Targets computed at run time: at least a sticky ask.
		{`X=$(echo /usr); rm -rf $X`, false},
		{`D=$(pwd)/..; rm -rf "$D"`, false},
		{`X=$UNSET; rm -rf $X`, false},
		{`for d in /usr; do rm -rf $d; done`, false},
		{`read X; rm -rf $X`, false},
		{`X=$(echo sda); dd if=/dev/zero of=/dev/$X`, false},
		{`X=$(echo /dev/sda); dd if=/dev/zero of=$X`, false},
		{`cd "$(mktemp -d)" && rm -rf lib`, false},
		{`cd $SOMEWHERE && rm -rf lib`, false},
		{`cd - && rm -rf lib`, false},
		{`popd; rm -rf lib`, false},
		// F4: protected and sensitive paths through variables and cd.
		{`X=~/.bashrc; echo y >> $X`, false},
		{`X=.bash; echo "touch /tmp/m" >> ~/${X}rc`, false},
		{`X=.git/hoo; echo x > ${X}ks/pre-commit`, false},
		{`X=/home/u/.a; cat ${X}ws/credentials`, false},
		{`X=.local/state/agentgate; cd ~/$X && echo > audit.jsonl`, false},
		{`C=~/.config/agentgate; printf 'mode = "bypass"\n' > $C/config.toml`, false},
		{`export XDG_CONFIG_HOME=/home/u/.config; echo x > $XDG_CONFIG_HOME/agentgate/config.toml`, false},
		{`cd ~/.config && cd agentgate && printf "mode = \"bypass\"\n" > config.toml`, false},
		{`cd .git && cp ../a.txt config`, false},
		{`cd ~ && echo x >> .bashrc`, false},
		{`X=$(printf .bash); echo x >> ~/${X}rc`, false},
		{`X=$(pwd); echo x > $X/.git/config`, false},
		{`X=$(mktemp); echo x > $X`, false},
		{`X=$(echo .git); cp a.txt $X/config`, false},
		// Relative protected names after a cd the gate cannot follow.
		{`cd "$D" && cp a.txt .git/config`, false},
		{`cd $(echo ~) && echo x >> .zshrc`, false},
		{`cd - && echo x > hooks/pre-commit`, false},
		// F10: git config behind global options and runners.
		{`git -c a.b=c config core.pager x`, false},
		{`git -C . config core.sshCommand x`, false},
		{`git --no-pager config alias.st '!touch x'`, false},
		{`git --git-dir .git config core.pager x`, false},
		{`find . -maxdepth 0 -exec git config core.pager x \;`, false},
		{`git submodule foreach git config core.pager x`, false},
		{`git submodule foreach 'git config core.pager x'`, false},
		{`parallel git config core.pager ::: x`, false},
		// Issue 16: one environment, scoped as bash scopes it. Each was
		// an ordinary ask, which bypass mode runs, while bash removes /usr.
		{`command -p cd / && rm -rf usr`, true},
		{`command -p -- cd / && rm -rf usr`, true},
		{`builtin cd / && rm -rf usr`, true},
		{`command cd /; rm -rf usr`, true},
		{`X=x rm -rf /usr$X`, true},           // a prefix: the command's environment only
		{`X=x true; rm -rf /usr$X`, true},     // ... and not after it
		{`true | X=x ; rm -rf /usr$X`, true},  // a pipeline's element is a subshell
		{`(X=x); rm -rf /usr$X`, true},        // a subshell
		{`X=x & rm -rf /usr$X`, true},         // a background job
		{`echo $(X=x); rm -rf /usr$X`, true},  // a substitution
		{`f() { X=x; }; rm -rf /usr$X`, true}, // a function's body runs when called
		{`rm -rf /usr$X; X=x`, true},          // read before it is assigned
		{`true || X=x; rm -rf /usr$X`, true},  // one branch
		{`if false; then X=x; fi; rm -rf /usr$X`, true},
		{`X=x; bash -c 'rm -rf /usr$X'`, true},   // a child sees exported names only
		{`bash -c "X=x"; rm -rf /usr$X`, true},   // and its assignments stay in it
		{`true | eval X=x; rm -rf /usr$X`, true}, // eval runs where it stands
		{`X=x env rm -rf /usr$X`, true},
		{`trap "X=x" EXIT; rm -rf /usr$X`, true}, // a trap runs later
		{`cd /; trap "X=/tmp/" EXIT; rm -rf ${X}usr`, true},
		{`while X=x; false; do :; done; rm -rf /usr$X`, true},
		{`(X=/; cd $X); rm -rf usr`, false},       // the cd's target is judged, unknown
		{`X=/; (X=/tmp/); rm -rf ${X}usr`, false}, // two values
		{`X=/tmp/; true && X=/; rm -rf ${X}usr`, false},
		{`X=x; : $((X=1)); dd if=/dev/zero of=/dev/sda$X`, true},
		{`X=x; let X=1; rm -rf /usr/lib$X`, false}, // arithmetic assigns: computed
		// A quoted $NAME is left as written by bash, and read as the
		// variable by the path checks: a planted link named $HOME.
		{`cat '$HOME'/notes`, false},
		{`cat "\$HOME"/notes`, false},
		{`cat '$'HOME/notes`, false},
		{`D=a; cat '$D'/notes`, false},
		{`X=build; rm -rf "$"X/`, false},
		{`bash -c "cat '\$HOME'/notes"`, false}, // quoted in the nested text too
		{`sh -c 'cat "$0"/notes' '$HOME'`, false},
		// A sourced file may assign any name and cd anywhere.
		{`X=/tmp/; . ./f; rm -rf ${X}usr`, false},
		{`source ./f; rm -rf usr`, false},
		{`BASH_ENV=./f bash -c 'rm -rf usr'`, false}, // every bash runs f first
		{`export BASH_ENV=./f; bash -c 'rm -rf usr'`, false},
	}
	for _, tt := range tests {
		for _, split := range []bool{false, true} {
			d := gate.Decide(gate.Request{Text: tt.cmd, Rules: allowlist.Defaults(), Paths: defaultPaths, Split: split})
			switch {
			case tt.deny && (d.Verdict() != gate.Deny || d.Primary().Check != gate.CheckCatastrophic):
				t.Errorf("%q (split %v): %s, %s; want a catastrophic deny", tt.cmd, split, d.Verdict(), d.Primary())
			case !tt.deny && d.Verdict() != gate.Deny && !(d.Verdict() == gate.Ask && d.Sticky()):
				t.Errorf("%q (split %v): %s sticky=%v, %s; want a sticky ask", tt.cmd, split, d.Verdict(), d.Sticky(), d.Primary())
			}
		}
	}
}

// Ordinary use of variables, cd and git is not made sticky: bypass mode
// still runs it, and nothing here is catastrophic.
func TestFlowOrdinary(t *testing.T) {
	for _, cmd := range []string{
		`X=1; echo $X`,
		`X=$(date); echo $X`,
		`rm -rf build`,
		`X=build; rm -rf $X`,
		`X=~/proj/build; rm -rf "$X"`,
		`cd sub && rm -rf build`,
		`cd /tmp && rm -rf build`,
		`cd ~/proj && rm -rf build`,
		`X=$(mktemp -d); echo hi > $X/out.txt`,
		`git add config`,
		`git log --grep config`,
		`git config --get user.name`,
		`busybox ls /usr`,
		`dd if=/dev/zero of=disk.img count=1`,
		`cd /tmp && dd if=/dev/zero of=disk.img count=1`,
		`cd "$(git rev-parse --show-toplevel)" && go test ./...`,
		// Scoped assignments that reach: still ordinary.
		`X=build && rm -rf $X`,
		`eval X=build; rm -rf $X`,
		`export X=build; rm -rf $X`,
		`{ X=build; }; rm -rf $X`,
		`X=build; (rm -rf $X)`,
		`command cd sub && rm -rf build`,
		`FOO=1 make test`,
		`awk '{print $NF}' f`,
		`sed '$d' f`,
		`bash -c 'ls $HOME'`, // the nested shell expands it
		`declare -rx X=build; rm -rf $X`,
		"cat > run.sh <<'EOF'\ncd $HOME\nEOF", // a body is not a name
		`X=a; grep -c x <<< '$X'`,
	} {
		d := gate.Decide(gate.Request{Text: cmd, Rules: allowlist.Defaults(), Paths: defaultPaths})
		if d.Verdict() == gate.Deny || d.Sticky() {
			t.Errorf("%q: %s sticky=%v, %s; want an ordinary ask or allow", cmd, d.Verdict(), d.Sticky(), d.Primary())
		}
	}
}

// Words that only mention git config do not run it.
func TestGitConfigMentioned(t *testing.T) {
	for _, cmd := range []string{`grep 'git config' README.md`, `echo git config`, `grep -n git config.txt`} {
		d := gate.Decide(gate.Request{Text: cmd, Rules: allowlist.Defaults(), Paths: defaultPaths})
		if d.Sticky() {
			t.Errorf("%q: sticky, %s", cmd, d.Primary())
		}
	}
}
