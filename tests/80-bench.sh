#!/bin/bash
# The benchmark's short form (boot-tests/bench.sh -q, about 3 minutes): one
# round of the base, the series with vm.oom_file_badness=0 and the series,
# on x86_64 with gcc.  Every boot passes, the report and its plot are
# written, and the victims are the ones the series is for: in the hog
# scenarios, beside a sparse memfd and beside a GEM churner, the bystander
# dies first on the base and with the sysctl off, the hog with the series.
# (memfd-shared has no expected victim: the bystander holds half the hog's
# memfd, and the report says whom that costs.)  BENCH_ARGS adds options to
# bench.sh: -n uses the kernels already built.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need gnuplot
dir=$OUT/tests/bench
# shellcheck disable=SC2086 # options, split on purpose
"$TOP/boot-tests/bench.sh" -q ${BENCH_ARGS:-} -o "$dir" 6.1 x86_64 gcc >"$dir.log" 2>&1 ||
	fail "bench.sh -q: $(tail -n 20 "$dir.log")"
[ -s "$dir/report.md" ] || fail "no report in $dir"
[ -s "$dir/plot.png" ] || fail "no plot in $dir"

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
for s in memfd-hog dmabuf-hog gem-hog memfd-sparse gem-churn; do
	for run in base series-off series; do
		expect=bystander
		[ $run != series ] || expect=hog
		v=$(victim $run "$s")
		[ "$v" = $expect ] || fail "$s on $run: first to die: ${v:-nothing}, expected the $expect"
		v=$(first_in_report "$s" $run)
		[ "$v" = "$expect 1/1" ] || fail "$s on $run: the report says ${v:-nothing}, not the $expect"
	done
	echo "ok: $s: the bystander dies first on base and series-off, the hog on series"
done
grep -q '^| series: GEM create/close loop within 2% of base | ' "$dir/report.md" ||
	fail "the report has no GEM target"
grep -E -q '^\| oom_score read, 1000 memfd files \| [0-9]+ µs \| [0-9.]+ \| [0-9.]+ \|$' \
	"$dir/report.md" || fail "no cost row of 1000 memfds in the report"
