#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# modules.sh LEG: the modular link check.  Build the leg's boot-test kernel
# with DRM and vgem as modules (configs/modules.config) into
# out/ci/LEG/modules, vmlinux and modules, so that modpost resolves every
# symbol the modules take from the kernel and from each other: a symbol the
# series uses across that line and does not export fails here, named.  The
# check proves it can fail: drm.ko must take shmem_file_charge_creator and
# oom_charges_pages, and ttm.ko oom_charge, the series' exports, from the
# kernel.
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
for m in drivers/gpu/drm/drm.ko drivers/gpu/drm/vgem/vgem.ko drivers/gpu/drm/ttm/ttm.ko; do
	grep -qx "$m" <<<"$mods" || die "no $m was built: configs/modules.config no longer makes it a module"
done
# Each module that charges takes the ledger's functions from the kernel.
takes() {
	llvm-nm -u "$out/$1" | grep -qw "$2" ||
		die "$1 does not take $2 from the kernel: this check no longer covers the series' export of it"
}
takes drivers/gpu/drm/drm.ko shmem_file_charge_creator
takes drivers/gpu/drm/drm.ko oom_charges_pages
takes drivers/gpu/drm/ttm/ttm.ko oom_charge
echo "# modules: $(wc -l <<<"$mods"): $(paste -sd' ' <<<"$mods")"
echo "# modpost: every symbol resolved, no warning; drm.ko takes shmem_file_charge_creator and oom_charges_pages, ttm.ko oom_charge, from the kernel"
