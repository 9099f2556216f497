#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# torture-bench.sh [-r ROUNDS] [-t SECONDS] [-o DIR] VERSION ARCH COMPILER
#
# make torture-bench: the series' cost as stress-ng measures it.  Boot the
# base kernel and the series' kernel in turn, ROUNDS times (3), in the
# torture guest (boot-tests/torture-initramfs.sh), which runs each stressor
# of boot-tests/torture-stressors for SECONDS (10) with one worker a CPU
# (guest/torture-bench.sh).  The kernels are the boot-test kernels
# (boot-tests/kernels.sh: configs/boot.config, lockdep on, as the
# benchmarks' of BENCHMARKS.md), not the torture run's KASAN kernels: a
# KASAN kernel under TCG measures KASAN.  Each stressor's bogo-ops a second
# of the series over the base's is taken within a round, the two kernels
# booted one after the other; boot-tests/torture-bench-report.sh gives the
# median and the range over the rounds.  Written to DIR
# (out/torture/bench-<kver>-<arch>-<compiler>): meta, results.tsv (round,
# kernel, stressor, bogo-ops, seconds, bogo-ops a second), logs/ and
# report.md; `make torture-report` puts the report in docs/torture.md.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

usage="usage: $0 [-r ROUNDS] [-t SECONDS] [-o DIR] VERSION ARCH COMPILER"
rounds=3 sec=10 dir=''
while getopts r:t:o: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	t) sec=$OPTARG ;;
	o) dir=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || die "$usage"
ver=$1 arch=$2 comp=$3
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-r $rounds: a number of rounds"
[[ $sec =~ ^[1-9][0-9]*$ ]] || die "-t $sec: a number of seconds"
tag=$(base_get "$ver" tag)
kver=${tag#v}
dir=${dir:-$OUT/torture/bench-$kver-$arch-$comp}
here=$(cd "$(dirname "$0")" && pwd)
image=$(machine "$arch" image)
# NAME or NAME:OPTION,...: the guest's list is comma-separated, a
# stressor's options joined by colons (a command line's value has no space).
stressors=$(table_rows "$here/torture-stressors" |
	awk '{ o = $2 == "-" ? "" : ":" $2; gsub(/,/, ":", o); printf "%s%s%s", sep, $1, o; sep = "," }')
[ -n "$stressors" ] || die "no stressor in boot-tests/torture-stressors"

declare -A kout
{ read -r 'kout[series]'; read -r 'kout[base]'; } < <("$here/kernels.sh" "$ver" "$arch" "$comp")
mkdir -p "$dir/logs"
rm -f "$dir"/logs/* "$dir/results.tsv" "$dir/report.md"
"$here/torture-initramfs.sh" "$arch" "${kout[series]}/initramfs.cpio.gz" "$dir/torture.cpio.gz" >&2
tsc=$(tsc_params "$arch")
# The emulator before the host's other work, where we may: under TCG its
# speed is all the guest has.
prio=()
[ "$(id -u)" != 0 ] || prio=(nice -n -10)
flags=''
[ "$rounds" = 3 ] || flags+=" -r $rounds"
[ "$sec" = 10 ] || flags+=" -t $sec"
[ -z "$flags" ] || flags=" TORTURE_BENCH_FLAGS='${flags# }'"
start=$SECONDS
{
	echo "date	$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "command	make torture-bench VERSION=$ver ARCH=$arch COMPILER=$comp$flags"
	echo "kernel	Linux $kver, $arch, $comp, boot-test config (configs/boot.config)"
	echo "series	$(git -C "$(worktree_dir "$ver")" rev-parse HEAD)"
	echo "host	$(host_machine)"
	echo "qemu	$("$(machine "$arch" qemu)" --version | head -n 1)"
	echo "rounds	$rounds"
	echo "seconds_each	$sec"
	echo "stressors	$stressors"
	echo "priority	${prio[*]:-none}"
	echo "load_start	$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$dir/meta"

# Per stressor and boot, a guest's run takes SECONDS; booting and the
# stressors' ends take their own.
timeout=$((sec * $(table_rows "$here/torture-stressors" | wc -l) * 3 + 600))
echo "KTAP version 1"
echo "1..$((rounds * 2))"
n=0 fail=0
for round in $(seq "$rounds"); do
	for k in base series; do
		n=$((n + 1))
		log=$dir/logs/$round-$k.log
		rc=0
		"${prio[@]}" "$here/boot.sh" -T "$timeout" -m 1G \
			-a "loglevel=1 $tsc oomtest.torture_bench_sec=$sec oomtest.torture_stressors=$stressors" \
			"$arch" "${kout[$k]}/$image" "$dir/torture.cpio.gz" "$log" torture-bench \
			>/dev/null 2>"$log.notes" || rc=$?
		grep -q '^cpus' "$dir/meta" ||
			sed -n 's/^# guest: \([0-9]*\) CPUs$/cpus\t\1/p' "$log.ktap" | head -n 1 >>"$dir/meta"
		grep -q '^stress-ng' "$dir/meta" ||
			sed -n 's/^# torture-bench: version /stress-ng\t/p' "$log.ktap" | head -n 1 >>"$dir/meta"
		sed -n 's/^# torture-bench: result /result /p' "$log.ktap" |
			awk -v r="$round" -v k="$k" -v OFS='\t' '{ print r, k, $2, $3, $4, $5 }' >>"$dir/results.tsv"
		grep '^not ok\|^# torture-bench: .*: stress-ng exited' "$log.ktap" | sed 's/^/# /' || true
		ktap_result $n "$round-$k" $rc "$log" || fail=$((fail + 1))
	done
done
{
	echo "load_end	$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "seconds	$((SECONDS - start))"
} >>"$dir/meta"
"$here/torture-bench-report.sh" "$dir"
echo "#"
sed 's/^/# /' "$dir/report.md"
note "report: $dir/report.md ($((SECONDS - start)) s); make torture-report puts it in docs/torture.md"
[ $fail = 0 ] || die "$fail of $n boots failed; their logs are in $dir/logs"
