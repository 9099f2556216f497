#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The torture guest's test (make torture, boot-tests/torture.sh): Debian's
# stress-ng and trinity, from the torture layer (boot-tests/
# torture-initramfs.sh), on the paths the series touches, for
# OOMTEST_TORTURE_MIN minutes (1 by default), with a reader of every
# /proc/*/oom_score beside them all the while:
#
#   stressors  stress-ng's memfd, dup, fork, clone, sockfd (SCM_RIGHTS),
#              io-uring, shm, mmap, and OOM pressure (bigheap, oom-pipe),
#              outside a memory cgroup, then inside one of 96 MiB
#   drm        the project's own stress program (guest/stress.c): GEM
#              create, map, close, PRIME export and import, SCM_RIGHTS of
#              memfds and DMA-heap buffers, fd-table moves
#   trinity    the fd and memory system calls, as the user nobody, from the
#              seed OOMTEST_TORTURE_SEED (printed, for a replay): those of
#              Debian 12's trinity, which has no close_range or
#              pidfd_getfd (stress covers both)
#   faults     the stressors again, with failslab and fail_page_alloc
#              failing their allocations (task-filtered to them), where the
#              kernel has fault injection
#
# Debian 12's trinity crashes building its cache of sockets in this guest,
# so it runs with its socket fds off: stress-ng's sockfd and stress pass
# fds over SCM_RIGHTS instead.
#
# The host compares the kernel's messages with the base kernel's; this
# script checks that after every stressor has exited, no ledger of an
# exited process is left (/sys/kernel/debug/oom_ledgers, on the series).
# stress-ng's bogo-ops lines ("stress-ng: metrc:") stay in the log.
# Exits 0 when everything ran and the ledgers drained, 1 when not, 4
# (SKIP) without stress-ng and trinity.
# shellcheck disable=SC3040 # the guest's shell is busybox's ash, which has it
set -u -o pipefail
min=${OOMTEST_TORTURE_MIN:-1}
seed=${OOMTEST_TORTURE_SEED:-1}
PATH=/usr/bin:/usr/sbin:/bin:/tests
export PATH
if ! command -v stress-ng >/dev/null || ! command -v trinity >/dev/null; then
	echo "SKIP: no stress-ng or trinity: boot the torture guest (boot-tests/torture-initramfs.sh)"
	exit 4
fi
stressors="memfd dup fork clone sockfd io-uring shm mmap bigheap oom-pipe"
nstr=$(echo "$stressors" | wc -w)
total=$((min * 60))
# A quarter of the time each: stressors outside and inside a memory
# cgroup; the rest shared by drm, trinity and faults.
per=$((total / 4 / nstr))
[ "$per" -ge 2 ] || per=2
rest=$((total / 4))
[ "$rest" -ge 5 ] || rest=5
fail=0
echo "$min min, seed $seed, $per s a stressor, $rest s for drm, trinity and faults each"

# The files stress-ng and trinity work in, on tmpfs.
work=/tmp/torture
mkdir -p "$work"
chmod 1777 "$work"
cd "$work" || exit 1
grep -q ' /sys/kernel/debug ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# The user trinity drops its privileges to, and the one it checks for.
grep -q '^nobody:' /etc/passwd 2>/dev/null ||
	echo 'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' >>/etc/passwd
grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >>/etc/group
# The DRM, udmabuf and heap devices, for stress and trinity as nobody.
chmod 0666 /dev/dri/* /dev/udmabuf /dev/dma_heap/* 2>/dev/null

# The reader of every oom_score, status and fdinfo, all the while.
(
	while :; do
		cat /proc/[0-9]*/oom_score /proc/[0-9]*/status >/dev/null 2>&1
		cat /proc/[0-9]*/fdinfo/* >/dev/null 2>&1
	done
) &
reader=$!

# run_stressors WHERE [PREFIX...]: each stressor for $per s, two workers.
run_stressors() {
	where=$1
	shift
	for s in $stressors; do
		echo "$where: stress-ng --$s"
		# oom-pipe is one of stress-ng's "pathological" stressors.
		"$@" stress-ng --"$s" 2 --timeout "${per}s" --metrics-brief --pathological \
			--temp-path "$work" 2>&1 |
			sed -nE "s/^stress-ng: (metrc|fail|error): *\[[0-9]+\] /  $where: /p"
	done
}

# in_memcg: run the rest of the command line in a memory cgroup of 96 MiB.
# shellcheck disable=SC2317 # run by run_stressors, as "$@"
in_memcg() {
	# shellcheck disable=SC2016 # $$ of the new shell, which execs them
	sh -c 'echo $$ >/sys/fs/cgroup/torture/cgroup.procs && exec "$@"' sh "$@"
}

run_stressors plain
if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control
	mkdir -p /sys/fs/cgroup/torture
	echo 96M >/sys/fs/cgroup/torture/memory.max
	run_stressors memcg in_memcg
else
	echo "no memory cgroup controller: not run in a memory cgroup"
	fail=1
fi

echo "drm: stress for $rest s"
if ! OOMTEST_STRESS_SECONDS=$rest stress 2>&1 | sed 's/^/  drm: /'; then
	# The base kernel has no charges for stress to check: its load is
	# what the comparison of the kernels' reports needs of it there.
	if grep -q '^FilesCharged:' /proc/self/status; then
		echo "drm: stress failed"
		fail=1
	else
		echo "drm: no FilesCharged (the base kernel): the counts of stress not checked"
	fi
fi

calls="memfd_create dup dup2 dup3 fcntl sendmsg recvmsg mmap munmap mremap madvise fallocate io_uring_setup io_uring_enter io_uring_register unshare clone"
echo "trinity for $rest s, seed $seed (replay: oomtest.torture_seed=$seed)"
set --
for c in $calls; do
	set -- "$@" -c "$c"
done
timeout -s INT "$rest" trinity --dropprivs -q -a 64 -s "$seed" -C 2 -V "$work" --disable-fds=sockets "$@" \
	>"$work/trinity.log" 2>&1
echo "trinity exited with $?"
tail -n 8 "$work/trinity.log" | sed 's/^/  trinity: /'
# A trinity that made no system call tested nothing.
if ! grep -q 'Ran [1-9][0-9]* syscalls' "$work/trinity.log"; then
	echo "trinity made no system call"
	fail=1
fi

dbg=/sys/kernel/debug
if [ -d "$dbg/failslab" ] && [ -d "$dbg/fail_page_alloc" ]; then
	for f in failslab fail_page_alloc; do
		echo 1 >"$dbg/$f/probability"
		echo 100 >"$dbg/$f/interval"
		echo -1 >"$dbg/$f/times"
		echo 0 >"$dbg/$f/verbose"
		echo Y >"$dbg/$f/task-filter"
	done
	echo N >"$dbg/fail_page_alloc/ignore-gfp-wait"
	echo N >"$dbg/failslab/ignore-gfp-wait"
	per=$((rest / nstr))
	[ "$per" -ge 2 ] || per=2
	# Only this subshell and what it runs fail their allocations.
	(
		echo 1 >/proc/self/make-it-fail
		run_stressors faults
	)
	for f in failslab fail_page_alloc; do
		echo 0 >"$dbg/$f/probability"
	done
else
	echo "faults: no failslab or fail_page_alloc in $dbg: not run"
fi

kill "$reader"
wait "$reader" 2>/dev/null
cd / || exit 1

# Every ledger listed must be a live process's: the charges of the
# stressors, which have all exited, went with their memory.
ledgers=/sys/kernel/debug/oom_ledgers
if [ -r "$ledgers" ]; then
	left=
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		# Tab-separated, as a comm may have spaces; system() is the
		# status of test, nonzero when the process is gone.
		left=$(awk -F '\t' 'NR > 1 && system("test -d /proc/" $1) {
			print $1, $2, $3, $4, $7 }' "$ledgers")
		[ -n "$left" ] || break
		sleep 1
	done
	if [ -n "$left" ]; then
		echo "ledgers of exited processes left (tgid comm shmem driver kept):"
		echo "$left" | sed 's/^/  /'
		fail=1
	else
		echo "ledgers drained: $(($(wc -l <"$ledgers") - 1)) left, all of live processes"
	fi
else
	echo "no $ledgers (the base kernel): ledgers not checked"
fi
exit "$fail"
