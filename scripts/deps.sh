#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh: install with apt-get the Debian packages of scripts/packages that
# are missing.  Quick, and changes nothing, when all are there.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

mapfile -t pkgs < <(sed -e 's/#.*//' "$TOP/scripts/packages" | awk 'NF { print $1 }')
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	note "all ${#pkgs[@]} packages are installed"
	exit 0
fi

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
note "installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
