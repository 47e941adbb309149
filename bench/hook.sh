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
set -euo pipefail
rounds=${1:-200}
cd "$(dirname "$0")/.."
. bench/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/agentgate" .
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
names=(check_ls claude_ls codex_ls gemini_ls cursor_ls check_git claude_git)
run() {
	case $1 in
	check_ls) "$ag" check -- 'ls -la' ;;
	check_git) "$ag" check -- 'git status' ;;
	*_ls) "$ag" hook "${1%_ls}" <"$tmp/${1%_ls}-ls.json" ;;
	*_git) "$ag" hook "${1%_git}" <"$tmp/${1%_git}-git.json" ;;
	esac
}
measure "$rounds"
for h in claude codex gemini cursor; do
	echo "agentgate hook $h / agentgate check, 'ls -la'    = $(ratio "${med[${h}_ls]}" "${med[check_ls]}")"
done
echo "agentgate hook claude / agentgate check, 'git status' = $(ratio "${med[claude_git]}" "${med[check_git]}")"
