#!/bin/sh
# jit_counts.sh — host instructions (valgrind's cachegrind, --cache-sim=no)
# of the benchmark kernels run by the warpemu command interpreted
# (--jit off) and with the compiled tier (--jit on), one worker thread, no
# placement: a measure of the tier's gain that a loaded, shared machine
# does not skew, compile time included (its share: the "compile" column,
# the instructions of a launch of one CTA with --jit on minus --jit off).
# --bench: alu, triad and reduce at the sizes of `make bench` (wbench.c;
# a minute or two under valgrind each).  (No --jit auto column: under
# valgrind the first batch runs some 50 times slower while the rule's
# first compile estimate does not, so auto would judge differently.)
# Usage: sh bench/jit_counts.sh [--bench] [BUILDDIR [SRCDIR]]   (bench/README.md)
set -u
sizes=small
[ "${1:-}" = --bench ] && { sizes=bench; shift; }
bld=${1:-.}
src=${2:-$(cd "$(dirname "$0")/.." && pwd)}
W="$bld/src/.libs/warpemu"
[ -x "$W" ] || W="$bld/src/warpemu"
command -v valgrind >/dev/null || { echo "jit_counts.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
LD_LIBRARY_PATH="$bld/src/.libs" "$W" info | grep -q '^Compiled tier: *LLVM' || { echo "jit_counts.sh: warpemu was built without LLVM" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/jitcounts.XXXXXX") || exit 1
# (every --jit on compiles: no disk cache of compiled kernels)
WARPEMU_JIT_CACHE=off
export WARPEMU_JIT_CACHE
trap 'rm -rf "$T"' EXIT INT TERM

# the instructions of one run: warpemu run ARGS...
count() {
	LD_LIBRARY_PATH="$bld/src/.libs" valgrind --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file="$T/cg.out" "$W" run "$@" --threads 1 --placement none --quiet \
		> /dev/null 2> "$T/err" || { echo "jit_counts.sh: failed: $*" >&2; tail -5 "$T/err" >&2; exit 1; }
	sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$T/cg.out"
}

# name, then the launch (the sizes: a few seconds under valgrind each)
n=65536
N=16777216
if [ $sizes = bench ]; then set -- \
	"alu|$src/bench/kernels/alu.we --grid 256 --block 256 --arg iters=4096 --arg out=zeros:262144" \
	"triad|$src/bench/kernels/triad.we --grid 65536 --block 256 --arg n=$N --arg s=3 --arg a=zeros:$((4 * N)) --arg b=iota:f32:$N --arg c=fill:f32:$N:2" \
	"reduce|$src/kernels/reduce.we --grid 65536 --block 256 --arg in=iota:u32:$N --arg out=zeros:262144"
else set -- \
	"alu|$src/bench/kernels/alu.we --grid 64 --block 256 --arg iters=64 --arg out=zeros:65536" \
	"triad|$src/bench/kernels/triad.we --grid 1024 --block 256 --arg n=262144 --arg s=1.5 --arg a=zeros:1048576 --arg b=iota:f32:262144 --arg c=fill:f32:262144:2" \
	"reduce|$src/kernels/reduce.we --grid 256 --block 256 --arg in=iota:u32:65536 --arg out=zeros:1024" \
	"scan|$src/kernels/scan.we --grid 256 --block 256 --arg n=$n --arg in=iota:u32:$n --arg out=zeros:262144" \
	"transpose|$src/kernels/transpose.we --grid 8,8 --block 32,8 --arg width=256 --arg height=256 --arg in=iota:u32:65536 --arg out=zeros:262144" \
	"histogram|$src/kernels/histogram.we --grid 16 --block 256 --arg n=262144 --arg per_cta=16384 --arg in=random:u8:262144 --arg hist=zeros:1024" \
	"diverge|$src/bench/kernels/diverge.we --grid 256 --block 256 --arg n=$n --arg in=random:u32:$n --arg out=zeros:262144" \
	"tiny|$src/bench/kernels/tiny.we --grid 8192 --block 32 --arg in=iota:u32:262144 --arg out=zeros:1048576" \
	"prodcons|$src/kernels/prodcons.we --grid 64 --block 256 --arg iters=64 --arg in=iota:u32:8192 --arg out=zeros:32768"
fi
printf '%-10s %16s %16s %8s %14s\n' benchmark "--jit off" "--jit on" "off/on" "compile"
for b in "$@"; do
	name=${b%%|*} args=${b#*|}
	# shellcheck disable=SC2086
	off=$(count $args --jit off) on=$(count $args --jit on)
	# one CTA: the launch's fixed cost, and the compiler's share of it
	one=$(printf '%s\n' "$args" | sed 's/--grid [0-9,]*/--grid 1/')
	# shellcheck disable=SC2086
	c1=$(count $one --jit on) c0=$(count $one --jit off)
	printf '%-10s %16s %16s %8s %14s\n' "$name" "$off" "$on" \
		"$(awk "BEGIN { printf \"%.2f\", $off / $on }")" "$((c1 - c0))"
done
