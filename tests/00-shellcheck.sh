#!/bin/bash
# Every shell script of the project is shellcheck-clean.
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
