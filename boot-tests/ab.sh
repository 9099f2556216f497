#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh [-d] VERSION ARCH COMPILER
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
#
# The runs of boot-tests/desktop-runs follow, on the desktop guest
# (boot-tests/desktop-initramfs.sh: weston and its clients) with 1 GiB of
# RAM, their logs in ab/desktop/; their scenarios are rows of the same
# table.  -d runs them alone, and writes the table to ab/desktop/table.md;
# AB_DESKTOP=no leaves them out.  Only on a machine with desktop_guest=yes
# (boot-tests/machines).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

desktop_only=
[ "${1:-}" != -d ] || { desktop_only=1; shift; }
[ $# -eq 3 ] || die "usage: $0 [-d] VERSION ARCH COMPILER"
ver=$1 arch=$2 comp=$3
tag=$(base_get "$ver" tag)
kver=${tag#v}
image=$(machine "$arch" image)
declare -A kout
{ read -r 'kout[series]'; read -r 'kout[base]'; } < <("$TOP/boot-tests/kernels.sh" "$ver" "$arch" "$comp")
[ -f "${kout[series]}/initramfs.cpio.gz" ] || die "building the kernels failed"
results=${kout[series]}/ab

# A run: "NAME KERNEL CMDLINE TESTS GUEST": the guest is the folder of its
# logs under ab/ (. or desktop), and says which initramfs and how much RAM.
runs=()
[ -n "$desktop_only" ] || mapfile -t runs < <(ab_runs | sed 's/$/ ./')
if [ "${AB_DESKTOP:-yes}" = no ] && [ -z "$desktop_only" ]; then
	:
elif [ "$(machine "$arch" desktop_guest)" = yes ]; then
	mapfile -t -O ${#runs[@]} runs < <(table_rows "$TOP/boot-tests/desktop-runs" | sed 's/$/ desktop/')
elif [ -n "$desktop_only" ]; then
	die "no desktop guest on $arch: see desktop_guest in boot-tests/machines/$arch"
fi
table=$results/${desktop_only:+desktop/}table.md
mkdir -p "$results/desktop"
echo "KTAP version 1"
echo "1..${#runs[@]}"
n=0 fail=0
for r in "${runs[@]}"; do
	read -r run kernel cmdline tests guest <<<"$r"
	n=$((n + 1))
	[ "$cmdline" != - ] || cmdline=
	initrd=${kout[series]}/initramfs.cpio.gz mem=512M log=$results/$guest/$run.log
	[ "$guest" = . ] || initrd=${kout[series]}/desktop.cpio.gz mem=1G
	rc=0
	# boot.sh writes its KTAP to $run.log.ktap too.
	"$TOP/boot-tests/boot.sh" -T "${BOOT_TIMEOUT:-900}" -m $mem -a "oomtest.expect=$run $cmdline" \
		"$arch" "${kout[$kernel]}/$image" "$initrd" "$log" "$tests" >/dev/null 2>"$log.notes" || rc=$?
	sed 's/^/# /' "$log.notes"
	ktap_nest "$log.ktap"
	label=$run
	[ "$guest" = . ] || label=$guest-$run
	ktap_result $n "$label" $rc "$log" || fail=$((fail + 1))
done

# The table: whom the OOM killer killed first, scenario by run (a column a
# run name, in the order of their first runs), for the scenarios that some
# run ran.
mapfile -t rows < <(table_rows "$TOP/boot-tests/scenarios")
read -r -a columns <<<"${rows[0]}"
mapfile -t names < <(printf '%s\n' "${runs[@]}" | awk '!seen[$1]++ { print $1 }')
{
	printf '| scenario |'
	printf ' %s |' "${names[@]}"
	printf '\n|---|'
	for run in "${names[@]}"; do printf -- '---|'; done
	printf '\n'
	for row in "${rows[@]:1}"; do
		read -r -a cell <<<"$row"
		s=${cell[0]}
		grep -qE "(^|,)$s(,|$)" <<<"$(printf '%s\n' "${runs[@]}" | awk '{ print $4 }')" || continue
		printf '| %s |' "$s"
		for run in "${names[@]}"; do
			expect=
			for i in "${!columns[@]}"; do
				[ "${columns[$i]}" != "$run" ] || expect=${cell[$i]}
			done
			# The log of the run of this name that ran the scenario.
			log=$(printf '%s\n' "${runs[@]}" |
				awk -v r="$run" -v s="$s" '$1 == r && ("," $4 ",") ~ ("," s ",") { print $5 }' | head -n 1)
			log=$results/$log/$run.log.ktap
			v=$(sed -n "s/^# $s: victim: //p" "$log" 2>/dev/null | head -n 1)
			# A scenario whose victim must die alone says so when it did not.
			! grep -qE "^# $s: error: (the hog's death ended the pressure|the hog died, but not alone)" \
				"$log" 2>/dev/null || v+=" (not alone)"
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
} >"$table"
# The table, in the KTAP document as diagnostics: one document a run.
echo "#"
sed 's/^/# /' "$table"
[ $fail = 0 ] || die "$fail of ${#runs[@]} runs failed; their logs are in $results"
