#!/bin/bash
# The Coccinelle report finds no DRM fops without .oom_badness on the tree
# with the whole series, and fails naming the driver on a tree where one
# lacks it: the base tree, and the series' tree with one line taken out.
# (On 6.12: tests/90-rebase.sh, whose make rebase reports it.)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
wt=$("$TOP/scripts/tree.sh" 6.1 | tail -n 1)
out=$("$TOP/cocci/report.sh" "$wt") || fail "report fails on the series' tree: $(grep MISSING <<<"$out")"
tail -n 1 <<<"$out"
grep -q ': converted$' <<<"$out" || fail "no converted fops listed"
grep -q ': via macro DEFINE_DRM_GEM_FOPS$' <<<"$out" || fail "no fops via DEFINE_DRM_GEM_FOPS listed"
grep -q 'msm_drv.c:[0-9]*: fops: via macro DRM_GEM_FOPS$' <<<"$out" || fail "msm's DRM_GEM_FOPS not seen"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/base" "$tmp/one"
kgit archive "$(base_get 6.1 tag)" drivers/gpu/drm include | tar -x -C "$tmp/base"
# One run of the report a tree (a minute or two each), its findings checked
# one by one.
"$TOP/cocci/report.sh" "$tmp/base" >"$tmp/base.out" 2>&1 && fail "the report passes the base tree"
grep -E 'amdgpu_drv.c:[0-9]+: amdgpu_driver_kms_fops: MISSING' "$tmp/base.out" ||
	fail "the base's amdgpu fops are not MISSING: $(tail -n 3 "$tmp/base.out")"
grep -E 'vgem_drv.c:[0-9]+: vgem_driver_fops: MISSING \(macro DEFINE_DRM_GEM_FOPS' "$tmp/base.out" ||
	fail "the base's vgem fops are not MISSING through their macro"

kgit archive "$(integration_branch 6.1)" drivers/gpu/drm include | tar -x -C "$tmp/one"
sed -i '/\.oom_badness = drm_oom_badness,/d' "$tmp/one/drivers/gpu/drm/radeon/radeon_drv.c"
"$TOP/cocci/report.sh" "$tmp/one" >"$tmp/one.out" 2>&1 && fail "the report passes a tree with one field taken out"
grep -E 'radeon_drv.c:[0-9]+: radeon_driver_kms_fops: MISSING' "$tmp/one.out" ||
	fail "radeon's fops, without the field, are not MISSING"
n=$(grep -c ': MISSING' "$tmp/one.out")
[ "$n" = 1 ] || fail "one fops lacks the field, the report names $n"
