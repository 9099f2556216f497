#!/bin/bash
# The A/B table on x86_64, as tests/60-ab-x86_64.sh, on every maintained
# kernel but the default one.  Two more kernels to build and boot (16
# minutes cold here): make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
on_other_kernels AB_VERSIONS 60-ab-x86_64.sh
