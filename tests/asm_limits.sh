#!/bin/sh
# `warpemu asm` at the module's limits (issue 15), on files generated here
# rather than committed: 100,000 kernels (one "too many kernels" error at
# the first one over the limit, status 3, in seconds: it took 79 s and
# ended "out of memory"), exactly 65,536 kernels (assembled, disassembled
# and run), and a UTF-8 byte-order mark (the same module as without).
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${top_builddir:-$src}
we=$bld/src/warpemu
[ -x "$we" ] || { echo "asm_limits: $we not built"; exit 99; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# check STATUS PATTERN -- command...: lib.sh's expect, with a 60 s limit
# so that a regression to quadratic time fails, not hangs
. "$src/tests/lib.sh"
EXPECT_LIMIT=60
check() { expect "$@"; }

# kernels N FILE: N kernels k0..k(N-1), each with a parameter
kernels() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
		printf ".kernel k%d\n.param ptr p\n        EXIT ;\n.end\n", i }' > "$2"
}

kernels 100000 "$tmp/many.we"
check 3 '^warpemu: .*many\.we:262145:1: error: too many kernels \(limit 65536\)$' -- \
	"$we" asm "$tmp/many.we" -o "$tmp/many.wem"
n=$(timeout -s KILL 60 "$we" asm "$tmp/many.we" -o "$tmp/many.wem" 2>&1 | grep -c 'error:')
if [ "$n" -eq 1 ] && [ ! -e "$tmp/many.wem" ]; then pass=$((pass + 1)); else
	fail=$((fail + 1)); echo "FAIL: 100,000 kernels: $n errors (want 1), or a module was written"; fi

kernels 65536 "$tmp/limit.we"
check 0 '' -- "$we" asm "$tmp/limit.we" -o "$tmp/limit.wem"
check 0 '^\.kernel k65535$' -- "$we" disasm "$tmp/limit.wem"
check 0 '1 CTAs' -- "$we" run "$tmp/limit.wem" --kernel k65535 --grid 1 --block 32 --arg p=zeros:4

# a byte-order mark: the same image as without it
printf '.kernel k\n.param u32 n\n        EXIT ;\n.end\n' > "$tmp/plain.we"
printf '\357\273\277' | cat - "$tmp/plain.we" > "$tmp/bom.we"
check 0 '' -- "$we" asm "$tmp/plain.we" -o "$tmp/plain.wem"
check 0 '' -- "$we" asm "$tmp/bom.we" -o "$tmp/bom.wem"
# (the image names its source file: give both the same name)
mkdir "$tmp/bom2" && cp "$tmp/bom.we" "$tmp/bom2/plain.we"
(cd "$tmp" && "$we" asm plain.we -o a.wem) && (cd "$tmp/bom2" && "$we" asm plain.we -o b.wem)
if cmp -s "$tmp/a.wem" "$tmp/bom2/b.wem"; then pass=$((pass + 1)); else
	fail=$((fail + 1)); echo "FAIL: a byte-order mark changes the module image"; fi
check 0 'EXIT' -- "$we" disasm "$tmp/bom.we"

echo "asm_limits: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
