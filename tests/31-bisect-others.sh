#!/bin/bash
# As tests/30-bisect.sh, on every maintained kernel but the default one:
# another allmodconfig tree to prepare and every commit's objects to build
# (about 10 minutes cold here): make test-full.
# Tier: full
v=$(. "$(dirname "$0")/lib.sh" && other_versions)
[ -n "$v" ] || { echo "no kernel but the default one"; exit 4; }
BISECT_VERSIONS=$v exec bash "$(dirname "$0")/30-bisect.sh"
