#!/bin/bash
# As tests/30-bisect.sh, on every maintained kernel but the default one:
# another allmodconfig tree to prepare and every commit's objects to build
# (docs/timings.md says how long): make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
on_other_kernels BISECT_VERSIONS 30-bisect.sh
