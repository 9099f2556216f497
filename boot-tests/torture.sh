#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# torture.sh VERSION ARCH COMPILER
#
# make torture: for each sanitizer of TORTURE_SANITIZERS ("kasan kcsan"),
# boot the series' kernel of series/VERSION and its base kernel in turn,
# both built with configs/torture.config (fault injection, list debugging,
# the stall detectors, over the boot config's lockdep) and
# configs/torture-SANITIZER.config (kasan: KASAN and UBSAN; kcsan: KCSAN,
# which excludes KASAN), in the torture guest (boot-tests/
# torture-initramfs.sh: Debian's stress-ng and trinity), which runs
# guest/torture.sh for TORTURE_MIN minutes (1) from the seed TORTURE_SEED
# (1) in SMP guests with memory cgroups and swap.  Then compare the
# kernel's reports by signature (torture-signatures.sh,
# torture-compare.sh): a report of the series' kernel that its base has
# not is new, and counts once a second run of the series shows it again.
# The logs, signatures and a summary are in
# out/torture/<kver>-<arch>-<compiler>-torture-<sanitizer>/; KTAP on
# stdout, a subtest a sanitizer; exit status 0 when, for each, the guest's
# own checks pass on the series and there is no new report.
# TORTURE_VARIANT=torture-SANITIZER runs that one alone, not nested.
#
# For a test that plants a bug (tests/89-torture-planted.sh):
#   TORTURE_TREE=DIR     build the series' kernel from the kernel tree DIR,
#                        as it is, instead of series/VERSION's worktree
#   TORTURE_RESULTS=NAME the results in out/torture/<...>-<variant>-NAME
#   TORTURE_BASE=RES     take the base's run from the results RES of an
#                        earlier run of the same base, variant, minutes and
#                        seed, whose base guest passed, instead of booting
#                        the base again
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: $0 VERSION ARCH COMPILER"
ver=$1 arch=$2 comp=$3
min=${TORTURE_MIN:-1} seed=${TORTURE_SEED:-1} variant=${TORTURE_VARIANT:-}
if [ -z "$variant" ]; then
	read -r -a sans <<<"${TORTURE_SANITIZERS:-kasan kcsan}"
	[ ${#sans[@]} -gt 0 ] || die "TORTURE_SANITIZERS is empty: kasan, kcsan or both"
	echo "KTAP version 1"
	echo "1..${#sans[@]}"
	n=0 status=0
	for san in "${sans[@]}"; do
		n=$((n + 1))
		[ -f "$TOP/configs/torture-$san.config" ] || die "TORTURE_SANITIZERS: no configs/torture-$san.config"
		rc=0
		TORTURE_VARIANT=torture-$san "$0" "$@" | ktap_nest - || rc=$?
		ktap_result $n "torture-$san" $rc "$OUT/torture/$(base_get "$1" tag | sed 's/^v//')-$2-$3-torture-$san" ||
			status=1
	done
	exit "$status"
fi
case $min in '' | *[!0-9]*) die "TORTURE_MIN=$min: a number of minutes" ;; esac
case $seed in '' | *[!0-9]*) die "TORTURE_SEED=$seed: a number" ;; esac
here=$(cd "$(dirname "$0")" && pwd)
tag=$(base_get "$ver" tag)
series=$OUT/${tag#v}/$arch-$comp-$variant
base=$OUT/${tag#v}-base/$arch-$comp-$variant
res=$OUT/torture/${tag#v}-$arch-$comp-$variant${TORTURE_RESULTS:+-$TORTURE_RESULTS}
mkdir -p "$res"
rm -f "$res"/*.log "$res"/*.ktap "$res"/*.sig "$res/compare.txt" "$res/summary"

if [ -n "${TORTURE_TREE:-}" ]; then
	wt=$(realpath "$TORTURE_TREE")
	[ -f "$wt/Makefile" ] || die "TORTURE_TREE=$TORTURE_TREE: not a kernel tree"
else
	wt=$("$TOP/scripts/tree.sh" "$ver" | tail -n 1)
fi
basewt=$(base_worktree "$ver")
reuse=${TORTURE_BASE:-}
if [ -n "$reuse" ]; then
	reuse=$(realpath -m "$reuse")
	[ "$reuse" != "$(realpath -m "$res")" ] || die "TORTURE_BASE=$reuse: the results of this run itself"
	if [ ! -f "$reuse/summary" ] || [ ! -f "$reuse/base.sig" ]; then
		die "TORTURE_BASE=$reuse: no run there (make torture)"
	fi
	for want in "variant=$variant" "minutes=$min" "seed=$seed" "base=$(git -C "$basewt" rev-parse HEAD)"; do
		[ "$(kv "$reuse/summary" "${want%%=*}")" = "${want#*=}" ] ||
			die "TORTURE_BASE=$reuse: its ${want%%=*} is $(kv "$reuse/summary" "${want%%=*}"), not ${want#*=}"
	done
	grep -q '^ok [0-9]* torture$' "$reuse/base.ktap" ||
		die "TORTURE_BASE=$reuse: its base guest did not pass: $reuse/base.ktap"
fi
note "building the series' kernel with torture.config and $variant.config in $series"
"$TOP/build/boot-kernel.sh" -v torture -v "$variant" "$wt" "$series" "$arch" "$comp" >&2
if [ -z "$reuse" ]; then
	note "building the base kernel with torture.config and $variant.config in $base"
	"$TOP/build/boot-kernel.sh" -v torture -v "$variant" "$basewt" "$base" "$arch" "$comp" >&2
fi
"$here/initramfs.sh" "$arch" "$wt" "$series" "$series/initramfs.cpio.gz" >&2
"$here/torture-initramfs.sh" "$arch" "$series/initramfs.cpio.gz" "$series/torture.cpio.gz" >&2

image=$(machine "$arch" image)
# The guest's work takes TORTURE_MIN; booting a KASAN kernel under TCG and
# the stressors' ends take their own.
timeout=$((min * 60 * 2 + 900))
# run NAME KOUT: boot KOUT's kernel in the torture guest; its serial log
# is $res/NAME.log, its reports' signatures $res/NAME.sig.
run() {
	local name=$1 kout=$2
	note "torture: $name, $min min, seed $seed"
	"$here/boot.sh" -T "$timeout" -m 1G -a "oomtest.torture_min=$min oomtest.torture_seed=$seed" \
		"$arch" "$kout/$image" "$series/torture.cpio.gz" "$res/$name.log" torture >"$res/$name.ktap" 2>&1 || true
	"$here/torture-signatures.sh" "$res/$name.log" >"$res/$name.sig"
}

echo "KTAP version 1"
echo "1..3"
run series "$series"
if [ -n "$reuse" ]; then
	note "torture: the base's run of $reuse, same base, variant, minutes and seed"
	for f in base.log base.ktap base.sig; do
		cp "$reuse/$f" "$res/$f"
	done
else
	run base "$base"
fi
status=0
if grep -q '^ok [0-9]* torture$' "$res/series.ktap"; then
	echo "ok 1 guest # the series' kernel: stressors, drm, trinity and faults ran, ledgers drained"
else
	sed -n 's/^# torture: /# /p' "$res/series.ktap" | grep -v '^#   ' | tail -n 20
	echo "not ok 1 guest # the series' kernel: see $res/series.ktap"
	status=1
fi
# The base kernel's guest has no ledgers to check; it must have run (a
# SKIP, without stress-ng or trinity, ran nothing).
if grep -q '^ok [0-9]* torture$' "$res/base.ktap"; then
	echo "ok 2 base # the base kernel ran the same"
else
	echo "not ok 2 base # the base kernel's guest failed: see $res/base.ktap"
	status=1
fi

if "$here/torture-compare.sh" "$res/series.sig" "$res/base.sig" >"$res/compare.txt"; then
	cat "$res/compare.txt"
	echo "ok 3 reports # no report of the series' kernel that the base has not"
else
	# Seen once, on one kernel: a second run of the series confirms it.
	note "torture: a report the base has not: running the series again to confirm it"
	run series-again "$series"
	awk -F '\t' 'FILENAME == ARGV[1] { again[$2 "\t" $3] = 1; next } ($2 "\t" $3) in again' \
		"$res/series-again.sig" "$res/series.sig" >"$res/confirmed.sig"
	if "$here/torture-compare.sh" "$res/confirmed.sig" "$res/base.sig" >"$res/compare.txt"; then
		cat "$res/compare.txt"
		{ "$here/torture-compare.sh" "$res/series.sig" "$res/base.sig" || true; } |
			sed -n 's/^# new: /# seen once, not again: /p'
		echo "ok 3 reports # no report of the series' kernel that the base has not, confirmed by a second run"
	else
		cat "$res/compare.txt"
		echo "not ok 3 reports # new reports on the series' kernel, seen in two runs: the logs are $res/series.log and $res/series-again.log"
		status=1
	fi
fi
{
	echo "kernel	${tag#v}"
	echo "arch	$arch"
	echo "compiler	$comp"
	echo "variant	$variant"
	echo "minutes	$min"
	echo "seed	$seed"
	echo "series	$(git -C "$wt" rev-parse HEAD)"
	echo "base	$(git -C "$basewt" rev-parse HEAD)"
	[ -z "$reuse" ] || echo "base_run	$reuse"
	[ -z "${TORTURE_TREE:-}" ] || echo "tree	$wt$(git -C "$wt" diff --quiet 2>/dev/null || echo ' (changed)')"
	echo "status	$status"
} >"$res/summary"
exit "$status"
