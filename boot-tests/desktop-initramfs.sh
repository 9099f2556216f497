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
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 3 ] || die "usage: $0 ARCH INITRAMFS DEST"
arch=$1 base=$2 dest=$(realpath -m "$3")
here=$(cd "$(dirname "$0")" && pwd)
cc=$(machine "$arch" guest_cc)
need "$cc" wayland-scanner readelf cpio
[ -f "$base" ] || die "no initramfs $base: run 'make initramfs ARCH=$arch'"
# Up to date when nothing it is made of is newer.
if [ -f "$dest" ] && [ -z "$(find "$base" "$0" "$here/desktop-files" "$here/desktop-packages" \
	"$here/guest/desktop" -newer "$dest" | head -n 1)" ]; then
	note "desktop guest up to date: $dest"
	exit 0
fi
root=$("$here/desktop-rootfs.sh" "$arch")
start=$SECONDS

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/layer/tests"

# take PATH: copy PATH of the rootfs into the layer, the symlinks on the
# way (absolute ones point into the rootfs) and what they point to.
take() {
	local p=$1 t
	while [ -n "$p" ] && [ ! -e "$stage/layer$p" ] && [ ! -L "$stage/layer$p" ]; do
		[ -e "$root$p" ] || [ -L "$root$p" ] || die "no $p in $root: is it in boot-tests/desktop-packages?"
		(cd "$root" && cp -a --parents ".$p" "$stage/layer/")
		[ -L "$root$p" ] || break
		t=$(readlink "$root$p")
		case $t in
		/*) p=$t ;;
		*) p=$(dirname "$p")/$t ;;
		esac
		p=$(realpath -m -s "$p")
	done
}

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
# among our clients, and theirs, until none is missing.
while read -r glob; do
	mapfile -t found < <(cd "$root" && compgen -G ".$glob")
	[ ${#found[@]} -gt 0 ] || die "nothing matches $glob in $root: is it in boot-tests/desktop-packages?"
	for p in "${found[@]}"; do
		take "${p#.}"
	done
done < <(table_rows "$here/desktop-files")
# weston's modules need its private library, which weston itself loads by
# its RUNPATH: search there too.
libdirs=$(cd "$root" && echo lib/*-linux-gnu usr/lib/*-linux-gnu usr/lib/*-linux-gnu/weston)
todo=$(find "$stage/layer" -type f)
while [ -n "$todo" ]; do
	next=
	for f in $todo; do
		readelf -h "$f" >/dev/null 2>&1 || continue
		interp=$(readelf -l "$f" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
		runpath=$(readelf -d "$f" | sed -n 's/.*R\(UN\)*PATH.*\[\(.*\)\]/\2/p' | tr : ' ')
		for lib in $(readelf -d "$f" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'); do
			libpath=
			for d in $runpath $libdirs; do
				[ -e "$root/${d#/}/$lib" ] || continue
				libpath=/${d#/}/$lib
				break
			done
			[ -n "$libpath" ] || die "$f needs $lib, which is not in $root"
			[ -e "$stage/layer$libpath" ] || { take "$libpath"; next+=" $stage/layer$libpath"; }
		done
		[ -z "$interp" ] || [ -e "$stage/layer$interp" ] || take "$interp"
	done
	todo=$(for f in $next; do realpath "$f"; done)
done

(cd "$stage/layer" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc --owner 0:0) | gzip -n -9 >"$stage/layer.cpio.gz"
mkdir -p "$(dirname "$dest")"
cat "$base" "$stage/layer.cpio.gz" >"$dest.tmp"
mv "$dest.tmp" "$dest"
took=$((SECONDS - start))
echo "$took" >"$dest.seconds"	# for docs/timings.md (make timings)
note "desktop guest: $(du -sh "$stage/layer" | cut -f1) of the rootfs, $(du -h "$dest" | cut -f1) compressed, in $took s: $dest"
