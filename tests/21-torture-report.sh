#!/bin/bash
# docs/torture.md (boot-tests/torture-report.sh) and the bogo-ops table
# (boot-tests/torture-bench-report.sh), from runs made up here: a torture
# run's row has its kernel, seed, minutes, new and known reports,
# trinity's syscalls on each kernel and whether the ledgers drained, and
# its messages are listed by kernel; a run whose ledgers were left says
# "left".  The bench table's ratio is taken within each round, then the
# median and the range over the rounds (0.90, 0.95, 1.10: 0.95, 0.90-1.10),
# and a stressor without a result on a kernel says so.  With no run at
# all, the page names the commands that make them.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
B=$TOP/boot-tests
t=$(printf '\t')

"$B/torture-report.sh" -o "$tmp/empty.md" "$tmp/none" 2>/dev/null
grep -qF "yet: \`make torture\` makes one" "$tmp/empty.md" ||
	fail "with no run, the page does not say how to make one: $(cat "$tmp/empty.md")"
grep -qF "yet: \`make torture-bench\` makes one" "$tmp/empty.md" ||
	fail "with no bench run, the page does not say how to make one"
echo "ok: with no run, the page names make torture and make torture-bench"

# A torture run: one report on each kernel, one of them new.
r=$tmp/runs/6.1.192-x86_64-gcc-torture-kasan
mkdir -p "$r"
printf 'kernel\t6.1.192\narch\tx86_64\ncompiler\tgcc\nvariant\ttorture-kasan\nminutes\t20\nseed\t7\nseries\t0123456789abcdef\nbase\tfedcba\nstatus\t1\n' >"$r/summary"
printf '1\tKASAN use-after-free\toom_charges_release,shmem_evict_inode,evict\n2\thung task\tio_wq_worker,ret_from_fork\n' >"$r/series.sig"
printf '1\thung task\tio_wq_worker,ret_from_fork\n' >"$r/base.sig"
"$B/torture-compare.sh" "$r/series.sig" "$r/base.sig" >"$r/compare.txt" || true
printf '# torture:   trinity: [main]  Ran 14084 syscalls. Successes: 5440\n' >"$r/series.log"
printf '# torture:   trinity: [main]  Ran 13555 syscalls. Successes: 5000\n' >"$r/base.log"
printf '# torture: ledgers of exited processes left (tgid comm shmem driver kept):\n' >"$r/series.ktap"
# A bench run: memfd over three rounds, dup on the base alone.
b=$tmp/runs/bench-6.1.192-x86_64-gcc
mkdir -p "$b"
printf 'date\t2026-01-01 00:00 UTC\ncommand\tmake torture-bench VERSION=6.1\nrounds\t3\ncpus\t2\n' >"$b/meta"
cat >"$b/results.tsv" <<TSV
1${t}base${t}memfd${t}1000${t}10.0${t}100.0
1${t}series${t}memfd${t}900${t}10.0${t}90.0
2${t}base${t}memfd${t}1000${t}10.0${t}100.0
2${t}series${t}memfd${t}950${t}10.0${t}95.0
3${t}base${t}memfd${t}1000${t}10.0${t}100.0
3${t}series${t}memfd${t}1100${t}10.0${t}110.0
1${t}base${t}dup${t}50${t}10.0${t}5.0
TSV
"$B/torture-bench-report.sh" "$b"
"$B/torture-report.sh" -o "$tmp/page.md" "$tmp/runs" 2>/dev/null

row=$(grep '^| 6.1.192 | x86_64 | gcc | torture-kasan |' "$tmp/page.md" || true)
[ "$row" = '| 6.1.192 | x86_64 | gcc | torture-kasan | 20 | 7 | 0123456789ab | 1 | 1 | 14084 / 13555 | left | FAIL | '"$(date -u -r "$r/summary" '+%Y-%m-%d')"' |' ] ||
	fail "the run's row is not as its files say: '$row'"
echo "ok: the run's row: $row"
sed -n '/^- the series/,/^- the base/p' "$tmp/page.md" | grep -q 'KASAN use-after-free in oom_charges_release,shmem_evict_inode,evict (1 time)' ||
	fail "the series' messages are not listed: $(sed -n '/Messages/,$p' "$tmp/page.md")"
sed -n '/^- the base/,/^##/p' "$tmp/page.md" | grep -q 'hung task in io_wq_worker,ret_from_fork (1 time)' ||
	fail "the base's messages are not listed"
echo "ok: each kernel's messages are listed by signature"

memfd=$(grep '^| memfd |' "$tmp/page.md" || true)
[[ $memfd == *'| 100.0 | 95.0 | 0.95 | 0.90-1.10 (3 rounds) |' ]] ||
	fail "memfd's row is not the medians and range of 90/100, 95/100, 110/100: '$memfd'"
dup=$(grep '^| dup |' "$tmp/page.md" || true)
[[ $dup == *'| 5.0 | - | no result | |' ]] || fail "dup, with no series result, is not said so: '$dup'"
grep -q '^| fork | .* | - | - | no result | |$' "$tmp/page.md" || fail "fork, never run, is not said so"
echo "ok: the bench table: $memfd"
