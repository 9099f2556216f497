#!/bin/bash
# As tests/15-ci-configs.sh, on every maintained kernel but the default
# one: nine more configs (about 10 minutes cold here): make test-full.
# Tier: full
v=$(. "$(dirname "$0")/lib.sh" && other_versions)
[ -n "$v" ] || { echo "no kernel but the default one"; exit 4; }
CONFIG_VERSIONS=$v exec bash "$(dirname "$0")/15-ci-configs.sh"
