#!/bin/sh
# The CLI end to end: exit statuses, messages, --expect, --out, asm/disasm.
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${top_builddir:-$src}
we=$bld/src/warpemu
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# expect STATUS PATTERN -- command...   (PATTERN grep -E'd in stdout+stderr)
expect() {
	want=$1 pat=$2
	shift 3
	out=$("$@" 2>&1)
	st=$?
	if [ "$st" -eq "$want" ] && printf '%s\n' "$out" | grep -E -q -- "$pat"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $* -> status $st (want $want), output lacks /$pat/:"
		printf '%s\n' "$out" | sed 's/^/    /' | head -20
	fi
}

k=$src/kernels
expect 0 'warpemu' -- "$we" --version
expect 0 'run' -- "$we" --help
expect 2 'usage|unknown' -- "$we" frobnicate
expect 2 'grid' -- "$we" run "$k/vecadd.we" --block 32
expect 2 'n' -- "$we" run "$k/vecadd.we" --grid 1 --block 32 --arg a=zeros:4 --arg b=zeros:4 --arg c=zeros:4
expect 0 'check c: OK' -- "$we" run "$k/vecadd.we" --grid 40 --block 256 --arg n=10000 \
	--arg a=iota:f32:10000 --arg b=fill:f32:10000:0.5 --arg c=zeros:40000 --expect c=iota:f32:10000:0.5
expect 1 '\[0\] got 0.5, expected 1.5' -- "$we" run "$k/vecadd.we" --grid 40 --block 256 --arg n=10000 \
	--arg a=iota:f32:10000 --arg b=fill:f32:10000:0.5 --arg c=zeros:40000 --expect c=iota:f32:10000:1.5
expect 1 'FAILED, 10000 of 10000 elements differ' -- "$we" run "$k/vecadd.we" --grid 40 --block 256 --arg n=10000 \
	--arg a=iota:f32:10000 --arg b=fill:f32:10000:0.5 --arg c=zeros:40000 --expect c=iota:f32:10000:1.5
expect 0 '"ctas": ?40' -- "$we" run "$k/vecadd.we" --grid 40 --block 256 --arg n=10000 \
	--arg a=iota:f32:10000 --arg b=fill:f32:10000:0.5 --arg c=zeros:40000 --stats=json --quiet
# --out writes the buffer
"$we" run "$k/vecadd.we" --grid 1 --block 32 --arg n=8 --arg a=iota:u32:8 --arg b=zeros:32 \
	--arg c=zeros:32 --out c="$tmp/c.bin" --quiet >/dev/null 2>&1
if [ -s "$tmp/c.bin" ] && [ "$(wc -c < "$tmp/c.bin")" -eq 32 ]; then pass=$((pass + 1)); else
	fail=$((fail + 1)); echo "FAIL: --out did not write 32 bytes"; fi
# assembly errors: file:line:col and status 3
printf 'MOV R1, R2\nFROB R1\nIADD3 R1, R2\n' > "$tmp/bad.we"
expect 3 'bad.we:2:1: error' -- "$we" run "$tmp/bad.we" --grid 1 --block 32
expect 3 'bad.we:3:' -- "$we" asm "$tmp/bad.we" -o "$tmp/bad.bin"
# runtime exception: status 4 with CTA/warp/lanes/PC/instruction
printf 'MOV R2, RZ\nLDG R1, [R2.64+0x8]\nEXIT\n' > "$tmp/fault.we"
expect 4 'CTA \(0,0,0\) warp 0 lanes 0-31 PC 0x0010: LDG R1, \[R2.64\+0x8\]' -- \
	"$we" run "$tmp/fault.we" --grid 2 --block 32
# deadlock: status 5
printf 'S2R R0, SR_TID.X\nISETP.GE.U32.AND P0, PT, R0, 0x20, PT\n@P0 EXIT\nBAR.SYNC 0x3, 0x40\nEXIT\n' > "$tmp/dl.we"
expect 5 'deadlock' -- "$we" run "$tmp/dl.we" --grid 1 --block 64
# watchdog: status 7
printf '.l:\nBRA `(.l)\n' > "$tmp/loop.we"
expect 7 'max-instructions' -- "$we" run "$tmp/loop.we" --grid 1 --block 32 --max-instructions 10000
# asm -> binary -> run and disasm -> asm round trip
expect 0 '' -- "$we" asm "$k/ifelse.we" -o "$tmp/ifelse.bin"
expect 0 '"ctas": ?2' -- "$we" run "$tmp/ifelse.bin" --grid 2 --block 32 --arg n=64 \
	--arg out=zeros:256 --arg mask=zeros:256 --stats=json --quiet
"$we" disasm "$tmp/ifelse.bin" > "$tmp/ifelse.dis" 2>&1 && "$we" asm "$tmp/ifelse.dis" -o "$tmp/ifelse2.bin" 2>&1 &&
	"$we" disasm "$tmp/ifelse2.bin" > "$tmp/ifelse2.dis" 2>&1 &&
	[ "$(tail -n +2 "$tmp/ifelse.dis")" = "$(tail -n +2 "$tmp/ifelse2.dis")" ]
if [ $? -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: disasm/asm round trip of ifelse"; fi
# engines and placement
expect 2 'engine' -- "$we" run "$k/vecadd.we" --grid 1 --block 32 --engine bogus --arg n=8 \
	--arg a=zeros:32 --arg b=zeros:32 --arg c=zeros:32
expect 0 'placement scatter' -- "$we" info --placement scatter
expect 0 'check c: OK' -- "$we" run "$k/vecadd.we" --grid 8 --block 64 --engine warp-threads \
	--placement none --arg n=500 --arg a=iota:f32:500 --arg b=fill:f32:500:0.5 --arg c=zeros:2000 \
	--expect c=iota:f32:500:0.5
echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
