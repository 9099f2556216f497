#!/bin/bash
# The boot tests' data holds together: every test a run of
# boot-tests/ab-runs names is one the guest can run (boot-tests/guest/tests);
# every OOM scenario of boot-tests/scenarios is there, as oom-scenario, and
# in the table of boot-tests/guest/lib/scenario.c (a desktop-* one as
# desktop-scenario, in guest/desktop-scenario.c), with a victim for each
# column; every one but a desktop-* one is there as bench-NAME too, for the
# benchmark; and every run of ab-runs and desktop-runs is a column.  A
# scenario added to the table and the runs but not to guest/tests boots as
# "no-such-test", which only a boot shows.  The check proves it can fail,
# on a copy with a line of guest/tests gone.  And the kselftest skips that
# tests/60 allows are those boot-tests/kselftest-skips lists, in either
# harness's format; and the A/B tables' check passes the table the
# scenarios expect and names a row with another victim, or none.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# in_tests TESTS SCENARIO PROG [NAME]: the guest's test list TESTS (a
# guest/tests) runs "PROG SCENARIO" as NAME (SCENARIO by default).
in_tests() {
	table_rows "$1" | awk -v s="$2" -v p="$3" -v n="${4:-$2}" \
		'$1 == n && $2 == p && $3 == s { ok = 1 } END { exit !ok }'
}

# check DIR: say what does not hold in DIR/boot-tests, and fail then.
check() {
	local d=$1/boot-tests bad=0 t s run row prog src pat runs
	local -A known=() column=()
	local -a rows columns cell
	while read -r t _; do
		known[$t]=1
	done < <(table_rows "$d/guest/tests")
	mapfile -t rows < <(table_rows "$d/scenarios")
	read -r -a columns <<<"${rows[0]}"
	for t in "${columns[@]:1}"; do
		column[$t]=1
	done
	for runs in ab-runs desktop-runs; do
		while read -r run _ _ tests; do
			[ -n "${column[$run]:-}" ] ||
				{ echo "$runs: run $run is no column of scenarios"; bad=1; }
			for t in ${tests//,/ }; do
				[ -n "${known[$t]:-}" ] ||
					{ echo "$runs: run $run: $t is not in guest/tests"; bad=1; }
			done
		done < <(table_rows "$d/$runs")
	done
	for row in "${rows[@]:1}"; do
		read -r -a cell <<<"$row"
		s=${cell[0]}
		prog=oom-scenario src=guest/lib/scenario.c pat="{ \"$s\","
		[[ $s != desktop-* ]] || prog=desktop-scenario src=guest/desktop-scenario.c pat="\"$s\""
		[ "${#cell[@]}" = "${#columns[@]}" ] ||
			{ echo "scenarios: $s has ${#cell[@]} columns, not ${#columns[@]}"; bad=1; }
		in_tests "$d/guest/tests" "$s" "$prog" ||
			{ echo "scenarios: $s is not '$prog $s' in guest/tests"; bad=1; }
		grep -qF "$pat" "$d/$src" ||
			{ echo "scenarios: $s is not in $src"; bad=1; }
		# The benchmark runs every scenario but the desktop's as bench-NAME
		# (boot-tests/bench.sh).
		[[ $s == desktop-* ]] || in_tests "$d/guest/tests" "$s" bench-oom "bench-$s" ||
			{ echo "scenarios: $s is not 'bench-oom $s' as bench-$s in guest/tests"; bad=1; }
	done
	return $bad
}

check "$TOP" || fail "the boot tests' data does not hold together: fix boot-tests/ as said above"
echo "ok: boot-tests' runs, scenarios and guest tests agree"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a "$TOP/boot-tests" "$tmp/"
sed -i '/^gem-compositor\t/d' "$tmp/boot-tests/guest/tests"
expect_fail 'gem-compositor is not in guest/tests' check "$tmp"
cp "$TOP/boot-tests/guest/tests" "$tmp/boot-tests/guest/tests"
sed -i '/^bench-gem-vram-holder\t/d' "$tmp/boot-tests/guest/tests"
expect_fail 'gem-vram-holder is not .bench-oom gem-vram-holder. as bench-gem-vram-holder' check "$tmp"
# The kselftest's skips that tests/60 allows: a reason that
# boot-tests/kselftest-skips lists passes (on a copy that lists one; v4's
# lists none), an unlisted one (both harness formats, 6.1's and 6.12's)
# fails.
echo 'vgem has no video memory' >>"$tmp/boot-tests/kselftest-skips"
printf '%s\n' '# oom_ledger_test: ok 30 ledger.gem_vram # SKIP vgem has no video memory' >"$tmp/listed.ktap"
(TOP=$tmp kselftest_skips "$tmp/listed.ktap") || fail "kselftest_skips refused a reason boot-tests/kselftest-skips lists"
expect_fail 'skipped: vgem has no video memory' kselftest_skips "$tmp/listed.ktap"
printf '%s\n' '# oom_ledger_test: ok 16 # SKIP no vgem card in /dev/dri' >"$tmp/card.ktap"
expect_fail 'skipped: no vgem card' kselftest_skips "$tmp/card.ktap"
printf '%s\n' '# oom_ledger_test: ok 6 ledger.sysctl_off # SKIP cannot write /proc/sys/vm/oom_file_badness' >"$tmp/root.ktap"
expect_fail 'skipped: cannot write' kselftest_skips "$tmp/root.ktap"
# The A/B tables' check (tests/60 and 64): a table with every row as
# boot-tests/scenarios expects passes; a row with another victim, or a
# row missing, fails, unless the rows asked for leave it out.
table_rows "$TOP/boot-tests/scenarios" | tail -n +2 |
	awk '{ printf "| %s | %s dies | %s dies | %s dies |\n", $1, $2, $3, $4 }' >"$tmp/table.md"
expected_victims "$tmp/table.md" || fail "expected_victims refused the table boot-tests/scenarios expects"
sed -i 's/^| gem-hog | hog dies |/| gem-hog | bystander dies |/' "$tmp/table.md"
expect_fail 'gem-hog: .* bystander dies .*, expected hog /' expected_victims "$tmp/table.md"
sed -i '/^| gem-hog /d; /^| desktop-/d' "$tmp/table.md"
expect_fail 'gem-hog: no row' expected_victims "$tmp/table.md" '!(desktop-*)'
expected_victims "$tmp/table.md" '!(@(desktop-*|gem-hog))' ||
	fail "expected_victims checked a row its pattern leaves out"
echo "ok: expected_victims passes the expected table and names a wrong or missing row"
