#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mbox.sh VERSION: write series/VERSION as mail, ready to review or send:
# out/<kver>/mbox/NNNN-*.patch, numbered [PATCH v2 NN/MM] after a cover
# letter [PATCH v2 00/MM] made of series/VERSION/cover-letter, with
# base-commit information, each addressed To the maintainers and Cc the
# reviewers and lists that the tree's scripts/get_maintainer.pl names for it
# (the cover letter to all of them), and all of it as one mbox,
# out/<kver>/mbox/series.mbox.  `git am --empty=drop` of that mbox on the
# base tag gives the series' tree.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 VERSION"
ver=$1
check_version "$ver"
wt=$("$TOP/scripts/tree.sh" "$ver" | tail -n 1)
tag=$(base_get "$ver" tag)
integ=$(integration_branch "$ver")
cover=$TOP/series/$ver/cover-letter
[ -f "$cover" ] || die "no $cover"
out=$OUT/${tag#v}/mbox
rm -rf "$out"
mkdir -p "$out"

# The cover letter is from whoever signs the series off (series/signoff).
signoff=$(grep -v '^#' "$TOP/series/signoff" | head -n 1)
email=${signoff##*<}
SERIES_COMMITTER_NAME=${signoff% <*} SERIES_COMMITTER_EMAIL=${email%>} \
series_git -C "$KREPO" format-patch -q --zero-commit --no-signature --abbrev=12 \
	--numbered --cover-letter --thread=shallow --subject-prefix="PATCH v${SERIES_REVISION:-2}" \
	--base="$(base_get "$ver" commit)" -o "$out" "$tag..$integ"

# The cover letter: our subject and text in place of git's placeholders.
c=$(find "$out" -name '0000-*.patch')
subject=$(sed -n '1s/^Subject: //p' "$cover")
awk -v subject="$subject" -v body="$cover" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ {
		getline l < body	# the Subject: line
		getline l < body	# the blank line after it
		while ((getline l < body) > 0)
			print l
		next
	}
	{ print }' "$c" >"$c.new"
mv "$c.new" "$c"

# addresses OPTIONS PATCH: get_maintainer.pl's addresses, comma-separated.
addresses() {
	(cd "$wt" && perl scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback --no-tree "${@:1:$#-1}" "${!#}" 2>/dev/null) |
		paste -sd, | sed 's/,/, /g'
}

# header NAME LIST: a mail header.
header() {
	[ -n "$2" ] || return 0
	printf '%s: %s\n' "$1" "$2"
}

all_to='' all_cc=''
for p in "$out"/[0-9]*.patch; do
	[ "$p" != "$c" ] || continue
	to=$(addresses --m --no-r --no-l "$p")
	cc=$(addresses --no-m --r --l "$p")
	all_to+="${all_to:+, }$to"
	all_cc+="${all_cc:+, }$cc"
	{ header To "$to"; header Cc "$cc"; } >"$out/.hdr"
	sed -i "/^Date: /r $out/.hdr" "$p"
done
uniq_list() { tr ',' '\n' <<<"$1" | sed 's/^ *//' | grep . | awk '!seen[$0]++' | paste -sd, | sed 's/,/, /g'; }
{ header To "$(uniq_list "$all_to")"; header Cc "$(uniq_list "$all_cc")"; } >"$out/.hdr"
sed -i "/^Date: /r $out/.hdr" "$c"
rm "$out/.hdr"

# One line a header: b4 0.12 cannot read folded ones from a local mbox, and
# mail allows lines of 998 characters.
for p in "$out"/[0-9]*.patch; do
	awk '/^From [0-9a-f]+ [A-Z]/ { hdr = 1; print; next }
	     hdr && /^[ \t]/ { sub(/^[ \t]+/, " "); printf "%s", $0; next }
	     hdr && started { print "" }
	     hdr && /^$/ { hdr = 0; started = 0; print; next }
	     hdr { printf "%s", $0; started = 1; next }
	     { print }' "$p" >"$p.new"
	mv "$p.new" "$p"
done
cat "$out"/[0-9]*.patch >"$out/series.mbox"
note "$out/series.mbox: $(grep -c '^Subject: \[PATCH' "$out/series.mbox") mails," \
	"base $tag ($(base_get "$ver" commit | cut -c1-12))"
