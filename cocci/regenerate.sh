#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# regenerate.sh [--check] VERSION
#
# Regenerate the driver topic of series/VERSION (the topic whose origin in
# series/VERSION/topics is "spatch"): run cocci/drm_oom_badness.cocci over
# the DRM drivers of the series' base, and make of its diff one commit per
# driver on top of the topic before, with the subject prefix of the driver
# (its history, else cocci/prefixes, else drm/<folder>), the message of
# cocci/commit-message, the sign-off of series/signoff and the base's date,
# so that the same tree always gives the same bytes.  Then rebuild the
# branches (scripts/tree.sh) and the quilt series file (scripts/export.sh).
#
# With --check, write nothing: fail, with the command that fixes it, when
# series/VERSION differs from what the regeneration would write.
set -euo pipefail
# shellcheck source=../scripts/lib-generated.sh
. "$(dirname "$0")/../scripts/lib-generated.sh"

check_args "$@"
read -r topic prev < <(generated_topic "$ver" spatch)

"$TOP/scripts/tree.sh" "$ver" >/dev/null
tag=$(base_get "$ver" tag)
gen=$(sparse_worktree ".spatch-$ver" "$tag" drivers/gpu/drm drivers/accel include)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
"$TOP/cocci/spatch.sh" patch "$gen" >"$tmp/all.diff"
note "spatch: $((SECONDS - start)) s, $(grep -c '^+++ ' "$tmp/all.diff" || true) files"

# driver FILE: the folder that names a driver, under drivers/gpu/drm/.
driver() {
	local d
	d=$(dirname "$1")
	d=${d#drivers/gpu/drm/}
	d=${d#drivers/}
	sed -E 's#^(amd/[^/]+|accel/[^/]+|[^/]+).*#\1#' <<<"$d"
}

# prefix FOLDER FILE: the subject prefix of the driver's patches.
prefix() {
	local p
	p=$(kgit log --format=%s "$tag" --not "$tag^{commit}" -- "$2" 2>/dev/null |
		sed -n 's/^\(drm\/[^: ]*\|accel\/[^: ]*\): .*/\1/p' | head -n 1)
	[ -n "$p" ] || p=$(table_rows "$TOP/cocci/prefixes" | awk -v d="$1" '$1 == d { print $2 }')
	[ -n "$p" ] || p=drm/$(basename "$1")
	echo "$p"
}

# obsolete FILE: MAINTAINERS of the base marks FILE obsolete (S: Obsolete).
obsolete() {
	awk -v f="$1" '
		/^$/ { if (obs && hit) found = 1; obs = hit = 0; next }
		/^S:.*[Oo]bsolete/ { obs = 1 }
		/^F:/ { p = $2; if (f == p || (p ~ /\/$/ && index(f, p) == 1)) hit = 1 }
		END { if (obs && hit) found = 1; exit !found }' "$gen/MAINTAINERS"
}

# Split the diff by driver: one file of hunks each.
awk -v dir="$tmp" '
	/^--- a\// {
		f = substr($2, 3)
		d = f
		sub(/^drivers\/gpu\/drm\//, "", d)
		sub(/^drivers\//, "", d)
		if (d ~ /^(amd|accel)\//) { split(d, p, "/"); d = p[1] "/" p[2] }
		else sub(/\/.*/, "", d)
		gsub(/\//, "_", d)
		out = dir "/drv-" d ".diff"
	}
	{ print > out }' "$tmp/all.diff"

signoff=$(project_signoff)
git -C "$gen" checkout -q --detach "$(topic_branch "$ver" "$prev")"
for d in "$tmp"/drv-*.diff; do
	[ -e "$d" ] || continue
	file=$(sed -n 's/^--- a\///p' "$d" | head -n 1)
	drv=$(driver "$file")
	fops=$(sed -n 's/^ static const struct file_operations \([A-Za-z0-9_]*\) = {$/\1/p' "$d" |
		paste -sd, | sed 's/,/, /g')
	legacy=
	if ! grep -rqw DRIVER_GEM "$gen/$(dirname "$file")"; then
		legacy=$(sed "s|@DRIVER@|$(basename "$drv")|g" "$TOP/cocci/legacy-note")
		obs=
		! obsolete "$file" || obs=$(cat "$TOP/cocci/obsolete-note")
		legacy=${legacy/@OBSOLETE@/$obs}
	fi
	sed -e "s|@PREFIX@|$(prefix "$drv" "$file")|" -e "s|@DRIVER@|$(basename "$drv")|" \
	    -e "s|@FOPS@|$fops|" -e "s|@VERSION@|$ver|" -e "s|@SIGNOFF@|$signoff|" \
		"$TOP/cocci/commit-message" | awk -v legacy="$legacy" '
		$0 == "@LEGACY@" { if (legacy != "") print legacy; print ""; next } { print }' |
		cat -s >"$tmp/msg.raw"
	# Wrap the prose; trailers stay whole.
	{ grep -v '^Signed-off-by:' "$tmp/msg.raw" | fmt -w 72 | cat -s
	  grep '^Signed-off-by:' "$tmp/msg.raw"; } >"$tmp/msg"
	git -C "$gen" apply --index "$d"
	commit_generated "$gen" "$tmp/msg" "$tag"
done
mkdir "$tmp/out"
format_patch -o "$tmp/out" "$(topic_branch "$ver" "$prev")..$(git -C "$gen" rev-parse HEAD)"
git -C "$gen" checkout -q -f --detach "$tag"

finish_generated "$ver" "$topic" "$tmp/out" "$check" "make spatch VERSION=$ver"
[ -n "$check" ] ||
	note "series/$ver/$topic: $(find "$TOP/series/$ver/$topic" -name '*.patch' | wc -l)" \
	     "driver patches, in $((SECONDS - start)) s"
