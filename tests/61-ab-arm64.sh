#!/bin/bash
# The A/B table on arm64 (QEMU virt, cross gcc): as tests/60-ab-x86_64.sh,
# on every maintained kernel.  Two kernels for each maintained kernel, and
# slower guests (docs/timings.md says how long): make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
AB_ARCH=arm64 AB_VERSIONS=$(versions) exec bash "$(dirname "$0")/60-ab-x86_64.sh"
