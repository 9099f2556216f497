#!/bin/bash
# The docs topic is what make docs writes from Documentation/, and builds
# with no new Sphinx warning and no new kernel-doc complaint; an edited
# source is caught as drift.  make mbox writes the series as mail that b4
# reads as one v2 series of the right length, with its cover letter and
# base-commit, every patch addressed; and `git am` of b4's mbox on the base
# tag gives the tree of the integration branch.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need b4
for v in $(versions); do
	make -s -C "$TOP" docs-check VERSION="$v" || fail "make docs-check VERSION=$v: see above"
done

make -s -C "$TOP" mbox VERSION=6.1 || fail "make mbox failed"
tag=$(base_get 6.1 tag)
mbox=$OUT/${tag#v}/mbox/series.mbox
n=$(kgit rev-list --count "$tag..$(integration_branch 6.1)")
grep -q "^Subject: \[PATCH v2 00/$n\] per-file OOM badness$" "$mbox" || fail "no cover letter 00/$n"
[ "$(grep -c "^Subject: \[PATCH v2 [0-9]*/$n\]" "$mbox")" = $((n + 1)) ] || fail "not $n + 1 mails"
[ "$(grep -c '^To: ' "$mbox")" = $((n + 1)) ] || fail "a mail has no To:"
grep -q "^base-commit: $(base_get 6.1 commit)$" "$mbox" || fail "no base-commit"

# A worktree of its own: a run killed before its trap must not leave one
# that the next run would reuse.
wt=$KWT/.mbox-check.$$
trap 'kgit worktree remove --force "$wt" 2>/dev/null; rm -rf "$tmp"' EXIT
tmp=$(mktemp -d)
kgit worktree prune
kgit worktree add -q --detach "$wt" "$tag"
(cd "$wt" && b4 -n am -m "$mbox" -o "$tmp") >"$tmp/b4.log" 2>&1 || fail "b4 am: $(cat "$tmp/b4.log")"
grep -q "^Total patches: $n$" "$tmp/b4.log" || fail "b4 did not see $n patches: $(cat "$tmp/b4.log")"
git -C "$wt" -c user.name=t -c user.email=t@t am -q "$tmp"/*.mbx || fail "git am of b4's mbox failed"
[ "$(git -C "$wt" rev-parse 'HEAD^{tree}')" = "$(kgit rev-parse "$(integration_branch 6.1)^{tree}")" ] ||
	fail "git am of the mbox does not give the tree of $(integration_branch 6.1)"
echo "b4 am + git am on $tag: the tree of $(integration_branch 6.1), $n commits"
kgit worktree remove --force "$wt"
rm -rf "$tmp"

sandbox
sed -i 's/must take O(1) time/must take constant time/' "$SB/repo/Documentation/filesystems/vfs.rst.entry"
expect_fail 'make docs VERSION=6.1' "$SB/repo/scripts/docs.sh" --check 6.1
