#!/usr/bin/env bash
# usefulness.sh: how many read-only commands agentgate runs without asking,
# measured on command corpora nobody on this project wrote (../shared beside
# the repository: corpora/realcorpus-ro.tsv and peer-vectors/*.tsv). Prints
# the figures of the README, with a per-program breakdown and the top reasons
# that still ask. USEFULNESS_LIST=1 also lists every row that asks.
#
# The companion test TestPeerDangerNeverAllowed runs with every `go test`
# when AGENTGATE_SHARED names the data (.ci/run sets it): no peer danger
# vector and no adversarial corpus row is ever allowed, in either compound
# mode, with or without packs.
set -euo pipefail
cd "$(dirname "$0")/.."
export AGENTGATE_SHARED="${AGENTGATE_SHARED:-$(cd .. && pwd)/shared}"
if [ ! -d "$AGENTGATE_SHARED/corpora" ]; then
	echo "usefulness: $AGENTGATE_SHARED/corpora is absent; nothing to measure" >&2
	exit 0
fi
go test ./gate -count=1 -run '^TestUsefulness$' -usefulness -v | grep -v -e '^=== RUN' -e '^--- PASS' -e '^PASS' -e '^ok'
