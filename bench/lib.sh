# Shared by the whole-process benchmarks: source it, define names=(...)
# and run NAME, then call measure ROUNDS. Each round runs every variant
# once, in turn, so drift on a noisy machine hits all alike; med[NAME] is
# then each variant's median wall time in µs, and ratio A B prints A/B.
# Expects $tmp to be a scratch directory.

measure() { # rounds
	local n i s e
	for n in "${names[@]}"; do : >"$tmp/$n"; run "$n" >/dev/null || true; done
	for ((i = 0; i < $1; i++)); do
		for n in "${names[@]}"; do
			s=$EPOCHREALTIME
			run "$n" >/dev/null || true
			e=$EPOCHREALTIME
			echo "$(((${e/./} - ${s/./})))" >>"$tmp/$n"
		done
	done
	declare -gA med
	for n in "${names[@]}"; do
		med[$n]=$(sort -n "$tmp/$n" | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
	done
	printf '%-24s %10s\n' variant 'median µs'
	for n in "${names[@]}"; do printf '%-24s %10s\n' "$n" "${med[$n]}"; done
	echo
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
