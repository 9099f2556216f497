#!/bin/bash
# Every shell script of the project is shellcheck-clean, and every test
# is strict (set -euo pipefail), so that no failure in it goes unseen.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need shellcheck
cd "$TOP" || exit
mapfile -t files < <(git ls-files -co --exclude-standard |
	while read -r f; do
		case $f in *.sh | .ci/run | boot-tests/guest/init) echo "$f" ;; esac
	done)
echo "checking ${#files[@]} scripts"
shellcheck -x "${files[@]}" || fail "shellcheck: fix the lines above"
for t in tests/[0-9]*.sh; do
	grep -qx 'set -euo pipefail' "$t" || fail "$t is not strict: add 'set -euo pipefail' before it sources lib.sh"
done
echo "every test sets -euo pipefail"
