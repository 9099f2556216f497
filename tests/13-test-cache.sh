#!/bin/bash
# The tests work in a kernel cache of their own and never touch the
# developer's: make tree, run by a test, makes its worktree in the tests'
# cache, and the developer's branches, worktrees (their commits and their
# uncommitted changes) and kernels are as they were.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ "$KCACHE" != "$DEV_KCACHE" ] || fail "the tests use the developer's kernel cache $KCACHE"
[ "$OUT" != "$TOP/out" ] || fail "the tests build into the developer's $OUT"

# dev_state: the developer's branches, worktrees and kernels, as they are.
dev_state() {
	local wt k
	git -C "$DEV_KCACHE/linux" for-each-ref --format='%(refname) %(objectname)' refs/heads 2>/dev/null || true
	for wt in "$DEV_KCACHE"/worktrees/*/; do
		[ -d "$wt" ] || continue
		echo "$wt $(git -C "$wt" rev-parse HEAD) $(git -C "$wt" status --porcelain | md5sum)"
	done
	for k in "$TOP"/out/*/*-gcc "$TOP"/out/*/*-clang; do
		[ ! -d "$k" ] || stat -c '%n %Y' "$k"
	done
}
before=$(dev_state)
wt=$(make -s -C "$TOP" tree VERSION=6.1 | tail -n 1)
case $wt in
"$KCACHE"/*) ;;
*) fail "make tree made its worktree in $wt, outside the tests' cache $KCACHE" ;;
esac
[ "$(dev_state)" = "$before" ] || fail "make tree in a test changed the developer's cache: $(diff <(echo "$before") <(dev_state))"
echo "ok: make tree in a test: $wt; the developer's cache ($DEV_KCACHE) and out/ untouched"
