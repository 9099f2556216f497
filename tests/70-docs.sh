#!/bin/bash
# The docs topic of the default kernel's series is what make docs writes
# from Documentation/, and builds with no new Sphinx warning and no new
# kernel-doc complaint (the other kernels: 72-docs-others.sh; DOCS_VERSIONS
# changes the kernels); an edited source is caught as drift.  (The series
# as mail: 71-mbox.sh.)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
for v in ${DOCS_VERSIONS:-$(default_version)}; do
	make -s -C "$TOP" docs-check VERSION="$v" || fail "make docs-check VERSION=$v: see above"
done

sandbox
sed -i 's/must take O(1) time/must take constant time/' "$SB/repo/Documentation/filesystems/vfs.rst.entry"
expect_fail 'make docs VERSION=6.1' "$SB/repo/scripts/docs.sh" --check 6.1
