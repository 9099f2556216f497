#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# summary.sh --header | LEG STEP RESULT SECONDS LOG-OR-NOTE
#
# A line of out/ci/summary.md, the table of every leg and step that
# ci/leg.sh writes as it goes: its header, or the row of one step.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

if [ "${1:-}" = --header ]; then
	echo "# CI summary"
	echo
	echo "Written by ci/leg.sh as the legs run; run again with \`make ci\` (one leg:"
	echo "\`make ci LEG=<kernel>-<name>\`, the names of ci/matrix)."
	echo
	echo "| leg | step | result | time | log |"
	echo "|---|---|---|---|---|"
	exit 0
fi
[ $# -eq 5 ] || die "usage: $0 --header | LEG STEP RESULT SECONDS LOG-OR-NOTE"
printf '| %s | %s | %s | %s s | %s |\n' "$1" "$2" "$3" "$4" "${5#"$TOP"/}"
