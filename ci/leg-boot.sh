#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# leg-boot.sh LEG: boot the kernel of CI leg LEG (ci/leg-kernel.sh) in QEMU
# with the tests of the series' run of boot-tests/ab-runs (the kselftest,
# the OOM scenarios, the stress run), expecting the victims of
# boot-tests/scenarios for the series; KTAP out.  On x86_64, then the
# kernel's own selftests, on the base kernel (ci/leg-kernel.sh builds it)
# and on the series: what passes on the base must pass on the series.
# A leg with a variant (sanitizers) runs slower: it has more time.
# BOOT_TESTS=TEST[,TEST...] runs those tests instead, and no selftests of
# the kernel (tests/87 boots a broken kernel with the kselftest alone).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../boot-tests/lib.sh
. "$(dirname "$0")/../boot-tests/lib.sh"

[ $# -eq 1 ] || die "usage: $0 LEG"
f=$(leg_fields "$1")
read -r VERSION ARCH COMPILER VARIANT <<<"$f"
legout=$(leg_out "$1")
out=$legout/kernel
read -r run _ cmdline tests < <(ab_runs | awk '$1 == "series"')
[ "$cmdline" != - ] || cmdline=
tests=${BOOT_TESTS:-$tests}
timeout=900
[ "$VARIANT" = - ] || timeout=2400
image=$(machine "$ARCH" image)
rc=0
"$TOP/boot-tests/boot.sh" -T "${BOOT_TIMEOUT:-$timeout}" -a "oomtest.expect=$run $cmdline" \
	"$ARCH" "$out/$image" "$out/initramfs.cpio.gz" "$legout/boot/boot.log" "$tests" || rc=$?
# On x86_64, the kernel's own selftests on the base kernel and on the
# series (boot-tests/upstream-selftests.sh): two boots of under a minute
# each under TCG here.  Not on arm64, whose TCG guests are much slower:
# the tests are the same code there.
# Without the series' kernel (the kernel step has not run), boot.sh's error
# says so, and ends the step: there is nothing to compare.
if [ "$ARCH" = x86_64 ] && [ -z "${BOOT_TESTS:-}" ] && [ -f "$out/$image" ]; then
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-$timeout} "$TOP/boot-tests/upstream-selftests.sh" \
		-s "$out/$image" -b "$legout/kernel-base/$image" -i "$out/initramfs.cpio.gz" \
		-o "$legout/upstream-selftests" "$VERSION" "$ARCH" "$COMPILER" || rc=$?
fi
exit $rc
