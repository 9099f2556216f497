#!/bin/bash
# make desktop on x86_64, the default kernel: weston runs in the guest on
# its DRM device (not the headless fallback) in every run, and each
# desktop scenario's victim is the one boot-tests/scenarios expects of each
# run: with the series, our Wayland client whose wl_shm pool grows dies
# alone and weston lives; without it, weston dies.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
v=$(default_version)
make -s -C "$TOP" desktop VERSION="$v" ARCH=x86_64 COMPILER=gcc || fail "make desktop VERSION=$v: see above"
ab=$OUT/$(base_get "$v" tag | sed 's/^v//')/x86_64-gcc/ab/desktop
expected_victims "$ab/table.md" 'desktop-*' || fail "$v: see above"
desktop_on_drm "$ab" || fail "see above"
echo "series/$v: the desktop rows as expected, weston on DRM in every run"
