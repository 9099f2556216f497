#!/bin/bash
# Each commit of the default kernel's series builds, under x86_64
# allmodconfig with gcc, the objects the series touches or reaches through
# a changed macro (the other kernels: 31-bisect-others.sh).  BISECT_VERSIONS
# changes the kernels.  An allmodconfig tree to prepare and the objects
# each commit reaches to build again (docs/timings.md):
# make test-full, and the bisect step of the CI leg x86_64-gcc.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
for v in ${BISECT_VERSIONS:-$(default_version)}; do
	"$TOP/checks/bisect.sh" "$v" x86_64 gcc || fail "a commit of series/$v breaks the build: see above"
done
