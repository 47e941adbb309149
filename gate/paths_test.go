package gate_test

import (
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

func TestProtectedPaths(t *testing.T) {
	paths := gate.Paths{
		Home:      "/home/u",
		Cwd:       "/home/u/src/proj",
		Self:      append([]string{"~/.config/agentgate", "~/.local/state/agentgate", "/etc/agentgate/policy.toml"}, gate.DefaultSelf...),
		Sensitive: gate.DefaultSensitive,
	}
	tests := []struct {
		text  string
		check gate.Check // "" when the paths change nothing
	}{
		{"cat ~/.ssh/id_rsa", gate.CheckSensitive},
		{"ls ~/.ssh", gate.CheckSensitive},
		{"cat /home/u/.aws/credentials", gate.CheckSensitive},
		{"cat $HOME/.netrc", gate.CheckSensitive},
		{"cat ../../.aws/config", gate.CheckSensitive},
		{"cat .env", gate.CheckSensitive},
		{"cat config/.env.production", gate.CheckSensitive},
		{"cat server.pem", gate.CheckSensitive},
		{"cat tls/server.key", gate.CheckSensitive},
		{"head id_ed25519.pub", gate.CheckSensitive},
		{"cat *.p*", gate.CheckSensitive},
		{"cat ~/.s?h/config", gate.CheckSensitive},
		{"cat ~/.ss'h'/config", gate.CheckSensitive},
		{"grep -r --include=*.pem x .", gate.CheckSensitive},
		{"cat /etc/shadow", gate.CheckSensitive},
		{"ls ~root/.ssh", gate.CheckSensitive},
		{"cat .en?", gate.CheckSensitive},
		{"cat [.]env", gate.CheckSensitive},
		{"head id_rs?", gate.CheckSensitive},
		{"cat *.pe?", gate.CheckSensitive},
		{"cat ~bob/.aws/credentials", gate.CheckSensitive},
		{"cat ~+/.env", gate.CheckSensitive},
		{"cat /dev/sda1", gate.CheckSensitive},
		{"cat /proc/1/environ", gate.CheckSensitive},
		// A file system that ignores case (macOS's): the same files.
		{"cat .ENV", gate.CheckSensitive},
		{"cat ~/.SSH/id_rsa", gate.CheckSensitive},
		{"cat ~/.AWS/credentials", gate.CheckSensitive},
		{"cat /HOME/U/.ssh/config", gate.CheckSensitive},
		{"cat .E[N]V", gate.CheckSensitive},
		{"echo x > .GIT/config", gate.CheckSelfProtect},
		{"cat ~/.BASHRC", gate.CheckSelfProtect},
		{"ls /dev/null", ""},
		{"cat /proc/cpuinfo", ""},
		{"cat ~/.bashrc", gate.CheckSelfProtect},
		{"echo evil >> ~/.bashrc", gate.CheckSelfProtect},
		{"cat .git/config", gate.CheckSelfProtect},
		{"ls .git/hooks", gate.CheckSelfProtect},
		{"ls .git/hooks/pre-commit", gate.CheckSelfProtect},
		{"cat ~/.config/agentgate/config.toml", gate.CheckSelfProtect},
		{"rm -rf ~/.local/state/agentgate", gate.CheckSelfProtect},
		{"cat /etc/agentgate/policy.toml", gate.CheckSelfProtect},
		{"cat .agentgate.toml", gate.CheckSelfProtect},
		{"git config core.pager less", gate.CheckSelfProtect},
		{"sort -o ~/.profile x", gate.CheckSelfProtect},
		{"git diff --output=.git/hooks/post-checkout", gate.CheckSelfProtect},
		{"cat README.md", ""},
		{"ls -la", ""},
		{"cat src/keys.go", ""},
		{"ls *.go", ""},
		{"cat environment.txt", ""},
		// A quoted pattern is a pattern: the plain split once read
		// "class .*(" as a word ".*" naming ~/.bashrc (issue 18).
		{`grep "class .*(" f`, ""},
		{`grep "from .* import .*x" f`, ""},
		{`grep -C5 "x(\*key)" f`, ""},
		{`grep -e ".env" f`, ""},
		// ... and a path is still a path, however it is quoted.
		{`cat ".e"nv`, gate.CheckSensitive},
		{`grep x "$HOME/.ssh/id_rsa"`, gate.CheckSensitive},
		{`sh -c 'cat ~/.ssh/id_rsa'`, gate.CheckSensitive},
		{`cat < ~/.ssh/id_rsa`, gate.CheckSensitive},
		{`echo .env | xargs cat`, gate.CheckSensitive},
		// What a string hides from the parse still makes the ask
		// sticky, which bypass mode does not run.
		{`bash <<< 'cat ~/.ssh/id_rsa'`, gate.CheckSensitive},
		{`bash <<< 'git config core.pager x'`, gate.CheckSelfProtect},
		// Names-only programs list a secret's name without reading it;
		// a directory of secrets is its contents, and a file named by a
		// flag value is read.
		{"ls .env*", ""},
		{"ls -la .env", ""},
		{"git ls-files .env", ""},
		{"find . -name .env", ""},
		{"du -sh .env", ""},
		{"ls ~/.ssh/id_rsa", gate.CheckSensitive},
		{"tree --infofile=.env", gate.CheckSensitive},
		{"find . -name .env -exec cat {} +", ""}, // the walk, in the engine, judges what it reads
		{"ls .env | xargs cat", gate.CheckSensitive},
		// With CLAUDE_CONFIG_DIR unset, "$CLAUDE_CONFIG_DIR/..." names
		// nothing: it once stood for a directory of that name here, so
		// every "*" seemed to name Claude Code's token.
		{"du -sh *", ""},
		{"cat ~/.claude/.credentials.json", gate.CheckSensitive},
	}
	for _, tt := range tests {
		d := gate.Decide(gate.Request{Text: tt.text, Rules: allowlist.Defaults(), Paths: paths})
		if dc := gate.Decide(gate.Request{Text: tt.text, Rules: allowlist.Defaults(), Paths: paths.Compile()}); dc.Primary() != d.Primary() {
			t.Errorf("%q: compiled paths decide %+v, uncompiled %+v", tt.text, dc.Primary(), d.Primary())
		}
		if tt.check == "" {
			if d.Primary().Check == gate.CheckSensitive || d.Primary().Check == gate.CheckSelfProtect || d.Sticky() {
				t.Errorf("Decide(%q) = %s %+v; the paths should change nothing", tt.text, d.Verdict(), d.Primary())
			}
			continue
		}
		if d.Verdict() != gate.Ask || d.Primary().Check != tt.check || !d.Sticky() {
			t.Errorf("Decide(%q) = %s [%s] sticky=%v (%s); want a sticky ask [%s]", tt.text, d.Verdict(), d.Primary().Check, d.Sticky(), d.Primary(), tt.check)
		}
	}
	// A deny rule still denies.
	deny := allowlist.Rule{Kind: allowlist.Deny, Prefix: []string{"cat"}, Source: allowlist.Source{Name: "p"}}
	if d := gate.Decide(gate.Request{Text: "cat ~/.ssh/id_rsa", Rules: []allowlist.Rule{deny}, Paths: paths}); d.Verdict() != gate.Deny {
		t.Errorf("deny rule lost to a sensitive path: %s", d.Verdict())
	}
	// Working inside a protected directory protects every relative word.
	in := paths
	in.Cwd = "/home/u/.ssh"
	if d := gate.Decide(gate.Request{Text: "cat config", Rules: allowlist.Defaults(), Paths: in}); !d.Sticky() {
		t.Errorf("cat config inside ~/.ssh: %s %+v", d.Verdict(), d.Primary())
	}
}

func TestPathCandidates(t *testing.T) {
	for w, want := range map[string]string{
		"-f.env":           "-f.env|.env|env|nv|v",
		"-o.git/config":    "-o.git/config|.git/config|git/config|it/config|t/config|/config|config|onfig|nfig|fig|ig|g",
		"--output=x.pem":   "--output=x.pem|x.pem",
		"--files0-from":    "",
		"-o=k.pem":         "-o=k.pem|k.pem|k.pem|.pem|pem|em|m",
		"a:b":              "a:b|a|b",
		"plain.txt":        "plain.txt",
		"-":                "",
		"-x":               "",
		"--":               "",
		"dir/--weird=.env": "dir/--weird=.env|.env",
	} {
		if got := strings.Join(gate.PathCandidates(w), "|"); got != want {
			t.Errorf("PathCandidates(%q) = %q; want %q", w, got, want)
		}
	}
}

func TestResolveProc(t *testing.T) {
	p := gate.Paths{Home: "/home/u", Cwd: "/home/u/proj"}
	for in, want := range map[string]string{
		"/proc/self/root/etc/shadow":         "/etc/shadow",
		"/proc/1/root":                       "/",
		"/proc/thread-self/environ":          "/proc/self/environ",
		"/proc/self/task/7/environ":          "/proc/self/environ",
		"/proc/thread-self/root/etc/gshadow": "/etc/gshadow",
		"/proc/self/cwd/.env":                "/home/u/proj/.env",
		"/proc/self/cwd/../../x":             "/home/x",
		"/proc/cpuinfo":                      "/proc/cpuinfo",
		"//proc//self//root//etc//shadow":    "/etc/shadow",
	} {
		if got := p.Resolve(in); got != want {
			t.Errorf("Resolve(%q) = %q; want %q", in, got, want)
		}
	}
	for in, want := range map[string]bool{
		"/dev/tcp/h/1": true, "/dev//udp/h/1": true, "/dev/./tcp/x": true, "dev/tcp/x": true,
		"/dev/null": false, "/dev/tcpx": false, "/tmp/dev/tcp/x": false,
	} {
		if got := gate.NetDevice(in); got != want {
			t.Errorf("NetDevice(%q) = %v; want %v", in, got, want)
		}
	}
}
