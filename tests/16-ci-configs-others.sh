#!/bin/bash
# As tests/15-ci-configs.sh, for the legs it leaves out: the clang legs of
# the default kernel, and every leg of the other kernels.  About a minute a
# config, cold (13 configs on two kernels): make test-full.
# Tier: full
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
CONFIG_COMPILERS=clang bash "$(dirname "$0")/15-ci-configs.sh"
others=$(other_versions)
[ -z "$others" ] ||
	CONFIG_VERSIONS=$others CONFIG_COMPILERS="gcc clang" bash "$(dirname "$0")/15-ci-configs.sh"
