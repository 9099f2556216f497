#!/bin/bash
# As tests/70-docs.sh, on every maintained kernel but the default one:
# Sphinx on two more trees: make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
on_other_kernels DOCS_VERSIONS 70-docs.sh
