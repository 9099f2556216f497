#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# desktop-rootfs.sh ARCH: print the path of the desktop guest's root
# filesystem for ARCH: Debian's packages of boot-tests/desktop-packages and
# their dependencies, unpacked by mmdebstrap from the repositories apt uses
# here.  Built once, into the kernel cache, under the hash of the package
# list: a change to the list builds it again.  Nothing of it runs on the
# host: mmdebstrap's "extract" variant only unpacks, so another
# architecture's needs no emulation (binfmt_misc) either.
# DESKTOP_PACKAGES names another package list (tests/09 uses it).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 ARCH"
darch=$(machine "$1" debian_arch)
list=${DESKTOP_PACKAGES:-$TOP/boot-tests/desktop-packages}
dir=$KCACHE/desktop-rootfs/$darch-$(desktop_rootfs_key "$list")
if [ -d "$dir" ]; then
	echo "$dir"
	exit 0
fi
need mmdebstrap
sources=/etc/apt/sources.list.d/debian.sources
[ -f "$sources" ] || sources=/etc/apt/sources.list
mapfile -t pkgs < <(table_rows "$list")
note "building the desktop guest's root filesystem for $darch (once; about a minute): ${pkgs[*]}"
rm -rf "$dir.tmp"
mkdir -p "$(dirname "$dir")"
start=$SECONDS
# The host's release, from the host's repositories.
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
# mmdebstrap's steps ("I: downloading packages with apt...") are the progress.
nice mmdebstrap --mode=unshare --variant=extract --format=directory \
	--architectures="$darch" --include="$(IFS=,; echo "${pkgs[*]}")" \
	"$suite" "$dir.tmp" "$sources" 2>&1 | tee "$dir.log" | sed -n 's/^I: /  mmdebstrap: /p' >&2 ||
	{
		rm -rf "$dir.tmp"
		die "mmdebstrap failed after $((SECONDS - start)) s (its log: $dir.log); try again with 'make desktop'"
	}
mv "$dir.tmp" "$dir"
took=$((SECONDS - start))
echo "$took" >"$dir.seconds"	# for docs/timings.md (make timings)
note "desktop root filesystem: $(du -sh "$dir" | cut -f1) in $took s, in $dir"
echo "$dir"
