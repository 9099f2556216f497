#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# torture-signatures.sh LOG...
#
# The kernel's reports in the serial LOGs of torture runs, one line each:
# COUNT<TAB>KIND<TAB>FRAMES, by signature: the kind of report (KASAN and
# its bug type, KCSAN, lockdep's, WARN and its function, BUG, refcount, RCU
# stall, hung task, soft lockup...) and the top three functions of its
# call trace, without offsets, past the reporting machinery (dump_stack,
# kasan_report, __warn...); for a KCSAN data race, the two functions its
# title names.  A report printed twice with different addresses or timing
# has one signature; make torture compares them
# between the series and its base.  Lines of the guest's own output (#
# KTAP comments) are not reports.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 LOG..." >&2; exit 2; }

cat "$@" | sed 's/\r$//; s/^\[ *[0-9.]*\] //' | awk '
function kind_of(l,    m) {
	if (match(l, /BUG: KASAN: [a-z-]+/))
		return "KASAN " substr(l, RSTART + 12, RLENGTH - 12)
	if (l ~ /BUG: KCSAN: /)
		return "KCSAN " (l ~ /data-race/ ? "data-race" : "report")
	if (l ~ /possible circular locking dependency/)
		return "lockdep circular locking"
	if (l ~ /possible recursive locking/)
		return "lockdep recursive locking"
	if (l ~ /inconsistent lock state/)
		return "lockdep inconsistent lock state"
	if (l ~ /suspicious RCU usage/)
		return "lockdep suspicious RCU usage"
	if (l ~ /DEBUG_LOCKS_WARN_ON/)
		return "lockdep DEBUG_LOCKS_WARN_ON"
	if (l ~ /sleeping function called from invalid context/)
		return "sleeping in atomic context"
	if (l ~ /refcount_t: /) {
		sub(/.*refcount_t: /, "", l)
		sub(/[;.].*/, "", l)
		return "refcount " l
	}
	if (l ~ /WARNING: CPU: [0-9]+ PID: [0-9]+ at /) {
		sub(/.* at /, "", l)
		sub(/\+0x.*/, "", l)
		sub(/^[^ ]* /, "", l)
		return "WARNING " l
	}
	if (l ~ /kernel BUG at /) {
		sub(/.*kernel BUG at /, "", l)
		sub(/:[0-9]+!.*/, "", l)
		return "BUG at " l
	}
	if (l ~ /BUG: unable to handle|general protection fault|Unable to handle kernel/)
		return "page fault or GPF"
	if (l ~ /rcu: INFO: rcu_[a-z]+ (self-)?detected stall|rcu_[a-z]+ detected stalls/)
		return "RCU stall"
	if (l ~ /INFO: task .* blocked for more than/)
		return "hung task"
	if (l ~ /soft lockup/)
		return "soft lockup"
	if (l ~ /hard LOCKUP/)
		return "hard lockup"
	if (l ~ /BUG: [a-zA-Z]/) {
		sub(/.*BUG: /, "", l)
		sub(/ [0-9].*| \(.*|:.*/, "", l)
		return "BUG " l
	}
	return ""
}
# The reporting machinery, not where the report comes from.
function skipped(f) {
	return f ~ /^(dump_stack|dump_stack_lvl|show_stack|print_report|print_address_description|kasan_report|__kasan_|kasan_|__asan_|check_memory_region|__warn|warn_slowpath|report_bug|handle_bug|exc_invalid_op|asm_exc_invalid_op|refcount_warn_saturate|__might_resched|__might_sleep|__might_fault|lockdep_|__lock_acquire|lock_acquire|check_noncircular|check_prev_add|validate_chain|print_circular_bug|kcsan_|__tsan_|rcu_dump_cpu_stacks|print_cpu_stall|watchdog_timer_fn|__hrtimer_run_queues|hrtimer_interrupt|__sysvec_|sysvec_|asm_sysvec_|__schedule|schedule|schedule_timeout|show_regs|ubsan_|_raw_|__raw_|do_raw_|mutex_lock|__mutex_lock|down_read|down_write|rwsem_)/
}
function flush() {
	if (kind != "")
		n[kind "\t" frames]++
	kind = ""; frames = ""; nf = 0; intrace = 0
}
/^# / { next }
{
	k = kind_of($0)
	if (k != "") {
		# The message of refcount_t comes before the WARNING that carries
		# it: one report, of the refcount kind.
		if (kind ~ /^refcount / && nf == 0 && k ~ /^WARNING /)
			next
		flush()
		kind = k
		# The title of a data race names the two functions: "in f / g".
		if (k ~ /^KCSAN / && match($0, / in [A-Za-z0-9_.]+ \/ [A-Za-z0-9_.]+/)) {
			frames = substr($0, RSTART + 4, RLENGTH - 4)
			sub(/ \/ /, ",", frames)
			nf = 3
		}
		next
	}
	if (kind == "")
		next
	if ($0 ~ /Call [Tt]race:|^ *<TASK>|^ *<IRQ>/) {
		intrace = 1
		next
	}
	if (!intrace || nf >= 3)
		next
	# " func+0x12/0x34" or "[<ffff...>] func+0x12/0x34", "? func" guesses.
	line = $0
	if (line ~ /^ *\? /)
		next
	sub(/^ *(\[<[0-9a-f]+>\] )?/, "", line)
	if (line !~ /^[A-Za-z_.][A-Za-z0-9_.]*\+0x/) {
		if (line ~ /^(<\/TASK>|<\/IRQ>|---\[ end)/ || line == "")
			flush()
		next
	}
	sub(/\+0x.*/, "", line)
	sub(/\.(cold|isra|constprop|part|lto_priv)[.0-9]*$/, "", line)
	if (skipped(line))
		next
	frames = frames (nf ? "," : "") line
	nf++
}
END {
	flush()
	for (s in n)
		printf "%d\t%s\n", n[s], s
}' | sort -t "$(printf '\t')" -k2
