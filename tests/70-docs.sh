#!/bin/bash
# The docs topic of the default kernel's series is what make docs writes
# from Documentation/, and builds with no new Sphinx warning and no new
# kernel-doc complaint (the other kernels: 72-docs-others.sh; DOCS_VERSIONS
# changes the kernels), the base's warnings kept for the next run; an
# edited source is caught as drift.  (The series as mail: 71-mbox.sh.)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
for v in ${DOCS_VERSIONS:-$(default_version)}; do
	out=$(make -s -C "$TOP" docs-check VERSION="$v") || fail "make docs-check VERSION=$v: $out"
	echo "$out"
	# The base's warnings are kept by tag: the next run builds the series' side alone.
	cached=$(sed -n "s/^# Sphinx on .*(the base's \(from\|built and kept in\) \(.*\))$/\2/p" <<<"$out")
	if [ -z "$cached" ] || [ ! -f "$cached" ]; then
		fail "make docs-check VERSION=$v kept no base warnings in the cache"
	fi
done

sandbox
sed -i 's/^If this is set to 1 (the default)/If this is 1 (the default)/' "$SB/repo/Documentation/admin-guide/sysctl/vm.rst.section"
expect_fail 'make docs VERSION=6.1' "$SB/repo/scripts/docs.sh" --check 6.1
