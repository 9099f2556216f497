# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# allmod-lib.sh: what checks/allmod.sh and checks/allmod-parts.sh share.
# Sourced after ci/lib.sh and build/lib.sh, with ARCH and COMPILER set.

# configure SRC OUT: OUT configured with allmodconfig for SRC, CONFIG_WERROR
# off (W=1's warnings would stop the build instead of being compared), and
# prepared.
configure() {
	local src=$1 out=$2
	mkdir -p "$out"
	if [ ! -f "$out/.config" ] || grep -q '^CONFIG_WERROR=y' "$out/.config"; then
		{ kmake "$src" "$out" "$ARCH" "$COMPILER" -s allmodconfig &&
		  "$src/scripts/config" --file "$out/.config" --disable WERROR &&
		  kmake "$src" "$out" "$ARCH" "$COMPILER" -s olddefconfig; } >"$out/config.log" 2>&1 ||
			die "make allmodconfig failed: $out/config.log"
	fi
	kmake "$src" "$out" "$ARCH" "$COMPILER" -s -j"$(nproc)" prepare >"$out/prepare.log" 2>&1 ||
		die "make prepare failed: $out/prepare.log"
}

