#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernels.sh VERSION ARCH COMPILER
#
# Build what the boot runs of series/VERSION need on ARCH with COMPILER: the
# boot-test kernel of the series (out/<kver>/<arch>-<compiler>/), the same of
# its base tree (out/<kver>-base/<arch>-<compiler>/, from worktree base-X),
# and the guest's initramfs, built from the series' tree, and the desktop
# guest's (boot-tests/desktop-initramfs.sh) on it where the machine has one.  Incremental: only
# what changed is rebuilt.  Prints the series' and the base's folders.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 3 ] || die "usage: $0 VERSION ARCH COMPILER"
ver=$1 arch=$2 comp=$3
tag=$(base_get "$ver" tag)
series=$OUT/${tag#v}/$arch-$comp
base=$OUT/${tag#v}-base/$arch-$comp

wt=$("$TOP/scripts/tree.sh" "$ver" | tail -n 1)
basewt=$(base_worktree "$ver")

# Our stdout is the two folders: what the steps print goes to stderr.
start=$SECONDS
note "building the series' kernel in $series"
"$TOP/build/boot-kernel.sh" "$wt" "$series" "$arch" "$comp" >&2
note "building the base kernel in $base"
"$TOP/build/boot-kernel.sh" "$basewt" "$base" "$arch" "$comp" >&2
"$TOP/boot-tests/initramfs.sh" "$arch" "$wt" "$series" "$series/initramfs.cpio.gz" >&2
if [ "$(machine "$arch" desktop_guest)" = yes ]; then
	"$TOP/boot-tests/desktop-initramfs.sh" "$arch" "$series/initramfs.cpio.gz" "$series/desktop.cpio.gz" >&2
fi
note "kernels and initramfs: $((SECONDS - start)) s"
echo "$series"
echo "$base"
