#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# torture-compare.sh SERIES BASE
#
# Compare the report signatures of a torture run of the series' kernel
# with its base's (files of boot-tests/torture-signatures.sh): print, as
# KTAP comments, each signature the series has and the base has not (new),
# and each the two share (known); exit 1 when there is a new one.  Counts
# do not matter, only whether a signature was seen at all.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 SERIES BASE" >&2; exit 2; }
series=$1 base=$2

new=$(awk -F '\t' 'FILENAME == ARGV[1] { seen[$2 "\t" $3] = 1; next }
	!(($2 "\t" $3) in seen) { print $2 " in " $3 }' "$base" "$series")
known=$(awk -F '\t' 'FILENAME == ARGV[1] { seen[$2 "\t" $3] = 1; next }
	(($2 "\t" $3) in seen) { print $2 " in " $3 }' "$base" "$series")
echo "# $(grep -c . <<<"$new" || true) new, $(grep -c . <<<"$known" || true) known (the base has them too)"
# say PREFIX LINES: each of LINES, after PREFIX.
say() {
	local l
	while read -r l; do
		[ -z "$l" ] || echo "$1$l"
	done <<<"$2"
}
say '# known: ' "$known"
say '# new: ' "$new"
[ -z "$new" ]
