#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh VERSION ARCH COMPILER
#
# The series against its base, in QEMU: build the boot-test kernel of the
# series (out/<kver>/<arch>-<compiler>/) and of its base tree with the same
# configuration (out/<kver>-base/<arch>-<compiler>/), boot them for each run
# of boot-tests/ab-runs, and report KTAP, one line a run (with the run's own
# KTAP as its subtest).  Then print the table of victims, scenario by run,
# as the document's last diagnostics, and write it to
# out/<kver>/<arch>-<compiler>/ab/table.md.
#
# The OOM scenarios assert the victim each run expects, the run's column of
# boot-tests/scenarios: with the series the hog dies in every scenario; on
# the base kernel, and on the series with vm.oom_file_badness=0, the
# bystander dies where the hog allocates through files (the bug).
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 3 ] || die "usage: $0 VERSION ARCH COMPILER"
ver=$1 arch=$2 comp=$3
tag=$(base_get "$ver" tag)
kver=${tag#v}
image=$(machine "$arch" image)
declare -A kout
{ read -r 'kout[series]'; read -r 'kout[base]'; } < <("$TOP/boot-tests/kernels.sh" "$ver" "$arch" "$comp")
[ -f "${kout[series]}/initramfs.cpio.gz" ] || die "building the kernels failed"
results=${kout[series]}/ab

mapfile -t runs < <(ab_runs)
mkdir -p "$results"
echo "KTAP version 1"
echo "1..${#runs[@]}"
n=0 fail=0
for r in "${runs[@]}"; do
	read -r run kernel cmdline tests <<<"$r"
	n=$((n + 1))
	[ "$cmdline" != - ] || cmdline=
	rc=0
	# boot.sh writes its KTAP to $run.log.ktap too.
	"$TOP/boot-tests/boot.sh" -T "${BOOT_TIMEOUT:-900}" -a "oomtest.expect=$run $cmdline" \
		"$arch" "${kout[$kernel]}/$image" "${kout[series]}/initramfs.cpio.gz" \
		"$results/$run.log" "$tests" >/dev/null 2>"$results/$run.notes" || rc=$?
	sed 's/^/# /' "$results/$run.notes"
	ktap_nest "$results/$run.log.ktap"
	ktap_result $n "$run" $rc "$results/$run.log" || fail=$((fail + 1))
done

# The table: whom the OOM killer killed first, scenario by run, for the
# scenarios that some run ran.
mapfile -t rows < <(table_rows "$TOP/boot-tests/scenarios")
read -r -a columns <<<"${rows[0]}"
{
	printf '| scenario |'
	for r in "${runs[@]}"; do printf ' %s |' "${r%%[[:space:]]*}"; done
	printf '\n|---|'
	for r in "${runs[@]}"; do printf -- '---|'; done
	printf '\n'
	for row in "${rows[@]:1}"; do
		read -r -a cell <<<"$row"
		s=${cell[0]}
		grep -qE "(^|,)$s(,|$)" <<<"$(printf '%s\n' "${runs[@]}" | awk '{ print $4 }')" || continue
		printf '| %s |' "$s"
		for r in "${runs[@]}"; do
			read -r run kernel cmdline tests <<<"$r"
			expect=
			for i in "${!columns[@]}"; do
				[ "${columns[$i]}" != "$run" ] || expect=${cell[$i]}
			done
			v=$(sed -n "s/^# $s: victim: //p" "$results/$run.log.ktap" | head -n 1)
			# A scenario whose victim must die alone says so when it did not.
			! grep -q "^# $s: error: the hog's death ended the pressure" \
				"$results/$run.log.ktap" || v+=" (not alone)"
			if [ -z "$v" ]; then
				printf ' (no result) |'
			elif [ "$v" = "$expect" ]; then
				printf ' %s dies |' "$v"
			else
				printf ' %s dies, expected %s |' "$v" "$expect"
			fi
		done
		printf '\n'
	done
	printf '\n%s, %s, %s; %s: victims, and whether each is the one the run expects.\n' \
		"Linux $kver" "$arch" "$comp" "$(date -u +%Y-%m-%d)"
} >"$results/table.md"
# The table, in the KTAP document as diagnostics: one document a run.
echo "#"
sed 's/^/# /' "$results/table.md"
[ $fail = 0 ] || die "$fail of ${#runs[@]} runs failed; their logs are in $results"
