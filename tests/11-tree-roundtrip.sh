#!/bin/bash
# make tree, then make export, changes no byte of series/; tree stacks the
# topics as branches on the base, prints the worktree on its last line, and
# a second run gives the same commits without touching the worktree's files.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
sandbox
R=$SB/repo
wt=$(make -s -C "$R" tree VERSION=6.1 | tail -n 1)
[ -d "$wt/.git" ] || [ -f "$wt/.git" ] || fail "make tree printed '$wt', not a worktree"
export KCACHE
prev=$(base_get 6.1 tag)
for t in $(topics 6.1); do
	b=$(topic_branch 6.1 "$t")
	n=$(find "$R/series/6.1/$t" -name '*.patch' | wc -l)
	[ "$(kgit rev-list --count "$prev..$b")" = "$n" ] || fail "$b does not hold the $n patches of $t"
	[ "$(kgit rev-list --count "$b..$prev")" = 0 ] || fail "$b is not stacked on $prev"
	prev=$b
done
head=$(git -C "$wt" rev-parse HEAD)
[ "$head" = "$(kgit rev-parse "$prev")" ] || fail "the worktree is not at the last topic"
[ "$(git -C "$wt" symbolic-ref --short HEAD)" = "$(integration_branch 6.1)" ] ||
	fail "the worktree is not on $(integration_branch 6.1)"
echo "$(git -C "$wt" log --oneline "$(base_get 6.1 tag)..HEAD" | wc -l) patches in $wt"

make -s -C "$R" export VERSION=6.1
git -C "$R" status --porcelain series | grep . && fail "tree + export changed series/"
echo "round trip: series/ unchanged"

before=$(stat -c %Y "$wt/include/linux/fs.h")
sleep 1
make -s -C "$R" tree VERSION=6.1 >/dev/null
[ "$(git -C "$wt" rev-parse HEAD)" = "$head" ] || fail "a second make tree gave other commits"
[ "$(stat -c %Y "$wt/include/linux/fs.h")" = "$before" ] ||
	fail "a second make tree touched include/linux/fs.h"
echo "second make tree: same commits, files untouched"
