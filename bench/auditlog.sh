#!/usr/bin/env bash
# "agentgate audit" on a generated log of 1,000,000 records: records per
# second and peak memory (max RSS) of stats, verify and log -n.
#
#   bash bench/auditlog.sh [RECORDS]
set -euo pipefail
n=${1:-1000000}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Built as the README builds it (static: no dynamic loader, which in a
# VM spends about 0.4 ms of every start probing the CPU).
CGO_ENABLED=0 go build -o "$tmp/agentgate" .
go run ./bench/genlog -n "$n" -o "$tmp/audit.jsonl"
ls -l "$tmp/audit.jsonl" | awk '{printf "log: %.0f MiB, %d records\n", $5/1048576, '"$n"'}'
for args in "stats" "verify" "log -n 10"; do
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$tmp/agentgate" audit $args --audit-log "$tmp/audit.jsonl" >/dev/null
	read -r secs kib <"$tmp/time"
	awk -v a="$args" -v s="$secs" -v k="$kib" -v n="$n" 'BEGIN {printf "audit %-10s %6.2f s  %9.0f records/s  peak %5.1f MiB\n", a, s, n / s, k / 1024}'
done
