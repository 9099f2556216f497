#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# busybox.sh ARCH: print the path of a static busybox for the guests of ARCH.
# The host's own comes from busybox-static; another architecture's is
# Debian's busybox-static for it, fetched with apt-get download (not
# installed) into the kernel cache.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 ARCH"
darch=$(machine "$1" debian_arch)
if [ "$darch" = "$(dpkg --print-architecture)" ]; then
	[ -x /bin/busybox ] || die "no /bin/busybox: run 'make deps' (package busybox-static)"
	echo /bin/busybox
	exit 0
fi

dir=$KCACHE/busybox-$darch
if [ ! -x "$dir/bin/busybox" ]; then
	note "fetching Debian's busybox-static for $darch"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/lists/partial"
	apt_arch=(-o "APT::Architecture=$darch" -o "APT::Architectures=$darch"
		  -o "Dir::State::Lists=$dir.tmp/lists" -o Debug::NoLocking=1)
	apt-get -q "${apt_arch[@]}" update >&2
	(cd "$dir.tmp" && apt-get -q "${apt_arch[@]}" download "busybox-static:$darch" >&2)
	dpkg -x "$dir.tmp"/busybox-static_*.deb "$dir.tmp/root"
	mkdir -p "$dir/bin"
	mv "$dir.tmp/root/bin/busybox" "$dir/bin/busybox"
	rm -rf "$dir.tmp"
fi
echo "$dir/bin/busybox"
