#!/bin/bash
# The tree scripts refuse what would lose work or make no sense, and say
# what to run instead: a bad VERSION, uncommitted changes, commits in no
# topic, branches with unexported work; export keeps new work; FORCE=1
# discards it.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
sandbox
R=$SB/repo
expect_fail 'not a kernel version' "$R/scripts/tree.sh" 6
expect_fail 'series/9.9 does not exist' "$R/scripts/tree.sh" 9.9
wt=$("$R/scripts/tree.sh" 6.1 | tail -n 1)
integ=$(integration_branch 6.1)
last=$(topic_branch 6.1 "$(topics 6.1 | tail -n 1)")

echo "/* a local change */" >>"$wt/mm/oom_kill.c"
expect_fail 'uncommitted changes' "$R/scripts/tree.sh" 6.1
git -C "$wt" -c user.name=T -c user.email=t@t commit -q -a -s -m "mm/oom_kill: a local change"
expect_fail 'hold work that series/6.1 lacks' "$R/scripts/tree.sh" 6.1
expect_fail "in no topic.*branch -f $last $integ" "$R/scripts/export.sh" 6.1

git -C "$KCACHE/linux" branch -f "$last" "$integ"
"$R/scripts/export.sh" 6.1
grep -rq "a local change" "$R/series/6.1/" || fail "export did not write the new commit"
"$R/scripts/tree.sh" 6.1 >/dev/null || fail "tree after export failed"
grep -q "a local change" "$wt/mm/oom_kill.c" || fail "the exported commit is not in the tree"

# series/ going back (a git pull, a checkout) takes the branches back with it.
git -C "$R" checkout -q -- series
git -C "$R" clean -q -fd series
"$R/scripts/tree.sh" 6.1 >/dev/null || fail "tree after series/ went back failed"
! grep -q "a local change" "$wt/mm/oom_kill.c" || fail "the tree kept a change series/ dropped"

echo "/* another local change */" >>"$wt/mm/oom_kill.c"
git -C "$wt" -c user.name=T -c user.email=t@t commit -q -a -s -m "mm/oom_kill: another"
expect_fail 'hold work that series/6.1 lacks' "$R/scripts/tree.sh" 6.1
FORCE=1 "$R/scripts/tree.sh" 6.1 >/dev/null
! grep -q "another local change" "$wt/mm/oom_kill.c" || fail "FORCE=1 kept the local change"

git -C "$KCACHE/linux" branch -f "$(topic_branch 6.1 "$(topics 6.1 | head -n 1)")" "$integ"
expect_fail 'is not stacked on' "$R/scripts/export.sh" 6.1

# Two runs at once (make boot-test beside checks/checkpatch.sh): the second waits
# for the first instead of failing on the git am worktree's index.lock.
FORCE=1 "$R/scripts/tree.sh" 6.1 >/dev/null
"$R/scripts/tree.sh" 6.1 >"$SB/tree1.log" 2>&1 &
first=$!
"$R/scripts/tree.sh" 6.1 >"$SB/tree2.log" 2>&1 || fail "the second of two tree.sh runs at once failed: $(tail -n 3 "$SB/tree2.log")"
wait "$first" || fail "the first of two tree.sh runs at once failed: $(tail -n 3 "$SB/tree1.log")"
