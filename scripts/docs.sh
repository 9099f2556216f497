#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs.sh [--check] VERSION
#
# Make the patch of the docs topic of series/VERSION (the topic whose origin
# in series/VERSION/topics is "docs") from the sources in Documentation/ of
# this repository, fitted to that kernel's documents by their structure, not
# their line numbers (see Documentation/README), on top of the topic before.
# With --check, write nothing: fail, with the command that fixes it, when
# series/VERSION differs from what it would write.
set -euo pipefail
# shellcheck source=lib-generated.sh
. "$(dirname "$0")/lib-generated.sh"

check_args "$@"
read -r topic prev < <(generated_topic "$ver" docs)
"$TOP/scripts/tree.sh" "$ver" >/dev/null
tag=$(base_get "$ver" tag)
src=$TOP/Documentation
proc=Documentation/filesystems/proc.rst
vm=Documentation/admin-guide/sysctl/vm.rst

wt=$(sparse_worktree ".docs-$ver" "$(topic_branch "$ver" "$prev")" --no-cone "/$proc" "/$vm")

# insert FILE WHAT BEFORE [WITHIN [INDENT]]: put the lines of file WHAT into
# FILE before the first line matching BEFORE (after one matching WITHIN);
# with INDENT, indented as the line before them.
insert() {
	awk -v what="$2" -v before="$3" -v within="${4:-}" -v indent="${5:-}" '
		within != "" && !inside && $0 ~ within { inside = 1 }
		!done && (within == "" || inside) && $0 ~ before {
			lead = ""
			if (indent != "" && match(last, /^[ \t]*/))
				lead = substr(last, 1, RLENGTH)
			while ((getline l < what) > 0)
				print lead l
			done = 1
		}
		{ print; last = $0 }
		END { exit !done }' "$wt/$1" >"$wt/$1.new" ||
		die "$1 of $tag has no line /$3/${4:+ after /$4/}: fit $2 to it"
	mv "$wt/$1.new" "$wt/$1"
}

# append FILE WHAT AFTER: put the lines of WHAT after the first line matching AFTER.
append() {
	awk -v what="$2" -v after="$3" '
		{ print }
		!done && $0 ~ after {
			while ((getline l < what) > 0)
				print l
			done = 1
		}
		END { exit !done }' "$wt/$1" >"$wt/$1.new" ||
		die "$1 of $tag has no line /$3/: fit $2 to it"
	mv "$wt/$1.new" "$wt/$1"
}

insert "$proc" "$src/filesystems/proc.rst.example" '^  VmData:' '^  RssShmem:'
insert "$proc" "$src/filesystems/proc.rst.status" '^ VmData ' '^ RssShmem '
append "$vm" "$src/admin-guide/sysctl/vm.rst.index" '^- oom_dump_tasks$'
insert "$vm" "$src/admin-guide/sysctl/vm.rst.section" '^oom_kill_allocating_task$'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -e "s|@VERSION@|$ver|" -e "s|@SIGNOFF@|$(project_signoff)|" \
	"$src/commit-message" >"$tmp/msg"
git -C "$wt" add -u "$proc" "$vm"
commit_generated "$wt" "$tmp/msg" "$tag"
mkdir "$tmp/out"
format_patch -o "$tmp/out" "$(topic_branch "$ver" "$prev")..$(git -C "$wt" rev-parse HEAD)"
git -C "$wt" checkout -q -f --detach "$tag"
finish_generated "$ver" "$topic" "$tmp/out" "$check" "make docs VERSION=$ver"
