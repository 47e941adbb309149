#!/usr/bin/env bash
# Cost of agentgate hook HOST against agentgate check on the same command,
# as ratios of medians from runs alternated in one loop (the machines are
# noisy: ratios are comparable between runs, absolute times are not).
#
#   bash bench/hook.sh [ROUNDS]     (default 200)
#
# The hook reads and decodes the host's event, decides with the same
# engine as check, and encodes the answer; for an allowed command it also
# builds the rewrite. The target is a ratio of at most about 1.3.
#
# It also prints what a hooked call costs as a whole (issue 18's
# targets): the hook and the exec it rewrites git status into, over git
# status alone (target: at most 25 ms more), and the hook alone against
# the start of an empty Go program (target: at most 3x).
set -euo pipefail
rounds=${1:-200}
cd "$(dirname "$0")/.."
. bench/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Built as the README builds it (static: no dynamic loader, which in a
# VM spends about 0.4 ms of every start probing the CPU).
CGO_ENABLED=0 go build -o "$tmp/agentgate" .
mkdir "$tmp/noop"
printf 'package main\n\nfunc main() {}\n' >"$tmp/noop/main.go"
printf 'module noop\n\ngo 1.26\n' >"$tmp/noop/go.mod"
(cd "$tmp/noop" && go build -o "$tmp/go-noop" .)
export AGENTGATE_TTY=none XDG_STATE_HOME="$tmp/state"
ag="$tmp/agentgate"
mkdir "$tmp/proj"
cd "$tmp/proj"
git init -q .
event() { # host, command
	case $1 in
	claude) printf '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"cwd":"%s","session_id":"bench","tool_use_id":"t","permission_mode":"default"}' "$2" "$PWD" ;;
	codex) printf '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"cwd":"%s","session_id":"bench","turn_id":"t"}' "$2" "$PWD" ;;
	gemini) printf '{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"%s"},"cwd":"%s","session_id":"bench"}' "$2" "$PWD" ;;
	cursor) printf '{"hook_event_name":"beforeShellExecution","command":"%s","cwd":"%s","conversation_id":"bench"}' "$2" "$PWD" ;;
	esac
}
for h in claude codex gemini cursor; do
	event $h 'ls -la' >"$tmp/$h-ls.json"
	event $h 'git status' >"$tmp/$h-git.json"
done
names=(check_ls claude_ls codex_ls gemini_ls cursor_ls check_git claude_git go_noop git_status claude_git_exec)
run() {
	case $1 in
	check_ls) "$ag" check -- 'ls -la' ;;
	check_git) "$ag" check -- 'git status' ;;
	go_noop) "$tmp/go-noop" ;;
	git_status) git status ;;
	# The hook, then the command it rewrites git status into, as Claude
	# Code runs them.
	claude_git_exec) "$ag" hook claude <"$tmp/claude-git.json" && "$ag" exec --non-interactive --session bench -- 'git status' ;;
	*_ls) "$ag" hook "${1%_ls}" <"$tmp/${1%_ls}-ls.json" ;;
	*_git) "$ag" hook "${1%_git}" <"$tmp/${1%_git}-git.json" ;;
	esac
}
measure "$rounds"
for h in claude codex gemini cursor; do
	echo "agentgate hook $h / agentgate check, 'ls -la'    = $(ratio "${med[${h}_ls]}" "${med[check_ls]}")"
done
echo "agentgate hook claude / agentgate check, 'git status' = $(ratio "${med[claude_git]}" "${med[check_git]}")"
echo "agentgate hook claude, 'git status'     / go-noop    = $(ratio "${med[claude_git]}" "${med[go_noop]}")   (target: at most 3)"
echo "hook + exec of 'git status' - git status alone = $(awk -v a="${med[claude_git_exec]}" -v b="${med[git_status]}" 'BEGIN {printf "%.1f ms", (a - b) / 1000}')   (target: at most 25 ms)"
