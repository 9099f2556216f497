#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# warnings.sh LEG: under allmodconfig for the leg's arch and compiler, build
# with W=1 every object the series touches or reaches through a changed
# macro (ci/objects.sh), at the base tree and at the series, and fail on
# what is new, 0-day style: an object that builds at the base and not with
# the series, or a warning the base did not have for that object (compared
# without line numbers, which the series moves).  New ones are shown with
# ">>".  KTAP out, one line an object.  An object that does not build at the
# base (not for this arch, or already broken) is named and skipped.
# CONFIG_WERROR is off, so that a warning is compared, not a stop.
#
# Each object is rebuilt on every run (ccache answers, warnings included),
# so that its warnings are always seen.  Output: out/ci/LEG/allmod{,-base}.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 LEG"
leg "$1"
leg_worktree
basewt=$(base_worktree "$VERSION")
tag=$(base_get "$VERSION" tag)
mapfile -t objs < <("$TOP/ci/objects.sh" "$tag" "$(integration_branch "$VERSION")")

# build SRC OUT: build with W=1 the objects that exist in SRC, output
# synchronized by target, into OUT/w1.log; print "OBJECT<TAB>WARNING" for
# each warning and error, and "OBJECT<TAB>FAILED" for each object that
# failed, paths relative to the tree and line numbers dropped.
build() {
	local src=$1 out=$2 o have=()
	for o in "${objs[@]}"; do
		[ -e "$src/${o%.o}.c" ] && have+=("$o")
	done
	mkdir -p "$out"
	# allmodconfig sets CONFIG_WERROR: W=1's warnings would stop the build
	# instead of being compared.
	if [ ! -f "$out/.config" ] || grep -q '^CONFIG_WERROR=y' "$out/.config"; then
		{ kmake "$src" "$out" "$ARCH" "$COMPILER" -s allmodconfig &&
		  "$src/scripts/config" --file "$out/.config" --disable WERROR &&
		  kmake "$src" "$out" "$ARCH" "$COMPILER" -s olddefconfig; } >"$out/config.log" 2>&1 ||
			die "make allmodconfig failed: $out/config.log"
	fi
	kmake "$src" "$out" "$ARCH" "$COMPILER" -s -j"$(nproc)" prepare >"$out/prepare.log" 2>&1 ||
		die "make prepare failed: $out/prepare.log"
	(cd "$out" && rm -f "${have[@]}")
	kmake "$src" "$out" "$ARCH" "$COMPILER" -k -Otarget -j"$(nproc)" W=1 "${have[@]}" \
		>"$out/w1.log" 2>&1 || true
	awk -v src="$src/" '
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
		}' "$out/w1.log" | sort -u
	printf '%s\n' "${have[@]}" >"$out/objects"
}

base_out=$LEGOUT/allmod-base
series_out=$LEGOUT/allmod
base=$(build "$basewt" "$base_out")
series=$(build "$LEGWT" "$series_out")
broken=$(awk -F'\t' '$2 == "FAILED" { print $1 }' <<<"$base" | sort -u)

echo "KTAP version 1"
echo "1..${#objs[@]}"
n=0 fail=0
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
echo "# $((n - fail)) of $n objects with no new error or warning (W=1, $ARCH allmodconfig, $COMPILER)"
[ $fail = 0 ] || die "$fail object(s) have new errors or W=1 warnings; rebuild one with:" \
	"make -C $LEGWT O=$series_out $(toolchain "$ARCH" "$COMPILER") W=1 <object>"
