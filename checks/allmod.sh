#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# allmod.sh [--full [--shard i/N]] LEG: under allmodconfig for the leg's
# arch and compiler, build with W=1 every object the series touches or
# reaches through a changed macro (checks/objects.sh), at the base tree and
# at the series, and fail on what is new, 0-day style: an object that
# builds at the base and not with the series, or a warning the base did not
# have for that object (compared without line numbers, which the series
# moves).  New ones are shown with ">>".  KTAP out, one line an object.  An
# object that does not build at the base (not for this arch, or already
# broken) is named and skipped.  CONFIG_WERROR is off, so that a warning is
# compared, not a stop.
#
# With --full (the allmod-full step), the series side is the whole
# allmodconfig tree, vmlinux and every module, built with W=1: the objects
# above are compared as they come out of it, an object anywhere that fails
# to build is compared too (built at the base alone), and a tree that does
# not build for another reason (a link, modpost) fails, its errors shown.
# Warnings of objects the series does not touch are counted, not compared.
#
# With --shard i/N as well (SHARD=i/N of `make ci`), the series side is
# part i of the N of ci/allmod-parts (checks/allmod-parts.sh), in
# allmod-full-i-of-N: the objects compared are those the part builds, and
# nothing is linked; the allmod-merge step links the parts.  The part's
# result, with the series commit it built, goes to
# out/ci/LEG/allmod-parts/i-of-N.json.  A part that was interrupted
# resumes where it was: its folder is kept, and make builds what is not
# built yet.  Its time is that of every run into the folder, interrupted
# ones included (the folder's build-seconds: seconds, runs, and whether
# the first run started on an empty folder).
#
# Each object compared is rebuilt on every run (ccache answers, warnings
# included), so that its warnings are always seen.  Output:
# out/ci/LEG/allmod-base, and out/ci/LEG/allmod (or allmod-full).
set -euo pipefail
# shellcheck source=../ci/lib.sh
. "$(dirname "$0")/../ci/lib.sh"
# shellcheck source=../build/lib.sh
. "$(dirname "$0")/../build/lib.sh"
# shellcheck source=allmod-lib.sh
. "$(dirname "$0")/allmod-lib.sh"

full='' shard=''
if [ "${1:-}" = --full ]; then
	full=1
	shift
	if [ "${1:-}" = --shard ]; then
		shard=${2:-}
		shift 2 || true
		[[ $shard =~ ^[0-9]+/[0-9]+$ ]] || die "--shard i/N, not '$shard'"
	fi
fi
[ $# -eq 1 ] || die "usage: $0 [--full [--shard i/N]] LEG"
f=$(leg_fields "$1")
read -r VERSION ARCH COMPILER _ <<<"$f"
legout=$(leg_out "$1")
legwt=$(leg_worktree "$1")
basewt=$(base_worktree "$VERSION")
tag=$(base_get "$VERSION" tag)
mapfile -t objs < <("$TOP/checks/objects.sh" "$tag" "$(integration_branch "$VERSION")")

# w1 SRC OUT TARGET...: build TARGETs with W=1, output synchronized by
# target, into OUT/w1.log; returns make's status.
w1() {
	local src=$1 out=$2
	shift 2
	kmake "$src" "$out" "$ARCH" "$COMPILER" -k -Otarget -j"$(nproc)" W=1 "$@" >"$out/w1.log" 2>&1
}

# records SRC OUT: from OUT/w1.log, "OBJECT<TAB>KEY<TAB>LINE" for each
# warning and error (KEY: the line without its line numbers) and
# "OBJECT<TAB>FAILED<TAB>LINE" for each object that failed, paths relative
# to the tree.
records() {
	awk -v src="$1/" '
		function rel(s) { gsub(src, "", s); gsub(/(\.\.\/)+/, "", s); return s }
		/^  (CC|CC \[M\]|CHECK|LD|AR) +[^ ]+\.o$/ { cur = $NF; next }
		/: (warning|error): / {
			line = rel($0)
			key = line
			sub(/:[0-9]+:[0-9]+: /, ": ", key)
			sub(/:[0-9]+: /, ": ", key)
			print cur "\t" key "\t" line
		}
		/\] Error [0-9]+$/ {
			o = $0
			sub(/.*\[[^]]*: /, "", o); sub(/\] Error [0-9]+$/, "", o)
			if (o ~ /\.o$/) print o "\tFAILED\t" rel($0)
		}' "$2/w1.log" | sort -u
}

# build SRC OUT: build with W=1 the objects of objs that exist in SRC, each
# compiled anew; print their records.
build() {
	local src=$1 out=$2 o have=()
	for o in "${objs[@]}"; do
		[ -e "$src/${o%.o}.c" ] && have+=("$o")
	done
	# No target would make make build everything.
	[ ${#have[@]} -gt 0 ] || return 0
	configure "$src" "$out"
	(cd "$out" && rm -f "${have[@]}")
	w1 "$src" "$out" "${have[@]}" || true
	printf '%s\n' "${have[@]}" >"$out/objects"
	records "$src" "$out"
}

# build_tree OUT: build the whole tree of the series, the objects of objs
# compiled anew; write to OUT/records the records of objs and of the
# objects that failed, add those to objs, and set tree_rc (make's status)
# and tree_other (how many other objects have warnings).
build_tree() {
	local out=$1 all
	configure "$legwt" "$out"
	(cd "$out" && rm -f "${objs[@]}")
	tree_rc=0
	w1 "$legwt" "$out" "${targets[@]}" || tree_rc=$?
	all=$(records "$legwt" "$out")
	mapfile -t -O "${#objs[@]}" objs < <(awk -F'\t' '$2 == "FAILED" { print $1 }' <<<"$all" |
		grep -vxF -f <(printf '%s\n' "${objs[@]}") || true)
	tree_other=$(awk -F'\t' '$2 != "FAILED" { print $1 }' <<<"$all" | sort -u |
		grep -cvxF -f <(printf '%s\n' "${objs[@]}") || true)
	awk -F'\t' 'NR == FNR { want[$0] = 1; next } want[$1]' <(printf '%s\n' "${objs[@]}") - \
		<<<"$all" >"$out/records"
}

# tree_line N: the KTAP line of the whole tree's build, or of the part's.
tree_line() {
	local what="vmlinux and modules ($ARCH allmodconfig, $COMPILER, W=1)"
	[ -z "$shard" ] || what="part $shard of the tree: ${#targets[@]} target(s) ($ARCH allmodconfig, $COMPILER, W=1)"
	if [ "$tree_rc" = 0 ]; then
		echo "ok $1 $what"
	elif grep -q $'\tFAILED\t' <<<"$series"; then
		echo "ok $1 $what # SKIP not linked: $(grep -c $'\tFAILED\t' <<<"$series") object(s) failed to build, below"
	else
		# The linker's and modpost's words, else make's.
		{ grep -E '(^|: )(error|ERROR|FATAL)[: ]|undefined reference|multiple definition' \
			"$series_out/w1.log" || grep -E '\] Error [0-9]+$' "$series_out/w1.log"; } |
			head -n 20 | sed 's/^/# >> /'
		echo "not ok $1 $what # does not build with the series: $series_out/w1.log"
		return 1
	fi
}

base_out=$legout/allmod-base
targets=(all)
if [ -n "$shard" ]; then
	"$TOP/checks/allmod-parts.sh" check "$1" >&2
	mapfile -t targets < <("$TOP/checks/allmod-parts.sh" targets "$1" "$shard")
	[ ${#targets[@]} -gt 0 ] || die "part $shard has no target"
	mapfile -t objs < <(printf '%s\n' "${objs[@]}" | "$TOP/checks/allmod-parts.sh" owns "$1" "$shard")
fi
if [ -n "$full" ]; then
	series_out=$legout/allmod-full
	[ -z "$shard" ] || series_out=$legout/allmod-full-${shard/\//-of-}
	if [ -n "$shard" ]; then
		# The time of every run into the folder: a run that is stopped
		# adds its time too.  A folder built before it was timed is
		# "partly timed" for good.
		timing=$series_out/build-seconds
		if [ -f "$timing" ]; then
			read -r prior runs complete <"$timing"
		elif [ -e "$series_out/Makefile" ]; then
			prior=0 runs=0 complete=false
		else
			prior=0 runs=0 complete=true
		fi
		runs=$((runs + 1))
		mkdir -p "$series_out"
		start=$SECONDS
		trap 'echo "$((prior + SECONDS - start)) $runs $complete" >"$timing"' EXIT
	fi
	build_tree "$series_out"
	series=$(<"$series_out/records")
	base=$(build "$basewt" "$base_out")
else
	series_out=$legout/allmod
	base=$(build "$basewt" "$base_out")
	series=$(build "$legwt" "$series_out")
fi
broken=$(awk -F'\t' '$2 == "FAILED" { print $1 }' <<<"$base" | sort -u)

echo "KTAP version 1"
echo "1..$((${#objs[@]} + ${full:-0}))"
n=0 fail=0 tree_fail=0
if [ -n "$full" ]; then
	n=1
	tree_line $n || tree_fail=1
	echo "# $tree_other other object(s) have W=1 warnings: not compared, the series does not touch them"
fi
for o in "${objs[@]}"; do
	n=$((n + 1))
	if grep -qxF "$o" <<<"$broken"; then
		echo "ok $n $o # SKIP does not build at $tag ($ARCH allmodconfig): $(awk -F'\t' -v o="$o" '$1 == o && $3 ~ /error:/ { print $3; exit }' <<<"$base" | grep . || echo "see $base_out/w1.log")"
		continue
	fi
	# What this object has with the series and had not at the base.
	new=$(comm -23 <(awk -F'\t' -v o="$o" '$1 == o { print $2 }' <<<"$series" | sort) \
		<(awk -F'\t' -v o="$o" '$1 == o { print $2 }' <<<"$base" | sort))
	if [ -z "$new" ]; then
		echo "ok $n $o"
		continue
	fi
	fail=$((fail + 1))
	# The failed make's own line only when the compiler said nothing.
	grep -vqx FAILED <<<"$new" && new=$(grep -vx FAILED <<<"$new")
	while read -r k; do
		awk -F'\t' -v o="$o" -v k="$k" '$1 == o && $2 == k { print "# >> " $3 }' <<<"$series"
	done <<<"$new"
	if awk -F'\t' -v o="$o" '$1 == o && $2 == "FAILED" { f = 1 } END { exit !f }' <<<"$series"; then
		echo "not ok $n $o # does not build with the series"
	else
		echo "not ok $n $o # $(wc -l <<<"$new") new W=1 warning(s)"
	fi
done
echo "# $((${#objs[@]} - fail)) of ${#objs[@]} objects with no new error or warning (W=1, $ARCH allmodconfig, $COMPILER)"
if [ -n "$shard" ]; then
	# The part's record, for the allmod-merge step and the timings page.
	mkdir -p "$legout/allmod-parts"
	jq -n --arg leg "$1" --arg part "$shard" --arg commit "$(git -C "$legwt" rev-parse HEAD)" \
		--arg out "$series_out" --argjson seconds $((prior + SECONDS - start)) \
		--argjson runs "$runs" --argjson timed "$complete" \
		--argjson targets ${#targets[@]} --argjson objects ${#objs[@]} \
		--argjson new $fail --argjson tree_rc "$tree_rc" --argjson other "$tree_other" \
		--arg result "$([ $((fail + tree_fail)) = 0 ] && echo PASS || echo FAIL)" \
		--argjson failed "$(awk -F'\t' '$2 == "FAILED" { print $1 }' <<<"$series" | jq -R . | jq -s .)" \
		'{leg: $leg, part: $part, commit: $commit, out: $out, seconds: $seconds,
		  runs: $runs, all_runs_timed: $timed,
		  targets: $targets, compared: $objects, new_problems: $new, make_status: $tree_rc,
		  objects_failed: $failed, other_objects_warned: $other, result: $result}' \
		>"$legout/allmod-parts/${shard/\//-of-}.json"
fi
[ $tree_fail = 0 ] || die "the whole tree does not build with the series (the lines with >> above);" \
	"rebuild it with: make -C $legwt O=$series_out $(toolchain "$ARCH" "$COMPILER") W=1 -k"
[ $fail = 0 ] || die "$fail object(s) have new errors or W=1 warnings; rebuild one with:" \
	"make -C $legwt O=$series_out $(toolchain "$ARCH" "$COMPILER") W=1 <object>"
