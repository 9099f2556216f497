#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# render-summary.sh JSON...: the results of CI legs, their summary.json
# files (ci/summary-json.sh), as one Markdown table, a row a leg and a
# column a step (in the order of ci/matrix and ci/steps), each cell the
# step's result and time; a failure links to its log (to the leg's
# published logs where the file says where they are), and its first error
# line is listed under the table.  Files of the same leg (its usual steps
# and its @weekly ones) share a row.  A file that is not a leg's summary is
# named under the table, and the exit status is then 1.  ci/legs.sh prints
# it after the legs; the workflow's last job writes it to the run's page.
# shellcheck disable=SC2016 # the $names in jq's programs are jq's
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || die "usage: $0 JSON..."
need jq

# What a leg's summary is (ci/summary-json.sh).
valid='(.format | type == "string" and startswith("oom-badness-ci-leg/"))
	and (.leg | type == "string") and (.planned | type == "array")
	and (.steps | type == "array")
	and all(.steps[]; (.step | type == "string")
		and (.status | . == "PASS" or . == "FAIL" or . == "SKIP")
		and (.duration | type == "number") and (.errors | type == "array"))'

# One record a step, tab-separated: leg, step, status (NONE: planned, no
# result: the run was stopped), seconds, the link to its log (the leg's
# published logs, else the log), its first error line, its log; and one a
# leg: leg, "", DONE or UNFINISHED.
records='. as $l | ($l.steps | map(.step)) as $done
	| ([$l.leg, "", (if $l.finished then "DONE" else "UNFINISHED" end)] | @tsv),
	  ($l.steps[] | [$l.leg, .step, .status, (.duration | tostring),
		($l.logs_url // .log // ""), (.errors[0] // .note // ""), (.log // "")] | @tsv),
	  ($l.planned[] | select(. as $p | $done | any(. == $p) | not)
		| [$l.leg, ., "NONE", "0", "", "", ""] | @tsv)'

bad=() recs=''
for f; do
	if ! why=$(jq -e "$valid" "$f" 2>&1 >/dev/null); then
		bad+=("$f: ${why:-not a leg summary of ci/summary-json.sh}")
		continue
	fi
	recs+=$(jq -r "$records" "$f")$'\n'
done

# in_order KNOWN SEEN: the lines of SEEN, those of KNOWN first, in its order.
in_order() {
	{ grep -xF -f <(printf '%s\n' "$2") <<<"$1" || true
	  grep -vxF -f <(printf '%s\n' "$1") <<<"$2" || true; } | awk 'NF && !seen[$0]++' | paste -sd' '
}
rows=$(in_order "$(legs)" "$(cut -f1 <<<"$recs")")
cols=$(in_order "$(table_rows "$TOP/ci/steps" | awk 'NF { print $1 }')" \
	"$(awk -F'\t' '$2 != "" { print $2 }' <<<"$recs")")
{
	printf '%s\n' "$recs" | awk -F'\t' -v rows="$rows" -v cols="$cols" '
	function took(s) {
		if (s < 60) return s " s"
		if (s < 3600) return int(s / 60) " min " s % 60 " s"
		return int(s / 3600) " h " int(s % 3600 / 60) " min"
	}
	!NF { next }
	$2 == "" { if ($3 == "UNFINISHED") { unfinished[$1] = 1; u++ } next }
	{
		cell[$1, $2] = $3 == "PASS" ? "PASS " took($4) : \
			$3 == "SKIP" ? "SKIP" : \
			$3 == "NONE" ? "no result" : \
			$5 == "" ? "**FAIL** " took($4) : "**[FAIL](" $5 ")** " took($4)
		n[$3]++
		if ($3 == "FAIL") {
			e = $6
			gsub(/`/, "'\''", e)
			fails[++nf] = "- " $1 " " $2 ": `" e "`" \
				($5 == "" ? "" : " (log: [" ($7 == "" ? $5 : $7) "](" $5 "))")
		}
	}
	END {
		nr = split(rows, r, " "); nc = split(cols, c, " ")
		printf "## CI results: %d leg(s); %d passed, %d failed, %d skipped", nr, n["PASS"], n["FAIL"], n["SKIP"]
		if (u) printf "; %d leg(s) did not finish", u
		printf "\n\n| leg |"
		for (j = 1; j <= nc; j++) printf " %s |", c[j]
		printf "\n|---|"
		for (j = 1; j <= nc; j++) printf "---|"
		printf "\n"
		for (i = 1; i <= nr; i++) {
			printf "| %s%s |", r[i], (r[i] in unfinished ? " (did not finish)" : "")
			for (j = 1; j <= nc; j++) printf " %s |", ((r[i], c[j]) in cell ? cell[r[i], c[j]] : "")
			printf "\n"
		}
		if (nf) {
			printf "\nFailures, each with its first error line:\n\n"
			for (i = 1; i <= nf; i++) print fails[i]
		}
	}'
	if [ ${#bad[@]} -gt 0 ]; then
		printf '\nNot read, not a leg summary of ci/summary-json.sh:\n\n'
		printf -- '- %s\n' "${bad[@]}"
	fi
}
[ ${#bad[@]} = 0 ] || die "${#bad[@]} file(s) are not leg summaries (listed above): rerun their legs, or leave them out"
