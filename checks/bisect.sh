#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect.sh VERSION ARCH COMPILER [OBJECT...]
#
# Build, under allmodconfig, at the base of series/VERSION and then at each of
# its commits, the objects the series touches or reaches (checks/objects.sh), or
# the OBJECTs given (fs/file.o: does it build at every commit?), in a
# worktree and an output folder of their own, and report KTAP: one line a
# commit.  An object that does not exist yet at a commit is not built there;
# one that fails to build at the base already is not held against the series
# (it is named, and skipped).
set -euo pipefail
# shellcheck source=../build/lib.sh
. "$(dirname "$0")/../build/lib.sh"

[ $# -ge 3 ] || die "usage: $0 VERSION ARCH COMPILER [OBJECT...]"
ver=$1 arch=$2 comp=$3
shift 3
"$TOP/scripts/tree.sh" "$ver" >/dev/null
tag=$(base_get "$ver" tag)
integ=$(integration_branch "$ver")
wt=$KWT/bisect-$ver
out=$OUT/${tag#v}/bisect-$arch-$comp
objs=("$@")
[ $# -gt 0 ] || mapfile -t objs < <("$TOP/checks/objects.sh" "$tag" "$integ")
mapfile -t commits < <(kgit rev-list --reverse "$tag..$integ")

[ -d "$wt" ] || add_worktree "$wt" "$tag"
mkdir -p "$out"

# build_at COMMIT: build the objects that exist at COMMIT; print the failed.
build_at() {
	local o have=()
	git -C "$wt" checkout -q --detach "$1"
	for o in "${objs[@]}"; do
		[ -e "$wt/${o%.o}.c" ] && have+=("$o")
	done
	kmake "$wt" "$out" "$arch" "$comp" -k -j"$(nproc)" "${have[@]}" \
		>"$out/build-$1.log" 2>&1 || true
	sed -n 's/.*\[[^]]*: \([^] ]*\.o\)\] Error [0-9]*$/\1/p' "$out/build-$1.log" | sort -u
}

[ -f "$out/.config" ] || kmake "$wt" "$out" "$arch" "$comp" -s allmodconfig
kmake "$wt" "$out" "$arch" "$comp" -s -j"$(nproc)" prepare >/dev/null

echo "KTAP version 1"
echo "1..$((${#commits[@]} + 1))"
broken=$(build_at "$tag")
for o in $broken; do
	echo "# $o does not build at $tag already: skipped"
done
echo "ok 1 $tag (base): ${#objs[@]} objects # $(wc -w <<<"$broken") broken at base"
n=1 fail=0
for c in "${commits[@]}"; do
	n=$((n + 1))
	new=$(comm -23 <(build_at "$c") <(sort -u <<<"$broken"))
	subject=$(kgit log -1 --format='%h %s' "$c")
	if [ -z "$new" ]; then
		echo "ok $n $subject"
	else
		for o in $new; do
			echo "# >> $o: $(grep -m1 -E 'error:' "$out/build-$c.log" || echo 'see log')"
		done
		echo "not ok $n $subject # log: $out/build-$c.log"
		fail=$((fail + 1))
	fi
done
[ $fail = 0 ] || die "$fail commit(s) of series/$ver break the build;" \
	"rebuild one with: make -C $wt O=$out ARCH=$arch <object>"
