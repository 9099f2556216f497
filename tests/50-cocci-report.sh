#!/bin/bash
# The Coccinelle report finds no DRM fops without .oom_badness on the tree
# with the whole series, and fails naming the driver on a tree where one
# lacks it: the base tree, and the series' tree with one line taken out.
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
expect_fail 'amdgpu_drv.c:[0-9]+: amdgpu_driver_kms_fops: MISSING' "$TOP/cocci/report.sh" "$tmp/base"
expect_fail 'vgem_drv.c:[0-9]+: vgem_driver_fops: MISSING \(macro DEFINE_DRM_GEM_FOPS' \
	"$TOP/cocci/report.sh" "$tmp/base"

kgit archive "$(integration_branch 6.1)" drivers/gpu/drm include | tar -x -C "$tmp/one"
sed -i '/\.oom_badness = drm_oom_badness,/d' "$tmp/one/drivers/gpu/drm/radeon/radeon_drv.c"
expect_fail 'radeon_drv.c:[0-9]+: radeon_driver_kms_fops: MISSING' "$TOP/cocci/report.sh" "$tmp/one"
n=$("$TOP/cocci/report.sh" "$tmp/one" 2>/dev/null | grep -c ': MISSING')
[ "$n" = 1 ] || fail "one fops lacks the field, the report names $n"

# Every other maintained kernel: nothing missing either.
for v in $(versions); do
	[ "$v" != 6.1 ] || continue
	wt=$("$TOP/scripts/tree.sh" "$v" | tail -n 1)
	out=$("$TOP/cocci/report.sh" "$wt") || fail "report fails on series/$v: $(grep MISSING <<<"$out")"
	echo "series/$v: $(tail -n 1 <<<"$out")"
done
