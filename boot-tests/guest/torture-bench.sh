#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The torture guest's benchmark (make torture-bench, boot-tests/
# torture-bench.sh): each of stress-ng's stressors OOMTEST_TORTURE_STRESSORS
# (a comma-separated list, from boot-tests/torture-stressors) for
# OOMTEST_TORTURE_BENCH_SEC seconds (10), with one worker a CPU, and
# nothing else running: no fault injection, no reader of oom_score, no
# memory cgroup.  For each, a line
#
#   result STRESSOR BOGO-OPS REAL-SECONDS BOGO-OPS-PER-SECOND
#
# from stress-ng's metrics (--metrics-brief, bogo-ops a second of real
# time).  The host takes series over base from these.  Exits 1 when a
# stressor fails or reports no bogo-ops, 4 (SKIP) without stress-ng.
set -u
sec=${OOMTEST_TORTURE_BENCH_SEC:-10}
stressors=$(echo "${OOMTEST_TORTURE_STRESSORS:-}" | tr , ' ')
PATH=/usr/bin:/usr/sbin:/bin:/tests
export PATH
if ! command -v stress-ng >/dev/null; then
	echo "SKIP: no stress-ng: boot the torture guest (boot-tests/torture-initramfs.sh)"
	exit 4
fi
if [ -z "$stressors" ]; then
	echo "no stressors: oomtest.torture_stressors=a,b,... (boot-tests/torture-stressors)"
	exit 1
fi
cpus=$(grep -c '^processor' /proc/cpuinfo)
work=/tmp/torture-bench
mkdir -p "$work"
cd "$work" || exit 1
echo "$sec s a stressor, $cpus worker(s) each: $stressors"
echo "version $(stress-ng --version 2>&1 | head -n 1)"
fail=0
for entry in $stressors; do
	s=${entry%%:*}
	opts=
	[ "$s" = "$entry" ] || opts=$(echo "${entry#*:}" | tr : ' ')
	# shellcheck disable=SC2086 # the options, one word each
	out=$(stress-ng --"$s" "$cpus" $opts --timeout "${sec}s" --metrics-brief --temp-path "$work" 2>&1)
	rc=$?
	# stress-ng: metrc: [PID] NAME OPS REAL USR SYS OPS/S(real) OPS/S(usr+sys)
	line=$(echo "$out" | awk -v s="$s" '$2 == "metrc:" && $4 == s && $5 ~ /^[0-9]+$/ {
		print "result", s, $5, $6, $9; exit }')
	if [ "$rc" != 0 ] || [ -z "$line" ] || [ "$(echo "$line" | cut -d' ' -f3)" = 0 ]; then
		echo "$s: stress-ng exited with $rc, metrics: ${line:-none}"
		echo "$out" | tail -n 5 | sed 's/^/  /'
		fail=1
		continue
	fi
	echo "$line"
done
exit "$fail"
