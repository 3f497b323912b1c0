#!/bin/sh
# races_clean.sh — --check's race and uninitialised-read checks give no
# false positive on the project's own kernels (issue 17): every example
# kernel (kernels/), benchmark kernel (bench/kernels/) and PTX example that
# runs (tests/ptx/) reports "check: 0 hazards" under `--check` on both
# engines; every kernel of the deadlock corpus (tests/deadlock/) reports no
# race (`--check=races`: several of them count in shared memory that they
# never cleared, which `uninit` rightly reports: a GPU does not zero it).
set -u
: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
W="$top_builddir/src/warpemu"
HEX="$top_builddir/tests/ptx_hex"
S="$top_srcdir"
T=$(mktemp -d "${TMPDIR:-/tmp}/racesclean.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0

# clean NAME ARGS...: `warpemu run ARGS --check` on both engines says
# "check: 0 hazards" and nothing else about checks
clean() {
	what=$1
	shift
	for eng in scheduler warp-threads; do
		"$W" run "$@" --check --engine "$eng" --quiet > "$T/out" 2>&1
		if [ "$(grep -c 'check: ' "$T/out")" = 1 ] && grep -q 'check: 0 hazards$' "$T/out"; then
			pass=$((pass + 1))
		else
			echo "FAIL: $what ($eng): not silent"
			head -5 "$T/out"
			fail=$((fail + 1))
		fi
	done
}

K="$S/kernels"
clean callret "$K/callret.we" --grid 4 --block 128 --arg n=500 --arg out=zeros:2048
clean compact "$K/compact.we" --grid 4 --block 128 --arg seg=300 --arg thresh=1000 \
	--arg in=random:u32:1200:3 --arg out=zeros:4800 --arg count=zeros:16
clean histogram "$K/histogram.we" --grid 8 --block 128 --arg n=4000 --arg per_cta=500 \
	--arg in=random:u8:4000 --arg hist=zeros:1024
clean ifelse "$K/ifelse.we" --grid 4 --block 128 --arg n=500 --arg out=zeros:2048 --arg mask=zeros:2048
clean loopbreak "$K/loopbreak.we" --grid 4 --block 128 --arg n=500 --arg in=random:u32:512 --arg out=zeros:2048
clean nbpipe "$K/nbpipe.we" --grid 3 --block 160 --arg iters=4 --arg in=random:u32:256 --arg out=zeros:1152
clean prodcons "$K/prodcons.we" --grid 3 --block 128 --arg iters=5 --arg in=random:u32:320 --arg out=zeros:768
clean reduce "$K/reduce.we" --grid 4 --block 256 --arg in=random:u32:1024 --arg out=zeros:16
clean scan "$K/scan.we" --grid 3 --block 256 --arg n=700 --arg in=random:u32:700 --arg out=zeros:2800
clean transpose "$K/transpose.we" --grid 2,2 --block 32,8 --arg width=64 --arg height=64 \
	--arg in=random:u32:4096 --arg out=zeros:16384
clean traphandler "$K/traphandler.we" --grid 2 --block 128 --arg trap=1 --arg in=random:u32:256 \
	--arg out=zeros:1024 --arg trapped=zeros:32
clean vecadd "$K/vecadd.we" --grid 4 --block 256 --arg n=1000 --arg a=iota:f32:1000 \
	--arg b=fill:f32:1000:0.5 --arg c=zeros:4000
clean warpreduce "$K/warpreduce.we" --grid 4 --block 128 --arg in=random:u32:512 --arg sum=zeros:64 \
	--arg count=zeros:64
B="$S/bench/kernels"
clean alu "$B/alu.we" --grid 4 --block 256 --arg iters=10 --arg out=zeros:4096
clean barrier "$B/barrier.we" --grid 2 --block 1024 --arg iters=10 --arg out=zeros:8192
clean diverge "$B/diverge.we" --grid 4 --block 256 --arg n=1000 --arg in=random:u32:1024 --arg out=zeros:4096
clean tiny "$B/tiny.we" --grid 64 --block 32 --arg in=random:u32:2048 --arg out=zeros:8192
clean triad "$B/triad.we" --grid 4 --block 256 --arg n=1000 --arg s=2.0 --arg a=zeros:4000 \
	--arg b=iota:f32:1000 --arg c=iota:f32:1000

# the PTX examples that complete (tests/ptx.sh reads the same .run files)
for name in vec_add reduce_smem scan_hs histogram named_bar_pc div_loop warp_shfl structs structs_call grid_constant \
	generic_const; do
	args="" line=1
	while read -r kw a b c d; do
		case $kw in
		grid) args="$args --grid $a" ;;
		block) args="$args --block $a" ;;
		shared) args="$args --shared $a" ;;
		scalar) args="$args --arg $a=$b" ;;
		buf|buffer)
			last=$((line + c - 1))
			sed -n "${line},${last}p" "$S/tests/ptx/$name.inputs" | "$HEX" bin "$b" > "$T/$name.in$a"
			line=$((last + 1))
			opt=--arg
			[ "$kw" = buffer ] && opt=--buffer
			args="$args $opt $a=@$T/$name.in$a" ;;
		esac
	done < "$S/tests/ptx/$name.run"
	for sm in sm90 sm75; do
		# shellcheck disable=SC2086
		clean "$name.$sm.ptx" "$S/tests/ptx/$name.$sm.ptx" $args
	done
done

# the deadlock corpus: no race, whatever the verdict (its header's launch)
for f in "$S"/tests/deadlock/*.we; do
	args=$(sed -n 's|^// launch: ||p' "$f" | sed -e 's/grid=\([^ ]*\)/--grid \1/' \
		-e 's/block=\([^ ]*\)/--block \1/' -e 's/max_instructions=\([^ ]*\)/--max-instructions \1/' \
		-e 's/seeds=[^ ]*//' -e 's/arg \([a-z_0-9]*\)=buf:\([0-9]*\)/--arg \1=zeros:\2/g' \
		-e 's/arg \([a-z_0-9]*\)=u32:\([0-9a-fx]*\)/--arg \1=\2/g')
	# shellcheck disable=SC2086
	"$W" run "$f" $args --check=races --timeout 10 --quiet > "$T/out" 2>&1
	if grep -q 'check: [a-z-]*race\|check: lane-conflict' "$T/out"; then
		echo "FAIL: $f: a race reported"
		grep 'check: ' "$T/out" | head -5
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
