#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [--full | TEST...]: run this project's tests and report KTAP as
# they go; each test's own output is shown under its result line's place:
# as a subtest, indented, when the test prints KTAP, else as "# " lines.  By default, the
# tests that fit in CI's 90 minutes on a cold 2-core machine (make test);
# with --full, also those marked "# Tier: full" (make test-full: the arm64
# A/B, the CI leg's allmod and modules steps and broken series against them,
# the sanitizers leg: more kernels to build); or the TESTs named.  A test
# exits 0 when it passes, 4 when it is skipped (kselftest's code), anything
# else when it fails.  The last line is "N passed, N failed".
#
# Each test's result and duration also go to out/tests/timings, one line a
# test ("NAME<tab>ok|skip|fail<tab>SECONDS"), after "# key: value" lines
# saying when, where, and whether the kernel cache was cold (no ccache yet)
# or warm; after a whole tier, ci/timings.sh makes docs/timings.md of it.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
# shellcheck source=../scripts/lib.sh
. scripts/lib.sh

if [ "${1:-}" = --full ]; then
	tests=(tests/[0-9]*.sh)
elif [ $# -gt 0 ]; then
	tests=("$@")
else
	mapfile -t tests < <(grep -L '^# Tier: full$' tests/[0-9]*.sh)
fi
mkdir -p out/tests
timings=out/tests/timings
cache=cold
[ ! -d "${CCACHE_DIR:-$KCACHE/ccache}" ] || cache=warm
{
	echo "# Written by tests/run.sh: a line a test: name, result (ok, skip, fail), seconds."
	echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# command: tests/run.sh${*:+ $*}"
	echo "# machine: $(host_machine)"
	echo "# cache: $cache"
} >"$timings"
echo "KTAP version 1"
echo "1..${#tests[@]}"
n=0 pass=0 skip=0 failed=()
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=$(basename "$t" .sh)
	start=$SECONDS
	bash "$t" >"out/tests/$name.log" 2>&1
	rc=$?
	# A test that prints KTAP is a subtest; other output, diagnostics.
	if grep -q '^KTAP version ' "out/tests/$name.log"; then
		ktap_nest "out/tests/$name.log"
	else
		sed 's/^/# /' "out/tests/$name.log"
	fi
	secs=$((SECONDS - start))
	took="$secs s"
	case $rc in
	0) echo "ok $n $name # $took"; pass=$((pass + 1)) r=ok ;;
	4) echo "ok $n $name # SKIP $(tail -n 1 "out/tests/$name.log")"; skip=$((skip + 1)) r=skip ;;
	*) echo "not ok $n $name # exit status $rc, $took"; failed+=("$t") r=fail ;;
	esac
	printf '%s\t%s\t%s\n' "$name" "$r" "$secs" >>"$timings"
done
[ $skip = 0 ] || echo "# $skip skipped"
# The failures again, last: a long run's log is often read from its end
# (CI shows its head and tail), and a failure in the middle must not be
# lost there.
for t in "${failed[@]}"; do
	name=$(basename "$t" .sh)
	echo "# not ok: $name; rerun it alone with: tests/run.sh $t"
	echo "# the end of out/tests/$name.log:"
	tail -n 25 "out/tests/$name.log" | sed 's/^/#   /'
done
# The timings page, after a whole tier: never a reason for the run to fail.
if [ $# = 0 ] || [ "$1" = --full ]; then
	ci/timings.sh -t "$timings" >/dev/null 2>&1 || echo "# make timings failed: run it to see why"
fi
echo "$pass passed, ${#failed[@]} failed" | tee out/tests/summary
[ ${#failed[@]} = 0 ]
