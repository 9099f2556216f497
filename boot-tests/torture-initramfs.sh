#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# torture-initramfs.sh ARCH INITRAMFS DEST
#
# Build the torture guest for ARCH at DEST: the boot-test guest INITRAMFS
# (boot-tests/initramfs.sh, whose /tests has torture.sh) with a second
# gzipped cpio appended, which the kernel unpacks over the first: Debian's
# stress-ng and trinity (boot-tests/torture-files, from the root filesystem
# of boot-tests/torture-packages) and the shared libraries they need.
# Rebuilt only when something it is made of changed.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: $0 ARCH INITRAMFS DEST"
arch=$1 base=$2 dest=$(realpath -m "$3")
here=$(cd "$(dirname "$0")" && pwd)
need cpio
[ -f "$base" ] || die "no initramfs $base: run 'make initramfs ARCH=$arch'"
if [ -f "$dest" ] && [ -z "$(find "$base" "$0" "$here/lib.sh" "$here/rootfs-layer.sh" "$here/torture-files" \
	"$here/torture-packages" -newer "$dest" | head -n 1)" ]; then
	note "torture guest up to date: $dest"
	exit 0
fi
root=$(DESKTOP_PACKAGES=$here/torture-packages "$here/desktop-rootfs.sh" "$arch")
start=$SECONDS

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
"$here/rootfs-layer.sh" "$root" "$here/torture-files" "$stage/layer"
append_layer "$stage/layer" "$base" "$dest"
took=$((SECONDS - start))
echo "$took" >"$dest.seconds"	# for docs/timings.md (make timings)
note "torture guest: $(du -sh "$stage/layer" | cut -f1) of the rootfs, $(du -h "$dest" | cut -f1) compressed, in $took s: $dest"
