#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The machine-readable summary of a leg and the table made of all legs:
# ci/summary-json.sh writes out/ci/LEG/summary.json as the steps finish
# (a run stopped half-way leaves the steps done and the rest planned), with
# the first error lines of a failed step; ci/render-summary.sh makes one
# Markdown table of several legs' files (a leg's @weekly run shares its
# row), links a failure to its log and lists its first error line under
# the table, and names a file that is not a leg's summary, failing.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OUT=$tmp
json() { "$TOP/ci/summary-json.sh" "$@"; }

L=6.1-x86_64-gcc
printf 'CC mm/oom_kill.o\n# >> mm/oom_kill.c:1263:5: warning: no previous prototype [-Wmissing-prototypes]\nnot ok 89 mm/oom_kill.o # 1 new W=1 warning(s)\n' \
	>"$tmp/allmod.log"
echo ok >"$tmp/kernel.log"
json start $L kernel boot allmod modules
json step $L kernel PASS 216 "$tmp/kernel.log"
json step $L boot SKIP 0 "needs kernel"
json step $L allmod FAIL 41 "$tmp/allmod.log"
f=$OUT/ci/$L/summary.json
# Stopped here: modules planned, no result, the run not finished.
[ "$(jq -r '[.leg, .arch, .compiler, (.variant // "-"), (.planned | join(",")), (.finished // "-")] | join(" ")' "$f")" = \
	"$L x86_64 gcc - kernel,boot,allmod,modules -" ] || fail "the leg's fields: $(cat "$f")"
[ "$(jq -r '.steps | map("\(.step)=\(.status)/\(.duration)") | join(" ")' "$f")" = \
	"kernel=PASS/216 boot=SKIP/0 allmod=FAIL/41" ] || fail "the steps: $(cat "$f")"
[ "$(jq -r '.steps[2].errors[0]' "$f")" = \
	"# >> mm/oom_kill.c:1263:5: warning: no previous prototype [-Wmissing-prototypes]" ] ||
	fail "the first error line of allmod: $(cat "$f")"
[ "$(jq -r '.steps[1].note' "$f")" = "needs kernel" ] || fail "the SKIP's note: $(cat "$f")"
echo "ok: summary.json holds the steps done, the first error line of a FAIL, and no end yet"

# The other leg finished; the first one's @weekly run is a file of its own.
L2=6.1-arm64-clang
json start $L2 kernel boot
json step $L2 kernel PASS 650 "$tmp/kernel.log"
json step $L2 boot PASS 104 "$tmp/kernel.log"
json end $L2 10 90
json logs-url $L2 https://example.invalid/artifacts/2
[ "$(jq -r '"\(.ccache.hits) \(.ccache.misses) \(.logs_url)" + (if .finished then " finished" else "" end)' \
	"$OUT/ci/$L2/summary.json")" = "10 90 https://example.invalid/artifacts/2 finished" ] ||
	fail "the end of $L2: $(cat "$OUT/ci/$L2/summary.json")"
mkdir -p "$tmp/weekly"
jq '.planned = ["allmod-full"] | .steps = [{step: "allmod-full", status: "PASS", duration: 14520,
	log: "out/ci/6.1-x86_64-gcc/allmod-full.log", note: null, errors: []}] | .finished = "2026-12-04T00:00:00Z"' \
	"$f" >"$tmp/weekly/summary.json"

table=$("$TOP/ci/render-summary.sh" "$OUT/ci/$L2/summary.json" "$f" "$tmp/weekly/summary.json")
echo "$table"
want="## CI results: 2 leg(s); 4 passed, 1 failed, 1 skipped; 1 leg(s) did not finish

| leg | kernel | boot | allmod | modules | allmod-full |
|---|---|---|---|---|---|
| 6.1-x86_64-gcc (did not finish) | PASS 3 min 36 s | SKIP | **[FAIL]($tmp/allmod.log)** 41 s | no result | PASS 4 h 2 min |
| 6.1-arm64-clang | PASS 10 min 50 s | PASS 1 min 44 s |  |  |  |

Failures, each with its first error line:

- 6.1-x86_64-gcc allmod: \`# >> mm/oom_kill.c:1263:5: warning: no previous prototype [-Wmissing-prototypes]\` (log: [$tmp/allmod.log]($tmp/allmod.log))"
[ "$table" = "$want" ] || fail "the table is not as expected: $(diff <(echo "$want") <(echo "$table"))"
echo "ok: one table, legs in the matrix's order, steps in ci/steps' order, the failure and its first line"

echo '{"leg": "6.1-x86_64-gcc", "steps": "none"}' >"$tmp/other.json"
printf '{"format": "oom-badness-ci-leg/1", "leg": ' >"$tmp/cut.json"
expect_fail 'error: 2 file\(s\) are not leg summaries' "$TOP/ci/render-summary.sh" "$f" "$tmp/other.json" "$tmp/cut.json"
said=$("$TOP/ci/render-summary.sh" "$f" "$tmp/other.json" "$tmp/cut.json" 2>/dev/null || true)
grep -qF -- "- $tmp/other.json: not a leg summary of ci/summary-json.sh" <<<"$said" || fail "other.json is not named: $said"
grep -qF -- "- $tmp/cut.json: " <<<"$said" || fail "cut.json is not named: $said"
grep -qF "| 6.1-x86_64-gcc (did not finish) |" <<<"$said" || fail "the good file was not rendered beside them: $said"
echo "ok: files that are not leg summaries are named under the table, and the renderer fails"
expect_fail 'RESULT=MAYBE is not PASS, FAIL or SKIP' json step $L modules MAYBE 1 x
