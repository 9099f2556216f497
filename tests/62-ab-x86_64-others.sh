#!/bin/bash
# The A/B table on x86_64, as tests/60-ab-x86_64.sh, on every maintained
# kernel but the default one.  Two more kernels to build and boot (16
# minutes cold here): make test-full.
# Tier: full
v=$(. "$(dirname "$0")/lib.sh" && other_versions)
[ -n "$v" ] || { echo "no kernel but the default one"; exit 4; }
AB_VERSIONS=$v exec bash "$(dirname "$0")/60-ab-x86_64.sh"
