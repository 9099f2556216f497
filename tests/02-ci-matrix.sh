#!/bin/bash
# The CI matrix is data that holds together: every leg names a step that
# ci/steps has, an arch with a boot-test machine and a toolchain of
# build/toolchains, a variant with its configs/ fragment; a step marked
# @weekly (allmod-full) is in no leg's default run, and a leg runs it, or
# refuses a step it has not, when asked with CI_STEPS; `make ci LEG=` refuses
# a leg that is not there, naming those that are; and the GitHub Actions
# workflow is what ci/workflow.sh makes of the matrix (drift is caught, and
# named with the command that fixes it).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
steps=$(table_rows "$TOP/ci/steps" | awk 'NF { print $1 }')
while read -r name arch comp variant st; do
	for s in $st; do
		grep -qx "${s%@weekly}" <<<"$steps" || fail "ci/matrix: leg $name has a step $s that ci/steps has not"
	done
	[ "$arch" = - ] && continue
	[ -f "$TOP/boot-tests/machines/$arch" ] || fail "ci/matrix: leg $name: no machine $arch"
	(toolchain "$arch" "$comp") >/dev/null 2>&1 ||
		fail "ci/matrix: leg $name: no toolchain $arch $comp in build/toolchains"
	[ "$variant" = - ] || [ -f "$TOP/configs/$variant.config" ] ||
		fail "ci/matrix: leg $name: no configs/$variant.config"
done < <(table_rows "$TOP/ci/matrix")
n=$(legs | wc -l)
[ "$n" = $(( $(table_rows "$TOP/ci/matrix" | wc -l) * $(versions | wc -l) )) ] ||
	fail "legs lists $n legs"
echo "$n legs: $(legs | paste -sd' ')"

steps=$(leg_steps 6.1-x86_64-gcc)
[[ " $steps " != *" allmod-full "* ]] || fail "allmod-full is in the default run of 6.1-x86_64-gcc: $steps"
weekly=$(leg_steps 6.1-x86_64-gcc weekly)
[ "$weekly" = "allmod-full allmod-merge" ] ||
	fail "6.1-x86_64-gcc's @weekly steps are '$weekly', not allmod-full allmod-merge"
echo "ok: 6.1-x86_64-gcc runs $steps; allmod-full and allmod-merge when asked"
expect_fail 'leg 6.1-x86_64-gcc has no step nope: its steps are kernel boot allmod modules bisect, and when asked \(CI_STEPS=...\) allmod-full allmod-merge' \
	env CI_STEPS=nope "$TOP/ci/leg.sh" 6.1-x86_64-gcc
expect_fail 'leg 6.1-series has no step allmod-full' env CI_STEPS=allmod-full "$TOP/ci/leg.sh" 6.1-series
expect_fail 'no leg x86_64-icc in ci/matrix \(there are: 6.1-series 6.1-x86_64-gcc' make -s -C "$TOP" ci LEG=6.1-x86_64-icc
expect_fail 'series/ has no kernel 9.9' make -s -C "$TOP" ci LEG=9.9-x86_64-gcc
"$TOP/ci/workflow.sh" --check || fail "the workflow drifted from ci/matrix"
grep -q "^          - $(legs | tail -n 1)$" "$TOP/.github/workflows/ci.yml" || fail "the workflow lacks a leg"
grep -q '^  schedule:$' "$TOP/.github/workflows/ci.yml" || fail "the workflow has no schedule for the @weekly steps"
grep -A1 -x '          - leg: 6.1-arm64-clang' "$TOP/.github/workflows/ci.yml" | grep -qx '            steps: allmod-full' ||
	fail "the workflow's weekly job lacks 6.1-arm64-clang's allmod-full"
# A weekly job a part of the tree, and the merge job that links them.
n=$(allmod_nparts 6.1-arm64-clang)
[ "$n" -gt 1 ] || fail "ci/allmod-parts has no parts for 6.1-arm64"
[ "$(grep -A2 -x '          - leg: 6.1-arm64-clang' "$TOP/.github/workflows/ci.yml" | grep -c '^            shard: "[0-9]*/'"$n"'"$')" = "$n" ] ||
	fail "the workflow's weekly run has not $n jobs for 6.1-arm64-clang's parts"
sed -n '/^  allmod-merge:$/,/^  summary:$/p' "$TOP/.github/workflows/ci.yml" | grep -qx '          - 6.1-arm64-clang' ||
	fail "the workflow's allmod-merge job lacks 6.1-arm64-clang"
echo "ok: the weekly run builds 6.1-arm64-clang in $n parts, and a job links them"

sandbox
printf 'x86_64-gcc-new\tx86_64\tgcc\t-\tkernel\n' >>"$SB/repo/ci/matrix"
expect_fail 'regenerate it with: make ci-workflow' "$SB/repo/ci/workflow.sh" --check
make -s -C "$SB/repo" ci-workflow || fail "make ci-workflow failed"
"$SB/repo/ci/workflow.sh" --check || fail "make ci-workflow did not fix the drift"
