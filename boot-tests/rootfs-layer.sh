#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rootfs-layer.sh ROOT LIST LAYER [LIBDIR...]
#
# Copy into the directory LAYER what a guest needs of the root filesystem
# ROOT (boot-tests/desktop-rootfs.sh): the files LIST names, one shell glob
# of ROOT a line (a directory comes whole), with the symlinks on the way
# and what they point to; then the shared libraries that every ELF file in
# LAYER needs (what is there already too: programs built against ROOT),
# and theirs, until none is missing.  Libraries are looked up by each
# file's RUNPATH, then in ROOT's lib directories and the LIBDIRs (globs
# relative to ROOT, for modules that rely on their loader's RUNPATH).
# Used by desktop-initramfs.sh and torture-initramfs.sh.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -ge 3 ] || die "usage: $0 ROOT LIST LAYER [LIBDIR...]"
root=$1 list=$2 layer=$3
shift 3
need readelf
mkdir -p "$layer"

# take PATH: copy PATH of the rootfs into the layer, the symlinks on the
# way (absolute ones point into the rootfs) and what they point to.
take() {
	local p=$1 t
	while [ -n "$p" ] && [ ! -e "$layer$p" ] && [ ! -L "$layer$p" ]; do
		[ -e "$root$p" ] || [ -L "$root$p" ] || die "no $p in $root: is its package in the guest's package list?"
		(cd "$root" && cp -a --parents ".$p" "$layer/")
		[ -L "$root$p" ] || break
		t=$(readlink "$root$p")
		case $t in
		/*) p=$t ;;
		*) p=$(dirname "$p")/$t ;;
		esac
		p=$(realpath -m -s "$p")
	done
}

while read -r glob; do
	mapfile -t found < <(cd "$root" && compgen -G ".$glob")
	[ ${#found[@]} -gt 0 ] || die "nothing matches $glob in $root: is its package in the guest's package list?"
	for p in "${found[@]}"; do
		take "${p#.}"
	done
done < <(table_rows "$list")

# shellcheck disable=SC2048,SC2086 # the LIBDIRs are globs, to expand here
libdirs=$(cd "$root" && echo lib/*-linux-gnu usr/lib/*-linux-gnu $*)
todo=$(find "$layer" -type f)
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
			[ -e "$layer$libpath" ] || { take "$libpath"; next+=" $layer$libpath"; }
		done
		[ -z "$interp" ] || [ -e "$layer$interp" ] || take "$interp"
	done
	todo=$(for f in $next; do realpath "$f"; done)
done
