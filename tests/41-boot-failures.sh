#!/bin/bash
# The boot runner fails a run, showing why, on a kernel panic, on a hang, on
# a bad kernel log and on a guest that sees fewer CPUs than QEMU gave it;
# and passes a run that is clean, on every vCPU.  Uses the x86_64
# series kernel of `make ab` (built by tests/60-ab-x86_64.sh if missing).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
out=$OUT/$(base_get 6.1 tag | sed 's/^v//')/x86_64-gcc
make -s -C "$TOP" initramfs VERSION=6.1 ARCH=x86_64 COMPILER=gcc >/dev/null ||
	fail "cannot build the kernel and initramfs"
# boot TESTS [OPTION...]: one boot of the series' kernel running TESTS.
boot() {
	"$TOP/boot-tests/boot.sh" "${@:2}" x86_64 "$out/arch/x86/boot/bzImage" \
		"$out/initramfs.cpio.gz" "$out/boot/failures.log" "$1"
}
expect_fail 'not ok [0-9]+ boot # the guest did not finish; bad kernel log' boot crash
grep -q 'Kernel panic' "$out/boot/failures.log.ktap" || fail "the panic is not shown"
expect_fail 'not ok [0-9]+ boot # hang: no end within 30 s' boot hang -T 30
grep -q '^# | .*hang: ' "$out/boot/failures.log.ktap" || fail "the hang does not show the log's last lines"
expect_fail 'not ok [0-9]+ kernel-log' boot bad-log
grep -q '^# .*BUG: sleeping function called from invalid context' "$out/boot/failures.log.ktap" ||
	fail "the bad log line is not shown"
grep -q '^not ok [0-9]* boot # bad kernel log' "$out/boot/failures.log.ktap" ||
	fail "the host did not see the bad log line"
# maxcpus=1: the kernel brings up one of the two vCPUs, as it did before
# the x86_64 config had ACPI; the guest runs none of its tests then.
cpus=$(machine x86_64 cpus)
expect_fail "^not ok 1 cpus # the guest sees 1 CPUs, QEMU gave it $cpus: no test run" \
	boot oom_ledger_test -a maxcpus=1
! grep -q 'oom_ledger_test: start' "$out/boot/failures.log" ||
	fail "the guest on one CPU ran its test"
boot oom_ledger_test >/dev/null || fail "a clean run failed"
grep -qx "# guest: $cpus CPUs" "$out/boot/failures.log.ktap" ||
	fail "the clean run does not say it saw $cpus CPUs"
echo "a clean run passes, on $cpus CPUs"
