# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The boot stage's definitions: the runs of the A/B table, the desktop
# guest's cache key, the layers of the desktop and torture guests, the
# clock the benchmarks' guests are given, and the reading of the
# KEY<TAB>VALUE files that runs leave (meta, summary).
# Sourced, not run; sources scripts/lib.sh.

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

# append_layer LAYER INITRAMFS DEST: write DEST, the gzipped cpio
# INITRAMFS with the directory LAYER appended as a second one, which the
# kernel unpacks over the first (the desktop and torture guests).
append_layer() {
	local layer=$1 base=$2 dest=$3
	mkdir -p "$(dirname "$dest")"
	{
		cat "$base"
		(cd "$layer" && find . -mindepth 1 | LC_ALL=C sort |
			cpio --quiet -o -H newc --owner 0:0) | gzip -n -9
	} >"$dest.tmp"
	mv "$dest.tmp" "$dest"
}

# tsc_params ARCH: under TCG the x86 guest often fails to calibrate its TSC
# and falls back to jiffies (4 ms) for its clocks and the timestamps of its
# log; QEMU's TSC is the host's, so give the guest the host's rate.
tsc_params() {
	local mhz
	[ "$1-$(uname -m)" = x86_64-x86_64 ] || return 0
	grep -qw constant_tsc /proc/cpuinfo || return 0
	mhz=$(awk -F': *' '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
	[ -n "$mhz" ] || return 0
	printf 'tsc_early_khz=%d tsc=reliable' "$(awk -v m="$mhz" 'BEGIN { printf "%d", m * 1000 }')"
}

# kv FILE KEY: the value of KEY in FILE, lines of KEY<TAB>VALUE (a run's
# meta or summary); the last one when KEY is there twice, and nothing when
# it is not.
kv() {
	awk -F'\t' -v k="$2" '$1 == k { v = $2; found = 1 } END { if (found) print v }' "$1"
}
