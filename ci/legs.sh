#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# legs.sh [LEG...]: run CI legs (ci/leg.sh), by default every leg of
# ci/matrix for every kernel series/ maintains, one after the other, into a
# new out/ci/summary.md and each leg's out/ci/LEG/summary.json; a failed
# leg does not stop the others.  Report one KTAP document: a line a leg,
# with the leg's own KTAP as its subtest, then the legs' results as one
# table in diagnostics (ci/render-summary.sh, also written to
# out/ci/matrix.md), and last the line "N passed, N failed" over every
# step (a SKIP counts in neither; the table shows it).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

mapfile -t todo < <(if [ $# -gt 0 ]; then printf '%s\n' "$@"; else legs; fi)
for l in "${todo[@]}"; do
	leg_fields "$l" >/dev/null
done
summary=${CI_SUMMARY:-$OUT/ci/summary.md}
export CI_SUMMARY=$summary
mkdir -p "$(dirname "$summary")"
"$TOP/ci/summary.sh" --header >"$summary"
start=$SECONDS
echo "KTAP version 1"
echo "1..${#todo[@]}"
n=0
for l in "${todo[@]}"; do
	n=$((n + 1)) rc=0
	"$TOP/ci/leg.sh" "$l" | ktap_nest - || rc=$?
	ktap_result $n "$l" $rc "$(leg_out "$l")" || true
	# A leg that stopped before its steps still counts, as failed.
	if [ $rc != 0 ] && ! grep -q "^| $l | [^|]* | FAIL |" "$summary"; then
		"$TOP/ci/summary.sh" "$l" "(setup)" FAIL 0 "ci/leg.sh $l exited with status $rc" >>"$summary"
		"$TOP/ci/summary-json.sh" step "$l" "(setup)" FAIL 0 "ci/leg.sh $l exited with status $rc" || true
	fi
done
matrix=$(dirname "$summary")/matrix.md
rm -f "$matrix"
jsons=()
for l in "${todo[@]}"; do
	json=$(leg_out "$l")/summary.json
	[ ! -f "$json" ] || jsons+=("$json")
done
[ ${#jsons[@]} = 0 ] || "$TOP/ci/render-summary.sh" "${jsons[@]}" >"$matrix" || true
# The table, in the KTAP document as diagnostics.
echo "#"
sed 's/^/# /' "$matrix" 2>/dev/null || sed 's/^/# /' "$summary"
echo "#"
echo "# Each step's row, with its log: ${summary#"$TOP"/}; each leg's: ${OUT#"$TOP"/}/ci/<leg>/summary.json."
pass=$(grep -c '^| [^|]* | [^|]* | PASS |' "$summary" || true)
failed=$(grep -c '^| [^|]* | [^|]* | FAIL |' "$summary" || true)
skipped=$(grep -c '^| [^|]* | [^|]* | SKIP |' "$summary" || true)
{
	echo
	echo "${#todo[@]} leg(s) in $((SECONDS - start)) s; $skipped step(s) skipped."
	echo "$pass passed, $failed failed"
} >>"$summary"
echo "# ${#todo[@]} leg(s) in $((SECONDS - start)) s; $skipped step(s) skipped."
echo "$pass passed, $failed failed"
[ "$failed" = 0 ]
