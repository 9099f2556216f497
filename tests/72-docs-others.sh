#!/bin/bash
# As tests/70-docs.sh, on every maintained kernel but the default one:
# Sphinx on two more trees (about 8 minutes here): make test-full.
# Tier: full
v=$(. "$(dirname "$0")/lib.sh" && other_versions)
[ -n "$v" ] || { echo "no kernel but the default one"; exit 4; }
DOCS_VERSIONS=$v exec bash "$(dirname "$0")/70-docs.sh"
