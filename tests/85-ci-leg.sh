#!/bin/bash
# The steps of a CI leg that no other test runs: `make ci
# LEG=6.1-x86_64-gcc CI_STEPS="allmod modules"` builds with W=1, under
# allmodconfig and in the leg's own worktree, every object the series
# touches with no new warning, and links DRM and vgem as modules through
# modpost; the summary has a PASS row for each step, the ccache hit rate is
# printed, and the last line counts the steps.  The leg's other steps are
# what tests/60-ab-x86_64.sh (the same kernel, booted with the same tests)
# and tests/30-bisect.sh run: left to them, to keep `make test` within CI's
# 90 minutes on a cold cache.  `make ci` runs every leg whole (README.md).
# Two allmodconfig builds and a modular kernel (docs/timings.md says how
# long): make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
leg=6.1-x86_64-gcc
export CI_SUMMARY=$OUT/tests/ci-summary.md
legout=$(leg_out "$leg")
steps="allmod modules"
make -s -C "$TOP" ci LEG=$leg CI_STEPS="$steps" >"$OUT/tests/ci-leg.log" 2>&1 || true
sed -n '/^KTAP/,$p' "$OUT/tests/ci-leg.log" | grep -v '^| ' | head -n 60
for s in $steps; do
	grep -q "^| $leg | $s | PASS |" "$CI_SUMMARY" || fail "step $s of $leg did not pass: $(grep "| $s |" "$CI_SUMMARY")"
done
grep -q "^ *# $leg: ccache [0-9]* hits, [0-9]* misses ([0-9]*% hit rate)$" "$OUT/tests/ci-leg.log" ||
	fail "no ccache hit rate"
[ "$(tail -n 1 "$OUT/tests/ci-leg.log")" = "$(wc -w <<<"$steps" | tr -d ' ') passed, 0 failed" ] ||
	fail "the last line is not the count of steps: $(tail -n 1 "$OUT/tests/ci-leg.log")"
[ -d "$KWT/ci-$leg" ] || fail "the leg has no worktree of its own"
grep -q '^# modpost: every symbol resolved' "$legout/modules.log" || fail "the modules step said nothing of modpost"
grep -q '^# [0-9]* of [0-9]* objects with no new error or warning' "$legout/allmod.log" ||
	fail "the allmod step built no objects"
grep '^| ' "$CI_SUMMARY"
