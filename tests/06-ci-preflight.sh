#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A CI leg that cannot start here fails its first step at once, the first
# error line naming what is missing and the command that brings it, and
# skips its other steps, before anything is built (no tree of the series is
# made): a cross compiler missing from PATH (through `make ci`, down to the
# table it prints), clang missing, a library package not installed (a fake
# dpkg-query), too little free disk for allmod-full (a fake df).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# farm NAME DROP-ERE: a PATH of every command of ours but those matching
# DROP-ERE, and the programs of $tmp/fake-NAME; prints it.
farm() {
	local bin=$tmp/path-$1 d f keep=()
	mkdir -p "$bin"
	for d in ${PATH//:/ }; do
		for f in "$d"/*; do
			[ -x "$f" ] && ! [[ ${f##*/} =~ $2 ]] && keep+=("$f")
		done
	done
	# The first of a name on PATH wins: ln refuses the later ones.
	ln -s -t "$bin" "${keep[@]}" 2>/dev/null || true
	[ ! -d "$tmp/fake-$1" ] || cp "$tmp/fake-$1"/* "$bin/"
	echo "$bin"
}

# cannot_start NAME PATH LEG STEPS EXPECT: the leg, its steps STEPS (CI_STEPS),
# with PATH, fails its first step with EXPECT as the first error line of its
# summary.json, skips the others, and made no tree.
cannot_start() {
	local name=$1 path=$2 leg=$3 steps=$4 expect=$5 out=$tmp/out-$1 said rc=0 first
	read -r first _ <<<"$steps"
	said=$(PATH=$path OUT=$out CI_SUMMARY=$out/summary.md CI_STEPS=$steps timeout 60 "$TOP/ci/leg.sh" "$leg" 2>&1) || rc=$?
	printf '  %s\n' "${said//$'\n'/$'\n'  }"
	[ $rc != 0 ] || fail "$name: $leg started"
	grep -q "^not ok 1 $first # " <<<"$said" || fail "$name: no 'not ok 1 $first'"
	grep -qF "# preflight.sh: error: $expect" <<<"$said" || fail "$name: the failure does not say /$expect/"
	[ ! -e "$out/ci/$leg/tree.log" ] || fail "$name: a tree was made for a leg that cannot start"
	[ "$(jq -r '.steps[0].errors[0]' "$out/ci/$leg/summary.json")" = "preflight.sh: error: $expect" ] ||
		fail "$name: summary.json's first error line is not /$expect/: $(cat "$out/ci/$leg/summary.json")"
	[ "$(jq -r '[.steps[1:][].status] | unique | join(" ")' "$out/ci/$leg/summary.json")" = SKIP ] ||
		[ "$(wc -w <<<"$steps")" = 1 ] || fail "$name: the other steps are not SKIP"
	echo "ok: $name: $leg fails its first step: $expect"
}

# The cross compiler missing, through make ci: the table says it too.
path=$(farm cross '^aarch64-linux-gnu-')
rc=0
said=$(PATH=$path OUT=$tmp/out-make CI_SUMMARY=$tmp/out-make/ci/summary.md timeout 60 \
	make -s -C "$TOP" ci LEG=6.1-arm64-gcc 2>&1) || rc=$?
[ $rc != 0 ] || fail "make ci LEG=6.1-arm64-gcc passed without a cross compiler"
expect="no aarch64-linux-gnu-gcc here: install gcc-aarch64-linux-gnu with 'make deps' (or: apt-get install gcc-aarch64-linux-gnu)"
grep -qF "| 6.1-arm64-gcc | **[FAIL](" <<<"$said" || fail "no FAIL cell in the table: $said"
grep -qF -- "- 6.1-arm64-gcc kernel: \`preflight.sh: error: $expect\`" <<<"$said" ||
	fail "the table's failure line does not name the compiler: $said"
grep -qx "0 passed, 1 failed" <<<"$said" || fail "no '0 passed, 1 failed': $said"
echo "ok: make ci LEG=6.1-arm64-gcc without aarch64-linux-gnu-gcc: $expect"

cannot_start cross "$path" 6.1-arm64-gcc "kernel boot allmod modules" "$expect"
cannot_start clang "$(farm clang '^clang')" 6.1-x86_64-clang "kernel boot" \
	"no clang here: install clang with 'make deps' (or: apt-get install clang)"

mkdir -p "$tmp/fake-dpkg"
cat >"$tmp/fake-dpkg/dpkg-query" <<'FAKE'
#!/bin/sh
# dpkg-query -W -f=... PKG: every package installed but libelf-dev.
for p; do :; done
[ "$p" = libelf-dev ] && exit 1
printf 'install ok installed'
FAKE
chmod +x "$tmp/fake-dpkg/dpkg-query"
cannot_start dpkg "$(farm dpkg '^dpkg-query$')" 6.1-x86_64-gcc "allmod" \
	"no package libelf-dev here: install it with 'make deps' (or: apt-get install libelf-dev)"

mkdir -p "$tmp/fake-df"
cat >"$tmp/fake-df/df" <<'FAKE'
#!/bin/sh
# df -Pk DIR: 3 GB free everywhere.
echo 'Filesystem 1024-blocks Used Available Capacity Mounted on'
echo '/dev/fake 104857600 101711872 3145728 97% /'
FAKE
chmod +x "$tmp/fake-df/df"
cannot_start df "$(farm df '^df$')" 6.1-x86_64-gcc "allmod-full" \
	"only 3 GB free where $tmp/out-df is; the step allmod-full needs 20 GB: free some there, or run on a larger disk: OUT=/big/out KCACHE=/big/cache make ci LEG=6.1-x86_64-gcc"
