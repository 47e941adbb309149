// Package project finds a project's own build and test commands in the
// files that declare them (Makefile, package.json, go.mod, Cargo.toml,
// pyproject.toml), for "agentgate init" to propose as rules confined to
// the project. It proposes; the person decides: nothing here writes a
// rule, and a proposal names where it came from and what it runs today.
//
// The files are the project's, so an agent may have written them. Only
// fixed target and script names are proposed (a planted target called
// "test; rm -rf ~" is not), every file is read as a regular file of
// bounded size, and what a proposal runs is shown with its invisible
// characters made visible.
package project

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/internal/visible"
)

// Command is one proposed rule: a prefix that runs the project's build or
// tests, at the workspace sandbox level.
type Command struct {
	// Prefix is the rule's prefix ("make test", "npm run build").
	Prefix string
	// Source is where it was found ("Makefile:12", "package.json").
	Source string
	// Runs is what it runs today, shown to the person ("go test ./...");
	// it may change with the file, which the rule does not see.
	Runs string
}

// Sandbox is the level every proposal carries: the command may write
// inside the project, but not its existing .git, agents' settings or
// agentgate's files (sandbox.Protected), and has no network.
const Sandbox = "workspace"

// maxFile bounds each file read: a build file is small.
const maxFile = 1 << 20

// buildNames are the targets and scripts proposed: the everyday build,
// test and lint steps. Anything else is the person's to add.
var buildNames = []string{"build", "test", "check", "lint", "vet", "typecheck"}

// Commands is what dir's build files propose, in a fixed order.
func Commands(dir string) []Command {
	var out []Command
	for _, find := range []func(string) []Command{makefile, packageJSON, goMod, cargo, pyproject} {
		out = append(out, find(dir)...)
	}
	return out
}

func read(dir, name string) ([]byte, bool) {
	data, err := fsutil.ReadRegular(filepath.Join(dir, name), maxFile)
	return data, err == nil
}

// shown is s as the person sees it: one line, whole, invisible
// characters made visible (no cut: padding could push what runs out of
// sight).
func shown(s string) string {
	return visible.String(strings.TrimSpace(s))
}

// makeDirective are the lines that make what a target runs depend on more
// than its own lines: another file, a condition, a macro. A Makefile with
// one gets no proposal, since what is shown might not be what runs.
var makeDirective = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(-?include|sinclude|ifeq|ifneq|ifdef|ifndef|define|override|export|vpath|\.[A-Z_]+\s*:)`)
})

var makeTarget = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_.-]*)\s*:([^=]|$)`) })

// makefile proposes "make NAME" for each build name the Makefile has as
// a target, with its whole recipe. make reads the first of GNUmakefile,
// makefile and Makefile that exists: one that exists but cannot be read
// here (too large, not a regular file) stops the proposals, as do
// directives (include, conditionals ...) and a target defined twice,
// with which the lines shown might not be what runs.
func makefile(dir string) []Command {
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			continue
		}
		data, ok := read(dir, name)
		if !ok {
			return nil
		}
		var out []Command
		seen := map[string]bool{}
		lines := strings.Split(string(data), "\n")
		for _, line := range lines {
			if makeDirective().MatchString(line) {
				return nil
			}
		}
		for i, line := range lines {
			m := makeTarget().FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if seen[m[1]] {
				return nil // defined twice: make runs the last
			}
			seen[m[1]] = true
			if !isBuildName(m[1]) {
				continue
			}
			var recipe []string
			for j := i + 1; j < len(lines) && strings.HasPrefix(lines[j], "\t"); j++ {
				recipe = append(recipe, strings.TrimSpace(lines[j]))
			}
			// After "NAME:" come its prerequisites and, after a ";", a
			// recipe on the same line ("test: ; go test ./...").
			deps, inline, _ := strings.Cut(line[len(m[0])-len(m[2]):], ";")
			if inline = strings.TrimSpace(inline); inline != "" {
				recipe = append([]string{inline}, recipe...)
			}
			runs := strings.Join(recipe, "; ")
			if runs == "" {
				runs = "(no recipe of its own)"
			}
			if deps = strings.TrimSpace(deps); deps != "" {
				runs = "after " + deps + ": " + runs
			}
			out = append(out, Command{Prefix: "make " + m[1], Source: fmt.Sprintf("%s:%d", name, i+1), Runs: shown(runs)})
		}
		return out
	}
	return nil
}

// packageJSON proposes the package manager's "test" and "run NAME" for
// each build name in package.json's scripts.
func packageJSON(dir string) []Command {
	data, ok := read(dir, "package.json")
	if !ok {
		return nil
	}
	// Keys exactly as npm reads them: encoding/json's struct fields match
	// "Scripts" too, and the last of the two won.
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	var pkg struct{ Scripts map[string]string }
	if raw, ok := top["scripts"]; !ok || json.Unmarshal(raw, &pkg.Scripts) != nil {
		return nil
	}
	tool := "npm"
	if _, ok := read(dir, "pnpm-lock.yaml"); ok {
		tool = "pnpm"
	} else if _, ok := read(dir, "yarn.lock"); ok {
		tool = "yarn"
	}
	var out []Command
	for _, name := range buildNames {
		script, ok := pkg.Scripts[name]
		if !ok {
			continue
		}
		prefix := tool + " run " + name
		if name == "test" {
			prefix = tool + " test"
		}
		// npm runs pre- and post- scripts around it.
		runs := script
		if pre, ok := pkg.Scripts["pre"+name]; ok {
			runs = "pre" + name + ": " + pre + "; then: " + runs
		}
		if post, ok := pkg.Scripts["post"+name]; ok {
			runs += "; then post" + name + ": " + post
		}
		out = append(out, Command{Prefix: prefix, Source: "package.json scripts." + name, Runs: shown(runs)})
	}
	return out
}

func goMod(dir string) []Command {
	data, ok := read(dir, "go.mod")
	if !ok {
		return nil
	}
	module := "this module"
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			module = strings.TrimSpace(m)
			break
		}
	}
	var out []Command
	for _, sub := range []string{"build", "test", "vet"} {
		out = append(out, Command{Prefix: "go " + sub, Source: "go.mod", Runs: shown("go " + sub + " of " + module)})
	}
	return out
}

func cargo(dir string) []Command {
	if _, ok := read(dir, "Cargo.toml"); !ok {
		return nil
	}
	var out []Command
	for _, sub := range []string{"build", "test", "check", "clippy"} {
		out = append(out, Command{Prefix: "cargo " + sub, Source: "Cargo.toml", Runs: "cargo " + sub + " of this crate or workspace"})
	}
	return out
}

// pyproject proposes pytest and ruff where pyproject.toml configures them.
func pyproject(dir string) []Command {
	data, ok := read(dir, "pyproject.toml")
	if !ok {
		return nil
	}
	var out []Command
	for _, tool := range []struct{ section, prefix string }{{"[tool.pytest", "pytest"}, {"[tool.ruff", "ruff check"}} {
		if bytes.Contains(data, []byte(tool.section)) {
			out = append(out, Command{Prefix: tool.prefix, Source: "pyproject.toml " + strings.TrimPrefix(tool.section, "["),
				Runs: tool.prefix + " as pyproject.toml configures it"})
		}
	}
	return out
}

func isBuildName(s string) bool {
	for _, n := range buildNames {
		if s == n {
			return true
		}
	}
	return false
}

// TOML is the proposals as rules for a project's .agentgate.toml, each
// with a comment saying where it came from and what it runs today.
func TOML(cmds []Command) string {
	if len(cmds) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n# Proposed by \"agentgate init\" from this project's build files. Each runs\n")
	b.WriteString("# without asking, confined to the project (sandbox = \"workspace\"): it may\n")
	b.WriteString("# write inside the project, but not .git, the agents' settings or\n")
	b.WriteString("# agentgate's files, and has no network. A rule runs whatever the file\n")
	b.WriteString("# says when it runs, not only what is shown here. Remove what you do not\n")
	b.WriteString("# want, then: agentgate trust\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "\n# %s: %s\n[[allow.rule]]\nprefix = %q\nsandbox = %q\n", c.Source, c.Runs, c.Prefix, Sandbox)
	}
	return b.String()
}
