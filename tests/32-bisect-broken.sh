#!/bin/bash
# The bisect build fails on a series whose middle commit does not build,
# and names that commit alone: in a sandbox, the commit of series/6.1 that
# adds the ledgers is made to break mm/oom_ledger.c and the next one to
# mend it, so that the last commit builds; checks/bisect.sh, asked for
# mm/oom_ledger.o only, must fail, print "not ok" for that commit with the
# object, and "ok" for the one after.  An allmodconfig tree of its own to
# prepare: make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# The sandbox's kernel cache is new: compile through the real one's ccache.
export CCACHE_DIR=${CCACHE_DIR:-$KCACHE/ccache}
sandbox
R=$SB/repo
wt=$(make -s -C "$R" tree VERSION=6.1 | tail -n 1)
export KCACHE
subject="mm: add ledgers of the memory processes allocate through files"
bad=$(git -C "$wt" log --format=%H --fixed-strings --grep="$subject" "$(base_get 6.1 tag)..HEAD")
[ -n "$bad" ] || fail "series/6.1 has no commit '$subject' to break"
next=$(git -C "$wt" rev-list --reverse "$bad..HEAD" | head -n 1)
n_bad=$(($(git -C "$wt" rev-list --count "$(base_get 6.1 tag)..$bad") + 1))

# Break oom_ledger_put()'s definition in that commit, mend it in the next; the
# patches stay appliable, as git am --3way would stack them.
break='sed -i "s/^void oom_ledger_put(struct oom_ledger \\*ledger)\$/void oom_ledger_put(int broken, struct oom_ledger *ledger)/" mm/oom_ledger.c'
mend='sed -i "s/^void oom_ledger_put(int broken, struct oom_ledger \\*ledger)\$/void oom_ledger_put(struct oom_ledger *ledger)/" mm/oom_ledger.c'
amend='git commit -q -a --amend --no-edit'
GIT_SEQUENCE_EDITOR="sed -i -e '/^pick ${bad:0:7}/a exec $break \&\& grep -q broken mm/oom_ledger.c \&\& $amend' \
	-e '/^pick ${next:0:7}/a exec $mend \&\& $amend'" \
	git -C "$wt" -c user.name=t -c user.email=t@t rebase -q -i --update-refs "$(base_get 6.1 tag)" ||
	fail "could not make the broken series"
bad=$(git -C "$wt" log --format=%H --fixed-strings --grep="$subject" "$(base_get 6.1 tag)..HEAD")
git -C "$wt" show "$bad:mm/oom_ledger.c" | grep -q 'oom_ledger_put(int broken' ||
	fail "the rewritten commit does not break mm/oom_ledger.c"
grep -q 'oom_ledger_put(int broken' "$wt/mm/oom_ledger.c" && fail "the last commit is broken too"
make -s -C "$R" export VERSION=6.1 >/dev/null

start=$SECONDS
if "$R/checks/bisect.sh" 6.1 x86_64 gcc mm/oom_ledger.o >"$SB/ktap" 2>"$SB/err"; then
	cat "$SB/ktap"
	fail "bisect.sh passed a series whose commit $n_bad does not build"
fi
cat "$SB/ktap"
echo "bisect.sh: $((SECONDS - start)) s"
grep -q "^not ok $n_bad [0-9a-f]* $subject" "$SB/ktap" || fail "commit $n_bad is not the one named not ok"
grep -q '^# >> mm/oom_ledger.o: ' "$SB/ktap" || fail "the failed object is not named"
grep -q "^ok $((n_bad + 1)) " "$SB/ktap" || fail "the commit that mends it is not ok"
[ "$(grep -c '^not ok' "$SB/ktap")" = 1 ] || fail "other commits than $n_bad are named not ok"
grep -q '1 commit(s) of series/6.1 break the build' "$SB/err" || fail "no summary of the failure: $(cat "$SB/err")"
echo "ok: the bisect build fails on commit $n_bad alone, naming mm/oom_ledger.o"
