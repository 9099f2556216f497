#!/bin/bash
# The desktop guest's root filesystem (boot-tests/desktop-rootfs.sh) is
# built once per package list: its cache key changes when a package is
# added to boot-tests/desktop-packages and not when a comment is; a list
# already built is reused without running mmdebstrap; a new list runs
# mmdebstrap once, with its packages, and the next call reuses that.  Runs
# against a fake mmdebstrap on PATH and a kernel cache of its own: nothing
# is downloaded.  And a failing mmdebstrap fails the build, naming the
# command that retries it, and leaves nothing in the cache.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export KCACHE=$tmp/cache
list=$tmp/packages
cp "$TOP/boot-tests/desktop-packages" "$list"
key=$(desktop_rootfs_key "$list")
echo "# a comment" >>"$list"
[ "$(desktop_rootfs_key "$list")" = "$key" ] || fail "a comment changed the cache key"
echo "weston-extra" >>"$list"
[ "$(desktop_rootfs_key "$list")" != "$key" ] || fail "adding a package left the cache key as it was"
echo "ok: the cache key follows the package list's rows, not its comments"

# A fake mmdebstrap: records its arguments, makes the target folder (its
# second-to-last argument), or fails when told to.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/mmdebstrap" <<'FAKE'
#!/bin/bash
set -euo pipefail
echo "$*" >>"$KCACHE/mmdebstrap.calls"
[ -z "${FAKE_FAIL:-}" ] || { echo "E: fake failure"; exit 1; }
mkdir -p "${@: -2:1}/usr/bin"
echo "I: success in 0 seconds" >&2
FAKE
chmod +x "$tmp/bin/mmdebstrap"
export PATH=$tmp/bin:$PATH DESKTOP_PACKAGES=$list

built=$KCACHE/desktop-rootfs/amd64-$key
mkdir -p "$built"
DESKTOP_PACKAGES=$TOP/boot-tests/desktop-packages
[ "$("$TOP/boot-tests/desktop-rootfs.sh" x86_64 2>/dev/null)" = "$built" ] ||
	fail "the built rootfs of the list was not reused"
[ ! -e "$KCACHE/mmdebstrap.calls" ] || fail "mmdebstrap ran for a list already built"
DESKTOP_PACKAGES=$list
said=$("$TOP/boot-tests/desktop-rootfs.sh" x86_64 2>&1 >"$tmp/path")
grep -q "building the desktop guest's root filesystem" <<<"$said" || fail "the build did not say so: $said"
grep -Eq 'in [0-9]+ s' <<<"$said" || fail "the build did not say how long it took: $said"
new=$(cat "$tmp/path")
{ [ "$new" != "$built" ] && [ -d "$new" ]; } || fail "a new list did not build a new rootfs: $new"
grep -qF -- "--include=$(table_rows "$list" | paste -sd,)" "$KCACHE/mmdebstrap.calls" ||
	fail "mmdebstrap was not given the list's packages: $(cat "$KCACHE/mmdebstrap.calls")"
"$TOP/boot-tests/desktop-rootfs.sh" x86_64 >/dev/null 2>&1
[ "$(wc -l <"$KCACHE/mmdebstrap.calls")" = 1 ] || fail "mmdebstrap ran again for the same list"
echo "ok: a new list builds once, with its packages; the next call reuses it"

echo "weston-other" >>"$list"
expect_fail "make desktop" env FAKE_FAIL=1 "$TOP/boot-tests/desktop-rootfs.sh" x86_64
[ -z "$(find "$KCACHE/desktop-rootfs" -maxdepth 1 -name "amd64-$(desktop_rootfs_key "$list")*" -type d)" ] ||
	fail "a failed build left a rootfs in the cache"
