#!/bin/bash
# The sanitizers leg catches what it is there for.  The kernel of
# 6.1-x86_64-gcc-sanitizers (KASAN, UBSAN) boots clean with the kselftest;
# then, with a use-after-free put into the ledgers (a released object's
# record freed before it is unlinked from its ledger, in
# oom_charges_release(), which every memfd's eviction runs), the boot step
# fails and its log has KASAN's use-after-free report with
# oom_charges_release() in its trace.  The break is made in the
# leg's worktree, and undone.  A KASAN kernel to build
# (docs/timings.md says how long): make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
L=6.1-x86_64-gcc-sanitizers
legwt=$(leg_worktree_dir "$L")
legout=$(leg_out "$L")
export CI_SUMMARY=$OUT/tests/ci-sanitizers-summary.md BOOT_TESTS=oom_ledger_test
rm -f "$CI_SUMMARY"
out=$(CI_STEPS="kernel boot" "$TOP/ci/leg.sh" $L 2>&1) || fail "$L fails unbroken: $out"
echo "ok: $L boots clean: $(grep -E '^ok [0-9]+ boot' <<<"$out")"
rm -f "$CI_SUMMARY"

trap 'git -C "$legwt" checkout -q -- .' EXIT
git -C "$legwt" diff --quiet || fail "$legwt has changes already"
f=mm/oom_ledger.c
plant_use_after_free "$legwt/$f"
out=$(CI_STEPS="kernel boot" "$TOP/ci/leg.sh" $L 2>&1) && fail "$L passed with a use-after-free: $out"
grep -q "^| $L | boot | FAIL |" "$CI_SUMMARY" || fail "the summary has no FAIL for boot: $(cat "$CI_SUMMARY")"
# The report, from its title to the line of = that ends it.
sed -n '/BUG: KASAN: [a-z-]*use-after-free/,/=====/p' "$legout/boot/boot.log" >"$OUT/tests/kasan-report.txt"
grep -q 'oom_charges_release' "$OUT/tests/kasan-report.txt" ||
	fail "no KASAN use-after-free report with oom_charges_release in its trace: $legout/boot/boot.log"
echo "ok: the boot step fails: $(grep -m1 'BUG: KASAN' "$OUT/tests/kasan-report.txt")"
