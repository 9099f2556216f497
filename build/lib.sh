# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The kernel build stage's definitions: how a kernel tree is built here
# (build/toolchains, ccache).  Sourced, not run; sources scripts/lib.sh.

# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

# toolchain ARCH COMPILER: the make variables of build/toolchains for them,
# on one line (ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- ...).
toolchain() {
	local vars
	vars=$(table_rows "$TOP/build/toolchains" |
		awk -v a="$1" -v c="$2" '$1 == a && $2 == c { $1 = $2 = ""; print }' | xargs)
	[ -n "$vars" ] || die "no toolchain for $1 $2 in build/toolchains"
	echo "$vars"
}

# kmake SRC OUT ARCH COMPILER ARGS: make in kernel tree SRC, objects in OUT,
# with the toolchain of build/toolchains and the compiler run through ccache.
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
