#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh [-T SECONDS] [-m MEM] [-a APPEND] ARCH IMAGE INITRAMFS LOG TEST[,TEST...]
#
# Boot IMAGE with INITRAMFS in QEMU on ARCH's machine (boot-tests/machines),
# have the guest run the TESTs (programs in its /tests), save the serial log
# to LOG and report KTAP on stdout: the guest's results, then one line for
# the boot itself, which fails on a panic, a hang (no end within SECONDS,
# 600 by default), a crash of the guest's init, or anything of
# bad-log-patterns in the log, and then shows the log's last lines.  Exit
# status 0 when every line is ok.
#
# KVM is used only when a probe boot with it succeeds; otherwise TCG.
#
# The guest has swap, as a distribution's has: a disk of SWAP_MB (64) MiB,
# a sparse file beside LOG (removed after the run) on the machine's
# swap_device, which the guest's init makes its swap; SWAP_MB=0 gives none.
# It has the machine's gpu_devices too: DRM devices of real drivers, and
# its cpus as vCPUs, which the guest's init checks it sees (oomtest.cpus=):
# a guest on fewer CPUs runs no test and fails.
#
# The console prints warnings and worse (loglevel=5): a WARN(), a lockdep
# splat or a BUG reaches the serial log even when the guest never gets to
# check its own log, and the OOM killer's reports are there for whoever
# reads a failed run.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

timeout=600 mem=512M append=
while getopts T:m:a: opt; do
	case $opt in
	T) timeout=$OPTARG ;;
	m) mem=$OPTARG ;;
	a) append=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 5 ] || die "usage: $0 [-T SECONDS] [-m MEM] [-a APPEND] ARCH IMAGE INITRAMFS LOG TESTS"
arch=$1 image=$2 initrd=$3 log=$4 tests=$5
here=$(cd "$(dirname "$0")" && pwd)
qemu=$(machine "$arch" qemu)
console=$(machine "$arch" console)
command -v "$qemu" >/dev/null ||
	die "no $qemu: run 'make deps' (package qemu-system-${qemu#qemu-system-})"
[ -f "$image" ] || die "no kernel image $image"
[ -f "$initrd" ] || die "no initramfs $initrd"

cpus=$(machine "$arch" cpus)
[ -n "$cpus" ] || die "no cpus= in boot-tests/machines/$arch: add the guest's vCPUs there"
base=(-M "$(machine "$arch" machine)" -smp "$cpus" -display none -monitor none
      -no-reboot -kernel "$image")

# kvm_works: a kernel boots with KVM here.  /dev/kvm can exist and still make
# QEMU abort ("failed to set MSR"), so try it.
kvm_works() {
	local probe rc=0
	case $arch-$(uname -m) in
	x86_64-x86_64 | arm64-aarch64) ;;
	*) return 1 ;;
	esac
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	probe=$(mktemp)
	(timeout 30 "$qemu" "${base[@]}" -accel kvm -cpu host -m 256M \
		-serial "file:$probe" -append "console=$console panic=-1 rdinit=/none") \
		>/dev/null 2>&1 || rc=$?
	grep -q 'Linux version' "$probe" && [ $rc = 0 ] || rc=1
	rm -f "$probe"
	return $rc
}

if kvm_works 2>/dev/null; then
	accel=(-accel kvm -cpu host)
	note "accelerator: KVM"
else
	accel=(-accel tcg -cpu "$(machine "$arch" cpu)")
	note "accelerator: TCG (KVM unusable here)"
fi

mkdir -p "$(dirname "$log")"
swap=$log.swap
rm -f "$swap"
disk=()
if [ "${SWAP_MB:-64}" != 0 ]; then
	truncate -s "${SWAP_MB:-64}M" "$swap"
	trap 'rm -f "$swap"' EXIT
	disk=(-drive "file=$swap,if=none,format=raw,id=swap" -device "$(machine "$arch" swap_device),drive=swap")
fi
gpus=()
for d in $(machine "$arch" gpu_devices); do
	gpus+=(-device "$d")
done
rc=0
start=$SECONDS
timeout --foreground -k 10 "$timeout" "$qemu" "${base[@]}" "${accel[@]}" -m "$mem" \
	-initrd "$initrd" -serial "file:$log" "${disk[@]}" "${gpus[@]}" \
	-append "console=$console loglevel=5 panic=-1 panic_on_warn=0 rdinit=/init oomtest.cpus=$cpus oomtest.run=$tests $append" \
	>"$log.qemu" 2>&1 || rc=$?
elapsed=$((SECONDS - start))
echo "$elapsed" >"$log.seconds"	# for docs/timings.md (make timings)
sed -i 's/\r$//' "$log"

patterns=$(grep -v '^#' "$here/bad-log-patterns")
# The guest's KTAP (results, diagnostics), renumbered under our plan.
awk -v tests="$tests" -v elapsed="$elapsed" -v qrc="$rc" -v to="$timeout" \
    -v logf="$log" -v patterns="$patterns" '
	BEGIN { np = split(patterns, pat, "\n"); expect = split(tests, t, ",") + 1 }
	/^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; next }
	/^(not )?ok [0-9]+ / { res[++n] = $0; next }
	/^# guest: done$/ { done = 1 }
	/^# / { diag[n + 1] = diag[n + 1] $0 "\n"; next }
	{ for (i = 1; i <= np; i++) if ($0 ~ pat[i]) bad = bad "# " $0 "\n" }
	END {
		if (!plan)
			plan = expect
		print "KTAP version 1"
		print "1.." plan + 1
		for (i = 1; i <= plan; i++) {
			printf "%s", diag[i]
			if (i <= n)
				print res[i]
			else
				print "not ok " i " " (i < expect ? t[i] : "kernel-log") " # no result"
		}
		printf "%s", diag[plan + 1]
		why = ""
		if (qrc == 124 || qrc == 137)
			why = "hang: no end within " to " s"
		else if (qrc != 0)
			why = "QEMU exited with status " qrc
		else if (!done)
			why = "the guest did not finish"
		if (bad != "")
			why = why (why == "" ? "" : "; ") "bad kernel log"
		printf "%s", bad
		if (why == "")
			print "ok " plan + 1 " boot # " elapsed " s"
		else
			print "not ok " plan + 1 " boot # " why " (" elapsed " s; log: " logf ")"
	}' "$log" | tee "$log.ktap"

# A failed boot shows the end of its serial log: what the guest said last.
if grep -q '^not ok [0-9]* boot ' "$log.ktap"; then
	echo "# the last lines of $log:"
	tail -n 15 "$log" | sed 's/^/# | /'
fi | tee -a "$log.ktap"
if [ "$rc" != 0 ] && [ -s "$log.qemu" ]; then
	sed 's/^/# qemu: /' "$log.qemu"
fi
! grep -q '^not ok' "$log.ktap"
