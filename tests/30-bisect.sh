#!/bin/bash
# Each commit of every maintained series builds, under x86_64 allmodconfig
# with gcc, the objects the series touches or reaches through a changed macro.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
for v in $(versions); do
	"$TOP/ci/bisect-build.sh" "$v" x86_64 gcc || fail "a commit of series/$v breaks the build: see above"
done
