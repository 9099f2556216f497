#!/bin/bash
# The driver topic of series/6.1 is exactly what make spatch writes; running
# it again changes nothing; an edited generated patch is caught with the
# command that fixes it.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
for v in $(versions); do
	"$TOP/cocci/regenerate.sh" --check "$v" || fail "series/$v drifted from make spatch"
done

sandbox
start=$SECONDS
make -s -C "$SB/repo" spatch VERSION=6.1 || fail "make spatch failed"
echo "make spatch VERSION=6.1: $((SECONDS - start)) s (tree included)"
git -C "$SB/repo" status --porcelain series | grep . && fail "make spatch changed series/"
start=$SECONDS
make -s -C "$SB/repo" spatch VERSION=6.1 || fail "make spatch failed the second time"
echo "again: $((SECONDS - start)) s"
git -C "$SB/repo" status --porcelain series | grep . && fail "a second make spatch changed series/"

p=$(find "$SB/repo/series/6.1/drm-drivers" -name '*radeon*')
sed -i 's/^rather than edit it\.$/rather than edit it (edited)./' "$p"
expect_fail 'make spatch VERSION=6.1' "$SB/repo/cocci/regenerate.sh" --check 6.1
