#!/bin/bash
# make rebase: a bad VERSION fails at once and changes nothing; a conflict
# the shared rerere cache does not know stops it, naming the patch and the
# file; make rebase-abort leaves everything as it was (also with the
# series' worktree checked out); after the resolution make
# rebase-continue finishes with series/6.12 byte for byte, every other
# conflict resolved from the cache (so the cache reproduces the series),
# and the backports that 6.12 has upstream skipped and counted.
# One whole rebase, six minutes: the stop and the abort are quick.  Each
# run is in a sandbox: a copy of this checkout and a kernel cache of its
# own.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ -d "$TOP/series/6.12" ] || skip "no series/6.12 to reproduce"
real=$KREPO
sandbox
R=$SB/repo
clean() { [ -z "$(git -C "$R" status --porcelain)" ] || fail "the checkout changed: $(git -C "$R" status --porcelain)"; }

expect_fail 'not a kernel version' make -s -C "$R" rebase VERSION=six
expect_fail 'no Debian package provides linux-source-9.99' make -s -C "$R" rebase VERSION=9.99
clean
[ ! -d "$KCACHE/rebase" ] || fail "a bad VERSION left a rebase in progress"

# Forget how the selftests' Makefile conflict was resolved (the sandbox's
# cache never had the 6.12 branches): the rebase stops there.
forget() {
	local id
	id=$(basename "$(grep -l 'TARGETS += oom_badness' "$R"/rebase/rr-cache/*/preimage | xargs dirname)")
	rm -rf "${R:?}/rebase/rr-cache/$id" \
		"$(git -C "$KCACHE/linux" rev-parse --path-format=absolute --git-common-dir)/rr-cache/$id"
}
forget
expect_fail 'CONFLICT in topic selftests, patch 0001-selftests-oom_badness' \
	make -s -C "$R" rebase VERSION=6.12
grep -qx tools/testing/selftests/Makefile "$KCACHE/rebase/conflicted" ||
	fail "the stop does not name tools/testing/selftests/Makefile"
wt=$KCACHE/worktrees/rebase-6.12
grep -q '^<<<<<<< ' "$wt/tools/testing/selftests/Makefile" || fail "no conflict markers in the Makefile"
expect_fail 'a rebase to 6.12 is in progress' make -s -C "$R" rebase VERSION=6.12
expect_fail 'conflict markers remain' make -s -C "$R" rebase-continue

# Abort: nothing changed anywhere.
make -s -C "$R" rebase-abort || fail "make rebase-abort failed"
[ ! -d "$wt" ] || fail "the rebase worktree is still there"
[ -z "$(git -C "$KCACHE/linux" for-each-ref refs/heads/oom-6.12/)" ] || fail "abort left oom-6.12 branches"
git -C "$R" status --porcelain | grep -v '^ D rebase/rr-cache/' | grep . &&
	fail "abort changed the checkout"
echo "abort: the checkout, branches and worktrees as they were"

# Again, resolve as the maintainer did, and continue.
expect_fail 'CONFLICT in topic selftests' make -s -C "$R" rebase VERSION=6.12
git -C "$real" show oom-6.12/selftests:tools/testing/selftests/Makefile >"$wt/tools/testing/selftests/Makefile"
start=$SECONDS
make -s -C "$R" rebase-continue >"$SB/report" || fail "make rebase-continue failed: $(cat "$SB/report")"
cat "$SB/report"
echo "make rebase-continue: $((SECONDS - start)) s"
grep -q 'conflicts by hand: *1$' "$SB/report" ||
	fail "the report does not count the one conflict resolved by hand: another needed a hand"
n=$(table_rows "$R/rebase/6.12/upstream" | wc -l)
grep -q "upstream, skipped: *$n\$" "$SB/report" ||
	fail "the report does not count the $n backports that 6.12 has upstream (rebase/6.12/upstream)"
clean
echo "stopped, resolved, continued: series/6.12 and rebase/rr-cache as committed, byte for byte"

# Abort once more, with the series' worktree of 6.12 (make tree) checked
# out on oom-6.12/for-next, which git will not move with branch -f: the
# abort still ends, and leaves the branches and that worktree as they were.
make -s -C "$R" tree VERSION=6.12 >/dev/null || fail "make tree VERSION=6.12 failed"
before=$(git -C "$KCACHE/linux" for-each-ref refs/heads/oom-6.12/)
forget
expect_fail 'CONFLICT in topic selftests' make -s -C "$R" rebase VERSION=6.12
make -s -C "$R" rebase-abort || fail "make rebase-abort failed with the series' worktree checked out"
[ "$(git -C "$KCACHE/linux" for-each-ref refs/heads/oom-6.12/)" = "$before" ] ||
	fail "abort moved the oom-6.12 branches"
[ -z "$(git -C "$KCACHE/worktrees/6.12" status --porcelain)" ] || fail "abort changed the 6.12 worktree"
echo "abort with the series' worktree checked out: branches and worktree as they were"
