#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# preflight.sh LEG STEP...: whether CI leg LEG can run STEPs here, checked
# before anything is built: the commands of its toolchain (build/toolchains)
# and of a kernel build, the libraries a kernel build links with, QEMU for a
# boot step, and the free disk the steps need (ci/steps) where out/ and the
# kernel cache are.  Fails on the first thing missing, naming it and the
# command that brings it; ci/leg.sh makes that the failure of the leg's
# first step.  Prints what it checked.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../build/lib.sh
. "$(dirname "$0")/../build/lib.sh"

[ $# -ge 2 ] || die "usage: $0 LEG STEP..."
LEG=$1
f=$(leg_fields "$LEG")
read -r _ ARCH COMPILER _ <<<"$f"
shift
steps=" $* "

# The commands of the leg's toolchain, its compiler first.
toolchain_commands() {
	local v vars
	vars=$(toolchain "$ARCH" "$COMPILER")
	sed -n 's/.*\bCC=\([^ ]*\).*/\1/p' <<<"$vars"
	for v in $vars; do
		case $v in
		CROSS_COMPILE=*) echo "${v#CROSS_COMPILE=}ld" ;;
		LLVM=1) printf '%s\n' clang ld.lld llvm-ar llvm-nm llvm-objcopy ;;
		esac
	done
}

# need_package PKG...: fail when a Debian package is not installed.
need_package() {
	local p
	for p; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			die "no package $p here: install it with 'make deps' (or: apt-get install $p)"
	done
}

# need_disk GB DIR: fail when DIR's file system (DIR need not exist yet)
# has less than GB free.
need_disk() {
	local gb=$1 dir=$2 d=$2 kb
	while [ ! -d "$d" ]; do d=$(dirname "$d"); done
	kb=$(df -Pk "$d" | awk 'NR == 2 { print $4 }')
	[[ $kb =~ ^[0-9]+$ ]] || die "df -Pk $d printed no free space"
	[ $((kb / 1048576)) -ge "$gb" ] ||
		die "only $((kb / 1048576)) GB free where $dir is; the step $big needs $gb GB:" \
			"free some there, or run on a larger disk: OUT=/big/out KCACHE=/big/cache make ci LEG=$LEG"
}

need git
checked=git
if [ "$ARCH" != - ]; then
	mapfile -t cmds < <(toolchain_commands)
	cmds+=(ccache make flex bison bc perl)
	[[ $steps != *" kernel "* ]] || cmds+=("$(machine "$ARCH" guest_cc)" cpio)
	[[ $steps != *" boot "* ]] || cmds+=("$(machine "$ARCH" qemu)")
	mapfile -t cmds < <(printf '%s\n' "${cmds[@]}" | awk '!seen[$0]++')
	need "${cmds[@]}"
	need_package libc6-dev libelf-dev libssl-dev
	checked="${cmds[*]}, libc6-dev libelf-dev libssl-dev"
fi

# The most disk any of the steps needs.
read -r gb big < <(table_rows "$TOP/ci/steps" |
	awk -v s="$steps" 'NF && index(s, " " $1 " ") && $3 ~ /^[0-9]+$/ && $3 + 0 > gb { gb = $3; big = $1 }
		END { print gb + 0, big }')
if [ "$gb" -gt 0 ]; then
	need_disk "$gb" "$OUT"
	need_disk "$gb" "$KCACHE"
	checked+="; $gb GB free for $big"
fi
echo "# $LEG can start here: $checked"
