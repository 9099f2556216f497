#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report.sh TREE: list every file_operations of the DRM drivers in the kernel
# tree TREE whose files carry a struct drm_file, one a line:
#
#   <file>:<line>: <name>: converted | via macro <MACRO> | MISSING
#
# and exit 1 when one is MISSING: the check that catches, after a rebase, a
# driver that the conversion does not cover yet.
#
# Written-out fops come from cocci/drm_oom_badness.cocci in report mode.
# A fops made by a macro (DEFINE_DRM_GEM_FOPS(x); or DRM_GEM_FOPS inside an
# initializer) is covered when the macro sets .oom_badness and .oom_holders,
# itself or through another macro; which macros make DRM fops (their .open
# opens through drm_open()) is read from the tree's headers.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 TREE"
tree=$(realpath "$1")
DRM_OPENERS=$("$TOP/cocci/spatch.sh" openers "$tree" | paste -sd' ')
export DRM_OPENERS
raw=$("$TOP/cocci/spatch.sh" report "$tree")

# The macros of the tree's headers that make DRM fops: "NAME oom|-" lines.
dirs=()
for d in include/drm drivers/gpu/drm drivers/accel; do
	[ -d "$tree/$d" ] && dirs+=("$d")
done
mapfile -t headers < <(cd "$tree" && grep -rlE --include='*.h' '^#[[:space:]]*define' "${dirs[@]}" |
	xargs -r grep -lE 'FOPS|\.open' | LC_ALL=C sort)
macros=$(cd "$tree" && cat "${headers[@]}" /dev/null | awk -v openers="drm_open $DRM_OPENERS" '
	function word_in(body, set,    w) {
		for (w in set)
			if (body ~ ("(^|[^A-Za-z0-9_])" w "([^A-Za-z0-9_]|$)"))
				return 1
		return 0
	}
	BEGIN { n = split(openers, o, " "); for (i = 1; i <= n; i++) opener[o[i]] = 1 }
	/^#[ \t]*define[ \t]/ {
		name = $0
		sub(/^#[ \t]*define[ \t]+/, "", name)
		sub(/[^A-Za-z0-9_].*/, "", name)
		cur = name
		body[cur] = ""
	}
	cur != "" { body[cur] = body[cur] " " $0 }
	cur != "" && !/\\$/ { cur = "" }
	END {
		for (m in body)
			for (w in opener)
				if (body[m] ~ ("\\.open[ \t]*=[ \t]*" w "([^A-Za-z0-9_]|$)"))
					fops[m] = 1
		do {
			grew = 0
			for (m in body)
				if (!(m in fops) && word_in(body[m], fops)) { fops[m] = 1; grew = 1 }
		} while (grew)
		for (m in fops)
			if (body[m] ~ /\.oom_badness[ \t]*=/ && body[m] ~ /\.oom_holders[ \t]*=/)
				oom[m] = 1
		do {
			grew = 0
			for (m in fops)
				if (!(m in oom) && word_in(body[m], oom)) { oom[m] = 1; grew = 1 }
		} while (grew)
		for (m in fops)
			print m, (m in oom) ? "oom" : "-"
	}')

awk -v macros="$macros" '
	BEGIN {
		n = split(macros, l, "\n")
		for (i = 1; i <= n; i++) { split(l[i], f, " "); kind[f[1]] = f[2] }
	}
	$1 == "FOPS" { print $2, $3 ":", ($5 == "converted" ? "converted" : "MISSING") }
	$1 == "ELEM" || $1 == "DECL" {
		if (!($4 in kind))
			next
		if (kind[$4] == "oom")
			print $2, $3 ":", "via macro " $4
		else
			print $2, $3 ":", "MISSING (macro " $4 " does not set .oom_badness and .oom_holders)"
	}' <<<"$raw" | LC_ALL=C sort -t: -k1,1 -k2,2n >"${TMPDIR:-/tmp}/report.$$"

cat "${TMPDIR:-/tmp}/report.$$"
total=$(grep -c . "${TMPDIR:-/tmp}/report.$$" || true)
missing=$(grep -c ': MISSING' "${TMPDIR:-/tmp}/report.$$" || true)
conv=$(grep -c ': converted$' "${TMPDIR:-/tmp}/report.$$" || true)
rm -f "${TMPDIR:-/tmp}/report.$$"
echo "# $total DRM fops: $conv converted, $((total - conv - missing)) via macro, $missing MISSING" \
	"(macros: $(awk '{ print $1 }' <<<"$macros" | sort | paste -sd' '))"
[ "$missing" = 0 ] ||
	die "$missing DRM fops lack .oom_badness or .oom_holders: regenerate the driver topic with" \
	    "'make spatch VERSION=<kernel>', or make the macro set it in the drm-gem topic"
