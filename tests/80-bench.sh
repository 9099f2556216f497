#!/bin/bash
# The benchmark's short form (boot-tests/bench.sh -q, a few minutes): one
# round of the base, the series with vm.oom_file_badness=0 and the series,
# on x86_64 with gcc.  Every boot passes, the report and its plot are
# written, and the victims are the ones the series is for: beside a sparse
# memfd and beside a GEM churner, the bystander on the base and with the
# sysctl off, the hog with the series (the scenarios of the A/B table are
# tests/60-ab-x86_64.sh's).  And the costs no per-fd walk
# could pass: reading the oom_score of a task with 10000 sockets, which hold
# no memory, takes less than 1.5 times as long as on the base, and so does
# (3 times, for TCG's jitter) the 99th percentile of that task's socket()
# and close() while its oom_score is read.  BENCH_ARGS adds options to
# bench.sh: -n uses the kernels already built.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need gnuplot
dir=$OUT/tests/bench
mkdir -p "$(dirname "$dir")"
# shellcheck disable=SC2086 # options, split on purpose
"$TOP/boot-tests/bench.sh" -q ${BENCH_ARGS:-} -o "$dir" 6.1 x86_64 gcc >"$dir.log" 2>&1 ||
	fail "bench.sh -q: $(tail -n 20 "$dir.log")"
[ -s "$dir/report.md" ] || fail "no report in $dir"
[ -s "$dir/plot.png" ] || fail "no plot in $dir"
cpus=$(machine x86_64 cpus)
grep -q "^| guest | .*; $cpus vCPUs as the guest counted them," "$dir/report.md" ||
	fail "the report does not say its guests had $cpus vCPUs: $(grep '^| guest |' "$dir/report.md")"

# victim RUN SCENARIO: the first to die, from the results.
victim() {
	awk -F'\t' -v run="$1" -v s="$2" '$2 == run {
		split($3, f, " ")
		if (f[2] == "victims" && f[3] == s) print f[5]
	}' "$dir/results.tsv"
}
# first_in_report SCENARIO RUN: the "first to die" of the report's row.
first_in_report() {
	awk -F' *[|] *' -v s="$1" -v run="$2" '
		$2 ~ /^[a-z-]+$/ { cur = $2 }
		cur == s && $3 == run && $4 ~ /[0-9]\/[0-9]/ { print $4 }' "$dir/report.md"
}
# The scenarios' rows of boot-tests/scenarios (run names are its columns),
# and the benchmarks' own two.
# The short form runs the benchmark's own scenarios (tests/60 asserts the
# A/B table's).
mapfile -t rows < <(table_rows "$TOP/boot-tests/scenarios")
read -r -a columns <<<"${rows[0]}"
rows=("memfd-sparse hog bystander bystander" "gem-churn hog bystander bystander")
for row in "${rows[@]}"; do
	read -r -a cell <<<"$row"
	s=${cell[0]}
	for i in 1 2 3; do
		run=${columns[$i]} expect=${cell[$i]}
		v=$(victim "$run" "$s")
		[ "$v" = "$expect" ] || fail "$s on $run: first to die: ${v:-nothing}, expected the $expect"
		v=$(first_in_report "$s" "$run")
		[ "$v" = "$expect 1/1" ] || fail "$s on $run: the report says ${v:-nothing}, not the $expect"
	done
	echo "ok: $s: first to die ${cell[1]} on ${columns[1]}, ${cell[2]} on ${columns[2]}, ${cell[3]} on ${columns[3]}"
done

# fastest RUN MEASURE: a boot's fastest sample of "result MEASURE median ...".
fastest() {
	awk -F'\t' -v run="$1" -v m="result $2 median " '$2 == run && index($3, m) == 1 {
		n = split($3, f, " ")
		for (i = 1; i < n; i++) if (f[i] == "min") print f[i + 1]
	}' "$dir/results.tsv"
}
# below RATIO MEASURE: the series' fastest over the base's is below RATIO.
below() {
	local b s
	b=$(fastest base "$2") s=$(fastest series "$2")
	if [ -z "$b" ] || [ -z "$s" ]; then
		fail "$2: not measured (see $dir/logs)"
	fi
	awk -v b="$b" -v s="$s" -v r="$1" 'BEGIN { exit !(b > 0 && s / b < r) }' ||
		fail "$2: series $s ns against base $b ns, not below ${1}x"
	echo "ok: $2: series $s ns, base $b ns, below ${1}x"
}
below 1.5 "score socket 10000"
below 3 "latency p99 1000"
grep -q '^| series: GEM create/close loop at most 2% slower than base | ' "$dir/report.md" ||
	fail "the report has no GEM target"
grep -E -q '^\| oom_score read, 1000 memfd files \| [0-9]+ µs \| [0-9.]+ \| [0-9.]+ \|$' \
	"$dir/report.md" || fail "no cost row of 1000 memfds in the report"
