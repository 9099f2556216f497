#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.sh VERSION: scripts/checkpatch.pl --strict, from the series'
# own tree, on every patch of series/VERSION, in KTAP: a patch passes with
# no error and no warning.  A warning can be kept by naming its type in the
# patch's commit message: "checkpatch: TYPE: the reason".
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 VERSION"
ver=$1
need perl
wt=$("$TOP/scripts/tree.sh" "$ver" | tail -n 1)
mapfile -t patches < <(series_patches "$ver")
echo "KTAP version 1"
echo "1..${#patches[@]}"
n=0 fail=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	# Debian's python3 has the modules spdxcheck.py needs; a pyenv's may not.
	# checkpatch.pl exits 1 when it finds something: read what it says.
	out=$(cd "$wt" || exit
		PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
			--terse --show-types "$TOP/series/$ver/$p" 2>&1) || true
	bad=$(grep -E ': (ERROR|WARNING|CHECK):' <<<"$out" || true)
	while read -r k; do
		bad=$(grep -v ":$k:" <<<"$bad" || true)
	done < <(sed -n 's/^checkpatch: \([A-Z_]*\):.*/\1/p' "$TOP/series/$ver/$p")
	if [ -z "$bad" ]; then
		echo "ok $n $p"
	else
		printf '# %s\n' "$bad"
		echo "not ok $n $p"
		fail=$((fail + 1))
	fi
done
[ $fail = 0 ] || die "$fail patch(es) of series/$ver fail checkpatch:" \
	"fix them in $wt, then: make export VERSION=$ver"
