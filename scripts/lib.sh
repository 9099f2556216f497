# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared definitions for the scripts of this repository; sourced, not run.
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
	if [ ! -d "$wt" ]; then
		kgit worktree add -q --no-checkout --detach "$wt" "$rev"
		git -C "$wt" sparse-checkout set "$@"
	fi
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

# toolchain ARCH COMPILER: the make variables of ci/toolchains for them, on
# one line (ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- ...).
toolchain() {
	local vars
	vars=$(awk -v a="$1" -v c="$2" '$1 == a && $2 == c { $1 = $2 = ""; print }' \
		"$TOP/ci/toolchains" | xargs)
	[ -n "$vars" ] || die "no toolchain for $1 $2 in ci/toolchains"
	echo "$vars"
}

# kmake SRC OUT ARCH COMPILER ARGS: make in kernel tree SRC, objects in OUT,
# with the toolchain of ci/toolchains and the compiler run through ccache.
kmake() {
	local src=$1 out=$2 arch=$3 comp=$4 vars v
	local -a args=()
	shift 4
	vars=$(toolchain "$arch" "$comp")
	for v in $vars; do
		case $v in
		CC=*) args+=("CC=ccache ${v#CC=}") ;;
		*) args+=("$v") ;;
		esac
	done
	CCACHE_DIR=${CCACHE_DIR:-$KCACHE/ccache} \
	KBUILD_BUILD_USER=oom-badness KBUILD_BUILD_HOST=ci \
	kernel_make -C "$src" O="$out" "${args[@]}" "$@"
}

# with_progress LABEL LOG CMD...: run CMD, its output to LOG.  Meanwhile,
# when stderr is a terminal, show on one line LABEL, the seconds spent
# against the last run's (kept in LOG.seconds) and the objects compiled so
# far; the line is erased at the end.  Never written to LOG or to a pipe,
# so nothing that parses output sees it.  Returns CMD's status.
with_progress() {
	local label=$1 log=$2 rc=0 last='' start=$SECONDS pid=''
	shift 2
	[ ! -f "$log.seconds" ] || last=$(cat "$log.seconds")
	if [ -t 2 ]; then
		while sleep 2; do
			printf '\r%s: %d s%s, %d objects compiled ' "$label" $((SECONDS - start)) \
				"${last:+ (last run: $last s)}" "$(grep -c '^  CC ' "$log" 2>/dev/null)" >&2
		done &
		pid=$!
	fi
	"$@" >"$log" 2>&1 || rc=$?
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		printf '\r\033[K' >&2
	fi
	[ $rc != 0 ] || echo $((SECONDS - start)) >"$log.seconds"
	return $rc
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

# ab_runs: the runs of boot-tests/ab-runs, one a line.
ab_runs() {
	table_rows "$TOP/boot-tests/ab-runs"
}

# desktop_rootfs_key LIST: the cache key of the desktop guest's root
# filesystem (boot-tests/desktop-rootfs.sh): a hash of the package list
# LIST, its rows only (a comment changes nothing).
desktop_rootfs_key() {
	table_rows "$1" | sha256sum | cut -c1-16
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

# project_signoff: the identity of series/signoff, "Name <email>": it
# signs off what this project writes, and stands for no person.
project_signoff() {
	grep -v '^#' "$TOP/series/signoff" | head -n 1
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

# leg LEG: read the CI leg LEG (<kernel>-<name>, a line of ci/matrix) into
# VERSION ARCH COMPILER VARIANT STEPS LEGOUT LEGWT; "-" where the line has
# none.  STEPS are the steps a run of the leg runs; WEEKLY those the matrix
# marks STEP@weekly, run only when asked (CI_STEPS=STEP).
leg() {
	local name line s steps
	[[ $1 =~ ^([0-9]+\.[0-9]+)-(.+)$ ]] || die "LEG='$1' is not <kernel>-<name>, like 6.1-x86_64-gcc"
	VERSION=${BASH_REMATCH[1]} name=${BASH_REMATCH[2]}
	[ -d "$TOP/series/$VERSION" ] || die "LEG=$1: series/ has no kernel $VERSION (ls series/)"
	line=$(table_rows "$TOP/ci/matrix" | awk -v n="$name" '$1 == n')
	[ -n "$line" ] || die "LEG=$1: no leg $name in ci/matrix (there are: $(legs | paste -sd' '))"
	# shellcheck disable=SC2034 # read by the caller
	read -r _ ARCH COMPILER VARIANT steps <<<"$line"
	STEPS='' WEEKLY=''
	for s in $steps; do
		case $s in
		*@weekly) WEEKLY+=" ${s%@weekly}" ;;
		*@*) die "ci/matrix: leg $name: step $s: the only schedule is @weekly" ;;
		*) STEPS+=" $s" ;;
		esac
	done
	STEPS=${STEPS# } WEEKLY=${WEEKLY# }
	# shellcheck disable=SC2034
	LEGOUT=$OUT/ci/$1
	LEGWT=$KWT/ci-$1
}

# versions: the kernels series/ maintains.
versions() {
	find "$TOP/series" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort -V
}

# default_version: the kernel make works on without VERSION= (the Makefile's).
default_version() {
	sed -n 's/^VERSION ?= //p' "$TOP/Makefile"
}

# other_versions: the maintained kernels but the default one.
other_versions() {
	versions | grep -vxF "$(default_version)" || true
}

# legs: every leg of the matrix, for every kernel series/ maintains.
legs() {
	local v
	for v in $(versions); do
		table_rows "$TOP/ci/matrix" | awk -v v="$v" 'NF { print v "-" $1 }'
	done
}

# leg_worktree: LEGWT, the leg's own worktree, checked out at the series'
# integration branch (built by scripts/tree.sh).  Checking out changes only
# what differs, so a warm leg rebuilds only that.
leg_worktree() {
	local commit
	commit=$(kgit rev-parse --verify -q "$(integration_branch "$VERSION")^{commit}") ||
		die "no branch $(integration_branch "$VERSION"): run make tree VERSION=$VERSION"
	[ -d "$LEGWT" ] || add_worktree "$LEGWT" "$commit"
	git -C "$LEGWT" checkout -q --detach "$commit"
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
