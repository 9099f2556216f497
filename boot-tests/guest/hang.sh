#!/bin/sh
# A guest test that never ends: the runner must report a hang.
# Used by tests/41-boot-failures.sh, never by the boot runs.
while :; do sleep 60; done
