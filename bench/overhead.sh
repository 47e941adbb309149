#!/usr/bin/env bash
# Whole-process overhead of agentgate, as ratios against reference runs
# made in the same loop (the machines are noisy: absolute times are not
# comparable between runs, ratios are).
#
#   bash bench/overhead.sh [ROUNDS]     (default 300)
#
# Each round runs every variant once, in turn, so drift hits all alike;
# the script prints the median wall time of each and the ratios.
set -euo pipefail
rounds=${1:-300}
cd "$(dirname "$0")/.."
. bench/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Built as the README builds it (static: no dynamic loader, which in a
# VM spends about 0.4 ms of every start probing the CPU).
CGO_ENABLED=0 go build -o "$tmp/agentgate" .
# The floor: an empty Go program, which pays only the Go runtime's start.
mkdir "$tmp/noop"
printf 'package main\n\nfunc main() {}\n' >"$tmp/noop/main.go"
printf 'module noop\n\ngo 1.26\n' >"$tmp/noop/go.mod"
(cd "$tmp/noop" && go build -o "$tmp/go-noop" .)
# Issue 16's reference: a minimal Go program that forks and execs true
# and waits for it, as agentgate does for a command it runs unwatched.
mkdir "$tmp/gotrue"
cat >"$tmp/gotrue/main.go" <<'GO'
package main

import (
	"os"
	"os/exec"
)

func main() {
	c := exec.Command("true")
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	if c.Run() != nil {
		os.Exit(1)
	}
}
GO
printf 'module gotrue\n\ngo 1.26\n' >"$tmp/gotrue/go.mod"
(cd "$tmp/gotrue" && CGO_ENABLED=0 go build -o "$tmp/go-true" .)
export XDG_STATE_HOME="$tmp/state" AGENTGATE_TTY=none
ag="$tmp/agentgate"
# The same command with confinement off: a user rule with a longer prefix
# than the built-in "ls" and sandbox = "none" decides it instead.
# The confined run reads a config file of the same kind, so that both pay
# the same for configuration.
printf '[[allow.rule]]\nprefix = "ls -d"\nsandbox = "none"\n' >"$tmp/unconfined.toml"
printf '[[allow.rule]]\nprefix = "ls -d"\nsandbox = "read-only"\n' >"$tmp/confined.toml"

names=(go_noop go_true bash_true agentgate_check agentgate_true ls_direct bash_ls agentgate_ls agentgate_ls_unconfined agentgate_denied)
run() {
	case $1 in
	go_noop) "$tmp/go-noop" ;;
	go_true) "$tmp/go-true" ;;
	bash_true) bash -c true ;;
	agentgate_check) "$ag" check -- 'true' ;;
	agentgate_true) "$ag" exec -- 'true' ;;
	ls_direct) ls -d / ;;
	bash_ls) bash -c 'ls -d /' ;;
	agentgate_ls) "$ag" exec --config "$tmp/confined.toml" -- 'ls -d /' ;;
	agentgate_ls_unconfined) "$ag" exec --config "$tmp/unconfined.toml" -- 'ls -d /' ;;
	agentgate_denied) "$ag" exec -- 'touch x' 2>/dev/null || true ;;
	esac
}
measure "$rounds"
echo "agentgate exec -- true  / bash -c true     = $(ratio "${med[agentgate_true]}" "${med[bash_true]}")   (bash builtin: agentgate, then bash)"
echo "agentgate exec -- true  / Go fork+exec true = $(ratio "${med[agentgate_true]}" "${med[go_true]}")   (issue 16's target: 1.5)"
echo "agentgate check -- true / Go fork+exec true = $(ratio "${med[agentgate_check]}" "${med[go_true]}")   (judging alone, running nothing: the floor of the above)"
echo "agentgate exec -- 'ls'  / Go fork+exec true = $(ratio "${med[agentgate_ls]}" "${med[go_true]}")   (a literal command: no bash)"
echo "agentgate exec -- 'ls'  / bash -c 'ls'     = $(ratio "${med[agentgate_ls]}" "${med[bash_ls]}")   (literal command: agentgate execs ls directly)"
echo "agentgate exec -- 'ls'  / ls               = $(ratio "${med[agentgate_ls]}" "${med[ls_direct]}")"
echo "bash -c 'ls'            / ls               = $(ratio "${med[bash_ls]}" "${med[ls_direct]}")   (what a shell start costs)"
echo "agentgate exec -- 'ls'  / (go-noop + ls)   = $(ratio "${med[agentgate_ls]}" "$((${med[go_noop]%.*} + ${med[ls_direct]%.*}))")   (1.00 would be a Go process start and nothing else)"
echo "denied (audit + fsync)  / bash -c true     = $(ratio "${med[agentgate_denied]}" "${med[bash_true]}")"
echo "confined 'ls' / the same unconfined         = $(ratio "${med[agentgate_ls]}" "${med[agentgate_ls_unconfined]}")   (the cost of the sandbox: Landlock, seccomp, scratch directory)"
