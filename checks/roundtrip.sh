#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# roundtrip.sh VERSION: `make tree` then `make export` with no edit between
# changes no byte of series/VERSION.  The folder is compared with what it
# was before, not with git's HEAD, so that uncommitted work is no failure;
# on a difference, it is shown, and the folder put back as it was.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 VERSION"
ver=$1
check_version "$ver"
before=$(mktemp -d)
trap 'rm -rf "$before"' EXIT
cp -a "$TOP/series/$ver/." "$before/"
"$TOP/scripts/tree.sh" "$ver" >/dev/null
"$TOP/scripts/export.sh" "$ver" 2>&1
if ! diff -ru "$before" "$TOP/series/$ver"; then
	rm -rf "${TOP:?}/series/$ver"
	cp -a "$before" "$TOP/series/$ver"
	die "make tree + make export changed series/$ver (shown above, and undone): a bug of" \
	    "scripts/tree.sh or scripts/export.sh; see it again with: make tree export VERSION=$ver"
fi
echo "# make tree + make export: series/$ver unchanged ($(find "$before" -name '*.patch' | wc -l) patches)"
