package allowlist_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentgate/agentgate/allowlist"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A hostile agent writes the files a pack's program obeys; the pack's
// command must then ask. Without them it need not.
func TestHazards(t *testing.T) {
	rules := append(allowlist.Defaults(), allowlist.PackRules(allowlist.PackNames())...)
	tests := []struct {
		name  string
		setup func(t *testing.T, proj, home string)
		env   map[string]string
		cmd   string
		want  string // a word of the hazard, or "" for none
	}{
		{"cargo clean", nil, nil, "cargo metadata", ""},
		{"cargo config in the project", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, ".cargo/config.toml"), "[build]\nrustc-wrapper = \"./evil\"\n")
		}, nil, "cargo metadata", "rustc-wrapper"},
		{"cargo config in a parent", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(filepath.Dir(proj), ".cargo/config"), "[build]\nrustc = \"/tmp/x\"\n")
		}, nil, "cargo tree", "build.rustc"},
		{"rust-toolchain names a path", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, "rust-toolchain.toml"), "[toolchain]\npath = \"/tmp/evil\"\n")
		}, nil, "cargo metadata", "toolchain"},
		{"RUSTC_WRAPPER", nil, map[string]string{"RUSTC_WRAPPER": "./evil"}, "cargo metadata", "wrapper"},
		{"go.mod toolchain", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, "go.mod"), "module x\n\ngo 1.22\n\ntoolchain go1.99.0\n")
		}, nil, "go list ./...", "toolchain"},
		{"go.mod without toolchain", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, "go.mod"), "module x\n\ngo 1.22\n")
		}, nil, "go list ./...", ""},
		{"GOFLAGS", nil, map[string]string{"GOFLAGS": "-toolexec=./evil"}, "go list ./...", "toolexec"},
		{"go.mod a link to .env", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, ".env"), "TOKEN=x\n")
			if err := os.Symlink(".env", filepath.Join(proj, "go.mod")); err != nil {
				t.Fatal(err)
			}
		}, nil, "go list -m", "symbolic link"},
		{"package.json of a workspace a link", func(t *testing.T, proj, home string) {
			write(t, filepath.Join(proj, "package.json"), `{"name":"p","workspaces":["pkgs/*"]}`)
			write(t, filepath.Join(home, "key"), "k\n")
			if err := os.MkdirAll(filepath.Join(proj, "pkgs/a"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(home, "key"), filepath.Join(proj, "pkgs/a/package.json")); err != nil {
				t.Fatal(err)
			}
		}, nil, "npm ls", "symbolic link"},
		{"package.json with plain workspaces", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, "package.json"), `{"name":"p","workspaces":["pkgs/*"]}`)
			write(t, filepath.Join(proj, "pkgs/a/package.json"), `{"name":"a"}`)
		}, nil, "npm ls", ""},
		{"workspaces by a pattern npm reads otherwise", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, "package.json"), `{"name":"p","workspaces":["pkgs/**"]}`)
		}, nil, "npm ls", "symbolic link"},
		{"kubeconfig exec plugin", func(t *testing.T, _, home string) {
			write(t, filepath.Join(home, ".kube/config"), "users:\n- name: u\n  user:\n    exec:\n      command: ./evil\n")
		}, nil, "kubectl get pods", "plugin"},
		{"kubeconfig plain", func(t *testing.T, _, home string) {
			write(t, filepath.Join(home, ".kube/config"), "users:\n- name: u\n  user:\n    token: x\n")
		}, nil, "kubectl get pods", ""},
		{"DOCKER_HOST", nil, map[string]string{"DOCKER_HOST": "ssh://evil"}, "docker ps", "daemon"},
		{"docker context", func(t *testing.T, _, home string) {
			write(t, filepath.Join(home, ".docker/config.json"), `{"currentContext": "evil"}`)
		}, nil, "docker ps", "context"},
		{"project .npmrc", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, ".npmrc"), "script-shell=./evil\n")
		}, nil, "npm ls", ".npmrc"},
		{"yarnPath", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, ".yarnrc.yml"), "yarnPath: ./evil.cjs\n")
		}, nil, "yarn why x", "yarn"},
		{"venv in the project", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, "pyvenv.cfg"), "home = /usr/bin\n")
		}, nil, "pip list", ".pth"},
		{"remote URL with a token", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, ".git/config"), "[remote \"origin\"]\n\turl = https://x:ghp_secret@github.com/o/r\n")
		}, nil, "git remote -v", "credentials"},
		{"remote URL plain", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, ".git/config"), "[remote \"origin\"]\n\turl = https://github.com/o/r\n")
		}, nil, "git remote -v", ""},
		{"built-in entry without hazards", func(t *testing.T, proj, _ string) {
			write(t, filepath.Join(proj, ".git/config"), "[remote \"origin\"]\n\turl = https://x:y@github.com/o/r\n")
		}, nil, "git log", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			proj, home := filepath.Join(root, "proj", "sub"), filepath.Join(root, "home")
			os.MkdirAll(proj, 0o755)
			os.MkdirAll(home, 0o755)
			if tt.setup != nil {
				tt.setup(t, proj, home)
			}
			env := allowlist.HazardEnv{Cwd: proj, Home: home, Getenv: func(k string) string { return tt.env[k] }}
			got := allowlist.Hazards(rules, strings.Fields(tt.cmd), env)
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("%s: hazards %q; want none", tt.cmd, got)
			case tt.want != "" && !strings.Contains(strings.Join(got, "; "), tt.want):
				t.Errorf("%s: hazards %q; want one about %q", tt.cmd, got, tt.want)
			}
		})
	}
}

// A FIFO where a hazard file is looked for must not hang the check, and
// counts as present.
func TestHazardFIFO(t *testing.T) {
	proj := t.TempDir()
	os.MkdirAll(filepath.Join(proj, ".cargo"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(proj, ".cargo", "config.toml"), 0o644); err != nil {
		t.Skip("no FIFO:", err)
	}
	done := make(chan []string, 1)
	go func() {
		done <- allowlist.Hazards(allowlist.PackRules([]string{"cargo"}), []string{"cargo", "metadata"},
			allowlist.HazardEnv{Cwd: proj, Home: proj, Getenv: func(string) string { return "" }})
	}()
	select {
	case got := <-done:
		if len(got) == 0 {
			t.Error("a FIFO in place of .cargo/config.toml is not reported")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the hazard check hangs on a FIFO")
	}
}
