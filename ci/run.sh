#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [LEG...]: run CI legs (ci/leg.sh), by default every leg of
# ci/matrix for every kernel series/ maintains, one after the other, into a
# new out/ci/summary.md; a failed leg does not stop the others.  Print the
# summary, and last the line "N passed, N failed" over every step (a SKIP
# counts in neither; the summary shows it).
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

mapfile -t todo < <(if [ $# -gt 0 ]; then printf '%s\n' "$@"; else legs; fi)
for l in "${todo[@]}"; do
	leg "$l"
done
summary=${CI_SUMMARY:-$OUT/ci/summary.md}
export CI_SUMMARY=$summary
mkdir -p "$(dirname "$summary")"
"$TOP/ci/summary.sh" --header >"$summary"
start=$SECONDS
for l in "${todo[@]}"; do
	rc=0
	"$TOP/ci/leg.sh" "$l" || rc=$?
	# A leg that stopped before its steps still counts, as failed.
	[ $rc = 0 ] || grep -q "^| $l | [^|]* | FAIL |" "$summary" ||
		"$TOP/ci/summary.sh" "$l" "(setup)" FAIL 0 "ci/leg.sh $l exited with status $rc" >>"$summary"
done
echo
cat "$summary"
pass=$(grep -c '^| [^|]* | [^|]* | PASS |' "$summary" || true)
failed=$(grep -c '^| [^|]* | [^|]* | FAIL |' "$summary" || true)
skipped=$(grep -c '^| [^|]* | [^|]* | SKIP |' "$summary" || true)
{
	echo
	echo "${#todo[@]} leg(s) in $((SECONDS - start)) s; $skipped step(s) skipped."
	echo "$pass passed, $failed failed"
} | tee -a "$summary"
[ "$failed" = 0 ]
