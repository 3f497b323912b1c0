#!/bin/sh
# bench_ptx.sh — the PTX benchmarks of bench/wbench (issue 16) on small
# instances: nvcc's PTX of bench/kernels/ptx_*.cu and reduce_smem give the
# host reference's result under both engines on one and on all cores
# (wbench exits 1 on a wrong result), in each of two rounds (--rounds),
# each with the CPUs' speed probed, and the 1.3x target against
# kernels/reduce.we gets a value.  Speed is never asserted: PASS or MISS.
set -u
: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
B="$top_builddir/bench/wbench"
T=$(mktemp -d "${TMPDIR:-/tmp}/benchptx.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "bench_ptx.sh: $*"; cat "$T/out"; exit 1; }

S="--size ptx-reduce=65536 --wt-size ptx-reduce=16384 --size reduce=65536 --wt-size reduce=16384"
S="$S --size ptx-transpose=100 --wt-size ptx-transpose=40 --size ptx-matmul=40 --wt-size ptx-matmul=24"
S="$S --size ptx-histogram=70000 --wt-size ptx-histogram=40000"
# shellcheck disable=SC2086
"$B" --srcdir "$top_srcdir" --no-pocl --no-oclgrind --timeout 120 --rounds 2 $S \
	--only reduce,ptx-reduce,ptx-transpose,ptx-matmul,ptx-histogram >"$T/out" 2>&1 ||
	fail "wbench exited $?"
# 4 runs (2 engines x 1 and all cores) per benchmark, each with the
# reference's result; none that does not
n=$(grep -c ' PASS *$' "$T/out")
[ "$n" -eq 20 ] || fail "$n runs with the reference's result, 20 expected"
grep -q ' FAIL *$' "$T/out" && fail "a run with a wrong result"
n=$(grep -c '^wbench: 2/2 [a-z-]* *C Cpt sched/1 sched/2 wt/1 wt/2$' "$T/out")
[ "$n" -eq 5 ] || fail "$n benchmarks ran a second round, 5 expected"
grep -q 'best of 1 run in each of 2 rounds' "$T/out" || fail "no word of the rounds"
for w in "round 1" "round 2" end; do
	# (the fastest CPU is 1.00x, whichever it is)
	grep -E "^  $w +CPU [0-9]+ [0-9.]+ \([0-9.]+x\)" "$T/out" | grep -q '(1\.00x)' ||
		fail "no CPU speed at $w"
done
for b in ptx-reduce ptx-transpose ptx-matmul ptx-histogram; do
	grep -q "^$b " "$T/out" || fail "no line for $b"
done
grep -Eq '^  (PASS|MISS) PTX reduce_smem vs reduce.we +[0-9.]+ x' "$T/out" ||
	fail "no value for the target PTX reduce_smem vs reduce.we"
echo "bench_ptx.sh: 20 runs of 5 benchmarks, best of two rounds each, with the reference's result; the 1.3x target reported"
