#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# upstream-selftests.sh [-s IMAGE -b IMAGE -i INITRAMFS] [-o DIR] VERSION ARCH COMPILER
#
# The kernel's own selftests of what the series touches
# (boot-tests/upstream-selftests: the memory cgroup's, memfd's, mm's of the
# OOM reaper, shmem and mmap), on the base kernel and on the series: build
# both boot-test kernels and the guest, which has the selftests, built from
# the series' tree (boot-tests/kernels.sh), boot each once with them, and
# compare (boot-tests/upstream-selftests-compare.sh): every test that passes
# on the base must pass on the series, and one that fails on both must be
# listed, with its reason, in boot-tests/upstream-selftests-known.
#
# KTAP out: a line per boot and one for the comparison, each with its own
# KTAP nested under it.  The logs go to DIR, by default
# out/<kver>/<arch>-<compiler>/upstream-selftests/.  -s, -b and -i boot
# kernels and a guest built already (the series', the base's, and an
# initramfs from boot-tests/initramfs.sh) instead of building them.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

declare -A image=()
initrd='' results=''
while getopts s:b:i:o: opt; do
	case $opt in
	s) image[series]=$OPTARG ;;
	b) image[base]=$OPTARG ;;
	i) initrd=$OPTARG ;;
	o) results=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || die "usage: $0 [-s IMAGE -b IMAGE -i INITRAMFS] [-o DIR] VERSION ARCH COMPILER"
ver=$1 arch=$2 comp=$3
check_version "$ver"
tag=$(base_get "$ver" tag)
if [ -z "${image[series]:-}" ] || [ -z "${image[base]:-}" ] || [ -z "$initrd" ]; then
	{ read -r series; read -r base; } < <("$TOP/boot-tests/kernels.sh" "$ver" "$arch" "$comp")
	image[series]=$series/$(machine "$arch" image)
	image[base]=$base/$(machine "$arch" image)
	initrd=$series/initramfs.cpio.gz
fi
results=${results:-$OUT/${tag#v}/$arch-$comp/upstream-selftests}
tests=$(table_rows "$TOP/boot-tests/upstream-selftests" | awk '{ print $1 }' | paste -sd,)
mkdir -p "$results"

echo "KTAP version 1"
echo "1..3"
n=0 fail=0 start=$SECONDS
for run in base series; do
	n=$((n + 1))
	ktap=$results/$run.log.ktap
	rm -f "$ktap"
	# The run is the boot and its kernel log, whatever the tests say: the
	# tests' results are the comparison's to judge.
	"$TOP/boot-tests/boot.sh" -T "${BOOT_TIMEOUT:-1200}" "$arch" "${image[$run]}" "$initrd" \
		"$results/$run.log" "$tests" >/dev/null 2>"$results/$run.notes" || true
	sed 's/^/# /' "$results/$run.notes"
	[ -f "$ktap" ] || echo "not ok 1 boot # boot.sh failed before it booted" >"$ktap"
	ktap_nest "$ktap"
	rc=0
	grep -qE '^ok [0-9]+ boot( |$)' "$ktap" && grep -qE '^ok [0-9]+ kernel-log$' "$ktap" || rc=1
	ktap_result $n "$run" $rc "$results/$run.log" || fail=$((fail + 1))
done
rc=0
"$TOP/boot-tests/upstream-selftests-compare.sh" "$ver" "$results/base.log.ktap" \
	"$results/series.log.ktap" >"$results/compare.ktap" 2>"$results/compare.notes" || rc=$?
ktap_nest "$results/compare.ktap"
sed 's/^/# /' "$results/compare.notes"
ktap_result 3 compare $rc "$results/compare.ktap" || fail=$((fail + 1))
echo "# Linux ${tag#v} and its series, $arch, $comp: $((SECONDS - start)) s"
[ $fail = 0 ] || die "$fail of 3 failed; the logs are in $results"
