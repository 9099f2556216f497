#!/bin/bash
# The sanitizers leg catches what it is there for.  The kernel of
# 6.1-x86_64-gcc-sanitizers (KASAN, UBSAN) boots clean with the kselftest;
# then, with a use-after-free put into the GEM accounting (a handle's pages
# subtracted after its reference is dropped: the last reference, for a
# buffer only its handle keeps), the boot step fails and its log names
# KASAN's use-after-free in drm_gem_object_release_handle().  The break is
# made in the leg's worktree, and undone.  A KASAN kernel to build
# (docs/timings.md says how long): make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
L=6.1-x86_64-gcc-sanitizers
legwt=$(leg_worktree_dir "$L")
legout=$(leg_out "$L")
export CI_SUMMARY=$OUT/tests/ci-sanitizers-summary.md BOOT_TESTS=oom_badness_test
rm -f "$CI_SUMMARY"
out=$(CI_STEPS="kernel boot" "$TOP/ci/leg.sh" $L 2>&1) || fail "$L fails unbroken: $out"
echo "ok: $L boots clean: $(grep -E '^ok [0-9]+ boot' <<<"$out")"
rm -f "$CI_SUMMARY"

trap 'git -C "$legwt" checkout -q -- .' EXIT
git -C "$legwt" diff --quiet || fail "$legwt has changes already"
f=drivers/gpu/drm/drm_gem.c
perl -0pi -e 's/(\tpages = atomic_long_sub_return\(obj->size [^;]*;\n\tdrm_WARN_ON_ONCE\(obj->dev, pages < 0\);\n)(\tdrm_gem_object_handle_put_unlocked\(obj\);\n)/$2$1/' \
	"$legwt/$f"
git -C "$legwt" diff --quiet && fail "could not put the use-after-free into $f"
out=$(CI_STEPS="kernel boot" "$TOP/ci/leg.sh" $L 2>&1) && fail "$L passed with a use-after-free: $out"
grep -q "^| $L | boot | FAIL |" "$CI_SUMMARY" || fail "the summary has no FAIL for boot: $(cat "$CI_SUMMARY")"
grep -qE 'KASAN: (slab-)?use-after-free in drm_gem_object_release_handle' "$legout/boot/boot.log" ||
	fail "KASAN did not name drm_gem_object_release_handle: $out"
echo "ok: the boot step fails: $(grep -m1 -E 'KASAN: (slab-)?use-after-free' "$legout/boot/boot.log")"
