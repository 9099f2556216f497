# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The CI stage's definitions: the legs of ci/matrix.  Sourced, not run;
# sources scripts/lib.sh.  Each function prints what it finds, and the
# caller names the variables it goes into:
#
#	f=$(leg_fields "$LEG")
#	read -r VERSION ARCH COMPILER VARIANT <<<"$f"
#	out=$(leg_out "$LEG")

# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

# leg_line LEG: "VERSION NAME ARCH COMPILER VARIANT STEPS...", the line of
# ci/matrix for CI leg LEG (<kernel>-<name>: 6.1-x86_64-gcc), after its
# kernel; fails, naming what is there, for a leg that is not.
leg_line() {
	local ver name line
	[[ $1 =~ ^([0-9]+\.[0-9]+)-(.+)$ ]] || die "LEG='$1' is not <kernel>-<name>, like 6.1-x86_64-gcc"
	ver=${BASH_REMATCH[1]} name=${BASH_REMATCH[2]}
	[ -d "$TOP/series/$ver" ] || die "LEG=$1: series/ has no kernel $ver (ls series/)"
	line=$(table_rows "$TOP/ci/matrix" | awk -v n="$name" '$1 == n')
	[ -n "$line" ] || die "LEG=$1: no leg $name in ci/matrix (there are: $(legs | paste -sd' '))"
	echo "$ver $line"
}

# leg_fields LEG: "VERSION ARCH COMPILER VARIANT" of leg LEG, "-" where
# its line has none.
leg_fields() {
	local line
	line=$(leg_line "$1") || exit
	awk '{ print $1, $3, $4, $5 }' <<<"$line"
}

# leg_steps LEG [weekly]: the steps a run of leg LEG runs, on one line; with
# "weekly", those the matrix marks STEP@weekly instead, run only when asked
# (CI_STEPS=STEP).
leg_steps() {
	local line s
	local -a words picked=()
	line=$(leg_line "$1") || exit
	read -ra words <<<"$line"
	for s in "${words[@]:5}"; do
		case $s in
		*@weekly) [ "${2:-}" != weekly ] || picked+=("${s%@weekly}") ;;
		*@*) die "ci/matrix: leg $1: step $s: the only schedule is @weekly" ;;
		*) [ "${2:-}" = weekly ] || picked+=("$s") ;;
		esac
	done
	echo "${picked[*]}"
}

# leg_out LEG: the folder of leg LEG's results, out/ci/LEG.
leg_out() {
	echo "$OUT/ci/$1"
}

# leg_worktree_dir LEG: where leg LEG's own worktree is, made or not.
leg_worktree_dir() {
	echo "$KWT/ci-$1"
}

# leg_worktree LEG: the leg's own worktree (leg_worktree_dir), checked out
# at its series' integration branch (built by scripts/tree.sh); prints it.
# Checking out changes only what differs, so a warm leg rebuilds only that.
leg_worktree() {
	local f ver commit wt
	wt=$(leg_worktree_dir "$1")
	f=$(leg_fields "$1") || exit
	ver=${f%% *}
	commit=$(kgit rev-parse --verify -q "$(integration_branch "$ver")^{commit}") ||
		die "no branch $(integration_branch "$ver"): run make tree VERSION=$ver"
	[ -d "$wt" ] || add_worktree "$wt" "$commit"
	git -C "$wt" checkout -q --detach "$commit"
	echo "$wt"
}

# legs: every leg of the matrix, for every kernel series/ maintains.
legs() {
	local v
	for v in $(versions); do
		table_rows "$TOP/ci/matrix" | awk -v v="$v" 'NF { print v "-" $1 }'
	done
}

# allmod_nparts LEG: how many parts the allmod-full step builds the leg's
# allmodconfig tree in (ci/allmod-parts, by kernel and arch; ALLMOD_PARTS
# names another file, for tests).
allmod_nparts() {
	local f ver arch
	f=$(leg_fields "$1") || exit
	read -r ver arch _ <<<"$f"
	awk -v k="$ver-$arch" '!/^#/ && NF == 3 && $1 == k && $2 > n { n = $2 } END { print n + 0 }' \
		"${ALLMOD_PARTS:-$TOP/ci/allmod-parts}"
}
