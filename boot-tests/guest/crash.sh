#!/bin/sh
# A guest test that crashes the kernel (sysrq c): the runner must report
# the panic.  Used by tests/41-boot-failures.sh, never by the boot runs.
echo c >/proc/sysrq-trigger
