#!/bin/sh
# isagen must reject every malformed description in tests/isa_bad/ with
# "file:LINE: error: ..." naming the expected line and message, exit 1,
# and accept the project's own descriptions.
set -u
# isagen is a one-shot generator that never frees: no leak reports for it
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${top_builddir:-$src}
isagen=$bld/isagen
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
for f in "$src"/tests/isa_bad/*.isa; do
	case $f in */prefix.isa) continue ;; esac
	want=$(sed -n '1s|^// expect: ||p' "$f")
	line=${want%%: *}
	msg=${want#*: }
	err=$("$isagen" --check "$src/tests/isa_bad/prefix.isa" "$f" 2>&1)
	st=$?
	if [ $st -eq 1 ] && printf '%s\n' "$err" | grep -F -q "$f:$line: error: " &&
	   printf '%s\n' "$err" | grep -F -q -- "$msg"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $f: want status 1 and '$f:$line: error: ...$msg', got status $st:"
		printf '%s\n' "$err" | sed 's/^/    /'
	fi
done
# the project's descriptions: ISA_FILES of Makefile.am, in its order
isa_files=$(sed -n '/^ISA_FILES = /,/^[^	]/p' "$src/Makefile.am" | tr ' \\\t' '\n\n\n' | grep '\.isa$')
# shellcheck disable=SC2086
if [ -n "$isa_files" ] && (cd "$src" && "$isagen" -o "$out" $isa_files) && [ -s "$out/isa_gen.c" ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: the project's descriptions do not generate"
fi
echo "isagen_bad: $pass passed, $fail failed"
[ $fail -eq 0 ]
