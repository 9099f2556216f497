#!/bin/bash
# The comparison of the kernel's own selftests between the base kernel and
# the series (boot-tests/upstream-selftests-compare.sh), on canned boots:
# the same results pass, a both-fail passes only when the known-failures
# file lists it (and says why); a test the series breaks fails, as do one
# it no longer runs, a both-fail not listed and a run with no results.  And
# the data agrees: every known failure names a chosen test, and every
# chosen test says why it was chosen.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

compare=$TOP/boot-tests/upstream-selftests-compare.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# boot FILE MEMCG_HIGH MEMFD: a boot's KTAP as boot.sh writes it, with
# test_memcontrol's test_memcg_high and memfd_test as given ("ok", "not ok"
# or "" for no line), the rest passing, and test_memcg_sock failing.
boot() {
	{
		echo "KTAP version 1"
		echo "1..8"
		echo "# test_memcontrol: start"
		echo "# test_memcontrol: ok 1 test_memcg_subtree_control"
		echo "# test_memcontrol: ok 1 test_memcg_subtree_control"
		[ -z "$2" ] || echo "# test_memcontrol: $2 2 test_memcg_high"
		echo "# test_memcontrol: not ok 3 test_memcg_sock"
		echo "# test_memcontrol: ok 4 # SKIP test_memcg_low"
		echo "not ok 1 test_memcontrol # exit status 1"
		echo "# memfd_test: memfd: DONE"
		[ -z "$3" ] || echo "$3 2 memfd_test"
		echo "ok 3 mrelease_test # SKIP"
		echo "ok 4 map_populate"
		echo "ok 5 mremap_dontunmap"
		echo "ok 6 map_fixed_noreplace"
		echo "ok 7 kernel-log"
		echo "ok 8 boot # 30 s"
	} >"$1"
}
boot "$tmp/base" ok ok
printf '6.1\ttest_memcontrol.test_memcg_sock\tthe kernel has no INET\n' >"$tmp/known"
printf '# none\n' >"$tmp/none"

out=$("$compare" -k "$tmp/known" 6.1 "$tmp/base" "$tmp/base") ||
	fail "the same results fail the comparison: $out"
grep -q '^ok [0-9]* test_memcontrol.test_memcg_sock # fails on both kernels, known: the kernel has no INET$' <<<"$out" ||
	fail "a known both-fail is not said with its reason: $out"
grep -q '^ok [0-9]* test_memcontrol.test_memcg_low # SKIP' <<<"$out" || fail "a skip is not said: $out"
[ "$(grep -c 'test_memcg_subtree_control' <<<"$out")" = 1 ] || fail "a line printed twice is compared twice: $out"
echo "ok: the same results pass, the known both-fail with its reason"

expect_fail 'not ok [0-9]+ test_memcontrol.test_memcg_sock # fails on both kernels, not known' \
	"$compare" -k "$tmp/none" 6.1 "$tmp/base" "$tmp/base"
expect_fail 'not ok [0-9]+ test_memcontrol.test_memcg_sock # fails on both kernels, not known' \
	"$compare" -k "$tmp/known" 6.12 "$tmp/base" "$tmp/base"
boot "$tmp/series" "not ok" ok
expect_fail 'not ok [0-9]+ test_memcontrol.test_memcg_high # regression' \
	"$compare" -k "$tmp/known" 6.1 "$tmp/base" "$tmp/series"
boot "$tmp/series" "" ok
expect_fail 'test_memcg_high: ok on the base, not ok \(no result\) on the series' \
	"$compare" -k "$tmp/known" 6.1 "$tmp/base" "$tmp/series"
boot "$tmp/series" ok "not ok"
expect_fail 'not ok [0-9]+ memfd_test # regression' \
	"$compare" -k "$tmp/known" 6.1 "$tmp/base" "$tmp/series"
boot "$tmp/series" ok ""
expect_fail 'memfd_test: ok on the base, not ok on the series: no result' \
	"$compare" -k "$tmp/known" 6.1 "$tmp/base" "$tmp/series"
sed 's/^ok 4 map_populate$/ok 4 map_populate # SKIP no tmpfs/' "$tmp/base" >"$tmp/series"
expect_fail 'not ok [0-9]+ map_populate # regression' \
	"$compare" -k "$tmp/known" 6.1 "$tmp/base" "$tmp/series"
: >"$tmp/empty"
expect_fail 'not ok [0-9]+ map_populate # fails on both kernels, not known' \
	"$compare" -k "$tmp/known" 6.1 "$tmp/empty" "$tmp/empty"
# Better on the series is no failure.
out=$("$compare" -k "$tmp/known" 6.1 "$tmp/series" "$tmp/base") ||
	fail "a test that passes on the series only fails the comparison: $out"

# The data: known failures name chosen tests, chosen tests say why.
mapfile -t chosen < <(table_rows "$TOP/boot-tests/upstream-selftests" | awk '{ print $1 }')
while read -r ver t why; do
	[[ " ${chosen[*]} " == *" ${t%%.*} "* ]] ||
		fail "boot-tests/upstream-selftests-known: $t is no test of boot-tests/upstream-selftests"
	[ "$ver" = "*" ] || [ -d "$TOP/series/$ver" ] ||
		fail "boot-tests/upstream-selftests-known: $t: no kernel $ver in series/"
	[ -n "$why" ] || fail "boot-tests/upstream-selftests-known: $t has no reason"
done < <(table_rows "$TOP/boot-tests/upstream-selftests-known")
table_rows "$TOP/boot-tests/upstream-selftests" | awk 'NF < 4 { print; bad = 1 } END { exit bad }' ||
	fail "boot-tests/upstream-selftests: a test without its folder, sources or reason (above)"
echo "ok: ${#chosen[@]} chosen tests, each with its reason; the known failures are theirs"
