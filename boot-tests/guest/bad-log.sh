#!/bin/sh
# A guest test that passes but leaves what a kernel bug would in the log:
# the kernel-log check must fail.  KERN_ERR (<3>), as __might_resched()
# prints it.  Used by tests/41-boot-failures.sh.
echo "<3>BUG: sleeping function called from invalid context (a test of the log check)" >/dev/kmsg
