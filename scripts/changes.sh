#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# changes.sh VERSION [DIR]
#
# Read series/VERSION/changes, the changelog of each patch (its header
# comment says how it is written), and check it against the patches of
# series/VERSION, in the order of its quilt series file: every patch takes
# one section (by its subject, or by a glob), every section serves a patch,
# and no line starts with "TODO:".  Fail, naming each patch and section that
# is wrong, before anything is written.  With DIR, write there each patch's
# changelog as DIR/NNNN, NNNN its number in the series from 0001 (the number
# of its mail), and the patches' subjects, in order, as DIR/subjects; without,
# print which section each patch takes.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[[ $# -ge 1 && $# -le 2 ]] || die "usage: $0 VERSION [DIR]"
ver=$1 dir=${2:-}
check_version "$ver"
file=series/$ver/changes
[ -f "$TOP/$file" ] ||
	die "no $file: write one (the header of series/6.1/changes says how), one section a patch"

# The sections: keys (a subject or a glob), where each starts, their text.
keys=() at=() texts=()
n=0
while IFS= read -r l || [ -n "$l" ]; do
	n=$((n + 1))
	case $l in
	'#'*) ;;
	'Subject: '*) keys+=("${l#Subject: }") at+=("$n") texts+=("") ;;
	*)
		if [ ${#keys[@]} -gt 0 ]; then
			texts[-1]+=$l$'\n'
		elif [ -n "${l//[[:space:]]/}" ]; then
			die "$file:$n: text before the first 'Subject:' line"
		fi
		;;
	esac
done <"$TOP/$file"

# trim TEXT: TEXT without the blank lines at its ends.
trim() {
	local t=$1
	while [[ $t == $'\n'* ]]; do t=${t#$'\n'}; done
	printf '%s' "$t" | sed -e :a -e '/^[[:space:]]*$/{$d;N;ba' -e '}'
}

errs=()
for i in "${!keys[@]}"; do
	texts[i]=$(trim "${texts[i]}")
	where="$file:${at[i]}, 'Subject: ${keys[i]}'"
	[ -n "${texts[i]}" ] || errs+=("$where: no changelog under it: write it")
	todo=$(grep -n '^TODO:' <<<"${texts[i]}" | head -n 1 || true)
	[ -z "$todo" ] ||
		errs+=("$where: still says '${todo#*:}': write that patch's changelog in its place")
done

# match SUBJECT: hits, the sections that serve the patch of SUBJECT: those
# that name it, else the globs that match it.
match() {
	local i exact=() glob=()
	for i in "${!keys[@]}"; do
		if [ "${keys[i]}" = "$1" ]; then
			exact+=("$i")
		else
			# shellcheck disable=SC2254 # the key is a glob
			case $1 in ${keys[i]}) glob+=("$i") ;; esac
		fi
	done
	if [ ${#exact[@]} -gt 0 ]; then hits=("${exact[@]}"); else hits=("${glob[@]}"); fi
}

mapfile -t patches < <(series_patches "$ver")
subjects=() used=() taken=()
for p in "${patches[@]}"; do
	s=$(git mailinfo /dev/null /dev/null <"$TOP/series/$ver/$p" | sed -n 's/^Subject: //p')
	subjects+=("$s")
	match "$s"
	case ${#hits[@]} in
	1)
		used[hits[0]]=1
		taken+=("${hits[0]}")
		;;
	0)
		taken+=(-)
		errs+=("series/$ver/$p has no section: add a line 'Subject: $s' and its changelog under it")
		;;
	*)
		for i in "${hits[@]}"; do used[i]=1; done
		taken+=(-)
		errs+=("series/$ver/$p ('$s') matches several sections (lines$(for i in "${hits[@]}"; do
			printf ' %s' "${at[i]}"; done)): make one of them name it")
		;;
	esac
done
for i in "${!keys[@]}"; do
	[ -n "${used[i]:-}" ] ||
		errs+=("$file:${at[i]}, 'Subject: ${keys[i]}': matches no patch of series/$ver: drop it, or correct it to a patch's subject")
done
[ ${#errs[@]} -eq 0 ] ||
	die "$file is not ready for mail; fix it there:$(printf '\n  %s' "${errs[@]}")"

if [ -z "$dir" ]; then
	for k in "${!patches[@]}"; do
		printf '%04d %s  <- %s:%s\n' $((k + 1)) "${subjects[k]}" "$file" "${at[${taken[k]}]}"
	done
	exit 0
fi
mkdir -p "$dir"
for k in "${!patches[@]}"; do
	printf '%s\n' "${texts[${taken[k]}]}" >"$dir/$(printf %04d $((k + 1)))"
done
printf '%s\n' "${subjects[@]}" >"$dir/subjects"
