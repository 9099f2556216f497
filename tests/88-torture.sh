#!/bin/bash
# make torture, the short form (TORTURE_MIN=1), on the default kernel,
# x86_64 and gcc: two KASAN kernels and two KCSAN kernels to build
# (docs/timings.md says how long), three boots at most for each sanitizer.
# It passes: for each, the series' kernel has no report its base has not,
# and its guest ran every phase (stressors plain and in
# a memory cgroup, stress, trinity, the stressors under fault injection)
# and found the ledgers drained; the base's guest ran the same.  Then
# make torture-bench, its short form (one round, 3 s a stressor): every
# stressor of boot-tests/torture-stressors has a series over base ratio.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
v=$(default_version)
out=$(make -s -C "$TOP" torture VERSION="$v" ARCH=x86_64 COMPILER=gcc TORTURE_MIN=1 2>&1) ||
	fail "make torture VERSION=$v TORTURE_MIN=1: $out"
echo "$out" | grep -v '^[a-z-]*\.sh: ' || true
for san in kasan kcsan; do
	res=$OUT/torture/$(base_get "$v" tag | sed 's/^v//')-x86_64-gcc-torture-$san
	for phase in 'plain: memfd' 'memcg: memfd' 'drm: .* GEM create/close' 'trinity: .*Ran [1-9][0-9]* syscalls' \
		'faults: stress-ng --memfd' 'ledgers drained'; do
		grep -Eq "^# torture: .*$phase" "$res/series.ktap" ||
			fail "$san: the series' guest did not show '$phase': $res/series.ktap"
	done
	echo "ok: $san: the series' guest ran every phase and its ledgers drained"
	grep -Eq '^# torture: .*faults: stress-ng --memfd' "$res/base.ktap" ||
		fail "$san: the base's guest ran no stressor under fault injection: $res/base.ktap"
	echo "ok: $san: the base's guest ran them too"
done

# The bench's short form: one round, 3 s a stressor, on the boot-test
# kernels; each stressor of boot-tests/torture-stressors has a ratio.
out=$(make -s -C "$TOP" torture-bench VERSION="$v" ARCH=x86_64 COMPILER=gcc \
	TORTURE_BENCH_FLAGS="-r 1 -t 3" 2>&1) || fail "make torture-bench -r 1 -t 3: $out"
report=$OUT/torture/bench-$(base_get "$v" tag | sed 's/^v//')-x86_64-gcc/report.md
while read -r s _; do
	grep -Eq "^\| $s \| .* \| [0-9.]+ \| [0-9.]+ \| [0-9]+\.[0-9]{2} \| " "$report" ||
		fail "stressor $s has no ratio in $report: $(grep "^| $s |" "$report")"
done < <(table_rows "$TOP/boot-tests/torture-stressors")
echo "ok: make torture-bench gives each stressor a ratio: $(grep -c '^| [a-z-]* | ' "$report") rows"
