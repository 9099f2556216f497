#!/bin/bash
# make torture catches what it is there for.  Two bugs are planted in the
# series' tree, one at a time, and the short form (TORTURE_MIN=1) is run on
# each (boot-tests/torture.sh with TORTURE_TREE): it fails, and names it.
#
#   use-after-free  oom_charges_release() frees a record before it unlinks
#                   it from its ledger: the run has a new report, KASAN's
#                   use-after-free in oom_charges_release, confirmed by a
#                   second run of the series
#   leaked charge   oom_charges_release() never drops the reference its
#                   record held on the ledger it charged: the ledger of an
#                   exited process stays, and the guest's check of
#                   /sys/kernel/debug/oom_ledgers fails, naming it
#
# The base's run is the one tests/88 left (TORTURE_BASE), when it is of
# the same minutes and seed; else the base is booted too.  The bugs are
# planted in the series' worktree and undone.  One KASAN kernel rebuilt
# (a file) and up to three boots a bug: make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
v=$(default_version)
kver=$(base_get "$v" tag | sed 's/^v//')
clean=$OUT/torture/$kver-x86_64-gcc-torture-kasan
reuse=()
if [ -f "$clean/summary" ] && grep -qx $'minutes\t1' "$clean/summary" && grep -qx $'seed\t1' "$clean/summary" &&
	grep -q '^ok [0-9]* torture$' "$clean/base.ktap"; then
	reuse=(TORTURE_BASE="$clean")
fi
wt=$("$TOP/scripts/tree.sh" "$v" | tail -n 1)
git -C "$wt" diff --quiet || fail "$wt has changes already"
trap 'git -C "$wt" checkout -q -- .' EXIT
f=mm/oom_ledger.c

# plant NAME: put the bug NAME into $f of the series' tree (tests/lib.sh's
# plant_NAME, dashes as underscores), run the short form on it, into
# results NAME; its output in $out, the results in $res.  The run must fail.
plant() {
	git -C "$wt" checkout -q -- .
	"plant_${1//-/_}" "$wt/$f"
	res=$clean-$1
	out=$(env "${reuse[@]}" TORTURE_VARIANT=torture-kasan TORTURE_TREE="$wt" TORTURE_RESULTS="$1" TORTURE_MIN=1 TORTURE_SEED=1 \
		"$TOP/boot-tests/torture.sh" "$v" x86_64 gcc 2>&1) &&
		fail "make torture passed with the $1 planted: $out"
	return 0
}

plant use-after-free
grep -q '^not ok 3 reports # new reports on the series.* seen in two runs' <<<"$out" ||
	fail "the use-after-free was not a new report seen twice: $out"
grep -q '^# new: KASAN [a-z-]*use-after-free in [a-z_,]*oom_charges_release' "$res/compare.txt" ||
	fail "no new KASAN use-after-free in oom_charges_release: $(cat "$res/compare.txt")"
echo "ok: the use-after-free: $(grep -m1 '^# new: KASAN' "$res/compare.txt")"

plant leaked-charge
grep -q '^not ok 1 guest' <<<"$out" || fail "the guest's check passed with a ledger never let go: $out"
left=$(sed -n '/^# torture: ledgers of exited processes left/,/^# torture: [^ ]/p' "$res/series.ktap")
grep -q '^# torture:   [0-9]* ' <<<"$left" || fail "the guest named no ledger left: $res/series.ktap"
echo "ok: the leaked charge: $(head -n 2 <<<"$left" | tail -n 1)"
