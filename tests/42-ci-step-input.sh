#!/bin/bash
# A CI step run alone uses its input step's last output: `CI_STEPS=boot`
# with no kernel built fails the boot step itself, naming the missing
# image, in the KTAP and in the summary (a FAIL row for boot, not a leg
# that stopped before its steps; in summary.json, boot FAIL with that line
# first), and the leg exits non-zero.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
leg=6.1-x86_64-gcc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
said=$(OUT=$tmp CI_SUMMARY=$tmp/summary.md CI_STEPS=boot "$TOP/ci/leg.sh" $leg 2>&1) || rc=$?
echo "$said"
[ $rc != 0 ] || fail "ci/leg.sh $leg passed its boot step with no kernel"
grep -q '^not ok 1 boot # ' <<<"$said" || fail "no 'not ok 1 boot' line"
grep -q '^# boot.sh: error: no kernel image .*/ci/6.1-x86_64-gcc/kernel/' <<<"$said" ||
	fail "the failure does not name the missing kernel image"
grep -q "^| $leg | boot | FAIL | " "$tmp/summary.md" || fail "no FAIL row for boot: $(cat "$tmp/summary.md")"
[ "$(jq -r '.steps | map("\(.step) \(.status)") | join(",")' "$tmp/ci/$leg/summary.json")" = "boot FAIL" ] ||
	fail "summary.json has not boot FAIL alone: $(cat "$tmp/ci/$leg/summary.json")"
jq -r '.steps[0].errors[0]' "$tmp/ci/$leg/summary.json" | grep -q '^boot.sh: error: no kernel image ' ||
	fail "summary.json's first error line does not name the image: $(cat "$tmp/ci/$leg/summary.json")"
echo "ok: CI_STEPS=boot with no kernel: boot fails, naming the image"
