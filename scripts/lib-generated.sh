# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The definitions of the scripts that generate a topic of the series from
# sources of this repository (scripts/docs.sh).
# Sourced, not run; sources scripts/lib.sh.

# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# generated_topic VERSION ORIGIN: "TOPIC PREV", the topic of series/VERSION
# that ORIGIN makes (its second column in topics) and the topic before it.
generated_topic() {
	local topic prev
	topic=$(table_rows "$TOP/series/$1/topics" | awk -v o="$2" '$2 == o { print $1 }')
	[ -n "$topic" ] || die "series/$1/topics has no topic of origin '$2'"
	prev=$(topics "$1" | grep -B1 -x "$topic" | head -n 1)
	[ "$prev" != "$topic" ] || die "topic $topic cannot come first in series/$1/topics"
	echo "$topic $prev"
}

# commit_generated DIR MSGFILE BASE: commit the index of worktree DIR as
# the project (series/signoff), dated as the series' base commit BASE.
commit_generated() {
	local signoff email date
	signoff=$(project_signoff)
	email=${signoff##*<}
	date=$(kgit log -1 --format=%aD "$3")
	GIT_AUTHOR_NAME=${signoff% <*} GIT_AUTHOR_EMAIL=${email%>} \
	GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		series_git -C "$1" commit -q --no-verify -F "$2"
}

# finish_generated VERSION TOPIC DIR CHECK FIX: with CHECK set, fail (naming
# FIX, the command that regenerates) when series/VERSION/TOPIC differs from
# the patches in DIR; without, put them there and rebuild the branches.
finish_generated() {
	local dest=$TOP/series/$1/$2
	if [ -n "$4" ]; then
		diff -ru "$dest" "$3" >&2 ||
			die "series/$1/$2 is not what this tree makes of its sources: regenerate it with: $5"
		note "series/$1/$2 is what $5 writes"
		return 0
	fi
	rm -rf "$dest"
	mkdir -p "$dest"
	cp "$3"/*.patch "$dest/" 2>/dev/null || true
	"$TOP/scripts/tree.sh" "$1" >/dev/null
	"$TOP/scripts/export.sh" "$1"
}
