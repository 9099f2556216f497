#!/bin/bash
# The Makefile's header comment is its list of targets, and `make help`
# prints it: every target it names is a rule, and every rule is a .PHONY
# target that it names (a target added without a line there fails here,
# named).  The check proves it can fail, on a copy with an undocumented
# target and on one with a documented target gone.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# header MAKEFILE: the targets its header names ("make [VAR=...]" is all).
header() {
	sed -n '/^#   make /,/^$/p' "$1" |
		awk '$1 == "#" && $2 == "make" { print ($3 == "" || $3 ~ /^\[|=/) ? "all" : $3 }' | sort -u
}
# rules MAKEFILE: the targets it has a rule for.
rules() {
	grep -oE '^[a-z][a-z0-9-]*:([^=]|$)' "$1" | sed 's/:.*//' | sort -u
}
# phony MAKEFILE: its .PHONY targets, continuation lines joined.
phony() {
	sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$1" | sed -n 's/^\.PHONY://p' | tr -s ' \t' '\n' | grep . | sort -u
}
# check_targets MAKEFILE: the header, the rules and .PHONY agree.
check_targets() {
	local h r p t
	h=$(header "$1") r=$(rules "$1") p=$(phony "$1")
	for t in $(comm -23 <(echo "$h") <(echo "$r")); do
		fail "the header of $1 names 'make $t', which has no rule: add the rule or drop the line"
	done
	for t in $(comm -13 <(echo "$h") <(echo "$r")); do
		fail "target $t of $1 is not in its header: add a line '#   make $t   what it does' (make help prints the header)"
	done
	[ "$r" = "$p" ] || fail "the rules of $1 and its .PHONY differ: $(diff <(echo "$r") <(echo "$p") | grep '^[<>]' | paste -sd' ')"
}

check_targets "$TOP/Makefile"
echo "ok: Makefile: $(header "$TOP/Makefile" | wc -l) targets, each a rule, each in the header"

out=$(make -s -C "$TOP" help) || fail "make help failed"
for t in $(header "$TOP/Makefile" | grep -vx all); do
	grep -qE "^  make $t( |$)" <<<"$out" || fail "make help does not list make $t: $out"
done
[ "$(sed -n '/^#   make /,/^$/p' "$TOP/Makefile" | grep -c .)" = "$(grep -c . <<<"$out")" ] ||
	fail "make help does not print the whole header: $out"
echo "ok: make help prints the header, $(wc -l <<<"$out") lines"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$TOP/Makefile" "$tmp/undocumented"
printf '\nsecret:\n\ttrue\n' >>"$tmp/undocumented"
sed -i 's/^\.PHONY: all /.PHONY: all secret /' "$tmp/undocumented"
expect_fail "target secret of .* is not in its header" check_targets "$tmp/undocumented"
sed '/^#   make mbox /d' "$TOP/Makefile" >"$tmp/mbox-gone"
expect_fail "target mbox of .* is not in its header" check_targets "$tmp/mbox-gone"
sed '/^mbox:/,/^$/d' "$TOP/Makefile" >"$tmp/rule-gone"
expect_fail "names 'make mbox', which has no rule" check_targets "$tmp/rule-gone"
