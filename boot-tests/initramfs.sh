#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# initramfs.sh ARCH KSRC KOUT DEST
#
# Build the boot-test guest for ARCH as a gzipped cpio at DEST: a static
# busybox, guest/init, the bad-log patterns, and in /tests the programs the
# guest can run: the series' kselftest from the kernel tree KSRC (when KSRC
# has it), the kernel's own selftests of boot-tests/upstream-selftests and
# the scenario programs of guest/, all static.  KOUT is a kernel
# build folder of KSRC for ARCH: its exported UAPI headers are used.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 4 ] || die "usage: $0 ARCH KSRC KOUT DEST"
arch=$1 ksrc=$(realpath "$2") kout=$(realpath "$3") dest=$(realpath -m "$4")
cc=$(machine "$arch" guest_cc)
command -v "$cc" >/dev/null || die "no $cc: run 'make deps'"
here=$(cd "$(dirname "$0")" && pwd)

stage=$(mktemp -d)
trap 'rm -rf "$stage" "$stage".*' EXIT
mkdir -p "$stage"/{bin,dev,etc,proc,sys,tests}
cp "$("$here/busybox.sh" "$arch")" "$stage/bin/busybox"
cp "$here/guest/init" "$stage/init"
grep -v '^#' "$here/bad-log-patterns" >"$stage/etc/bad-log-patterns"
grep -v '^#' "$here/guest/tests" >"$stage/etc/tests"
grep -v '^#' "$here/scenarios" >"$stage/etc/scenarios"

kernel_make -s -C "$ksrc" O="$kout" ARCH="$arch" headers
hdr=$kout/usr/include

st=$ksrc/tools/testing/selftests/oom_badness
if [ -d "$st" ]; then
	kernel_make -s -C "$st" CC="$cc" OUTPUT="$stage/tests" KHDR_INCLUDES="-isystem $hdr"
	rm -f "$stage/tests"/*.o
fi
# The kernel's own selftests of what the series touches
# (boot-tests/upstream-selftests), each a test of /etc/tests.
"$here/upstream-selftests-build.sh" "$cc" "$ksrc" "$hdr" "$stage/tests" >>"$stage/etc/tests"
cp "$here"/guest/*.sh "$stage/tests/"
# Each program is linked with what they share, guest/lib/; kselftest.h
# gives their exit codes (KSFT_SKIP).
for c in "$here"/guest/*.c; do
	[ -e "$c" ] || continue
	"$cc" -static -O2 -Wall -Werror -isystem "$hdr" -I "$here/guest/lib" \
		-I "$ksrc/tools/testing/selftests" \
		-pthread -o "$stage/tests/$(basename "$c" .c)" "$c" \
		"$here"/guest/lib/*.c
done

# The kernel's own gen_init_cpio writes /dev/console without needing root.
gcc -O2 -o "$stage.gen_init_cpio" "$ksrc/usr/gen_init_cpio.c"
{
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort) | while read -r f; do
		if [ -d "$stage/$f" ]; then
			echo "dir ${f#.} 0755 0 0"
		else
			echo "file ${f#.} $stage/$f $(stat -c %a "$stage/$f") 0 0"
		fi
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "slink /bin/sh busybox 0777 0 0"
} >"$stage.list"
mkdir -p "$(dirname "$dest")"
"$stage.gen_init_cpio" -t 0 "$stage.list" | gzip -n -9 >"$dest.tmp"
mv "$dest.tmp" "$dest"
