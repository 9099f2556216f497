#!/bin/bash
# Every Kconfig fragment of every CI leg sticks: for each leg that builds a
# kernel with gcc (ci/matrix), on the default kernel (the clang legs and
# the other kernels: 16-ci-configs-others.sh; CONFIG_VERSIONS and
# CONFIG_COMPILERS change them), the boot-test fragments
# plus the leg's variant, and those of the modular link check, merged onto
# tinyconfig, leave every symbol as the fragments set it (build/build-kernel.sh
# fails when one does not: a dependency is off).  Configuring only, in one
# output folder per kernel, arch and compiler: each config starts from
# tinyconfig, and the kconfig tools are built once.  (6.12's tinyconfig
# picks SLUB_TINY, which KASAN cannot have: this is what caught it.)  About
# a minute a config, cold: each conf run probes the compiler again.  And
# the check can fail: a fragment that turns off what another's symbol
# needs (cgroups, under the memory controller) fails, naming the symbol.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vers=${CONFIG_VERSIONS:-$(default_version)}
compilers=${CONFIG_COMPILERS:-gcc}
declare -A wt
for v in $vers; do
	wt[$v]=$("$TOP/scripts/tree.sh" "$v" 2>/dev/null | tail -n 1)
done
n=0 nlegs=0
for l in $(legs); do
	f=$(leg_fields "$l")
	read -r VERSION ARCH COMPILER VARIANT <<<"$f"
	[ "$ARCH" != - ] || continue
	grep -qxF "$VERSION" <<<"${vers// /$'\n'}" || continue
	grep -qxF "$COMPILER" <<<"${compilers// /$'\n'}" || continue
	nlegs=$((nlegs + 1))
	o=$tmp/$VERSION-$ARCH-$COMPILER
	"$TOP/build/boot-kernel.sh" -v "$VARIANT" "${wt[$VERSION]}" "$o" "$ARCH" "$COMPILER" -- olddefconfig ||
		fail "$l: the boot-test config does not stick: $(tail -n 5 "$o/config.log")"
	n=$((n + 1))
	if grep -qw modules <<<"$(leg_steps "$l")"; then
		"$TOP/build/boot-kernel.sh" -m "${wt[$VERSION]}" "$o" "$ARCH" "$COMPILER" -- olddefconfig ||
			fail "$l: the modules config does not stick: $(tail -n 5 "$o/config.log")"
		n=$((n + 1))
	fi
done
echo "$n configs of $nlegs legs that build a kernel ($vers; $compilers): every symbol sticks"

v=${vers%% *}
echo '# CONFIG_CGROUPS is not set' >"$tmp/no-cgroups.config"
if said=$("$TOP/build/build-kernel.sh" "${wt[$v]}" "$tmp/$v-x86_64-gcc" x86_64 gcc "$TOP/configs/boot.config" \
	"$TOP/configs/boot-x86_64.config" "$tmp/no-cgroups.config" -- olddefconfig 2>&1); then
	fail "a config without cgroups passed the check, though configs/boot.config sets CONFIG_MEMCG"
fi
grep -q 'did not stick (a dependency is off)' <<<"$said" || fail "the failure does not say why: $said"
grep -qw 'CONFIG_MEMCG' <<<"$said" || fail "the failure does not name CONFIG_MEMCG: $said"
echo "ok: a fragment that turns cgroups off fails: $(grep -m1 -w CONFIG_MEMCG <<<"$said")"
