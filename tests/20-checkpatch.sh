#!/bin/bash
# Every patch of every maintained series is checkpatch --strict clean (by
# its own tree's checkpatch), and the check fails, naming the patch, on one
# that is not.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
for v in $(versions); do
	"$TOP/checks/checkpatch.sh" "$v" || fail "checkpatch of series/$v: see above"
done

sandbox
p=$(grep -v '^#' "$SB/repo/series/6.1/series" | tail -n 1)
sed -i '/^Signed-off-by:/d' "$SB/repo/series/6.1/$p"
expect_fail "not ok [0-9]+ $p" "$SB/repo/checks/checkpatch.sh" 6.1
