#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# import-tree.sh VERSION [PACKAGE_VERSION]
#
# Import Debian's linux-source-VERSION tree into the kernel repository of the
# cache, as one commit tagged after the tree's own version (v6.1.192), and
# print that tag.  The commit has a fixed author, committer and date (the
# tree's Makefile time), so it has the same ID on every machine.
#
# The package version is, in this order: PACKAGE_VERSION, the one recorded in
# series/VERSION/base, the installed one.  When it is not the installed one,
# its .deb is fetched from Debian's archive with apt-get download.  An existing
# tag is reused.  A newer installed package than the series' base is reported.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 VERSION [PACKAGE_VERSION]"
ver=$1
check_version "$ver"
pkg=linux-source-$ver

installed=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
recorded=
[ -f "$TOP/series/$ver/base" ] && recorded=$(base_get "$ver" package_version)
want=${2:-${recorded:-$installed}}
[ -n "$want" ] ||
	die "$pkg is not installed and no base is recorded: run 'make deps' (or apt-get install $pkg)"

if [ -n "$recorded" ] && [ -n "$installed" ] &&
   dpkg --compare-versions "$installed" gt "$recorded"; then
	note "$pkg $installed is installed, newer than the base of series/$ver ($recorded);" \
	     "carry the series to it with: make rebase VERSION=$ver"
fi

if [ ! -d "$KREPO" ]; then
	mkdir -p "$KCACHE"
	git init -q "$KREPO"
	# No auto-gc in the middle of a `git am`; imports repack explicitly.
	kgit config gc.auto 0
	kgit config core.fileMode true
	kgit config rerere.enabled true
fi

# A base recorded in series/ whose tag exists is reused as it is.
if [ "$want" = "$recorded" ]; then
	tag=$(base_get "$ver" tag)
	commit=$(base_get "$ver" commit)
	if [ "$(kgit rev-parse -q --verify "refs/tags/$tag^{commit}" || true)" = "$commit" ]; then
		echo "$tag"
		exit 0
	fi
fi

# A tag made from this very package, recorded or not, is reused too.
tag=v${want%%-*}
if kgit log -1 --format=%s "refs/tags/$tag" 2>/dev/null | grep -qxF "Linux ${tag#v}: Debian $pkg $want"; then
	echo "$tag"
	exit 0
fi

tmp=$(mktemp -d "$KCACHE/import.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

tarball=/usr/src/$pkg.tar.xz
if [ "$want" != "$installed" ]; then
	note "fetching $pkg=$want from Debian's archive"
	(cd "$tmp" && apt-get download -q "$pkg=$want" >&2) ||
		die "$pkg=$want cannot be had from apt (apt-cache policy $pkg lists what can)"
	dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -x -C "$tmp" "./usr/src/$pkg.tar.xz"
	tarball=$tmp/usr/src/$pkg.tar.xz
fi
[ -f "$tarball" ] || die "no $tarball: run 'make deps'"

note "unpacking $tarball"
tar -xJf "$tarball" -C "$tmp"
src=$tmp/$pkg
[ -f "$src/Makefile" ] || die "$tarball does not hold $pkg/Makefile"

kv=$(kernel_make -s -C "$src" kernelversion)
tag=v$kv
epoch=$(stat -c %Y "$src/Makefile")

note "importing $pkg $want as $tag"
# Debian's tarball ignores everything at its top level: add with -f.
GIT_INDEX_FILE=$tmp/index kgit --work-tree="$src" add -f -A .
tree=$(GIT_INDEX_FILE=$tmp/index kgit write-tree)
commit=$(GIT_AUTHOR_NAME="Debian $pkg" GIT_AUTHOR_EMAIL="$pkg@packages.debian.org" \
	GIT_COMMITTER_NAME="Debian $pkg" GIT_COMMITTER_EMAIL="$pkg@packages.debian.org" \
	GIT_AUTHOR_DATE="@$epoch +0000" GIT_COMMITTER_DATE="@$epoch +0000" \
	kgit commit-tree "$tree" -m "Linux $kv: Debian $pkg $want" \
		-m "Imported from $pkg.tar.xz by scripts/import-tree.sh.")

old=$(kgit rev-parse -q --verify "refs/tags/$tag^{commit}" || true)
if [ -n "$old" ] && [ "$old" != "$commit" ]; then
	die "tag $tag exists at $old, another tree than $pkg $want ($commit);" \
	    "remove it with: git -C $KREPO tag -d $tag"
fi
kgit tag -f "$tag" "$commit" >/dev/null
kgit repack -d -q --window=0
echo "$tag"
