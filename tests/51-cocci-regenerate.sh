#!/bin/bash
# The driver topic of series/6.1 is exactly what make spatch writes, so
# that running it again changes nothing (make spatch itself, in a sandbox;
# on 6.12: tests/90-rebase.sh, whose make rebase regenerates it); an edited
# generated patch is caught with the command that fixes it.  Each run of
# spatch takes a minute or two.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

sandbox
start=$SECONDS
make -s -C "$SB/repo" spatch VERSION=6.1 || fail "make spatch failed"
echo "make spatch VERSION=6.1: $((SECONDS - start)) s (tree included)"
git -C "$SB/repo" status --porcelain series | grep . && fail "make spatch changed series/"
# So running it again would change nothing either: the same inputs.

p=$(find "$SB/repo/series/6.1/drm-drivers" -name '*radeon*')
sed -i 's/^rather than edit it\.$/rather than edit it (edited)./' "$p"
expect_fail 'make spatch VERSION=6.1' "$SB/repo/cocci/regenerate.sh" --check 6.1
