#!/bin/bash
# make (the A/B table) on x86_64 with gcc, on the default kernel (the
# other kernels: 62-ab-x86_64-others.sh): the series and its base built
# and booted; in every OOM scenario the victim is the one
# boot-tests/scenarios expects of each run (with the series, the hog); the
# kselftest fails no case and skips only for a reason of
# boot-tests/kselftest-skips; the stress run ends with its process charged
# for its probe memfd alone; the series' OOM reports show the file shares of its
# victims (the base's show none), and the memory cgroup scenarios had the
# cgroup's OOM; the logs are clean; where the machine has a desktop guest,
# weston ran on its DRM device in the desktop runs (tests/64-desktop.sh
# runs `make desktop` alone).  AB_ARCH and AB_VERSIONS change the
# architecture and the kernels.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
arch=${AB_ARCH:-x86_64}
desktop=$(machine "$arch" desktop_guest) rows='!(desktop-*)'
[ "$desktop" != yes ] || rows='*'
for v in ${AB_VERSIONS:-$(default_version)}; do
	make -s -C "$TOP" ab VERSION="$v" ARCH="$arch" COMPILER=gcc || fail "make ab VERSION=$v: see above"
	ab=$OUT/$(base_get "$v" tag | sed 's/^v//')/$arch-gcc/ab
	# The victims of boot-tests/scenarios; the desktop rows only where
	# there is a desktop guest.
	expected_victims "$ab/table.md" "$rows" || fail "$v: see above"
	grep -q '^# oom_ledger_test: # Totals: pass:[1-9][0-9]* fail:0 xfail:0 xpass:0 skip:[0-9]* error:0' \
		"$ab/series.log.ktap" || fail "$v: the kselftest failed: $ab/series.log.ktap"
	# A case may skip only for a reason of boot-tests/kselftest-skips: one
	# the machine cannot change (a driver without PRIME export), never a
	# missing device, root or sysctl.
	kselftest_skips "$ab/series.log.ktap" || fail "$v: see above"
	grep -Eq "^# stress: FilesCharged after closing every handle: ([0-9]+) kB, the probe's pages: \\1 kB" \
		"$ab/series.log.ktap" || fail "$v: stress: charges not back to the probe's pages"
	# The OOM report: the series shows what a victim held through files.
	grep -Eq 'Killed process [0-9]+ .* files:[1-9][0-9]*kB' "$ab/series.log" ||
		fail "$v: no Killed process line of the series shows a file share"
	! grep -q 'Killed process .* files:' "$ab/base.log" ||
		fail "$v: the base kernel's report has files: (is base the series?)"
	grep -Eq 'Memory cgroup out of memory: Killed process' "$ab/series.log" ||
		fail "$v: no memory cgroup OOM in the series' run"
	[ "$desktop" != yes ] || desktop_on_drm "$ab/desktop" || fail "$v: see above"
	echo "series/$v on $arch: the table as expected"
done
