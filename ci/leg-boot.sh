#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# leg-boot.sh LEG: boot the kernel of CI leg LEG (ci/leg-kernel.sh) in QEMU
# with the tests of the series' run of boot-tests/ab-runs (the kselftest,
# the OOM scenarios, the stress run), expecting the victims of
# boot-tests/scenarios for the series; KTAP out.
# A leg with a variant (sanitizers) runs slower: it has more time.
# BOOT_TESTS=TEST[,TEST...] runs those tests instead (tests/87 boots a
# broken kernel with the kselftest alone).
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 LEG"
leg "$1"
out=$LEGOUT/kernel
read -r run _ cmdline tests < <(ab_runs | awk '$1 == "series"')
[ "$cmdline" != - ] || cmdline=
tests=${BOOT_TESTS:-$tests}
timeout=900
[ "$VARIANT" = - ] || timeout=2400
"$TOP/boot-tests/boot.sh" -T "${BOOT_TIMEOUT:-$timeout}" -a "oomtest.expect=$run $cmdline" \
	"$ARCH" "$out/$(machine "$ARCH" image)" "$out/initramfs.cpio.gz" "$LEGOUT/boot/boot.log" "$tests"
