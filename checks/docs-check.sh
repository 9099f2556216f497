#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs-check.sh VERSION
#
# Check the documentation of series/VERSION, 0-day style: against the base
# tree, fail only on what is new.  In KTAP:
#   1. Sphinx (make htmldocs SPHINXDIRS=...) on the document folders the
#      series touches (the nearest folder with an index.rst above each
#      document: admin-guide/sysctl, not all of admin-guide): no new
#      warning (compared without line numbers, which the series shifts);
#   2. scripts/kernel-doc -none on every C file the series touches: no new
#      complaint;
#   3. the HTML holds the new sections: FilesCharged in proc.html (the
#      table and the example), the sysctl in vm.html.
# The HTML is left in out/<kver>/docs/series/ to read.  The base tree's
# warnings are kept in the kernel cache ($KCACHE/docs/), by tag, folders
# and Sphinx version: the base does not change, so a second run builds the
# series' side alone.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 VERSION"
ver=$1
need sphinx-build perl
tag=$(base_get "$ver" tag)
integ=$(integration_branch "$ver")
wt=$("$TOP/scripts/tree.sh" "$ver" | tail -n 1)
basewt=$KWT/base-$ver
[ -d "$basewt" ] || add_worktree "$basewt" "$tag"
git -C "$basewt" checkout -q --detach "$tag"
out=$OUT/${tag#v}/docs
# sphinx_dir DOC: the folder of Documentation/ that builds DOC on its own.
sphinx_dir() {
	local d
	d=$(dirname "$1")
	while [ "$d" != Documentation ] && [ ! -f "$wt/$d/index.rst" ]; do
		d=$(dirname "$d")
	done
	if [ "$d" = Documentation ]; then
		echo .
	else
		echo "${d#Documentation/}"
	fi
}
dirs=$({
	kgit diff --name-only "$tag" "$integ" -- 'Documentation/*.rst' | while read -r f; do
		sphinx_dir "$f"
	done
} | sort -u | paste -sd' ')
mapfile -t cfiles < <(kgit diff --name-only "$tag" "$integ" -- '*.c' '*.h' |
	grep -vE '^(tools|scripts|samples)/')

# warnings TREE NAME: build the docs of $dirs in TREE; print its warnings
# without paths or line numbers.
warnings() {
	rm -rf "${out:?}/$2"
	mkdir -p "$out/$2"
	PATH=/usr/bin:$PATH kernel_make -s -C "$1" O="$out/$2" htmldocs SPHINXDIRS="$dirs" \
		>"$out/$2.log" 2>&1 || die "htmldocs failed in $1: $out/$2.log"
	grep -E 'WARNING|ERROR' "$out/$2.log" |
		sed -E "s|$1/||g; s|:[0-9]+:|:|g; s|\\(line *[0-9]+\\)||g" | sort -u || true
}

# kerneldoc TREE: kernel-doc's complaints on the touched C files, in TREE.
kerneldoc() {
	(cd "$1" && for f in "${cfiles[@]}"; do
		[ -f "$f" ] && perl scripts/kernel-doc -none "$f" 2>&1
	done) | sed -E 's|:[0-9]+:|:|' | sort -u || true
}

echo "KTAP version 1"
echo "1..3"
fail=0
start=$SECONDS
key=$(printf '%s\n' "$tag" "$dirs" "$(sphinx-build --version 2>&1)" | sha1sum | cut -c1-12)
cached=$KCACHE/docs/$tag-$key.warnings
if [ -f "$cached" ]; then
	from="the base's from $cached"
else
	mkdir -p "$KCACHE/docs"
	warnings "$basewt" base >"$cached.tmp"
	mv "$cached.tmp" "$cached"
	from="the base's built and kept in $cached"
fi
mkdir -p "$out"
warnings "$wt" series >"$out/series.warnings"
new=$(comm -13 "$cached" "$out/series.warnings")
echo "# Sphinx on $dirs: $((SECONDS - start)) s ($from)"
if [ -z "$new" ]; then
	echo "ok 1 htmldocs: no new warning"
else
	printf '# >> %s\n' "${new//$'\n'/$'\n'# >> }"
	echo "not ok 1 htmldocs: new warnings (log: $out/series.log)"
	fail=1
fi

new=$(comm -13 <(kerneldoc "$basewt") <(kerneldoc "$wt"))
if [ -z "$new" ]; then
	echo "ok 2 kernel-doc: nothing new in ${#cfiles[@]} touched C files"
else
	printf '# >> %s\n' "${new//$'\n'/$'\n'# >> }"
	echo "not ok 2 kernel-doc: new complaints"
	fail=1
fi

html=$out/series/Documentation/output
missing=
n=$(grep -o 'FilesCharged' "$html/filesystems/proc.html" 2>/dev/null | wc -l)
[ "$n" -ge 2 ] || missing+=" proc.html:FilesCharged(table+example, $n of 2)"
grep -q 'oom_file_badness' "$html/admin-guide/sysctl/vm.html" 2>/dev/null ||
	missing+=" vm.html:oom_file_badness"
if [ -z "$missing" ]; then
	echo "ok 3 html: the new sections are rendered ($html)"
else
	echo "not ok 3 html: missing$missing"
	fail=1
fi
[ $fail = 0 ] || die "the docs of series/$ver need work: edit Documentation/, then: make docs VERSION=$ver"
