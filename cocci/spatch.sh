#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# spatch.sh MODE TREE: run cocci/drm_oom_badness.cocci in MODE (patch,
# report or openers) over the DRM drivers of the kernel tree in TREE
# (drivers/gpu/drm, drivers/accel), and print what it prints: for patch a
# unified diff with paths relative to TREE, file by file in sorted order.
#
# One spatch a file, as many at once as there are CPUs: spatch given several
# files treats them as one program, and given a folder parses every header.
# Files that cannot hold a DRM fops (no opener, no *FOPS) are not read.  The
# functions that open through drm_open() are first found in the whole tree
# and handed to the semantic patch in DRM_OPENERS.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 2 ] || die "usage: $0 patch|report|openers TREE"
mode=$1 tree=$2
need spatch
cocci=$TOP/cocci/drm_oom_badness.cocci
cd "$tree" || exit
dirs=()
for d in drivers/gpu/drm drivers/accel; do
	[ -d "$d" ] && dirs+=("$d")
done

# run_spatch MODE PATTERN: spatch in MODE on each .c file matching PATTERN.
run_spatch() {
	local tmp
	tmp=$(mktemp -d)
	# shellcheck disable=SC2016 # the inner sh expands them
	grep -rlE --include='*.c' "$2" "${dirs[@]}" | LC_ALL=C sort |
		xargs -r -P"$(nproc)" -I{} sh -c \
			'spatch --very-quiet --no-includes -D "$1" --sp-file "$2" "$3" \
				>"$4/$(echo "$3" | tr / _)" 2>"$4/$(echo "$3" | tr / _).err" ||
			 { echo "spatch failed on $3:" >&2; cat "$4/$(echo "$3" | tr / _).err" >&2; exit 255; }' \
			sh "$1" "$cocci" {} "$tmp"
	find "$tmp" -type f ! -name '*.err' | LC_ALL=C sort | xargs -r cat
	rm -rf "$tmp"
}

# (A caller that found them already passes them on.)
[ -n "${DRM_OPENERS:-}" ] ||
DRM_OPENERS=$(run_spatch openers '\bdrm_open(_helper)?\b' | sed -n 's/^OPENER //p' |
	sort -u | paste -sd' ')
export DRM_OPENERS
[ "$mode" != openers ] || { tr ' ' '\n' <<<"$DRM_OPENERS"; exit 0; }
names=$(tr ' ' '\n' <<<"drm_open $DRM_OPENERS" | grep . | sort -u | paste -sd'|')
case $mode in
# A fops written out names its opener; report also lists the macro users.
patch)
	# spatch names the new file after its temporary copy: a/ and b/ for git.
	run_spatch patch "\\b($names)\\b" |
		awk '/^--- / { f = $2; print "--- a/" f; next }
		     /^\+\+\+ / { print "+++ b/" f; next } { print }' ;;
report) run_spatch report "\\b($names)\\b|FOPS\\b" ;;
*) die "mode $mode: patch, report or openers" ;;
esac
