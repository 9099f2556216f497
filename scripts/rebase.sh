#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rebase.sh VERSION | --continue | --abort
#
# Carry the newest maintained series to Debian's linux-source of VERSION (a
# major, 6.12, or a point release, 6.12.117), the way a maintainer would:
#
#  1. Import the tree (installing the package, or fetching the wanted
#     version's .deb).
#  2. In a worktree of its own, replay each hand-written topic (origin
#     "replay") with git am --3way, then the patches of rebase/<major>/<topic>/
#     if any (changes that exist from that kernel on); a patch that
#     rebase/<major>/upstream names (a backport the kernel has from
#     upstream) is skipped, and the report says so.  git rerere resolves
#     conflicts it has seen, on any machine: its cache is rebase/rr-cache/, and
#     conflicts are written the same everywhere (merge.conflictstyle=merge).
#     A conflict it has not seen stops the rebase, naming the topic, the patch
#     and the files: resolve them in the worktree, then --continue (or --abort).
#  3. In a staging copy of this checkout, export the replayed topics, then
#     regenerate the generated ones on the new tree (make docs).
#  4. Only then write series/<major>/ and rebase/rr-cache/ into the checkout,
#     and report: topics replayed cleanly, conflicts and how they were
#     resolved.
#
# Until step 4, nothing in this checkout changes; --abort leaves it, and the
# kernel cache's branches, as they were.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

state=$KCACHE/rebase
[ $# -eq 1 ] || die "usage: $0 VERSION | --continue | --abort"

# ---- helpers -------------------------------------------------------------

# st KEY [VALUE]: read (or, with VALUE, write) a value of the rebase's state.
st() {
	if [ $# -eq 2 ]; then
		printf '%s\n' "$2" >"$state/$1"
	else
		cat "$state/$1"
	fi
}

log_report() { printf '%s\n' "$*" >>"$state/report"; }

# rr_sync FROM TO: copy the resolutions (preimage and postimage) of one
# rerere cache into another.
rr_sync() {
	local d
	[ -d "$1" ] || return 0
	for d in "$1"/*/; do
		[ -f "$d/postimage" ] || continue
		mkdir -p "$2/$(basename "$d")"
		cp "$d/preimage" "$d/postimage" "$2/$(basename "$d")/"
	done
}

# package_version MAJOR POINT: the Debian version of linux-source-MAJOR to
# use: for a point release, the newest package of it; else the newest.
package_version() {
	apt-cache madison "linux-source-$1" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' |
		{ if [ -n "$2" ]; then grep "^$2-" || true; else cat; fi; } | sort -V | tail -n 1
}

# upstream_has MAJOR PATCH: what rebase/MAJOR/upstream says of the patch's
# subject (the upstream commit that kernel has), or nothing.
upstream_has() {
	local list=$TOP/rebase/$1/upstream subject
	[ -f "$list" ] || return 0
	subject=$(git mailinfo /dev/null /dev/null <"$2" | sed -n 's/^Subject: //p')
	table_rows "$list" | awk -F'\t' -v s="$subject" '$1 == s { print $2; exit }'
}

# ---- replay --------------------------------------------------------------

# stop_conflict STEP: the rebase stops at a conflict git rerere cannot resolve.
stop_conflict() {
	local files
	files=$(git -C "$wt" diff --name-only --diff-filter=U)
	printf '%s\n' "$files" >"$state/conflicted"
	die "CONFLICT in topic $(cut -d/ -f3 <<<"$1"), patch $(basename "$1"):" $'\n' \
	    "${files//$'\n'/ }" $'\n' \
	    "resolve these files in $wt (the patch is in" \
	    "$(git -C "$wt" rev-parse --git-path rebase-apply/patch)), then:" \
	    "make rebase-continue (or give up: make rebase-abort)"
}

# replay: apply the remaining steps of the todo list in the rebase worktree.
replay() {
	local n step total
	total=$(wc -l <"$state/todo")
	n=$(st progress)
	while [ "$n" -lt "$total" ]; do
		step=$(sed -n "$((n + 1))p" "$state/todo")
		case $step in
		tip\ *)
			# The end of a topic: where its branch will point.
			echo "${step#tip } $(git -C "$wt" rev-parse HEAD)" >>"$state/tips"
			;;
		skip\ *)
			# A backport that this kernel has upstream.
			step=${step#skip }
			log_report "upstream  ${step%%$'\t'*} (${step#*$'\t'})"
			;;
		*)
			if series_git -C "$wt" am -q --3way --committer-date-is-author-date \
				"$TOP/$step" >"$state/am.log" 2>&1; then
				log_report "clean     $step"
			elif [ -z "$(git -C "$wt" diff --name-only --diff-filter=U)" ] &&
			     [ -d "$(git -C "$wt" rev-parse --git-path rebase-apply)" ]; then
				# git rerere resolved every conflict (and staged it).
				series_git -C "$wt" am --continue >>"$state/am.log" 2>&1 ||
					die "git am --continue failed after rerere: $state/am.log"
				log_report "rerere    $step ($(grep -oE "(Resolved|Staged) '[^']*'" "$state/am.log" |
					sed -E "s/(Resolved|Staged) //; s/'//g" | paste -sd' '))"
			elif [ -d "$(git -C "$wt" rev-parse --git-path rebase-apply)" ] &&
			     [ -n "$(git -C "$wt" diff --name-only --diff-filter=U)" ]; then
				st progress "$n"
				stop_conflict "$step"
			else
				die "$step does not apply to $(st tag) at all: $state/am.log"
			fi
			;;
		esac
		n=$((n + 1))
		st progress "$n"
	done
}

# ---- finish --------------------------------------------------------------

# carry VER SRC FILE WHAT: series/VER/FILE into the staging copy: the one
# series/VER has, else series/SRC's, with a note in the report to WHAT.
carry() {
	if [ -f "$TOP/series/$1/$3" ]; then
		cp "$TOP/series/$1/$3" "$stage/series/$1/"
	else
		cp "$TOP/series/$2/$3" "$stage/series/$1/"
		log_report "note      series/$1/$3 is series/$2's: $4"
	fi
}

# finish: branches, a staging copy with the new series, generated topics;
# then write the checkout.
finish() {
	local ver src tag stage t origin prev tip
	ver=$(st major) src=$(st source) tag=$(st tag)
	stage=$state/stage
	rm -rf "$stage"
	mkdir -p "$stage"
	(cd "$TOP" && checkout_files | xargs -0 cp -a --parents -t "$stage")
	rm -rf "${stage:?}/series/$ver"
	mkdir -p "$stage/series/$ver"
	{
		echo "# The base series/$ver applies to: Debian's linux-source-$ver, imported by"
		echo "# scripts/import-tree.sh as one commit with a fixed author and date, so that"
		echo "# it has the same ID on every machine.  Changed only by \`make rebase\`."
		echo "package=linux-source-$ver"
		echo "package_version=$(st package_version)"
		echo "tag=$tag"
		echo "commit=$(kgit rev-parse "$tag^{commit}")"
	} >"$stage/series/$ver/base"
	cp "$TOP/series/$src/topics" "$stage/series/$ver/topics"
	carry "$ver" "$src" cover-letter "update its numbers"
	carry "$ver" "$src" changes "update it for the patches of $ver (scripts/changes.sh $ver says how)"

	# Every topic gets a branch: a replayed one its tip, a generated one
	# (empty until regenerated) the tip of the one before.  The series'
	# worktree lets go of its branch first (tree.sh, below, moves it back).
	[ ! -d "$KWT/$ver" ] || git -C "$KWT/$ver" checkout -q --detach
	prev=$tag
	while read -r t origin; do
		tip=$(awk -v t="$t" '$1 == t { print $2 }' "$state/tips")
		[ -n "$tip" ] || tip=$(kgit rev-parse "$prev")
		kgit branch -f "$(topic_branch "$ver" "$t")" "$tip"
		prev=$(topic_branch "$ver" "$t")
	done < <(table_rows "$stage/series/$ver/topics" | awk 'NF { print $1, $2 }')
	kgit branch -f "$(integration_branch "$ver")" "$prev"
	rm -f "$KCACHE/built-$ver"

	"$stage/scripts/export.sh" "$ver"
	"$stage/scripts/docs.sh" "$ver"
	"$stage/scripts/tree.sh" "$ver" >/dev/null

	# The checkout, at last.
	rr_sync "$(kgit rev-parse --path-format=absolute --git-common-dir)/rr-cache" "$stage/rebase/rr-cache"
	rm -rf "${TOP:?}/series/$ver"
	cp -a "$stage/series/$ver" "$TOP/series/$ver"
	mkdir -p "$TOP/rebase/rr-cache"
	rr_sync "$stage/rebase/rr-cache" "$TOP/rebase/rr-cache"

	echo "make rebase VERSION=$(st version): series/$src carried to $tag in series/$ver"
	echo "  replayed cleanly:        $(grep -c '^clean' "$state/report" || true) patches"
	echo "  conflicts from rerere:   $(grep -c '^rerere' "$state/report" || true)"
	echo "  conflicts by hand:       $(grep -c '^by-hand' "$state/report" || true)"
	echo "  upstream, skipped:       $(grep -c '^upstream' "$state/report" || true)"
	grep -E '^(rerere|by-hand|upstream|note)' "$state/report" | sed 's/^/    /' || true
	kgit worktree remove --force "$KWT/rebase-$ver"
	rm -rf "$state"
}

# ---- commands ------------------------------------------------------------

case $1 in
--abort)
	[ -d "$state" ] || die "no rebase in progress"
	ver=$(st major)
	wt=$KWT/rebase-$ver
	git -C "$wt" am --abort 2>/dev/null || true
	kgit worktree remove --force "$wt" 2>/dev/null || true
	# A finish that failed may have made branches and a worktree: undo them.
	# A branch checked out in the series' worktree is reset there: git
	# refuses to move it under that worktree's feet.
	kgit for-each-ref --format='%(refname:short)' "refs/heads/oom-$ver/" | while read -r b; do
		old=$(awk -v b="$b" '$1 == b { print $2 }' "$state/branches")
		if [ -z "$old" ]; then
			kgit branch -D -q "$b"
		elif [ "$(kgit rev-parse "$b")" = "$old" ]; then
			continue
		elif [ "$(git -C "$KWT/$ver" symbolic-ref -q --short HEAD 2>/dev/null)" = "$b" ]; then
			git -C "$KWT/$ver" reset -q --keep "$old"
		else
			kgit branch -f "$b" "$old"
		fi
	done
	if [ -f "$state/no-worktree" ] && [ -d "$KWT/$ver" ]; then
		kgit worktree remove --force "$KWT/$ver"
		rm -f "$KCACHE/built-$ver"
	fi
	rm -rf "$state"
	note "rebase to $ver aborted; nothing changed"
	;;
--continue)
	[ -d "$state" ] || die "no rebase in progress"
	wt=$KWT/rebase-$(st major)
	# Every patch replayed: what failed was the finish, which starts over.
	if [ "$(st progress)" -ge "$(wc -l <"$state/todo")" ]; then
		finish
		exit
	fi
	step=$(sed -n "$(($(st progress) + 1))p" "$state/todo")
	mapfile -t files <"$state/conflicted"
	markers=$(cd "$wt" || exit; grep -lE '^(<<<<<<<|>>>>>>>)( |$)' -- "${files[@]}" || true)
	[ -z "$markers" ] || die "conflict markers remain in: $markers"
	# Debian's tree ignores everything at its top: add the tracked files with -u.
	git -C "$wt" add -u -- "${files[@]}"
	series_git -C "$wt" am --continue >"$state/am.log" 2>&1 ||
		die "git am --continue failed: $state/am.log"
	log_report "by-hand   $step (${files[*]})"
	st progress "$(($(st progress) + 1))"
	replay
	finish
	;;
*)
	[ ! -d "$state" ] ||
		die "a rebase to $(st major) is in progress: make rebase-continue, or make rebase-abort"
	version=$1
	[[ $version =~ ^([0-9]+\.[0-9]+)(\.[0-9]+)?$ ]] ||
		die "VERSION='$version' is not a kernel version like 6.12 or 6.12.117"
	major=${BASH_REMATCH[1]}
	point=${BASH_REMATCH[2]:+$version}
	pv=$(package_version "$major" "$point")
	[ -n "$pv" ] ||
		die "no Debian package provides linux-source-$major${point:+ $point}" \
		    "(apt-cache madison linux-source-$major lists what can be had)"
	src=$(versions | grep -vxF "$major" | tail -n 1)
	[ -d "$TOP/series/$major" ] && [ -n "$point" ] && src=$major
	[ -n "$src" ] || die "no series to carry"
	need git apt-get

	if ! dpkg-query -W -f='${Status}' "linux-source-$major" 2>/dev/null | grep -q 'ok installed'; then
		note "installing linux-source-$major"
		sudo=
		[ "$(id -u)" = 0 ] || sudo=sudo
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "linux-source-$major" >&2
	fi
	tag=$("$TOP/scripts/import-tree.sh" "$major" "$pv")

	mkdir -p "$state"
	st version "$version"
	st major "$major"
	st source "$src"
	st tag "$tag"
	st package_version "$pv"
	st progress 0
	: >"$state/report"
	: >"$state/tips"
	: >"$state/conflicted"
	# The steps: each hand-written topic's patches (but the backports this
	# kernel has upstream), its adaptations for this kernel, and the end of
	# the topic.
	while read -r t origin; do
		if [ "$origin" = replay ]; then
			(cd "$TOP" && find "series/$src/$t" -name '*.patch' | sort) |
				while read -r p; do
					up=$(upstream_has "$major" "$TOP/$p")
					if [ -n "$up" ]; then
						printf 'skip %s\t%s\n' "$p" "$up"
					else
						echo "$p"
					fi
				done
			[ ! -d "$TOP/rebase/$major/$t" ] ||
				(cd "$TOP" && find "rebase/$major/$t" -name '*.patch' | sort)
		fi
		echo "tip $t"
	done < <(table_rows "$TOP/series/$src/topics" | awk 'NF { print $1, $2 }') >"$state/todo"
	# What --abort puts back: the branches and worktree of $major as they are.
	kgit for-each-ref --format='%(refname:short) %(objectname)' "refs/heads/oom-$major/" \
		>"$state/branches"
	[ -d "$KWT/$major" ] || : >"$state/no-worktree"

	rr_sync "$TOP/rebase/rr-cache" "$(kgit rev-parse --path-format=absolute --git-common-dir)/rr-cache"
	wt=$KWT/rebase-$major
	kgit worktree prune
	[ ! -d "$wt" ] || kgit worktree remove --force "$wt"
	note "carrying series/$src to $tag (linux-source-$major $pv) in $wt"
	add_worktree "$wt" "$tag"
	replay
	finish
	;;
esac
