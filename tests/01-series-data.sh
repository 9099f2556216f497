#!/bin/bash
# The data of series/: each maintained kernel has a complete base, a topics
# list whose folders exist, a quilt series file that lists exactly the patch
# files in topic order, patches signed off by their author and by the
# project (series/signoff) last, and a changelog for each patch in changes
# (scripts/changes.sh, which make mbox runs).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
cd "$TOP/series" || exit
signoff="Signed-off-by: $(project_signoff)"
for v in */; do
	v=${v%/}
	for k in package package_version tag commit; do
		[ -n "$(base_get "$v" "$k")" ] || fail "series/$v/base has no $k="
	done
	for t in $(topics "$v"); do
		[ -d "$v/$t" ] || fail "series/$v/topics names $t, which has no folder"
	done
	want=$(for t in $(topics "$v"); do (cd "$v" && find "$t" -name '*.patch' | sort); done)
	[ "$want" = "$(grep -v '^#' "$v/series")" ] ||
		fail "series/$v/series does not list the patches of the topics: make export VERSION=$v"
	for d in "$v"/*/; do
		t=$(basename "$d")
		topics "$v" | grep -qx "$t" || fail "series/$v/$t is in no topic of series/$v/topics"
	done
	for p in $want; do
		author=$(git mailinfo /dev/null /dev/null <"$v/$p" |
			sed -n 's/^Author: //p; s/^Email: \(.*\)/<\1>/p' | paste -sd' ')
		grep -qF "Signed-off-by: $author" "$v/$p" ||
			fail "$v/$p: no Signed-off-by of its author, $author"
		sob=$(grep '^Signed-off-by:' "$v/$p" | tail -n 1)
		[ "$sob" = "$signoff" ] || fail "$v/$p ends with '$sob', not '$signoff' (series/signoff)"
	done
	"$TOP/scripts/changes.sh" "$v" >/dev/null ||
		fail "series/$v/changes: see above"
	echo "series/$v: $(wc -w <<<"$want") patches, all signed off by their author and last by the project, each with its changelog"
done
