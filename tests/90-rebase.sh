#!/bin/bash
# make rebase: a bad VERSION fails at once and changes nothing; run again on
# a clean checkout, it reproduces series/6.12 byte for byte from the shared
# rerere cache; a conflict the cache does not know stops it, naming the
# patch and the file, and after the resolution make rebase-continue
# finishes with the same series; make rebase-abort leaves everything as it
# was.  Each run is in a sandbox: a copy of this checkout and a kernel cache
# of its own.
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

start=$SECONDS
make -s -C "$R" rebase VERSION=6.12 | tee "$SB/report" || fail "make rebase VERSION=6.12 failed"
echo "make rebase VERSION=6.12, from the shared cache: $((SECONDS - start)) s"
grep -q 'conflicts by hand: *0' "$SB/report" || fail "a conflict needed a hand on a second run"
clean
echo "series/6.12 reproduced byte for byte"

# Forget how the selftests' Makefile conflict was resolved, and the 6.12
# branches and worktree (a cache that never had them): the rebase stops.
rm -rf "$(grep -l 'TARGETS += oom_badness' "$R"/rebase/rr-cache/*/preimage | xargs dirname)"
rm -rf "$KCACHE/linux/.git/rr-cache"
git -C "$KCACHE/linux" worktree remove --force "$KCACHE/worktrees/6.12"
git -C "$KCACHE/linux" for-each-ref --format='%(refname)' refs/heads/oom-6.12/ |
	xargs -r -n1 git -C "$KCACHE/linux" update-ref -d
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
make -s -C "$R" rebase-continue | tee "$SB/report" || fail "make rebase-continue failed"
grep -q 'conflicts by hand: *1' "$SB/report" || fail "the report does not count the conflict resolved by hand"
clean
echo "stopped, resolved, continued: series/6.12 and rebase/rr-cache as committed"
