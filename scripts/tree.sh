#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tree.sh VERSION
#
# Materialize series/VERSION in the kernel cache: import the base tree, stack
# each topic as branch oom-VERSION/<topic> on the one before, point the
# integration branch oom-VERSION/for-next at the result, check it out in the
# series' worktree, and print that worktree's path on the last line.
#
# The branches are rebuilt from series/ every time, with git am, and come out
# the same on every machine.  git am runs in a worktree of its own that holds
# only the files the series touches; the series' worktree then moves to the
# result with a checkout, which rewrites only files whose content changed, so
# a kernel built there rebuilds only what changed.  Branches that hold work
# series/ lacks are not discarded (export it first, or set FORCE=1).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 VERSION"
ver=$1
check_version "$ver"
[ -d "$TOP/series/$ver" ] || die "series/$ver does not exist (maintained: $(ls "$TOP/series"))"
need git flock
# One tree.sh a version at a time: two would race on the git am worktree's
# index.  The second waits, then finds the branches up to date.
mkdir -p "$KCACHE"
exec {lock}>"$KCACHE/tree-$ver.lock"
if ! flock -n "$lock"; then
	echo "tree.sh: waiting for the other tree.sh $ver to finish" >&2
	flock "$lock"
fi
tag=$("$TOP/scripts/import-tree.sh" "$ver")
integ=$(integration_branch "$ver")
wt=$(worktree_dir "$ver")
amwt=$KWT/.am-$ver
built=$KCACHE/built-$ver
mapfile -t tl < <(topics "$ver")

# branch_state: where the series' branches that exist point, one a line.
branch_state() {
	local t
	for t in "${tl[@]}"; do
		kgit rev-parse -q --verify "refs/heads/$(topic_branch "$ver" "$t")" || true
	done
	kgit rev-parse -q --verify "refs/heads/$integ" || true
}

# moved_by_hand: a branch points where tree.sh did not put it.
moved_by_hand() {
	[ -n "$(comm -23 <(branch_state | sort -u) <({ tr -s " " "\n" <"$built"; } 2>/dev/null | sort -u))" ]
}

# in_progress DIR: a git am or rebase is under way in worktree DIR.
in_progress() {
	local gd
	gd=$(git -C "$1" rev-parse --git-dir)
	[ -d "$gd/rebase-apply" ] || [ -d "$gd/rebase-merge" ]
}

# Branches are safe to rebuild when they point where tree.sh put them (a
# topic new to series/ has no branch yet), or when series/ already holds
# everything in them.
if [ -z "${FORCE:-}" ] && moved_by_hand &&
   ! "$TOP/scripts/export.sh" --check "$ver" 2>/dev/null; then
	die "the branches of $ver hold work that series/$ver lacks:" \
	    "save it with 'make export VERSION=$ver', or discard it with 'make tree VERSION=$ver FORCE=1'"
fi
kgit worktree prune
if [ -d "$wt" ]; then
	! in_progress "$wt" ||
		die "a rebase or git am is in progress in $wt: finish it, or: git -C $wt am --abort"
	[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ] ||
		die "$wt has uncommitted changes: commit or stash them (git -C $wt stash)"
fi

# Stack the topics in the private worktree.
shopt -s nullglob
mapfile -t files < <(cat "$TOP/series/$ver"/*/*.patch /dev/null |
	sed -n 's|^diff --git a/\(.*\) b/\(.*\)$|/\1\n/\2|p' | sort -u)
if [ ! -d "$amwt" ]; then
	kgit worktree add -q --no-checkout --detach "$amwt" "$tag"
fi
if in_progress "$amwt"; then
	git -C "$amwt" am --abort
fi
git -C "$amwt" sparse-checkout set --no-cone /Makefile "${files[@]}"
git -C "$amwt" checkout -q --detach "$tag"
declare -A tip
for t in "${tl[@]}"; do
	p=("$TOP/series/$ver/$t"/*.patch)
	if [ ${#p[@]} -gt 0 ] &&
	   ! series_git -C "$amwt" am -q --committer-date-is-author-date "${p[@]}" >&2; then
		git -C "$amwt" am --abort
		die "topic $t of series/$ver does not apply to its base ($tag)"
	fi
	tip[$t]=$(git -C "$amwt" rev-parse HEAD)
done
shopt -u nullglob

# Point the branches at the result and move the series' worktree there.
if [ -d "$wt" ]; then
	git -C "$wt" checkout -q --detach
else
	note "checking out $tag in $wt"
	add_worktree "$wt" "$tag"
fi
for t in "${tl[@]}"; do
	kgit branch -f "$(topic_branch "$ver" "$t")" "${tip[$t]}"
done
kgit branch -f "$integ" "${tip[${tl[-1]}]}"
git -C "$wt" checkout -q "$integ"
branch_state >"$built"
note "$integ: $tag + $(kgit rev-list --count "$tag..$integ") patches in ${#tl[@]} topics"
echo "$wt"
