#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# upstream-selftests-build.sh CC KSRC HDR DEST
#
# Build the kernel's own selftests of boot-tests/upstream-selftests from the
# kernel tree KSRC with the guest's compiler CC, static, against the UAPI
# headers in HDR (a kernel build folder's usr/include), into the folder
# DEST; print each one's line of the guest's /etc/tests ("NAME NAME").
#
# The sources are compiled here rather than through the selftests'
# Makefiles: mm's writes its local_config.mk into the tree (KSRC is a shared
# worktree, read only here), and vm/ was renamed mm/ in 6.3.  Without
# optimisation, as the selftests build: with -O2, gcc drops the malloc(),
# stores and free() of test_memcontrol's alloc_anon(), and its OOM tests
# see no OOM.  <sys/syscall.h> for every source: 6.1's mrelease_test
# tests "#ifndef __NR_process_mrelease" without it, calls syscall -1 and
# skips as if the kernel had no process_mrelease().
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 4 ] || die "usage: $0 CC KSRC HDR DEST"
cc=$1 st=$2/tools/testing/selftests hdr=$3 dest=$4
mkdir -p "$dest"
while read -r name folder sources _; do
	dir=$st/$folder
	[ -d "$dir" ] || [ "$folder" != mm ] || dir=$st/vm
	[ -d "$dir" ] || die "no $dir: boot-tests/upstream-selftests names a folder this kernel lacks"
	srcs=()
	for s in ${sources//,/ }; do
		case $s in
		*\?) [ ! -f "$dir/${s%\?}" ] || srcs+=("$dir/${s%\?}") ;;
		*) srcs+=("$dir/$s") ;;
		esac
	done
	"$cc" -static -pthread -D_FILE_OFFSET_BITS=64 -include sys/syscall.h \
		-isystem "$hdr" -I "$dir" -I "$st" -o "$dest/$name" "${srcs[@]}" -lrt -lm ||
		die "$name did not build from $dir"
	printf '%s\t%s\n' "$name" "$name"
done < <(table_rows "$TOP/boot-tests/upstream-selftests")
