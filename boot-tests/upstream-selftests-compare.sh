#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# upstream-selftests-compare.sh [-k KNOWN] VERSION BASE_KTAP SERIES_KTAP
#
# Compare the kernel's own selftests (boot-tests/upstream-selftests) between
# a boot of the base kernel and one of the series (boot.sh's KTAP of each,
# where the guest's lines are "# NAME: ..." diagnostics) and print KTAP, a
# line per result: a program's subtest ("NAME.SUBTEST", by the program's own
# KTAP), or the program itself when it prints none.  Exit status 0 when
# every line is ok.
#
# Results rank ok, then SKIP, then not ok (a missing result is not ok).  A
# result worse on the series than on the base fails: a regression.  A test
# that fails on both kernels passes only when KNOWN
# (boot-tests/upstream-selftests-known) lists it for VERSION, and the line
# says why; unlisted, it fails, and so does a run without results at all.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

known=$TOP/boot-tests/upstream-selftests-known
while getopts k: opt; do
	case $opt in
	k) known=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || die "usage: $0 [-k KNOWN] VERSION BASE_KTAP SERIES_KTAP"
ver=$1
for f in "$2" "$3" "$known"; do
	[ -r "$f" ] || die "no $f"
done

# results KTAP: "KEY RANK LABEL WHY" a line, in the order of KTAP: KEY is
# "NAME" or "NAME/N", RANK 2 (ok), 1 (SKIP) or 0 (not ok).
results() {
	awk -v names="$(table_rows "$TOP/boot-tests/upstream-selftests" | awk '{ print $1 }')" '
		BEGIN { n = split(names, a, "\n"); for (i = 1; i <= n; i++) ours[a[i]] = 1 }
		function rank(line) {
			if (line ~ /^not ok/) return 0
			return line ~ /# (SKIP|skip)/ ? 1 : 2
		}
		function why(line) {
			return sub(/^[^#]*# */, "", line) ? line : ""
		}
		# A subtest: "# NAME: ok N DESCRIPTION", from the program itself.
		/^# [^ :]+: (not )?ok [0-9]+ / {
			name = substr($2, 1, length($2) - 1)
			if (!(name in ours)) next
			line = $0
			sub(/^# [^ ]+ /, "", line)
			num = line
			sub(/^(not )?ok /, "", num)
			sub(/ .*/, "", num)
			label = line
			sub(/^(not )?ok [0-9]+ (# SKIP )?/, "", label)
			sub(/[ #].*/, "", label)
			# A program that forks with output buffered prints it again.
			if ((name "/" num) in done) next
			done[name "/" num] = 1
			print name "/" num, rank(line), name "." label, why(line)
			subs[name] = 1
			next
		}
		# The program: "ok N NAME", from the guest.
		/^(not )?ok [0-9]+ / {
			name = $0
			sub(/^(not )?ok [0-9]+ /, "", name)
			sub(/ .*/, "", name)
			if ((name in ours) && !(name in subs) && !(name in done)) {
				print name, rank($0), name, why($0)
				done[name] = 1
			}
		}
		# A program the guest never ran: no result.
		END {
			for (i = 1; i <= n; i++)
				if (!(a[i] in subs) && !(a[i] in done))
					print a[i], 0, a[i], "no result"
		}' "$1"
}

# compare BASE SERIES: the KTAP document, "<failures>" as its last line.
compare() {
	awk -v ver="$ver" -v knownf="$known" -v known_rows="$(table_rows "$known")" '
		BEGIN {
			n = split(known_rows, k, "\n")
			for (i = 1; i <= n; i++) {
				split(k[i], f, /[ \t]+/)
				if (f[1] != ver && f[1] != "*") continue
				r = k[i]
				sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", r)
				reason[f[2]] = r
			}
			word[0] = "not ok"; word[1] = "SKIP"; word[2] = "ok"
		}
		FNR == NR {
			key = $1; b[key] = $2; lab[key] = $3; bwhy[key] = why(); order[++nk] = key
			if (key ~ /\//) { sub(/\/.*/, "", key); subs[key] = 1 }
			next
		}
		{
			key = $1
			# The series has no subtests of a program whose base has: they
			# fail one by one above, not the program again.
			if (key in subs) next
			if (!(key in lab)) { order[++nk] = key; b[key] = 0; lab[key] = $3 }
			s[key] = $2; swhy[key] = why()
		}
		function why(  w) { w = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ ?/, "", w); return w }
		END {
			print "KTAP version 1"
			print "1.." nk
			for (i = 1; i <= nk; i++) {
				key = order[i]; l = lab[key]
				sr = (key in s) ? s[key] : 0
				if (sr < b[key]) {
					print "# " l ": " word[b[key]] " on the base, " \
						word[sr] (key in s ? "" : " (no result)") " on the series" \
						(swhy[key] != "" ? ": " swhy[key] : "")
					print "not ok " i " " l " # regression"
					bad++
				} else if (sr == 0 && (l in reason)) {
					print "ok " i " " l " # fails on both kernels, known: " reason[l]
					seen[l] = 1
				} else if (sr == 0) {
					print "# " l " fails on both kernels" (bwhy[key] != "" ? ": " bwhy[key] : "") \
						"; if that is not the series, list it with its reason in " knownf
					print "not ok " i " " l " # fails on both kernels, not known"
					bad++
				} else if (sr == 1) {
					print "ok " i " " l " # SKIP" (swhy[key] ~ /^SKIP/ ? substr(swhy[key], 5) : "")
				} else {
					print "ok " i " " l (b[key] < sr ? " # better on the series than on the base" : "")
				}
			}
			for (l in reason)
				if (!(l in seen))
					print "# " l " is listed as failing on both kernels but did not: remove it from " knownf
			print bad + 0
		}' <(results "$1") <(results "$2")
}

out=$(compare "$2" "$3")
sed '$d' <<<"$out"
bad=$(tail -n 1 <<<"$out")
[ "$bad" = 0 ] || die "$bad of the kernel's selftests fail on the series where the base passes, or on both unlisted (see above)"
