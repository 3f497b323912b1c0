#!/bin/sh
# Packaging (issue 15, item 10): `make install` into a scratch DESTDIR puts
# the command, the library, the manual, the licence and the example kernels
# in place, and `make installcheck` runs the installed command on an
# installed kernel.  (A real install as root also runs ldconfig, so that the
# command starts at once: the install-exec-hook of Makefile.am.)
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${top_builddir:-$src}
command -v make >/dev/null 2>&1 || { echo "install: make not found"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
# (a make of its own: not the jobserver of the make running the tests)
env -u MAKEFLAGS -u MFLAGS make -s -C "$bld" install DESTDIR="$root" > "$tmp/log" 2>&1 ||
	{ echo "FAIL: make install DESTDIR=..."; cat "$tmp/log"; exit 1; }
env -u MAKEFLAGS -u MFLAGS make -s -C "$bld" installcheck DESTDIR="$root" >> "$tmp/log" 2>&1 ||
	{ echo "FAIL: make installcheck DESTDIR=..."; cat "$tmp/log"; exit 1; }
fail=0
lic=$(find "$root" -path '*/doc/warpemu/LICENSE')
cmp -s "$lic" "$src/LICENSE" || { echo "FAIL: LICENSE not installed"; fail=1; }
kdir=$(find "$root" -type d -path '*/share/warpemu/kernels')
for k in "$src"/kernels/*.we; do
	cmp -s "$k" "$kdir/$(basename "$k")" || { echo "FAIL: $(basename "$k") not installed in share/warpemu/kernels"; fail=1; }
done
for f in bin/warpemu include/warpemu/warpemu.h share/man/man1/warpemu.1 share/doc/warpemu/json.md; do
	[ -n "$(find "$root" -path "*/$f")" ] || { echo "FAIL: $f not installed"; fail=1; }
done
grep -q 'ldconfig' "$bld/Makefile" || { echo "FAIL: no ldconfig in the install rules"; fail=1; }
[ $fail -eq 0 ] && echo "install: ok ($(ls "$kdir" | wc -l) kernels, licence, manual; installcheck passed)"
exit $fail
