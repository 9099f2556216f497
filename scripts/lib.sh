# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The definitions every script of this repository shares: where things
# live, messages, the kernel repository, the data of series/.  Sourced, not
# run.  Each stage adds its own beside its scripts: build/lib.sh (kernel
# builds), boot-tests/lib.sh, ci/lib.sh (the legs of the CI matrix),
# scripts/lib-generated.sh (topics generated from our sources) and
# tests/lib.sh; each sources this one.
#
# Where things live:
#   TOP     this checkout
#   KCACHE  the kernel cache, outside the checkout ($HOME/.cache/oom-badness)
#   KREPO   the kernel git repository in it: every imported base, every
#           branch.  Not bare (GitPython, which checkpatch uses, calls the
#           worktrees of a bare repository bare), but its own work tree stays
#           empty: its HEAD is never born.
#   KWT     the worktrees checked out from KREPO
#   OUT     build artifacts, logs, results (ignored by git)

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KCACHE=${KCACHE:-${HOME:?}/.cache/oom-badness}
KREPO=$KCACHE/linux
KWT=$KCACHE/worktrees
OUT=${OUT:-$TOP/out}

# The commits of the series carry a fixed committer and the author's date, so
# that `make tree` builds the same commit IDs on every machine.
SERIES_COMMITTER_NAME="OOM badness series"
SERIES_COMMITTER_EMAIL="oom-badness@invalid"

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# kgit ARGS: git on the kernel repository.
kgit() {
	git -C "$KREPO" "$@"
}

# series_git ARGS: git that writes series commits the same way everywhere.
# The user's own git configuration stays out, so that the same commits and
# the same patch files come out on every machine.
series_git() {
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
	GIT_COMMITTER_NAME=$SERIES_COMMITTER_NAME \
	GIT_COMMITTER_EMAIL=$SERIES_COMMITTER_EMAIL \
	git -c core.abbrev=12 -c diff.renames=true -c merge.conflictstyle=merge \
	    -c rerere.enabled=true -c rerere.autoupdate=true \
	    -c am.threeWay=true -c am.keepcr=false -c apply.whitespace=nowarn \
	    "$@"
}

# check_version V: V names a kernel series folder: "6.1", "6.12".
check_version() {
	[[ $1 =~ ^[0-9]+\.[0-9]+$ ]] ||
		die "VERSION='$1' is not a kernel version like 6.1 or 6.12"
}

# check_args "$@": the arguments "[--check] VERSION" of a script that writes
# series/VERSION, or with --check only says whether it would change it: sets
# check (1, or empty) and ver.
# shellcheck disable=SC2034 # check and ver are the caller's
check_args() {
	check=
	if [ "${1:-}" = --check ]; then
		check=1
		shift
	fi
	[ $# -eq 1 ] || die "usage: $0 [--check] VERSION"
	ver=$1
	check_version "$ver"
}

# sparse_worktree NAME REV [--no-cone] PATH...: the path of a worktree of the
# kernel repository at $KWT/NAME that checks out only PATH..., at REV
# (forced: it holds nothing of ours), made when it is not there yet.
sparse_worktree() {
	local wt=$KWT/$1 rev=$2
	shift 2
	[ -d "$wt" ] || kgit worktree add -q --no-checkout --detach "$wt" "$rev"
	# Always: a worktree made by an older checkout may hold other paths.
	git -C "$wt" sparse-checkout set "$@"
	git -C "$wt" checkout -q -f --detach "$rev"
	echo "$wt"
}

# base_get VERSION KEY: a value from series/VERSION/base.
base_get() {
	local f=$TOP/series/$1/base
	[ -f "$f" ] || die "no $f: is VERSION=$1 maintained here? (ls series/)"
	sed -n "s/^$2=//p" "$f"
}

# topics VERSION: the topic names of a series, in stacking order.
topics() {
	local f=$TOP/series/$1/topics
	[ -f "$f" ] || die "no $f"
	table_rows "$f" | awk 'NF { print $1 }'
}

# Branch names in the kernel repository.
topic_branch() { printf 'oom-%s/%s\n' "$1" "$2"; }
integration_branch() { printf 'oom-%s/for-next\n' "$1"; }
worktree_dir() { printf '%s/%s\n' "$KWT" "$1"; }

# format_patch ARGS: git format-patch as series/ holds its files.
format_patch() {
	series_git -C "$KREPO" format-patch -q --zero-commit --no-signature \
		--no-numbered --abbrev=12 --stat=72 --stat-graph-width=20 "$@"
}

# machine ARCH KEY: a value from boot-tests/machines/ARCH.
machine() {
	local f=$TOP/boot-tests/machines/$1
	[ -f "$f" ] || die "no machine $1 (there are: $(ls "$TOP/boot-tests/machines"))"
	sed -n "s/^$2=//p" "$f"
}

# host_machine: this machine, as the reports name it: "2 cores, MODEL, x86_64".
host_machine() {
	printf '%s cores, %s, %s\n' "$(nproc)" "$(awk -F': *' '/^model name/ { m = $2; exit }
		END { print m ? m : "CPU model unknown" }' /proc/cpuinfo)" "$(uname -m)"
}

# kernel_make ARGS: make for a kernel tree, with nothing of a make above us
# (ours: VERSION=6.1) leaking into it through MAKEFLAGS.
kernel_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES make "$@"
}

# ktap_result N NAME RC LOG: the KTAP line of test N, NAME, by its exit
# status RC, naming LOG when it failed; returns 1 when it failed.
ktap_result() {
	if [ "$3" = 0 ]; then
		echo "ok $1 $2"
	else
		echo "not ok $1 $2 # log: $4"
		return 1
	fi
}

# table_rows FILE: the rows of a data file of this project, one a line,
# comments and blank lines dropped.
table_rows() {
	sed -e 's/#.*//' "$1" | awk 'NF'
}

# ktap_nest FILE...: FILE (- for stdin), a KTAP document, as a subtest of
# the one being printed: indented by four spaces, its lines that are not
# KTAP (version, plan, result, diagnostic, or a line of a subtest of its
# own) made diagnostics.  The caller prints the subtest's result after it.
ktap_nest() {
	awk '/^(KTAP version [0-9]+|[0-9]+\.\.[0-9]+|(not )?ok [0-9]+( .*)?|#( .*)?| .*)$/ { print "    " $0 }
		$0 == "" { print "    #" }
		!/^(KTAP version [0-9]+|[0-9]+\.\.[0-9]+|(not )?ok [0-9]+( .*)?|#( .*)?| .*)?$/ { print "    # " $0 }
		{ fflush() }' "$@"
}

# add_worktree DIR COMMIT: a detached worktree of the kernel repository.
add_worktree() {
	kgit worktree add -q --detach "$1" "$2"
}

# need CMD...: fail, naming its package, when a command is missing.
need() {
	local c p
	for c; do
		command -v "$c" >/dev/null && continue
		p=$(awk -v c="$c" '{ for (i = 2; i <= NF; i++) if ($i == c) print $1 }' "$TOP/scripts/packages")
		[ -n "$p" ] || die "no $c here: install its package with 'make deps'"
		die "no $c here: install $p with 'make deps' (or: apt-get install $p)"
	done
}

# project_signoff: the identity of series/signoff, "Name <email>": it
# signs off what this project writes, and stands for no person.
project_signoff() {
	grep -v '^#' "$TOP/series/signoff" | head -n 1
}

# versions: the kernels series/ maintains.
versions() {
	find "$TOP/series" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort -V
}

# series_patches VERSION: the patch files of series/VERSION in the order
# they apply (its file series), paths relative to series/VERSION.
series_patches() {
	local f=$TOP/series/$1/series
	[ -f "$f" ] || die "no $f"
	table_rows "$f"
}

# default_version: the kernel make works on without VERSION= (the Makefile's).
default_version() {
	sed -n 's/^VERSION ?= //p' "$TOP/Makefile"
}

# other_versions: the maintained kernels but the default one.
other_versions() {
	versions | grep -vxF "$(default_version)" || true
}

# base_worktree VERSION: the worktree of the series' base tree (base-X),
# always at the base tag; built from, never changed.
base_worktree() {
	local wt=$KWT/base-$1
	[ -d "$wt" ] || add_worktree "$wt" "$(base_get "$1" tag)"
	git -C "$wt" checkout -q --detach "$(base_get "$1" tag)"
	echo "$wt"
}

# checkout_files: the files of this checkout as they are (tracked or new,
# not ignored, not deleted), NUL-separated, relative to TOP.
checkout_files() {
	local f
	(cd "$TOP" && git ls-files -co --exclude-standard -z) |
		while IFS= read -r -d '' f; do
			if [ -e "$TOP/$f" ] || [ -L "$TOP/$f" ]; then
				printf '%s\0' "$f"
			fi
		done
}
