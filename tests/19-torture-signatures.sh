#!/bin/bash
# make torture's verdict rests on report signatures
# (boot-tests/torture-signatures.sh): the serial log of tests/data, in the
# formats of the kernel's reports (KASAN, refcount_t's WARNING, lockdep, a
# WARN of arm64, a hung task, KCSAN), gives one signature per report, its
# kind and its top three functions past the reporting machinery (for a
# data race, the two racing functions its title names); the same report
# at other addresses or times gives the same one.  torture-compare.sh fails
# on the series' log, naming each report the base's log has not, also
# when the base has none, and passes the report both have.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
B=$TOP/boot-tests

"$B/torture-signatures.sh" "$TOP/tests/data/torture-series.log" >"$tmp/series.sig"
"$B/torture-signatures.sh" "$TOP/tests/data/torture-base.log" >"$tmp/base.sig"
t=$(printf '\t')
cat >"$tmp/want.sig" <<WANT
1${t}KASAN use-after-free${t}oom_charges_release,shmem_evict_inode,evict
1${t}KCSAN data-race${t}charge_add,oom_charges_pages
1${t}KCSAN data-race${t}n_tty_read,n_tty_receive_buf_common
1${t}WARNING oom_uncharge${t}oom_uncharge,shmem_undo_range,shmem_truncate_range
1${t}hung task${t}io_wq_worker,ret_from_fork
1${t}lockdep circular locking${t}oom_charge,shmem_add_to_page_cache,shmem_get_folio_gfp
1${t}refcount underflow${t}oom_ledger_put,oom_ledger_exit,do_exit
WANT
# The KASAN report is printed twice, at two addresses: one signature.
sed -i "1s/^1/2/" "$tmp/want.sig"
diff -u "$tmp/want.sig" "$tmp/series.sig" >&2 ||
	fail "torture-signatures.sh gave other signatures than these for tests/data/torture-series.log (diff above)"
echo "ok: seven reports, eight printed, seven signatures"

out=$("$B/torture-compare.sh" "$tmp/series.sig" "$tmp/base.sig") &&
	fail "torture-compare.sh passed a series with five reports the base has not: $out"
[ "$(grep -c '^# new: ' <<<"$out")" = 5 ] || fail "not five new reports: $out"
grep -q '^# known: hung task in io_wq_worker' <<<"$out" || fail "the hung task both have is not known: $out"
grep -q '^# known: KCSAN data-race in n_tty_read,n_tty_receive_buf_common' <<<"$out" ||
	fail "the data race both have is not known: $out"
grep -q '^# new: KCSAN data-race in charge_add,oom_charges_pages' <<<"$out" ||
	fail "the series' own data race is not new: $out"
echo "ok: torture-compare.sh fails on the five new reports, and knows the two shared ones"
# A base with no report at all: every report of the series is new (awk's
# NR == FNR would have read the series' file as the base's).
: >"$tmp/none.sig"
out=$("$B/torture-compare.sh" "$tmp/series.sig" "$tmp/none.sig") &&
	fail "torture-compare.sh passed a series with reports against a base with none: $out"
[ "$(grep -c '^# new: ' <<<"$out")" = 7 ] || fail "not seven new reports against a base with none: $out"
echo "ok: against a base with no report, the series' seven are new"
"$B/torture-compare.sh" "$tmp/base.sig" "$tmp/base.sig" >/dev/null ||
	fail "torture-compare.sh failed on a series with the base's reports alone"
echo "ok: and passes what the base has too"
