#!/bin/bash
# make upstream-selftests on x86_64 with gcc, on the default kernel (the
# kernels 60-ab-x86_64.sh builds, two boots more): both boots clean, every
# kernel selftest that passes on the base passes on the series, and the
# memory cgroup's OOM cases pass on both.  Then the comparison, on these
# very boots, fails where it must: without the list of known failures
# (the tmpfs cases fail on both), and with one OOM case of the series'
# log turned "not ok".  UPSTREAM_VERSIONS changes the kernels.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
compare=$TOP/boot-tests/upstream-selftests-compare.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in ${UPSTREAM_VERSIONS:-$(default_version)}; do
	out=$(make -s -C "$TOP" upstream-selftests VERSION="$v" ARCH=x86_64 COMPILER=gcc) ||
		fail "make upstream-selftests VERSION=$v: $out"
	echo "$out"
	dir=$OUT/$(base_get "$v" tag | sed 's/^v//')/x86_64-gcc/upstream-selftests
	for c in oom_events oom_group_leaf_events oom_group_parent_events oom_group_score_events; do
		grep -Eq "^    ok [0-9]+ test_memcontrol.test_memcg_$c\$" <<<"$out" ||
			fail "$v: test_memcg_$c did not pass on both kernels"
	done
	printf '# none\n' >"$tmp/none"
	expect_fail 'fails on both kernels, not known' \
		"$compare" -k "$tmp/none" "$v" "$dir/base.log.ktap" "$dir/series.log.ktap"
	sed -E 's/^# test_memcontrol: ok ([0-9]+) test_memcg_oom_events$/# test_memcontrol: not ok \1 test_memcg_oom_events/' \
		"$dir/series.log.ktap" >"$tmp/series.ktap"
	expect_fail 'not ok [0-9]+ test_memcontrol.test_memcg_oom_events # regression' \
		"$compare" "$v" "$dir/base.log.ktap" "$tmp/series.ktap"
	echo "series/$v: the kernel's selftests pass where they pass on the base"
done
