# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the tests: the scripts' definitions, and a few of their own.
# Every test runs with set -euo pipefail (tests/00-shellcheck.sh checks
# it): a command that fails where no check catches it fails the test, and
# this trap names it, so a test cannot pass by accident.
trap 'echo "FAIL: ${BASH_SOURCE[0]##*/}:$LINENO: \"$BASH_COMMAND\" exited $?" >&2' ERR

# Every stage's definitions (each sources scripts/lib.sh).
# shellcheck source=../build/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../build/lib.sh"
# shellcheck source=../ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../ci/lib.sh"
# shellcheck source=../boot-tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../boot-tests/lib.sh"

fail() {
	echo "FAIL: $*"
	exit 1
}

# test_cache: the tests' own kernel cache, TEST_KCACHE ($KCACHE/test), and
# their own OUT, TEST_OUT ($OUT/test): a repository, branches, worktrees and
# kernels of their own, so that make test never touches the developer's
# (worktrees with commits not yet exported stay as they are, and make and
# make test never build over each other's kernels).  It borrows the trees
# the developer's repository has imported (git alternates, and its tags)
# and its ccache.  Set up once, by the first test; the tests it runs
# inherit it.
test_cache() {
	local real=$KCACHE objects
	[ -z "${OOM_TEST_CACHE:-}" ] || return 0
	export CCACHE_DIR=${CCACHE_DIR:-$real/ccache}
	export DEV_KCACHE=$real KCACHE=${TEST_KCACHE:-$real/test} OUT=${TEST_OUT:-$OUT/test} OOM_TEST_CACHE=1
	KREPO=$KCACHE/linux KWT=$KCACHE/worktrees
	if [ ! -d "$KREPO/.git" ]; then
		git init -q "$KREPO"
		kgit config gc.auto 0
		kgit config core.fileMode true
		kgit config rerere.enabled true
	fi
	[ -d "$real/linux/.git" ] && [ "$real/linux" != "$KREPO" ] || return 0
	objects=$(git -C "$real/linux" rev-parse --path-format=absolute --git-common-dir)/objects
	grep -qxF "$objects" "$KREPO/.git/objects/info/alternates" 2>/dev/null ||
		echo "$objects" >>"$KREPO/.git/objects/info/alternates"
	kgit fetch -q "$real/linux" '+refs/tags/*:refs/tags/*'
}
test_cache
# The tests' own logs and summaries, whichever test runs first.
mkdir -p "$OUT/tests"

skip() {
	echo "$*"
	exit 4
}

# kselftest_skips KTAP: say each case of the kselftest in KTAP (a boot's
# log) that skipped for a reason boot-tests/kselftest-skips does not list
# (a missing card, root or sysctl), and fail then.
kselftest_skips() {
	local why bad=0
	while read -r why; do
		table_rows "$TOP/boot-tests/kselftest-skips" | grep -qxF -- "$why" ||
			{ echo "a kselftest case skipped: $why (not in boot-tests/kselftest-skips)"; bad=1; }
	done < <(sed -n 's/^# oom_ledger_test: ok [0-9]*[^#]*# SKIP //p' "$1")
	return $bad
}

# expected_victims TABLE [GLOB]: say each scenario of boot-tests/scenarios
# whose name matches GLOB (every one by default; extglob, as in [[ ]])
# that TABLE, the table.md of make ab or make desktop, does not show with
# the victims it expects of series, series-off and base, and fail then.
expected_victims() {
	local s series off base bad=0
	[ -f "$1" ] || { echo "no table: $1"; return 1; }
	while read -r s series off base; do
		# shellcheck disable=SC2053 # GLOB is a pattern
		[[ $s == ${2:-*} ]] || continue
		grep -qxF "| $s | $series dies | $off dies | $base dies |" "$1" ||
			{ echo "$s: $(grep "^| $s " "$1" || echo 'no row'), expected $series / $off / $base: see $1"; bad=1; }
	done < <(table_rows "$TOP/boot-tests/scenarios" | tail -n +2)
	return $bad
}

# desktop_on_drm DIR: say each desktop run (series, series-off, base) in
# DIR, an ab/desktop folder, whose weston did not run on its DRM device
# (fell back to the headless backend, or never said DRM), and fail then.
desktop_on_drm() {
	local r bad=0
	for r in series series-off base; do
		! grep -q 'falling back to the headless backend' "$1/$r.log" ||
			{ echo "$r: weston ran headless: see $1/$r.log"; bad=1; }
		grep -q 'weston: DRM backend' "$1/$r.log" ||
			{ echo "$r: weston did not run on DRM: see $1/$r.log"; bad=1; }
	done
	return $bad
}

# expect_fail PATTERN CMD...: CMD fails and says something matching PATTERN.
# (Its locals have names a caller's function would not use: bash's scoping
# is dynamic.)
expect_fail() {
	local _pat=$1 _said
	shift
	if _said=$("$@" 2>&1); then
		fail "'$*' succeeded; it should have failed with /$_pat/"
	fi
	grep -qE -- "$_pat" <<<"$_said" || fail "'$*' failed without /$_pat/: $_said"
	echo "ok: '$*' fails: $(grep -E -- "$_pat" <<<"$_said" | head -n 1)"
}

# sandbox: a copy of this checkout in $SB/repo and a kernel cache of its own
# in $SB/cache (exported as KCACHE), which borrows the objects, tags and
# branches of the real one, so that a test can change both freely.  From
# then on, kgit and KWT are the sandbox's.  Its EXIT trap replaces the
# caller's.
sandbox() {
	SB=$(mktemp -d)
	trap 'rm -rf "$SB"' EXIT
	mkdir -p "$SB/repo"
	(cd "$TOP" && checkout_files | xargs -0 cp -a --parents -t "$SB/repo")
	(cd "$SB/repo" && git init -q && git add -A &&
		git -c user.name=t -c user.email=t@t commit -q -m sandbox)
	mkdir -p "$SB/cache"
	git init -q "$SB/cache/linux"
	echo "$(git -C "$KREPO" rev-parse --path-format=absolute --git-common-dir)/objects" \
		>"$SB/cache/linux/.git/objects/info/alternates"
	git -C "$SB/cache/linux" fetch -q "$KREPO" 'refs/tags/*:refs/tags/*'
	git -C "$SB/cache/linux" config gc.auto 0
	export KCACHE=$SB/cache
	KREPO=$KCACHE/linux KWT=$KCACHE/worktrees
}

# on_other_kernels VAR TEST: run tests/TEST with VAR set to the maintained
# kernels but the default one (the full tier's twin of a make-test test);
# skip when there is none.
on_other_kernels() {
	local v
	v=$(other_versions)
	[ -n "$v" ] || skip "no kernel but the default one"
	export "$1=$v"
	exec bash "$TOP/tests/$2"
}

# plant_use_after_free FILE: in oom_charges_release() of FILE (the series'
# mm/oom_ledger.c), free a record before it is unlinked from its ledger's
# list, whose list_del() then writes into freed memory.  A memfd that two
# processes wrote has a record that is not embedded (the kselftest's
# written_by_other; stress's children).  Fails when the code is not there.
plant_use_after_free() {
	# shellcheck disable=SC2016 # perl's $1 and $2
	perl -0pi -e 's/(\t\tspin_lock_irqsave\(&ledger->lock, flags\);\n\t\tlist_del\(&rec->ledger_node\);\n(?:.*\n)*?\t\tspin_unlock_irqrestore\(&ledger->lock, flags\);\n)(\t\tif \(rec != &c->first\)\n\t\t\tkmem_cache_free\(oom_charge_cachep, rec\);\n)/$2$1/' "$1"
	! cmp -s <(git -C "$(dirname "$1")" show "HEAD:./$(basename "$1")") "$1" ||
		fail "could not put the use-after-free into $1: see oom_charges_release()"
}

# plant_leaked_charge FILE: in oom_charges_release() of FILE, never drop
# the reference a record held on the ledger it charged, so that the ledger
# of an exited process stays.  Fails when the code is not there.
plant_leaked_charge() {
	# shellcheck disable=SC2016 # perl's $1
	perl -0pi -e 's/(\t\t\tkmem_cache_free\(oom_charge_cachep, rec\);\n)\t\toom_ledger_put\(ledger\);\n/$1/' "$1"
	! cmp -s <(git -C "$(dirname "$1")" show "HEAD:./$(basename "$1")") "$1" ||
		fail "could not leave the ledger's reference in $1: see oom_charges_release()"
}
