#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# summary-json.sh start LEG STEP... | step LEG STEP RESULT SECONDS LOG-OR-NOTE
#                 | end LEG HITS MISSES | logs-url LEG URL
#
# out/ci/LEG/summary.json, the machine-readable summary of a run of CI leg
# LEG (docs/ci-engines.md), beside out/ci/summary.md: `start` writes it
# anew with the steps the run will run; `step` adds the result of one, and
# for a FAIL the first error lines of its log; `end` marks the run finished,
# with ccache's counts; `logs-url` says where the leg's logs were published
# (the workflow's artifact).  The file is replaced whole at each change
# (written beside, then renamed), so a killed run leaves the steps done.
# shellcheck disable=SC2016 # the $names in jq's programs are jq's
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

usage="usage: $0 start LEG STEP... | step LEG STEP RESULT SECONDS LOG-OR-NOTE | end LEG HITS MISSES | logs-url LEG URL"
[ $# -ge 2 ] || die "$usage"
cmd=$1 LEG=$2
shift 2
f=$(leg_fields "$LEG")
read -r VERSION ARCH COMPILER VARIANT <<<"$f"
need jq
json=$(leg_out "$LEG")/summary.json
mkdir -p "${json%/*}"

# update JQ-ARGS...: replace the file with what jq makes of it.
update() {
	local tmp
	tmp=$(mktemp "$json.XXXXXX")
	jq "$@" <"$json" >"$tmp" || { rm -f "$tmp"; die "could not update $json"; }
	mv "$tmp" "$json"
}

# first_errors LOG: the first lines of LOG that say what failed: its KTAP
# failures, 0-day's ">>" lines and error messages; else its last lines.
first_errors() {
	grep -m 10 -E '^(not ok |# >> )|(^|: )(error|ERROR|FATAL)[: ]' "$1" ||
		grep -v '^[[:space:]]*$' "$1" | tail -n 5 || true
}

now() { date -u +%Y-%m-%dT%H:%M:%SZ; }

# A leg's file can be missing at `step` (ci/legs.sh's row for a leg that
# stopped before its steps) and at `logs-url` (a job that failed sooner).
if [ "$cmd" = start ] || [ ! -f "$json" ]; then
	planned=()
	[ "$cmd" != start ] || planned=("$@")
	jq -n --arg leg "$LEG" --arg kernel "$VERSION" --arg arch "$ARCH" \
		--arg compiler "$COMPILER" --arg variant "$VARIANT" --arg started "$(now)" '{
		format: "oom-badness-ci-leg/1", leg: $leg, kernel: $kernel,
		arch: (if $arch == "-" then null else $arch end),
		compiler: (if $compiler == "-" then null else $compiler end),
		variant: (if $variant == "-" then null else $variant end),
		planned: $ARGS.positional, started: $started, finished: null,
		steps: [], ccache: null, logs_url: null }' --args "${planned[@]}" >"$json.new"
	mv "$json.new" "$json"
	[ "$cmd" = start ] && exit 0
fi
case $cmd in
step)
	[ $# -eq 4 ] || die "$usage"
	step=$1 result=$2 secs=$3 what=$4 log='' note=''
	case $result in PASS | FAIL | SKIP) ;; *) die "RESULT=$result is not PASS, FAIL or SKIP" ;; esac
	[[ $secs =~ ^[0-9]+$ ]] || die "SECONDS=$secs is not a number"
	if [ "$result" != SKIP ] && [ -f "$what" ]; then log=$what; else note=$what; fi
	errors=()
	[ "$result" != FAIL ] || [ -z "$log" ] || mapfile -t errors < <(first_errors "$log")
	[ "$result" != FAIL ] || [ ${#errors[@]} -gt 0 ] || [ -z "$note" ] || errors=("$note")
	update --arg step "$step" --arg result "$result" --argjson secs "$secs" \
		--arg log "${log#"$TOP"/}" --arg note "$note" '.steps += [{
			step: $step, status: $result, duration: $secs,
			log: (if $log == "" then null else $log end),
			note: (if $note == "" then null else $note end),
			errors: $ARGS.positional }]' --args "${errors[@]}"
	;;
end)
	if [ $# -ne 2 ] || ! [[ $1$2 =~ ^[0-9]+$ ]]; then die "$usage"; fi
	update --arg finished "$(now)" --argjson h "$1" --argjson m "$2" \
		'.finished = $finished | .ccache = { hits: $h, misses: $m }'
	;;
logs-url)
	[ $# -eq 1 ] || die "$usage"
	update --arg url "$1" '.logs_url = (if $url == "" then null else $url end)'
	;;
*) die "$usage" ;;
esac
