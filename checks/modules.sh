#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# modules.sh LEG: the modular link check.  Build the leg's boot-test kernel
# with DRM and vgem as modules (configs/modules.config) into
# out/ci/LEG/modules, vmlinux and modules, so that modpost resolves every
# symbol the modules take from the kernel and from each other: a symbol the
# series uses across that line and does not export fails here, named.  The
# check proves it can fail: drm.ko must take shmem_file_charge_creator, the
# series' export of mm/shmem.c, from the kernel.
set -euo pipefail
# shellcheck source=../ci/lib.sh
. "$(dirname "$0")/../ci/lib.sh"

[ $# -eq 1 ] || die "usage: $0 LEG"
need llvm-nm
f=$(leg_fields "$1")
read -r _ ARCH COMPILER _ <<<"$f"
legwt=$(leg_worktree "$1")
out=$(leg_out "$1")/modules
rc=0
"$TOP/build/boot-kernel.sh" -m "$legwt" "$out" "$ARCH" "$COMPILER" -- all 2>"$out.err" || rc=$?
if [ $rc != 0 ]; then
	grep -E 'modpost|undefined' "$out/build.log" | sed 's/^/# >> /' || true
	cat "$out.err" >&2
	die "the modular build failed: $out/build.log"
fi
# modpost's warnings (section mismatches, ...) are failures too.
if grep -q 'WARNING: modpost' "$out/build.log"; then
	grep 'WARNING: modpost' "$out/build.log" | sed 's/^/# >> /'
	die "modpost warns: $out/build.log"
fi
mods=$(cd "$out" && find . -name '*.ko' -printf '%P\n' | sort)
for m in drivers/gpu/drm/drm.ko drivers/gpu/drm/vgem/vgem.ko; do
	grep -qx "$m" <<<"$mods" || die "no $m was built: configs/modules.config no longer makes it a module"
done
llvm-nm -u "$out/drivers/gpu/drm/drm.ko" | grep -qw shmem_file_charge_creator ||
	die "drm.ko does not take shmem_file_charge_creator from the kernel: this check no longer covers the series' export"
echo "# modules: $(wc -l <<<"$mods"): $(paste -sd' ' <<<"$mods")"
echo "# modpost: every symbol resolved, no warning; drm.ko takes shmem_file_charge_creator from the kernel"
