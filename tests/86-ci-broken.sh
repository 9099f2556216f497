#!/bin/bash
# A deliberately broken series fails the right step of the leg, naming what
# broke: a typo in the GEM core's call into the series (the allmod step,
# drm_gem.o), a new W=1 warning (the allmod step, shown with ">>"), and a
# missing EXPORT_SYMBOL_GPL(shmem_file_charge_creator) (the modules step,
# naming the symbol and drm.ko).  Each break is made in the leg's worktree
# of 6.1-x86_64-gcc and undone: only what the break touches is rebuilt, on
# the leg's builds that tests/85-ci-leg.sh leaves, or that this test makes
# first (and fails on, if the unbroken leg fails).  make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
L=6.1-x86_64-gcc
legwt=$(leg_worktree_dir "$L")
if [ ! -d "$legwt" ]; then
	make -s -C "$TOP" ci LEG=$L CI_STEPS="allmod modules" >"$OUT/tests/ci-broken-unbroken.log" 2>&1 ||
		fail "the unbroken leg $L fails: $(tail -n 20 "$OUT/tests/ci-broken-unbroken.log")"
fi
[ -d "$legwt" ] || fail "no worktree of $L"
export CI_SUMMARY=$OUT/tests/ci-broken-summary.md
rm -f "$CI_SUMMARY"
trap 'git -C "$legwt" checkout -q -- .' EXIT
git -C "$legwt" diff --quiet || fail "$legwt has changes already"

# broken STEP EXPECT...: the leg's STEP fails, its output matching each EXPECT.
broken() {
	local step=$1 out
	shift
	out=$(CI_STEPS=$step "$TOP/ci/leg.sh" $L 2>&1) && fail "$step passed on a broken series: $out"
	grep -q "^| $L | $step | FAIL |" "$CI_SUMMARY" || fail "the summary has no FAIL for $step"
	for e; do
		grep -qE -- "$e" <<<"$out" || fail "$step failed without /$e/: $out"
	done
	echo "ok: $step fails: $(grep -E -- "$1" <<<"$out" | head -n 1)"
	git -C "$legwt" checkout -q -- .
	rm -f "$CI_SUMMARY"
}

f=drivers/gpu/drm/drm_gem.c
grep -q 'shmem_file_charge_creator(filp)' "$legwt/$f" || fail "$f does not call shmem_file_charge_creator()"
sed -i 's/shmem_file_charge_creator(filp)/shmem_file_charge_creatr(filp)/' "$legwt/$f"
broken allmod '^# not ok [0-9]+ drivers/gpu/drm/drm_gem.o # does not build with the series' \
	"# >> $f:[0-9]+:[0-9]+: error: .*shmem_file_charge_creatr"

f=mm/oom_kill.c
printf '\nint oom_badness_not_declared(void)\n{\n\treturn 0;\n}\n' >>"$legwt/$f"
broken allmod '^# not ok [0-9]+ mm/oom_kill.o # 1 new W=1 warning' \
	"# >> $f:[0-9]+:[0-9]+: warning: no previous prototype for .oom_badness_not_declared"

f=mm/shmem.c
grep -q '^EXPORT_SYMBOL_GPL(shmem_file_charge_creator);' "$legwt/$f" ||
	fail "$f does not export shmem_file_charge_creator"
sed -i '/^EXPORT_SYMBOL_GPL(shmem_file_charge_creator);/d' "$legwt/$f"
broken modules '"shmem_file_charge_creator" \[drivers/gpu/drm/drm.ko\] undefined'
