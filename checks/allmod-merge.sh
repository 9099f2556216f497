#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# allmod-merge.sh LEG: the allmod-merge step.  Once every part of the leg's
# kernel and arch in ci/allmod-parts has been built (the allmod-full step with
# SHARD=i/N, here or in a job of its own), link them: vmlinux, and modpost
# once over every module, which no part can do alone (a part's modpost
# would call the symbols of the other parts undefined).
#
# Fails, before linking anything, when a part is missing (its record
# out/ci/LEG/allmod-parts/i-of-N.json, or its folder), when the parts were
# built from different series commits or from another one than the leg's
# worktree has now, or when a part failed.  The parts' folders are merged
# into out/ci/LEG/allmod-full-merged with hard links, the generated files
# (include/generated, the host tools) taken from the part prepared first,
# so that every object is newer than what it depends on and make only
# links.  KTAP out: a line a part, then the link.
set -euo pipefail
# shellcheck source=../ci/lib.sh
. "$(dirname "$0")/../ci/lib.sh"
# shellcheck source=../build/lib.sh
. "$(dirname "$0")/../build/lib.sh"

[ $# -eq 1 ] || die "usage: $0 LEG"
leg=$1
f=$(leg_fields "$leg")
read -r _ ARCH COMPILER _ <<<"$f"
legout=$(leg_out "$leg")
need jq
n=$(allmod_nparts "$leg")
[ "$n" -gt 0 ] || die "ci/allmod-parts has no part for the kernel and arch of $leg"
legwt=$(leg_worktree "$leg")
head=$(git -C "$legwt" rev-parse HEAD)

echo "KTAP version 1"
echo "1..$((n + 1))"
bad=0 dirs=()
for i in $(seq 1 "$n"); do
	rec=$legout/allmod-parts/$i-of-$n.json
	if [ ! -s "$rec" ]; then
		echo "not ok $i part $i/$n # not built: make ci LEG=$leg CI_STEPS=allmod-full SHARD=$i/$n"
		bad=$((bad + 1))
		continue
	fi
	out=$legout/allmod-full-$i-of-$n
	read -r commit result < <(jq -r '"\(.commit) \(.result)"' "$rec")
	if [ "$commit" != "$head" ]; then
		echo "not ok $i part $i/$n # built from $commit, the series is at $head now: make ci LEG=$leg CI_STEPS=allmod-full SHARD=$i/$n"
		bad=$((bad + 1))
	elif [ "$result" != PASS ]; then
		echo "not ok $i part $i/$n # it failed: see $legout/allmod-full.log of that run, or rerun it: make ci LEG=$leg CI_STEPS=allmod-full SHARD=$i/$n"
		bad=$((bad + 1))
	elif [ ! -f "$out/.config" ]; then
		echo "not ok $i part $i/$n # its folder $out is gone: make ci LEG=$leg CI_STEPS=allmod-full SHARD=$i/$n"
		bad=$((bad + 1))
	else
		echo "ok $i part $i/$n # $(jq -r '"\(.seconds) s, \(.targets) target(s)"' "$rec")"
		dirs+=("$out")
	fi
done
what="vmlinux and modules of the $n parts ($ARCH allmodconfig, $COMPILER, W=1)"
if [ $bad -gt 0 ]; then
	echo "not ok $((n + 1)) $what # SKIP $bad part(s) missing or failed, above"
	die "$bad of $n part(s) missing or failed: build them with the commands above, then rerun: make ci LEG=$leg CI_STEPS=allmod-merge"
fi

# A tree checked out after the parts were built (on another machine: the
# merge job of the weekly run) has newer sources than their objects, and
# make would build them all again: date the sources back to the commit's
# time.  The parts were built from this very commit (checked above).
git -C "$legwt" ls-files -z | (cd "$legwt" && xargs -0 touch -h -d "@$(git -C "$legwt" log -1 --format=%ct HEAD)")

merged=$legout/allmod-full-merged
rm -rf "$merged"
mkdir -p "$merged"
# The part prepared first: its generated files are older than every
# object of every part.
mapfile -t dirs < <(for d in "${dirs[@]}"; do
	printf '%s\t%s\n' "$(stat -c %Y "$d/include/generated/autoconf.h")" "$d"
done | sort -n | cut -f2)
cp -al "${dirs[0]}/." "$merged/"
for d in "${dirs[@]:1}"; do
	# Objects and their .cmd files; what exists (the generated files) stays.
	cp -aln "$d/." "$merged/"
done
rc=0
kmake "$legwt" "$merged" "$ARCH" "$COMPILER" -k -j"$(nproc)" W=1 all >"$merged/w1.log" 2>&1 || rc=$?
rebuilt=$(grep -cE '^  (CC|AS)( \[M\])? ' "$merged/w1.log" || true)
if [ $rc = 0 ]; then
	echo "ok $((n + 1)) $what # $rebuilt object(s) compiled again while linking"
else
	{ grep -E '(^|: )(error|ERROR|FATAL)[: ]|undefined reference|multiple definition' "$merged/w1.log" ||
	  grep -E '\] Error [0-9]+$' "$merged/w1.log"; } | head -n 20 | sed 's/^/# >> /'
	echo "not ok $((n + 1)) $what # does not link: $merged/w1.log"
	die "the parts do not link; rerun the link with: make -C $legwt O=$merged $(toolchain "$ARCH" "$COMPILER") W=1 -k"
fi
