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
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 LEG"
f=$(leg_fields "$1")
read -r VERSION ARCH COMPILER VARIANT <<<"$f"
legout=$(leg_out "$1")
legwt=$(leg_worktree "$1")
start=$SECONDS
"$TOP/build/boot-kernel.sh" -v "$VARIANT" "$legwt" "$legout/kernel" "$ARCH" "$COMPILER"
"$TOP/boot-tests/initramfs.sh" "$ARCH" "$legwt" "$legout/kernel" "$legout/kernel/initramfs.cpio.gz"
# The boot step of an x86_64 leg runs the kernel's own selftests on the
# base kernel too (ci/leg-boot.sh): the base tree, built the same way.
if [ "$ARCH" = x86_64 ]; then
	"$TOP/build/boot-kernel.sh" -v "$VARIANT" "$(base_worktree "$VERSION")" "$legout/kernel-base" \
		"$ARCH" "$COMPILER"
fi
echo "$1: kernel and initramfs in $legout/kernel ($((SECONDS - start)) s)"
