#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [-q] [-n] [-r ROUNDS] [-o DIR] [-s SCENARIOS] VERSION ARCH COMPILER
#
# What the series costs and what it buys, side by side in one run: boot the
# kernels of boot-tests/bench-runs (the base, the series with
# vm.oom_file_badness=0, the series) in QEMU, ROUNDS times in turn (5), and
# in each boot measure
#
#   bench-score    the time to read /proc/PID/oom_score against open files
#   bench-select   the time of a forced OOM victim selection among 300 tasks
#   bench-gem      the time of a vgem dumb buffer create and GEM_CLOSE
#   bench-fdops    open, dup, close, fork, exec and SCM_RIGHTS of memfds and
#                  sockets, and bench-latency: socket() while oom_score is read
#   bench-alloc    memfd write(), faults and punch-hole, a page; the exit of
#                  a task holding 1000 charged memfds
#   bench-handoff  the exit of a task whose 1000 charged memfds its child
#                  keeps, and an OOM with 1000 charges let go: hand-offs
#   bench-<scenario>  whom the OOM killer kills first, how many it kills
#                  before the pressure ends, and how long that takes
#
# (the guest's programs: guest/bench-cost.c, guest/bench-oom.c).  Each
# kernel boots twice a round: the costs in a guest of BENCH_COST_MEM (2G),
# large enough to hold 100000 sockets under lockdep, and the scenarios in
# the A/B table's guest (512 MiB), whose memory they fill.  The kernels are
# booted round by round, so that what the host does meanwhile falls on all
# three alike; the ratios are taken within a round.  Results
# are written as they come to DIR/results.tsv (out/bench by default), one
# line a measurement, with each boot's log in DIR/logs; then
# boot-tests/bench-report.sh writes DIR/report.md and DIR/plot.png.  A
# whole run (not -q) on x86_64 into out/bench also writes the report to the
# checkout's BENCHMARKS.md, the figures the project stands by.
#
#   -q  the short form (tests/80-bench.sh): 1 round, up to 1000 files,
#       50 tasks, fewer samples; of the scenarios, the two of the
#       benchmark alone (memfd-sparse, gem-churn)
#   -n  do not build: use the kernels already in out/ and build only the
#       guest's initramfs, into DIR
#   -r  the number of rounds
#   -o  the folder of the results
#   -s  only these scenarios (a comma-separated list), and no costs: the
#       OOM boots alone, e.g. -s oom-decoys,memcg-siblings -o out/bench-oom;
#       never written to BENCHMARKS.md
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

quick='' nobuild='' rounds='' dir=$OUT/bench only=''
while getopts qnr:o:s: opt; do
	case $opt in
	q) quick=1 ;;
	n) nobuild=1 ;;
	r) rounds=$OPTARG ;;
	o) dir=$OPTARG ;;
	s) only=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || die "usage: $0 [-q] [-n] [-r ROUNDS] [-o DIR] [-s SCENARIOS] VERSION ARCH COMPILER"
ver=$1 arch=$2 comp=$3
tag=$(base_get "$ver" tag)
kver=${tag#v}
image=$(machine "$arch" image)
# No swap in the benchmark's guests: with it, the base kernel thrashed for
# more than the scenarios' 120 s beside the GEM churner before it killed
# the hog; the figures stay comparable with the runs before swap.
export SWAP_MB=0
# The scenarios of the A/B table, and two only the benchmark runs (the
# short form runs those two alone: make test asserts the A/B table's).
# Not the desktop-* rows: they need the desktop guest (weston), which the
# benchmark does not boot.
scenarios=()
[ -n "$quick" ] || mapfile -t scenarios < <(table_rows "$TOP/boot-tests/scenarios" |
	awk 'NR > 1 && $1 !~ /^desktop-/ { print $1 }')
scenarios+=(memfd-sparse gem-churn)
kinds=(cost oom)
if [ -n "$only" ]; then
	IFS=, read -r -a scenarios <<<"$only"
	kinds=(oom)
fi
# Two boots a kernel and round: the costs, in a guest that holds them, and
# the victims, in the guest whose memory the scenarios fill.
cost_mem=${BENCH_COST_MEM:-2G}
declare -A boot_tests=(
	[cost]="bench-score,bench-select,bench-gem,bench-fdops,bench-latency,bench-alloc,bench-handoff"
	[oom]=$(printf 'bench-%s,' "${scenarios[@]}")
)
boot_tests[oom]=${boot_tests[oom]%,}
declare -A boot_mem=([cost]=$cost_mem [oom]=512M)
if [ -n "$quick" ]; then
	rounds=${rounds:-1}
	params="oomtest.bench_files=0,1000 oomtest.bench_drm_files=0,1000 oomtest.bench_reads=7"
	params+=" oomtest.bench_sockets=0,10000 oomtest.bench_latency_files=1000"
	params+=" oomtest.bench_latency_ops=5000 oomtest.bench_fd_loops=2000"
	params+=" oomtest.bench_tasks=50 oomtest.bench_samples=5 oomtest.bench_gem_loops=1000"
	params+=" oomtest.bench_alloc_pages=256 oomtest.bench_exit_files=200 oomtest.bench_held=100"
	params+=" oomtest.bench_handoff_files=200"
else
	rounds=${rounds:-5}
	params="oomtest.bench_files=0,1000,10000,100000 oomtest.bench_drm_files=0,1000,10000"
	params+=" oomtest.bench_sockets=0,10000,100000 oomtest.bench_latency_files=10000"
	params+=" oomtest.bench_latency_ops=20000 oomtest.bench_fd_loops=10000"
	params+=" oomtest.bench_reads=15 oomtest.bench_tasks=300,1000 oomtest.bench_task_files=8"
	params+=" oomtest.bench_samples=15 oomtest.bench_gem_loops=1000"
	params+=" oomtest.bench_alloc_pages=1024 oomtest.bench_exit_files=1000 oomtest.bench_held=100"
	params+=" oomtest.bench_handoff_files=1000"
fi
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-r $rounds: not a number of rounds"

# build: the folders of the series' and the base's kernels, and the initramfs.
build() {
	local series base wt
	if [ -z "$nobuild" ]; then
		{ read -r series; read -r base; } < <("$TOP/boot-tests/kernels.sh" "$ver" "$arch" "$comp")
		echo "$series" "$base" "$series/initramfs.cpio.gz"
		return
	fi
	series=$OUT/$kver/$arch-$comp base=$OUT/$kver-base/$arch-$comp wt=$(worktree_dir "$ver")
	for f in "$series/$image" "$base/$image" "$wt/Makefile"; do
		[ -f "$f" ] || die "-n: no $f: build it first (make ab, or without -n)"
	done
	"$TOP/boot-tests/initramfs.sh" "$arch" "$wt" "$series" "$dir/initramfs.cpio.gz"
	echo "$series" "$base" "$dir/initramfs.cpio.gz"
}

flags=${quick:+ -q}${nobuild:+ -n}${only:+ -s $only}
[ "$rounds" = "$( [ -n "$quick" ] && echo 1 || echo 5)" ] || flags+=" -r $rounds"
[ -z "$flags" ] || flags=" BENCH_FLAGS='${flags# }'"
mkdir -p "$dir/logs"
rm -f "$dir"/logs/* "$dir/results.tsv" "$dir/report.md" "$dir/plot.png"
declare -A kout
read -r 'kout[series]' 'kout[base]' initrd < <(build)
[ -f "$initrd" ] || die "building the kernels or the initramfs failed"
mapfile -t runs < <(table_rows "$TOP/boot-tests/bench-runs")
tsc=$(tsc_params "$arch")
# The emulator before the host's other work, where we may: under TCG its
# speed is all the guest has.
prio=()
[ "$(id -u)" != 0 ] || prio=(nice -n -10)
start=$SECONDS
{
	echo "date	$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "command	make bench VERSION=$ver ARCH=$arch COMPILER=$comp$flags"
	echo "kernel	Linux $kver, $arch, $comp, boot-test config (configs/boot.config)"
	echo "host	$(host_machine)"
	echo "qemu	$("$(machine "$arch" qemu)" --version | head -n 1)"
	echo "rounds	$rounds"
	echo "memory	${boot_mem[cost]} for the costs, ${boot_mem[oom]} for the scenarios"
	echo "params	$params"
	echo "clock	${tsc:-as the guest kernel chose}"
	echo "priority	${prio[*]:-none}"
	echo "load_start	$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$dir/meta"

echo "KTAP version 1"
echo "1..$((rounds * ${#runs[@]} * ${#kinds[@]}))"
n=0 fail=0
for round in $(seq "$rounds"); do
	for r in "${runs[@]}"; do
		read -r run kernel cmdline <<<"$r"
		[ "$cmdline" != - ] || cmdline=
		for b in "${kinds[@]}"; do
			n=$((n + 1))
			log=$dir/logs/$round-$run-$b.log
			rc=0
			# loglevel=1: an OOM report through the emulated UART
			# would be timed too.  The guest still checks its log.
			"${prio[@]}" "$TOP/boot-tests/boot.sh" -T "${BENCH_TIMEOUT:-3600}" -m "${boot_mem[$b]}" \
				-a "loglevel=1 $cmdline $tsc $params" \
				"$arch" "${kout[$kernel]}/$image" "$initrd" "$log" "${boot_tests[$b]}" \
				>/dev/null 2>"$log.notes" || rc=$?
			grep -q '^accel' "$dir/meta" ||
				sed -n 's/^boot\.sh: accelerator: /accel\t/p' "$log.notes" | head -n 1 >>"$dir/meta"
			# The CPUs as the guest counted them (guest/init fails on fewer
			# than QEMU gave it).
			grep -q '^cpus' "$dir/meta" ||
				sed -n 's/^# guest: \([0-9]*\) CPUs$/cpus\t\1/p' "$log.ktap" | head -n 1 >>"$dir/meta"
			sed -n 's/^# bench-[a-z-]*: \(result\|skip\) /\1 /p' "$log.ktap" |
				sed "s/^/$round	$run	/" >>"$dir/results.tsv"
			grep '^not ok\|^# .*error' "$log.ktap" | sed 's/^/# /' || true
			ktap_result $n "$round-$run-$b" $rc "$log" || fail=$((fail + 1))
		done
	done
done
{
	echo "load_end	$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "seconds	$((SECONDS - start))"
} >>"$dir/meta"
"$TOP/boot-tests/bench-report.sh" "$dir"
echo "#"
sed 's/^/# /' "$dir/report.md"
note "report: $dir/report.md, plot: $dir/plot.png ($((SECONDS - start)) s)"
if [ -z "$quick$only" ] && [ "$dir" = "$OUT/bench" ] && [ "$arch" = x86_64 ] && [ $fail = 0 ]; then
	# The plot stays in out/bench (not in git): point there.
	sed 's|](plot.png)|](out/bench/plot.png)|' "$dir/report.md" >"$TOP/BENCHMARKS.md"
	note "wrote BENCHMARKS.md: commit it"
fi
[ $fail = 0 ] || die "$fail of $n boots failed; their logs are in $dir/logs"
