#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# objects.sh FROM TO: the kernel objects that the change FROM..TO (commits of
# the kernel repository) touches or reaches through a changed macro, one a
# line: every .c file it changes, and every .c file that uses a macro whose
# definition it changes, directly or through another macro of a header
# (DEFINE_DRM_GEM_FOPS uses DRM_GEM_FOPS).  tools/, scripts/ and samples/
# are not kernel objects.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 2 ] || die "usage: $0 FROM TO"
from=$1 to=$2

kernel_c() {
	grep -E '\.c$' | grep -vE '^(tools|scripts|samples|Documentation)/' || true
}

# A .c file that another .c #includes (i915's selftests) is built as part of
# the includer: name the includer instead.
as_built() {
	local c inc d hit
	while read -r c; do
		d=$(dirname "$(dirname "$c")")
		inc=$(kgit grep -lE "#include \"([^\"]*/)?$(basename "$c")\"" "$to" -- "$d/*.c" |
			sed "s|^$to:||" | grep -vx "$c" || true)
		hit=
		for i in $inc; do
			if kgit show "$to:$i" | grep -qE "#include \"$(realpath -m --relative-to="$(dirname "$i")" "$c")\""; then
				echo "$i"
				hit=1
			fi
		done
		[ -n "$hit" ] || echo "$c"
	done
}

# The macros whose definition lines a change to header $1 touches.
changed_macros() {
	local lines
	lines=$(kgit diff -U0 "$from" "$to" -- "$1" |
		sed -n 's/^@@ -[0-9,]* +\([0-9]*\),*\([0-9]*\) @@.*/\1 \2/p')
	kgit show "$to:$1" | awk -v lines="$lines" '
		BEGIN {
			n = split(lines, l, "\n")
			for (i = 1; i <= n; i++) {
				split(l[i], f, " ")
				c = f[2] == "" ? 1 : f[2]
				for (j = f[1]; j < f[1] + c; j++)
					changed[j] = 1
			}
		}
		/^#[ \t]*define[ \t]/ {
			name = $0
			sub(/^#[ \t]*define[ \t]+/, "", name)
			sub(/[^A-Za-z0-9_].*/, "", name)
			cur = name
		}
		cur != "" && changed[NR] { print cur }
		!/\\$/ { cur = "" }' | sort -u
}

# The macros of the headers in $1 (a list) whose bodies use a name of $2.
users_in_headers() {
	local h
	for h in $1; do
		kgit show "$to:$h" | awk -v names="$2" '
			BEGIN { n = split(names, w, "\n") }
			/^#[ \t]*define[ \t]/ {
				name = $0
				sub(/^#[ \t]*define[ \t]+/, "", name)
				sub(/[^A-Za-z0-9_].*/, "", name)
				cur = name; body = ""
			}
			cur != "" { body = body " " $0 }
			cur != "" && !/\\$/ {
				for (i = 1; i <= n; i++)
					if (w[i] != cur && body ~ ("[^A-Za-z0-9_]" w[i] "[^A-Za-z0-9_]"))
						print cur
				cur = ""
			}'
	done | sort -u
}

mapfile -t files < <(kgit diff --name-only "$from" "$to")
{
	printf '%s\n' "${files[@]}" | kernel_c
	macros=$(for f in "${files[@]}"; do
		case $f in *.h) changed_macros "$f" ;; esac
	done | sort -u)
	# Follow macros through the macros of other headers, to a fixpoint.
	seen=
	while [ -n "$macros" ]; do
		pattern=$(paste -sd'|' <<<"$macros")
		mapfile -t hits < <(kgit grep -lwE "$pattern" "$to" -- '*.c' '*.h' |
			sed "s|^$to:||")
		printf '%s\n' "${hits[@]}" | kernel_c
		more=$(users_in_headers "$(printf '%s\n' "${hits[@]}" | grep '\.h$' || true)" "$macros")
		seen=$(printf '%s\n%s' "$seen" "$macros")
		new=$(comm -13 <(sort -u <<<"$seen") <(sort -u <<<"$more") | grep . || true)
		macros=$new
	done
} | sort -u | as_built | sort -u | sed 's/\.c$/.o/'
