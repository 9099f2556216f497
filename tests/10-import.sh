#!/bin/bash
# Importing Debian's tree gives the commit series/6.1/base records, with
# every file of the tarball, those its .gitignore ignores included.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tag=$("$TOP/scripts/import-tree.sh" 6.1) || fail "import-tree.sh 6.1 failed"
[ "$tag" = "$(base_get 6.1 tag)" ] || fail "import gave $tag, base says $(base_get 6.1 tag)"
[ "$(kgit rev-parse "$tag^{commit}")" = "$(base_get 6.1 commit)" ] ||
	fail "$tag is $(kgit rev-parse "$tag"), series/6.1/base says $(base_get 6.1 commit)"
in_git=$(kgit ls-tree -r --name-only "$tag" | wc -l)
in_tar=$(tar -tJf /usr/src/linux-source-6.1.tar.xz | grep -vc '/$')
echo "$tag: $in_git files in git, $in_tar in the tarball"
[ "$in_git" = "$in_tar" ] || fail "the import lost files"
kgit cat-file -e "$tag:.mailmap" || fail ".mailmap, ignored by the tarball's .gitignore, is missing"
# Re-running reuses the tag: quick, same answer.
start=$SECONDS
[ "$("$TOP/scripts/import-tree.sh" 6.1)" = "$tag" ] || fail "second import differs"
echo "second import: $((SECONDS - start)) s"
[ $((SECONDS - start)) -lt 10 ] || fail "second import did not reuse the tag"
