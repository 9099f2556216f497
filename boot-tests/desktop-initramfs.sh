#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# desktop-initramfs.sh ARCH INITRAMFS DEST
#
# Build the desktop guest for ARCH at DEST: the boot-test guest INITRAMFS
# (boot-tests/initramfs.sh) with a second gzipped cpio appended, which the
# kernel unpacks over the first: what boot-tests/desktop-files lists of the
# desktop root filesystem (boot-tests/desktop-rootfs.sh, Debian's weston),
# the shared libraries those files need, and in /tests the Wayland clients
# of guest/desktop/, built against the rootfs's libwayland.  Only that
# enters the guest, whose RAM holds it: not the whole rootfs.  Rebuilt only
# when something it is made of changed.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: $0 ARCH INITRAMFS DEST"
arch=$1 base=$2 dest=$(realpath -m "$3")
here=$(cd "$(dirname "$0")" && pwd)
cc=$(machine "$arch" guest_cc)
need "$cc" wayland-scanner cpio
[ -f "$base" ] || die "no initramfs $base: run 'make initramfs ARCH=$arch'"
# Up to date when nothing it is made of is newer.
if [ -f "$dest" ] && [ -z "$(find "$base" "$0" "$here/lib.sh" "$here/rootfs-layer.sh" \
	"$here/desktop-files" "$here/desktop-packages" "$here/guest/desktop" -newer "$dest" | head -n 1)" ]; then
	note "desktop guest up to date: $dest"
	exit 0
fi
root=$("$here/desktop-rootfs.sh" "$arch")
start=$SECONDS

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/layer/tests"

# Our Wayland clients, against the rootfs's libwayland and xdg-shell.
xdg=/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml
[ -f "$xdg" ] || die "no $xdg: run 'make deps' (package wayland-protocols)"
wayland-scanner client-header "$xdg" "$stage/xdg-shell-client-protocol.h"
wayland-scanner private-code "$xdg" "$stage/xdg-shell-protocol.c"
libdir=$(cd "$root" && echo usr/lib/*-linux-gnu)
for c in "$here"/guest/desktop/*.c; do
	"$cc" -O2 -Wall -Werror -isystem "$root/usr/include" -I "$stage" -I "$here/guest/lib" \
		-o "$stage/layer/tests/$(basename "$c" .c)" "$c" "$stage/xdg-shell-protocol.c" \
		"$root/$libdir/libwayland-client.so.0" -Wl,-rpath-link,"$root/$libdir:$root/${libdir#usr/}"
done

# The listed files, then the libraries of every ELF file among them and
# among our clients.  weston's modules need its private library, which
# weston itself loads by its RUNPATH: search there too.
"$here/rootfs-layer.sh" "$root" "$here/desktop-files" "$stage/layer" 'usr/lib/*-linux-gnu/weston'

append_layer "$stage/layer" "$base" "$dest"
took=$((SECONDS - start))
echo "$took" >"$dest.seconds"	# for docs/timings.md (make timings)
note "desktop guest: $(du -sh "$stage/layer" | cut -f1) of the rootfs, $(du -h "$dest" | cut -f1) compressed, in $took s: $dest"
