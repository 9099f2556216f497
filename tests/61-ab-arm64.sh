#!/bin/bash
# The A/B table on arm64 (QEMU virt, cross gcc): as tests/60-ab-x86_64.sh.
# Two more kernels and slower guests (34 minutes cold here, in .ci/run):
# make test-full.
# Tier: full
AB_ARCH=arm64 exec bash "$(dirname "$0")/60-ab-x86_64.sh"
