#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# timings.sh [-s SUMMARY] [-t TIMINGS] [-o PAGE] [-d DIR]...
#
# Write PAGE (docs/timings.md), how long the last runs took, as data: each
# test from TIMINGS (out/tests/timings, written by tests/run.sh), each
# step of the CI legs from SUMMARY (out/ci/summary.md, its rows written by
# ci/summary.sh), each part of allmod-full built (its record, written by
# checks/allmod.sh), and each kernel build, guest build and boot that left a
# FILE.seconds in a DIR (out/ and the desktop rootfs cache by default:
# build/lib.sh's with_progress, boot-tests/boot.sh, desktop-rootfs.sh and
# desktop-initramfs.sh write them), with the date, the machine and whether
# each figure is cold or warm where the run recorded it.  A file that is
# not there yet is said so on the page.  A malformed line fails, naming the
# file and the line, and PAGE is left as it was.  `make timings` runs it; so does
# tests/run.sh, after a whole tier.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

summary=${CI_SUMMARY:-$OUT/ci/summary.md} timings=$OUT/tests/timings page=$TOP/docs/timings.md
dirs=()
while getopts s:t:o:d: opt; do
	case $opt in
	s) summary=$OPTARG ;;
	t) timings=$OPTARG ;;
	o) page=$OPTARG ;;
	d) dirs+=("$OPTARG") ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || die "usage: $0 [-s SUMMARY] [-t TIMINGS] [-o PAGE] [-d DIR]..."
[ ${#dirs[@]} != 0 ] || dirs=("$OUT" "$KCACHE/desktop-rootfs")

# A path as the page shows it: from the checkout, or from ~.
# shellcheck disable=SC2088 # ~ shown, not expanded
rel() {
	case $1 in
	"$TOP"/*) printf '%s\n' "${1#"$TOP"/}" ;;
	"$HOME"/*) printf '%s\n' "~/${1#"$HOME"/}" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# The FILE.seconds files of the DIRs, sorted.
seconds_files() {
	local d
	for d in "${dirs[@]}"; do
		# Not into a rootfs: its files are Debian's.
		[ ! -d "$d" ] || find "$d" -path '*/desktop-rootfs/*/*' -prune -o -name '*.seconds' -type f -print
	done | sort
}

# check FILE ERE WHAT: every line of FILE that is data (for a table, a row
# but its header; else, not a comment) matches ERE; else fail, naming it.
check() {
	awk -v ere="$2" -v f="$(rel "$1")" -v what="$3" '
		/^#/ || !NF || /^\| leg \| step \|/ || /^\|---/ { next }
		what ~ /^row/ && !/^\|/ { next }
		$0 !~ ere { printf "%s:%d: not a %s: %s\n", f, NR, what, $0; bad = 1; exit }
		END { exit bad }' "$1" >&2 ||
		die "$(rel "$1") is malformed (above): run again what writes it, then make timings"
}

tests_section() {
	local cache
	echo "## Tests (make test)"
	echo
	if [ ! -f "$timings" ]; then
		echo "No $(rel "$timings") here yet: run \`make test\`, then \`make timings\`."
		return
	fi
	cache=$(sed -n 's/^# cache: //p' "$timings")
	echo "From $(rel "$timings"): \`$(sed -n 's/^# command: //p' "$timings")\`," \
		"started $(sed -n 's/^# date: //p' "$timings")" \
		"on $(sed -n 's/^# machine: //p' "$timings"); kernel cache ${cache:-not recorded}."
	echo
	echo "| test | result | time | cache |"
	echo "|---|---|---|---|"
	awk -F'\t' -v cache="${cache:-?}" '
		/^#/ || !NF { next }
		{ printf "| %s | %s | %d s | %s |\n", $1, $2, $3, cache; t += $3; n[$2]++ }
		END { printf "| all | %d ok, %d skipped, %d failed | %d s (%d min) | |\n",
			n["ok"], n["skip"], n["fail"], t, int((t + 30) / 60) }' "$timings"
}

ci_section() {
	echo "## CI legs (make ci)"
	echo
	if [ ! -f "$summary" ]; then
		echo "No $(rel "$summary") here yet: run \`make ci\`, then \`make timings\`."
		return
	fi
	echo "From $(rel "$summary"), last written $(date -u -r "$summary" '+%Y-%m-%d %H:%M UTC');" \
		"cold or warm: not recorded (each leg prints its ccache hit rate)."
	echo
	echo "| leg | step | result | time |"
	echo "|---|---|---|---|"
	awk -F' *\\| *' '
		/^\| leg \| step \|/ || /^\|---/ || !/^\|/ { next }
		{ printf "| %s | %s | %s | %s |\n", $2, $3, $4, $5; t += $5; n[$4]++ }
		END { printf "| all | | %d PASS, %d FAIL, %d SKIP | %d s (%d min) |\n",
			n["PASS"], n["FAIL"], n["SKIP"], t, int((t + 30) / 60) }' "$summary"
}

# parts_section: the parts of allmod-full built here (SHARD=i/N), from
# their records, out/ci/LEG/allmod-parts/i-of-N.json: a row a part.
parts_section() {
	local f parts
	echo "## allmod-full, part by part (make ci CI_STEPS=allmod-full SHARD=i/N)"
	echo
	mapfile -t parts < <(find "$OUT/ci" -path '*/allmod-parts/*-of-*.json' -type f 2>/dev/null | sort -V)
	if [ ${#parts[@]} = 0 ]; then
		echo "No part built in $(rel "$OUT")/ci yet: [ci-engines.md](ci-engines.md) says how."
		return
	fi
	echo "From each part's record (out/ci/LEG/allmod-parts/i-of-N.json). A part"
	echo "built at lower priority beside other work took longer than alone. Its"
	echo "time adds up every run into its folder; \"at least\" marks a folder"
	echo "partly built before its runs were timed (a record without \"runs\")."
	echo
	echo "| leg | part | result | time | objects compared | series commit | when |"
	echo "|---|---|---|---|---|---|---|"
	for f in "${parts[@]}"; do
		jq -r --arg when "$(date -u -r "$f" '+%Y-%m-%d %H:%M UTC')" \
			'"| \(.leg) | \(.part) | \(.result) | \(if (.all_runs_timed // false) then "" else "at least " end)\(.seconds) s\(if (.runs // 1) > 1 then " in \(.runs) runs" else "" end) | \(.compared) | \(.commit[0:12]) | \($when) |"' "$f" ||
			die "$(rel "$f") is not a part's record: remove it, or build the part again"
	done
}

# runs_section FILE.seconds...: a row each.
runs_section() {
	local f
	echo "## Kernel builds, guest builds and boots"
	echo
	if [ $# = 0 ]; then
		echo "No FILE.seconds here yet: run \`make\` (or \`make test\`), then \`make timings\`."
		return
	fi
	echo "Each from the FILE.seconds its run left beside FILE (the log or what"
	echo "it built): a kernel's build.log, a boot's serial log, a desktop rootfs."
	echo
	echo "| what | time | when |"
	echo "|---|---|---|"
	for f; do
		printf '| %s | %d s | %s |\n' "$(rel "${f%.seconds}")" "$(cat "$f")" \
			"$(date -u -r "$f" '+%Y-%m-%d %H:%M UTC')"
	done
}

[ ! -f "$timings" ] || check "$timings" $'^[^\t ]+\t(ok|skip|fail)\t[0-9]+$' "line of tests/run.sh"
[ ! -f "$summary" ] || check "$summary" '^\| [^|]+ \| [^|]+ \| (PASS|FAIL|SKIP) \| [0-9]+ s \| [^|]* \|$' \
	"row of ci/summary.sh"
# One walk of the DIRs (out/ holds whole kernel build trees).
mapfile -t seconds < <(seconds_files)
for f in "${seconds[@]}"; do
	grep -qxE '[0-9]+' "$f" ||
		die "$(rel "$f") is not a number of seconds: $(head -c 80 "$f"); remove it, or run again what writes it"
done
now=$(date -u '+%Y-%m-%d %H:%M UTC')
tmp=$(mktemp "$page.XXXXXX")
trap 'rm -f "$tmp"' EXIT
{
	echo "Generated by ci/timings.sh on $now; do not edit:" \
		"regenerate with \`make timings\` (after \`make test\` or \`make ci\`)."
	echo
	echo "# Timings"
	echo
	echo "How long each test, each CI step, each kernel build and each boot took"
	echo "in the last run that left its results in out/.  Cold: the kernel cache"
	echo "had no ccache when the run started, so every object was compiled;"
	echo "warm: it had one.  What the tests and the steps do: [ci.md](ci.md),"
	echo "and the test tiers in [README.md](../README.md)."
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| generated | $now |"
	echo "| on the machine | $(host_machine) |"
	echo
	tests_section
	echo
	ci_section
	echo
	parts_section
	echo
	runs_section "${seconds[@]}"
} >"$tmp"
chmod 644 "$tmp"
mv "$tmp" "$page"
note "wrote $(rel "$page")"
