#!/bin/sh
# mkcorpus.sh OUTDIR — the seed corpora of the fuzz harnesses, generated
# from the sources instead of committed as binary blobs:
#
#   OUTDIR/asm/     every assembly text of kernels/, bench/kernels/,
#                   tests/deadlock/, tests/data/, tests/asm_bad/, tests/bad/
#   OUTDIR/module/  `warpemu asm` of every one of them that assembles, and
#                   the binary cases of tests/bad/
#   OUTDIR/isagen/  src/isa/*.isa, tests/isa_bad/*.isa and all of src/isa
#                   in one file (a complete description)
#   OUTDIR/exec/    the first kernel of every module above as a fuzz_exec
#                   input (raw words), when FUZZ_EXEC names a fuzz_exec
#                   binary (its FUZZ_EXEC_CONVERT mode)
#   OUTDIR/ptx/     the PTX of tests/ptx/ and tests/bad/*.ptx
#   OUTDIR/asm.dict a libFuzzer dictionary for fuzz_asm: directives and
#                   syntax, and every mnemonic, modifier and register name
#                   of the generated tables (ISA_GEN: src/isa/isa_gen.c)
#
# Environment: top_srcdir (default: two levels up from this script),
# WARPEMU (the warpemu command; without it there are no module or exec
# seeds), FUZZ_EXEC, ISA_GEN.  The small text seeds committed in tests/fuzz/corpus/
# are used by fuzz.sh beside these.
set -u
[ $# -eq 1 ] || { echo "usage: mkcorpus.sh OUTDIR" >&2; exit 2; }
out=$1
here=$(cd "$(dirname "$0")" && pwd)
src=${top_srcdir:-$(cd "$here/../.." && pwd)}
we=${WARPEMU:-}
fx=${FUZZ_EXEC:-}
mkdir -p "$out/asm" "$out/module" "$out/isagen" "$out/exec" "$out/ptx" || exit 1

# a flat, unique name for a source file: dir_file
flat() { echo "$1" | sed "s|^$src/||" | tr '/' '_'; }

n_asm=0 n_mod=0 n_isa=0 n_exec=0
for f in "$src"/kernels/*.we "$src"/bench/kernels/*.we "$src"/tests/deadlock/*.we \
	"$src"/tests/data/*.s "$src"/tests/asm_bad/*.s "$src"/tests/bad/*.we "$src"/tests/bad/*.s; do
	[ -f "$f" ] || continue
	name=$(flat "$f")
	cp "$f" "$out/asm/$name" && n_asm=$((n_asm + 1))
	[ -n "$we" ] || continue
	if "$we" asm "$f" -o "$out/module/$name.bin" >/dev/null 2>&1; then
		n_mod=$((n_mod + 1))
		if [ -n "$fx" ] && FUZZ_EXEC_CONVERT="$out/module/$name.bin:$out/exec/$name" "$fx" >/dev/null 2>&1; then
			n_exec=$((n_exec + 1))
		fi
	else
		rm -f "$out/module/$name.bin"
	fi
done
n_ptx=0
for f in "$src"/tests/ptx/*.ptx "$src"/tests/bad/*.ptx; do
	[ -f "$f" ] || continue
	cp "$f" "$out/ptx/$(flat "$f")" && n_ptx=$((n_ptx + 1))
done
for f in "$src"/tests/bad/*.bin; do
	[ -f "$f" ] || continue
	cp "$f" "$out/module/$(flat "$f")" && n_mod=$((n_mod + 1))
done
for f in "$src"/src/isa/*.isa "$src"/tests/isa_bad/*.isa; do
	[ -f "$f" ] || continue
	cp "$f" "$out/isagen/$(flat "$f")" && n_isa=$((n_isa + 1))
done
# the whole ISA in one file, in Makefile.am's order (encoding.isa first)
isa_files=$(sed -n '/^ISA_FILES = /,/^[^	]/p' "$src/Makefile.am" | tr ' \\\t' '\n\n\n' | grep '\.isa$')
if [ -n "$isa_files" ]; then
	(cd "$src" && cat $isa_files) > "$out/isagen/all.isa" && n_isa=$((n_isa + 1))
fi
# the dictionary
{
	for t in .kernel .end .param .shared .local .dialect .trap_handler .const .text .byte \
		.short .word .dword .quad .float .zero .align .section .nv.constant2 .sectionflags \
		u32 s32 f32 u64 ptr target sass visa ptx RZ PT URZ UPT R0 R1 R2 R255 R254 UR62 P6 B15 \
		'R[2:3]' 'c[0x0][0x0]' 'c[0x1][R1+0x4]' '[R2.64+0x10]' '[R2]' '`(' '@!P0' '@P1' '|R1|' \
		-R2 '~R3' 0x 0xffffffff -0x80000000 0x7fffffffffffffff 1.5e38 inf nan '//' '/*' '*/' \
		'$sched' '(*"BRANCH_TARGETS' '*)' ';' ',' ':' '.done:' '.'; do
		printf '"%s"\n' "$t" | sed 's/\\/\\\\/g'
	done
	if [ -n "${ISA_GEN:-}" ] && [ -f "$ISA_GEN" ]; then
		grep -o '"[A-Z][A-Za-z0-9_.]*"' "$ISA_GEN" | sort -u
	fi
} > "$out/asm.dict"
echo "mkcorpus: $n_asm asm, $n_mod module, $n_isa isagen, $n_exec exec, $n_ptx ptx seeds in $out"
