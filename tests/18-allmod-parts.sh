#!/bin/bash
# The parts the allmod-full step builds the allmodconfig tree in
# (ci/allmod-parts, checks/allmod-parts.sh, checks/allmod-merge.sh):
# kbuild's walk of 6.1's x86_64 allmodconfig tree (make -n: a minute or
# two) is covered by the parts once.  A parts file that leaves a directory
# out, covers one twice or names one kbuild does not descend into fails
# the check, naming it and the command that writes new parts.  Each object
# the series touches is in one part exactly; a DIR/. unit's targets are
# DIR's own objects; a SHARD whose N is not the file's is refused.
# allmod-merge refuses to link while a part is missing, failed, was built
# from another commit or lost its folder, naming the command that builds
# it.  The timings page shows a part's time over all its runs, and a
# floor for a part partly built before runs were timed.  The parts are
# built and linked for real by make ci (docs/ci.md),
# not here: hours.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
leg=6.1-x86_64-gcc
parts=$TOP/checks/allmod-parts.sh
"$TOP/scripts/tree.sh" 6.1 >/dev/null
"$parts" walk $leg
"$parts" check $leg || fail "ci/allmod-parts does not cover 6.1's x86_64 allmodconfig tree"
n=$(allmod_nparts $leg)
[ "$n" -gt 1 ] || fail "ci/allmod-parts has $n parts for 6.1-x86_64"

# Every object the series touches, in one part.
mapfile -t objs < <("$TOP/checks/objects.sh" "$(base_get 6.1 tag)" "$(integration_branch 6.1)")
[ ${#objs[@]} -gt 10 ] || fail "checks/objects.sh names ${#objs[@]} objects"
owned=$(for i in $(seq 1 "$n"); do printf '%s\n' "${objs[@]}" | "$parts" owns $leg "$i/$n"; done | sort)
[ "$owned" = "$(printf '%s\n' "${objs[@]}" | sort)" ] ||
	fail "the parts do not own each touched object once: $(diff <(printf '%s\n' "${objs[@]}" | sort) - <<<"$owned" | head -n 5)"
echo "ok: the ${#objs[@]} objects the series touches are in one part each"
for o in mm/oom_kill.o drivers/gpu/drm/drm_file.o; do
	i=$(for i in $(seq 1 "$n"); do echo "$o" | "$parts" owns $leg "$i/$n" | sed "s|.*|$i|"; done)
	"$parts" targets $leg "$i/$n" >"$OUT/tests/allmod-targets"
	grep -qx "${o%/*}/" "$OUT/tests/allmod-targets" || grep -qx "$o" "$OUT/tests/allmod-targets" ||
		awk -v o="$o" 'index(o, $0) == 1' "$OUT/tests/allmod-targets" | grep -q . ||
		fail "part $i/$n owns $o but has no target that builds it"
	echo "ok: $o is part $i/$n's"
done
own=$(awk '$3 ~ /\/\.$/ { print $2, $3; exit }' < <(grep -P '^6\.1-x86_64\t' "$TOP/ci/allmod-parts"))
read -r i unit <<<"$own"
"$parts" targets $leg "$i/$n" >"$OUT/tests/allmod-targets"
grep -q "^${unit%.}[^/]*\.o$" "$OUT/tests/allmod-targets" ||
	fail "part $i/$n's unit $unit has no object of ${unit%/.} among its targets"
echo "ok: $unit expands to the objects of ${unit%/.}"
expect_fail "SHARD=1/$((n + 1)): ci/allmod-parts has $n parts for 6.1-x86_64, not $((n + 1))" \
	"$parts" targets $leg "1/$((n + 1))"

# Broken parts files.
bad=$OUT/tests/allmod-parts.bad
take() { grep -vP "\t$1$" "$TOP/ci/allmod-parts" >"$bad"; }
export ALLMOD_PARTS=$bad
take 'drivers/gpu/drm/\.'
expect_fail 'drivers/gpu/drm: [0-9]+ object\(s\) in no part' "$parts" check $leg
expect_fail "write new ones with: $parts split $leg N" "$parts" check $leg
take 'nothing'
printf '6.1-x86_64\t1\tdrivers/gpu/\n' >>"$bad"
expect_fail 'drivers/gpu/drm/amd/amdgpu: in more than one part' "$parts" check $leg
take 'nothing'
printf '6.1-x86_64\t2\tdrivers/nowhere/\n' >>"$bad"
expect_fail 'names drivers/nowhere/: kbuild builds no directory drivers/nowhere/' "$parts" check $leg
# Parts numbered with a gap: no part 2 of 3.
printf '6.1-x86_64\t1\tmm/\n6.1-x86_64\t3\tfs/\n' >"$bad"
expect_fail 'allmod-parts.bad: 6.1-x86_64 has no part 2 of 3' \
	"$parts" targets $leg 1/3

# allmod-merge's guards, with two parts.
printf '6.1-x86_64\t1\tmm/\n6.1-x86_64\t2\tfs/\n' >"$bad"
legout=$(leg_out $leg)
rm -rf "$legout/allmod-parts"
expect_fail "not ok 1 part 1/2 # not built: make ci LEG=$leg CI_STEPS=allmod-full SHARD=1/2" \
	"$TOP/checks/allmod-merge.sh" $leg
mkdir -p "$legout/allmod-parts"
head=$(git -C "$(leg_worktree $leg)" rev-parse HEAD)
jq -n --arg c "$head" '{commit: $c, result: "PASS", seconds: 1, targets: 1}' >"$legout/allmod-parts/1-of-2.json"
jq -n '{commit: "0123abc", result: "PASS", seconds: 1, targets: 1}' >"$legout/allmod-parts/2-of-2.json"
rm -rf "$legout/allmod-full-1-of-2"
expect_fail "part 1/2 # its folder .* is gone" "$TOP/checks/allmod-merge.sh" $leg
expect_fail "part 2/2 # built from 0123abc, the series is at $head now" "$TOP/checks/allmod-merge.sh" $leg
jq -n --arg c "$head" '{commit: $c, result: "FAIL", seconds: 1, targets: 1}' >"$legout/allmod-parts/2-of-2.json"
expect_fail "part 2/2 # it failed" "$TOP/checks/allmod-merge.sh" $leg
expect_fail "rerun: make ci LEG=$leg CI_STEPS=allmod-merge" "$TOP/checks/allmod-merge.sh" $leg

# The timings page: a part's time adds up its runs, and a record from
# before runs were timed says its time is a floor.
jq -n '{leg: "L", part: "1/2", commit: "0123abc", result: "PASS", seconds: 30,
	compared: 4}' >"$legout/allmod-parts/1-of-2.json"
jq -n '{leg: "L", part: "2/2", commit: "0123abc", result: "PASS", seconds: 5000,
	runs: 3, all_runs_timed: true, compared: 2}' >"$legout/allmod-parts/2-of-2.json"
page=$(mktemp)
"$TOP/ci/timings.sh" -s /nonexistent -t /nonexistent -o "$page" -d "$legout/allmod-parts" >/dev/null
grep -qF '| L | 1/2 | PASS | at least 30 s | 4 |' "$page" ||
	fail "an untimed part's record is not a floor on the timings page: $(grep -F '| L | 1/2' "$page")"
grep -qF '| L | 2/2 | PASS | 5000 s in 3 runs | 2 |' "$page" ||
	fail "a part built in 3 runs is not shown so: $(grep -F '| L | 2/2' "$page")"
rm -f "$page"
rm -rf "$legout/allmod-parts"
