#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# leg-kernel.sh LEG: build the boot-test kernel of CI leg LEG (ci/matrix) from
# the leg's own worktree into out/ci/LEG/kernel: the configs/ fragments of
# every boot test, plus configs/<variant>.config for a leg with a variant;
# then the guest's initramfs beside it; on x86_64, the same kernel of the
# base tree too, into out/ci/LEG/kernel-base, for the boot step's
# comparison of the kernel's own selftests.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 LEG"
leg "$1"
leg_worktree
frags=("$TOP/configs/boot.config" "$TOP/configs/boot-$ARCH.config")
[ "$VARIANT" = - ] || frags+=("$TOP/configs/$VARIANT.config")
start=$SECONDS
"$TOP/ci/build-kernel.sh" "$LEGWT" "$LEGOUT/kernel" "$ARCH" "$COMPILER" "${frags[@]}"
"$TOP/boot-tests/initramfs.sh" "$ARCH" "$LEGWT" "$LEGOUT/kernel" "$LEGOUT/kernel/initramfs.cpio.gz"
# The boot step of an x86_64 leg runs the kernel's own selftests on the
# base kernel too (ci/leg-boot.sh): the base tree, built the same way.
if [ "$ARCH" = x86_64 ]; then
	"$TOP/ci/build-kernel.sh" "$(base_worktree "$VERSION")" "$LEGOUT/kernel-base" "$ARCH" "$COMPILER" "${frags[@]}"
fi
echo "$1: kernel and initramfs in $LEGOUT/kernel ($((SECONDS - start)) s)"
