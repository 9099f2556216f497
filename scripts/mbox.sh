#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mbox.sh VERSION: write series/VERSION as mail, ready to review or send:
# out/<kver>/mbox/NNNN-*.patch, numbered [PATCH v4 NN/MM] (v$SERIES_REVISION
# if set) after a cover letter [PATCH v4 00/MM] made of
# series/VERSION/cover-letter, with base-commit information, each addressed
# To the maintainers and Cc the reviewers and lists that the tree's
# scripts/get_maintainer.pl names for it (the cover letter to all of them),
# and all of it as one mbox, out/<kver>/mbox/series.mbox.  `git am
# --empty=drop` of that mbox on the base tag gives the series' tree.
#
# The mails are from the sender, git's identity in this checkout (user.name,
# user.email), who signs them off: the identity of series/signoff is a
# placeholder for this project, and wherever it stands in the series (the
# author of a patch, its sign-off) the sender takes its place; no mail is
# written without a sender, or as the placeholder, and none that still holds
# it.  Each patch's changelog, from series/VERSION/changes
# (scripts/changes.sh checks it), goes below its `---` line.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 VERSION"
ver=$1
check_version "$ver"
tag=$(base_get "$ver" tag)
base=$(base_get "$ver" commit)
integ=$(integration_branch "$ver")
cover=$TOP/series/$ver/cover-letter
[ -f "$cover" ] || die "no $cover"
out=$OUT/${tag#v}/mbox
rm -rf "$out"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

placeholder=$(project_signoff)
ph_name=${placeholder% <*} ph_email=${placeholder##*<}
ph_email=${ph_email%>}
fix='git config user.name "Your Name"; git config user.email you@example.org'

# read_sender: set sender ("Name <email>"), s_name and s_email to git's identity
# here; refuse none, and the placeholder.
read_sender() {
	sender=$(git -C "$TOP" -c user.useConfigOnly=true var GIT_COMMITTER_IDENT 2>"$tmp/ident") ||
		die "no sender to sign the mails off: git has no identity here" \
		    "($(grep '^fatal: ' "$tmp/ident" | tail -n 1 | cut -c8-)); set yours: $fix"
	sender=${sender% * *}
	s_name=${sender% <*} s_email=${sender##*<}
	s_email=${s_email%>}
	if [ "$s_name" = "$ph_name" ] || [ "${s_email,,}" = "${ph_email,,}" ]; then
		die "the sender, git's identity here, is '$sender', the placeholder of" \
		    "series/signoff: it stands for this project, not for a person, and signs" \
		    "off no mail; set yours: $fix"
	fi
}

# rewrite: the commits of the series again, with the sender wherever the
# placeholder stood (authors, sign-offs), in a repository of their own that
# borrows the kernel repository's objects and writes none there; prints the
# new tip.
rewrite() {
	local c raw parent=$base
	git init -q "$tmp/git"
	echo "$(kgit rev-parse --path-format=absolute --git-common-dir)/objects" \
		>"$tmp/git/.git/objects/info/alternates"
	for c in $(kgit rev-list --reverse "$tag..$integ"); do
		raw=$(kgit cat-file commit "$c" && echo .)
		raw=${raw%.}
		raw=${raw/$'\n'"parent $(kgit rev-parse "$c^")"$'\n'/$'\n'"parent $parent"$'\n'}
		raw=${raw//"$placeholder"/"$sender"}
		parent=$(printf '%s' "$raw" | git -C "$tmp/git" hash-object -t commit -w --stdin)
	done
	echo "$parent"
}

# The cheap checks first: who sends, and the changelogs.
read_sender
"$TOP/scripts/changes.sh" "$ver" "$tmp/changes"
wt=$("$TOP/scripts/tree.sh" "$ver" | tail -n 1)
tip=$(rewrite)
[ "$(git -C "$tmp/git" log --reverse --format=%s "$base..$tip")" = "$(cat "$tmp/changes/subjects")" ] ||
	die "$integ does not hold the patches of series/$ver: make tree VERSION=$ver"

# The cover letter is from the sender too.
SERIES_COMMITTER_NAME=$s_name SERIES_COMMITTER_EMAIL=$s_email \
series_git -C "$tmp/git" format-patch -q --zero-commit --no-signature --abbrev=12 \
	--numbered --cover-letter --thread=shallow --subject-prefix="PATCH v${SERIES_REVISION:-4}" \
	--base="$base" -o "$out" "$base..$tip"

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

# changelog MAIL: its patch's changelog below its `---`, above the diffstat,
# and MIME headers that say UTF-8 if the changelog needs them and git did not
# write them.
changelog() {
	local cl
	cl=$tmp/changes/$(basename "$1" | cut -c1-4)
	awk -v cl="$cl" '
		!done && /^---$/ { print; while ((getline l < cl) > 0) print l; print ""; done = 1; next }
		{ print }
		END { exit !done }' "$1" >"$1.new" || die "$1 has no '---' line"
	mv "$1.new" "$1"
	if LC_ALL=C grep -q '[^[:print:][:space:]]' "$cl" && ! sed '/^$/q' "$1" | grep -qi '^Content-Type:'; then
		sed -i '0,/^$/s//MIME-Version: 1.0\nContent-Type: text\/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n/' "$1"
	fi
}
for p in "$out"/[0-9]*.patch; do
	[ "$p" = "$c" ] || changelog "$p"
done

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

# The last check: the placeholder is in no mail.
if grep -rniF -e "$ph_name" -e "$ph_email" "$out" >"$tmp/left"; then
	rm -rf "$out"
	die "the placeholder of series/signoff is still in the mails (deleted):"$'\n'"$(head -n 5 "$tmp/left")"$'\n'"make" \
	    "mbox puts the sender only where '$placeholder' stands whole: write it so" \
	    "in the commit, or drop it (docs/tree.md, Editing a patch)"
fi
note "$out/series.mbox: $(grep -c '^Subject: \[PATCH' "$out/series.mbox") mails" \
	"from $sender, base $tag ($(cut -c1-12 <<<"$base"))"
