#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh [-b BASECONFIG] SRC OUT ARCH COMPILER [FRAGMENT...] [-- TARGET...]
#
# Configure the kernel in SRC into OUT (BASECONFIG, tinyconfig by default,
# then each fragment merged on it) and build TARGETs, by default the boot
# image of ARCH's machine.  Fails when a fragment's symbol did not stick, and
# retries once a build that failed because the compiler crashed (a flake).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

base=tinyconfig
if [ "${1:-}" = -b ]; then
	base=$2
	shift 2
fi
[ $# -ge 4 ] || die "usage: $0 [-b BASECONFIG] SRC OUT ARCH COMPILER [FRAGMENT...] [-- TARGET...]"
# O= is relative to the kernel tree: make it absolute.
src=$1 out=$(realpath -m "$2") arch=$3 comp=$4
shift 4
frags=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	frags+=("$(realpath "$1")")
	shift
done
[ "${1:-}" != -- ] || shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("$(machine "$arch" image | sed 's|.*/||')")

mkdir -p "$out"
cfglog=$out/config.log
kmake "$src" "$out" "$arch" "$comp" -s "$base" >"$cfglog" 2>&1 ||
	die "make $base failed: $cfglog"
if [ ${#frags[@]} -gt 0 ]; then
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O . .config "${frags[@]}") \
		>>"$cfglog" 2>&1 || die "merging ${frags[*]} failed: $cfglog"
	kmake "$src" "$out" "$arch" "$comp" -s olddefconfig >>"$cfglog" 2>&1 ||
		die "make olddefconfig failed: $cfglog"
	# A later fragment overrides an earlier one (configs/modules.config
	# makes DRM a module): check the last setting of each symbol.
	missing=$(cat "${frags[@]}" | awk -F= '/^CONFIG_/ { v[$1] = $0 } END { for (k in v) print v[k] }' |
		sort | grep -vxF -f "$out/.config" || true)
	[ -z "$missing" ] ||
		die "these symbols of ${frags[*]} did not stick (a dependency is off):" "$missing"
fi

log=$out/build.log
for try in 1 2; do
	if with_progress "build-kernel.sh: ${targets[*]} in ${out#"$TOP"/}" "$log" \
		kmake "$src" "$out" "$arch" "$comp" -j"$(nproc)" "${targets[@]}"; then
		exit 0
	fi
	if [ $try = 1 ] && grep -qE 'internal compiler error|due to signal|Segmentation fault|terminated by signal' "$log"; then
		note "FLAKE: the compiler crashed building in $out; retrying once:"
		grep -E 'internal compiler error|due to signal|Segmentation fault|terminated by signal' "$log" | head -3 >&2
		continue
	fi
	break
done
grep -E 'error|Error' "$log" | head -20 >&2
die "build failed in $out; log: $log"
