#!/bin/sh
# The hostile-input corpus (tests/bad/): every case must fail the way its
# header says, quickly, and never crash.
#
# Each case is a file tests/bad/NAME.s, NAME.we, NAME.ptx or NAME.binpatch whose
# leading `//` lines are its header:
#
#   // run: ARGS...        warpemu arguments after the file (shell words;
#                          required).  The command is `warpemu run FILE
#                          ARGS`, or with `// cmd: asm|disasm|info|stress`
#                          that command instead of run.  $OUT in ARGS is a
#                          scratch file name.
#   // status: N           the exit status (required)
#   // expect: SUBSTRING   must occur in stdout or stderr (any number)
#   // why: TEXT           what the case is about
#   // xfail: TEXT         a known bug: the header says what *should*
#                          happen; until it does, a mismatch counts as an
#                          expected failure, and a match is reported
#                          (XPASS) so that the line can be removed.
#
# A NAME.binpatch file is assembly text: it is assembled (`warpemu asm`,
# with the source name "src.we"), the module image is edited by its
# `// patch: OFFSET HEX...` (bytes at OFFSET; a negative OFFSET counts from
# the end), `// truncate: N` (keep N bytes; negative: drop -N) and
# `// append: HEX...` lines, in order, and the result is the FILE.
# Offsets in the image: magic 0, version 8, reserved 12, instruction count
# 16, kernel count 20, constant bank count 24, source name length 28, the
# name "src.we" 32..37, the first kernel's name length 38; the last
# 20 * N bytes are the N instruction words (16 bytes each) and then the
# N line numbers (4 bytes each).
#
# Every case runs under a 60 s limit (a case that hangs fails; speed is
# not asserted: bench/ measures it).
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${top_builddir:-$src}
we=$bld/src/warpemu
dir=$src/tests/bad
[ -x "$we" ] || { echo "bad: $we not built"; exit 99; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 xfail=0 xpass=0 n=0

# hdr FILE KEY: the values of the KEY lines of FILE's header, one per line
hdr() {
	awk -v key="$2" '
		!/^\/\// { exit }
		{ line = $0; sub(/^\/\/ */, "", line)
		  if (index(line, key ":") == 1) { v = substr(line, length(key) + 2); sub(/^ +/, "", v); print v } }' "$1"
}

# hexbytes "de ad be ef" -> the bytes on stdout
hexbytes() {
	for h in $1; do
		printf "\\$(printf '%03o' "0x$h")"
	done
}

# build_bin CASE OUT: assemble and patch a .binpatch case
build_bin() {
	bin=$2
	cp "$1" "$tmp/src.we" || return 1
	(cd "$tmp" && "$we" asm src.we -o "$bin") > "$tmp/asm.log" 2>&1 || {
		echo "    cannot assemble $(basename "$1"):"; sed 's/^/    /' "$tmp/asm.log"; return 1; }
	awk '!/^\/\// { exit } { print }' "$1" > "$tmp/hdr"
	while IFS= read -r line; do
		line=${line#//}
		line=${line# }
		size=$(wc -c < "$bin")
		case $line in
		patch:*)
			set -- ${line#patch:}
			off=$(($1))
			shift
			[ "$off" -lt 0 ] && off=$((size + off))
			hexbytes "$*" | dd of="$bin" bs=1 seek="$off" conv=notrunc 2>/dev/null || return 1 ;;
		truncate:*)
			keep=$((${line#truncate:}))
			[ "$keep" -lt 0 ] && keep=$((size + keep))
			dd if="$bin" of="$bin.t" bs=1 count="$keep" 2>/dev/null && mv "$bin.t" "$bin" || return 1 ;;
		append:*)
			hexbytes "${line#append:}" >> "$bin" || return 1 ;;
		esac
	done < "$tmp/hdr"
}

for f in "$dir"/*.s "$dir"/*.we "$dir"/*.ptx "$dir"/*.binpatch; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	n=$((n + 1))
	run=$(hdr "$f" run)
	want=$(hdr "$f" status)
	cmd=$(hdr "$f" cmd)
	xf=$(hdr "$f" xfail)
	if [ -z "$run$want" ] || [ -z "$want" ]; then
		fail=$((fail + 1)); echo "FAIL: $name: no '// run:' or '// status:' header"; continue
	fi
	file=$f
	case $f in
	*.binpatch)
		file=$tmp/case.bin
		rm -f "$file"
		if ! build_bin "$f" "$file"; then fail=$((fail + 1)); echo "FAIL: $name: cannot build the module"; continue; fi ;;
	esac
	OUT=$tmp/out.$n
	eval "set -- $run"
	timeout 60 "$we" "${cmd:-run}" "$file" "$@" > "$tmp/log" 2>&1 < /dev/null
	st=$?
	why=
	[ "$st" -eq "$want" ] || why="status $st, expected $want"
	[ "$st" -eq 124 ] && why="did not finish within 60 s"
	if [ -z "$why" ]; then
		hdr "$f" expect > "$tmp/expects"
		while IFS= read -r e; do
			grep -F -q -- "$e" "$tmp/log" || { why="output lacks '$e'"; break; }
		done < "$tmp/expects"
	fi
	# a sanitizer or assertion message is a failure whatever the status
	if grep -E -q '(AddressSanitizer|runtime error:|Assertion .* failed|internal error)' "$tmp/log"; then
		why="${why:+$why; }crash or internal error reported"
	fi
	if [ -n "$xf" ]; then
		if [ -n "$why" ]; then
			xfail=$((xfail + 1)); echo "XFAIL: $name: $why (known bug: $xf)"
		else
			xpass=$((xpass + 1)); echo "XPASS: $name: now behaves as its header says; remove its xfail line"
		fi
		continue
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $name: $why: warpemu ${cmd:-run} $file $run"
		sed 's/^/    /' "$tmp/log" | head -n 15
	fi
done
extra=
[ $xfail -gt 0 ] && extra=", $xfail expected failures"
[ $xpass -gt 0 ] && extra="$extra, $xpass unexpected passes"
echo "bad: $pass passed, $fail failed$extra ($n cases)"
[ $n -ge 40 ] || { echo "bad: the corpus must hold at least 40 cases"; exit 1; }
[ $fail -eq 0 ]
