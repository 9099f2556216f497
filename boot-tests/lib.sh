# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The boot stage's definitions: the runs of the A/B table and the desktop
# guest's cache key.  Sourced, not run; sources scripts/lib.sh.

# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

# ab_runs: the runs of boot-tests/ab-runs, one a line.
ab_runs() {
	table_rows "$TOP/boot-tests/ab-runs"
}

# desktop_rootfs_key LIST: the cache key of the desktop guest's root
# filesystem (boot-tests/desktop-rootfs.sh): a hash of the package list
# LIST, its rows only (a comment changes nothing).
desktop_rootfs_key() {
	table_rows "$1" | sha256sum | cut -c1-16
}
