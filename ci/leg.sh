#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# leg.sh LEG: run the steps of CI leg LEG (a line of ci/matrix, for one
# kernel: 6.1-x86_64-gcc) in order, each with the command of ci/steps, its
# output in out/ci/LEG/STEP.log, or those of CI_STEPS (which may name the
# leg's @weekly steps).  Report KTAP, one line a step, and record each step
# as it goes: a row in out/ci/summary.md (ci/summary.sh) and an entry in
# out/ci/LEG/summary.json (ci/summary-json.sh): PASS, FAIL, or SKIP when the
# step it needs failed.  A leg that cannot start here (ci/preflight.sh: a
# compiler, a package or disk space missing; or no tree of the series)
# fails its first step at once, saying why, and skips the others.  Then
# the ccache hit rate of the leg.  Exit status 0 when no step failed.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 LEG"
LEG=$1
f=$(leg_fields "$LEG")
read -r VERSION ARCH COMPILER VARIANT <<<"$f"
LEGOUT=$(leg_out "$LEG")
usual=$(leg_steps "$LEG")
weekly=$(leg_steps "$LEG" weekly)
need jq
read -ra steps <<<"${CI_STEPS:-$usual}"
[ ${#steps[@]} -gt 0 ] || die "CI_STEPS names no step"
for s in "${steps[@]}"; do
	[[ " $usual $weekly " == *" $s "* ]] ||
		die "leg $LEG has no step $s: its steps are $usual${weekly:+, and when asked (CI_STEPS=...) $weekly}"
done
# What the steps' commands (ci/steps) are given.
export TOP VERSION ARCH COMPILER VARIANT LEG LEGOUT
summary=${CI_SUMMARY:-$OUT/ci/summary.md}
mkdir -p "$LEGOUT" "$(dirname "$summary")"
[ -s "$summary" ] || "$TOP/ci/summary.sh" --header >"$summary"

# record STEP RESULT SECONDS LOG-OR-NOTE: the step's row in summary.md and
# its entry in summary.json.
record() {
	"$TOP/ci/summary.sh" "$LEG" "$@" >>"$summary"
	"$TOP/ci/summary-json.sh" step "$LEG" "$@"
}

# ccache's counters, summed: "hits misses".
ccache_counts() {
	CCACHE_DIR=${CCACHE_DIR:-$KCACHE/ccache} ccache --print-stats 2>/dev/null | awk '
		$1 ~ /^(direct|preprocessed)_cache_hit$/ { h += $2 }
		$1 == "cache_miss" { m += $2 }
		END { print h + 0, m + 0 }'
}
read -r hits0 misses0 < <(ccache_counts)

echo "KTAP version 1"
echo "# $LEG: $VERSION $ARCH $COMPILER${VARIANT/#-/}: ${steps[*]}"
echo "1..${#steps[@]}"
"$TOP/ci/summary-json.sh" start "$LEG" "${steps[@]}"

# Whether the leg can start here, and the series' branches, which every
# step starts from: what is missing fails the first step, in its log.
first=${steps[0]} cannot=
if ! "$TOP/ci/preflight.sh" "$LEG" "${steps[@]}" >"$LEGOUT/preflight.log" 2>&1; then
	cannot=1
	cp "$LEGOUT/preflight.log" "$LEGOUT/$first.log"
elif ! "$TOP/scripts/tree.sh" "$VERSION" >"$LEGOUT/tree.log" 2>&1; then
	cannot=1
	{ tail -n 5 "$LEGOUT/tree.log"
	  echo "${0##*/}: error: make tree VERSION=$VERSION failed: $LEGOUT/tree.log"; } >"$LEGOUT/$first.log"
else
	grep '^# ' "$LEGOUT/preflight.log" || true
fi

declare -A result
n=0 fail=0
for s in "${steps[@]}"; do
	n=$((n + 1))
	line=$(awk -v s="$s" '!/^#/ && $1 == s' "$TOP/ci/steps")
	[ -n "$line" ] || die "ci/matrix names a step $s that ci/steps has not"
	read -r _ needs _ cmd <<<"$line"
	log=$LEGOUT/$s.log
	if [ -n "$cannot" ] && [ $n -gt 1 ]; then
		result[$s]=SKIP
		echo "ok $n $s # SKIP the leg cannot start: see $first"
		record "$s" SKIP 0 "the leg cannot start: see $first"
		continue
	fi
	# A step needs the output of another: SKIP when that one failed (or
	# was skipped) in this run; not run here (CI_STEPS=boot), its last
	# output is used, and the step fails if there is none.
	if [ "${result[$needs]:-PASS}" != PASS ]; then
		result[$s]=SKIP
		echo "ok $n $s # SKIP $needs ${result[$needs]}"
		record "$s" SKIP 0 "needs $needs"
		continue
	fi
	start=$SECONDS
	rc=0
	if [ -n "$cannot" ]; then
		rc=1 # its log says why
	else
		(cd "$TOP" && bash -c "set -euo pipefail; $cmd") >"$log" 2>&1 || rc=$?
	fi
	t=$((SECONDS - start))
	if [ $rc = 0 ]; then
		result[$s]=PASS
		echo "ok $n $s # $t s"
		record "$s" PASS "$t" "$log"
	else
		result[$s]=FAIL
		fail=$((fail + 1))
		# What failed: the step's own failures, then its last words.
		{ grep -E '^(not ok|# >>)' "$log" | head -n 20 || true
		  grep -vE '^(ok|not ok|# >>) ' "$log" | tail -n 5 || true; } | sed 's/^/# /'
		echo "not ok $n $s # $t s; log: $log"
		record "$s" FAIL "$t" "$log"
	fi
	grep -q 'FLAKE: the compiler crashed' "$log" && echo "# $s: a compiler crash was retried (a flake): see $log"
done
read -r hits1 misses1 < <(ccache_counts)
h=$((hits1 - hits0)) m=$((misses1 - misses0))
"$TOP/ci/summary-json.sh" end "$LEG" "$h" "$m"
echo "# $LEG: ccache $h hits, $m misses ($(( (h + m) ? 100 * h / (h + m) : 0 ))% hit rate)"
[ $fail = 0 ]
