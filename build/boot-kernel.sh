#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot-kernel.sh [-v VARIANT]... [-m] SRC OUT ARCH COMPILER [-- TARGET...]
#
# The boot-test kernel of ARCH from kernel tree SRC into OUT: what every
# boot test, the A/B table, the benchmarks and the CI legs boot.  It is
# build/build-kernel.sh with the fragments of configs/: boot.config and
# boot-ARCH.config; VARIANT.config for a CI leg with a variant (sanitizers),
# each VARIANT's in the order given (torture, then torture-kasan);
# with -m, modules.config on top (DRM and vgem as modules, for modpost).
# TARGETs as build-kernel.sh's (olddefconfig checks the config alone).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

usage="usage: $0 [-v VARIANT]... [-m] SRC OUT ARCH COMPILER [-- TARGET...]"
frags=("$TOP/configs/boot.config")
variants=() modules=''
while getopts v:m o; do
	case $o in
	v) [ "$OPTARG" = - ] || variants+=("$OPTARG") ;;
	m) modules=1 ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 4 ] || die "$usage"
src=$1 out=$2 arch=$3 comp=$4
shift 4
frags+=("$TOP/configs/boot-$arch.config")
for v in "${variants[@]}"; do
	frags+=("$TOP/configs/$v.config")
done
[ -z "$modules" ] || frags+=("$TOP/configs/modules.config")
for f in "${frags[@]}"; do
	[ -f "$f" ] || die "no ${f#"$TOP"/} (ls configs/)"
done
exec "$TOP/build/build-kernel.sh" "$src" "$out" "$arch" "$comp" "${frags[@]}" "$@"
