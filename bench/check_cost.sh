#!/bin/sh
# check_cost.sh BUILDDIR [SRCDIR] — what --check and --profile cost against
# a plain run (issue 17), per benchmark, in host instructions: cachegrind
# (valgrind --tool=cachegrind --cache-sim=no) counts `warpemu run ...
# --threads 1 --quiet` at two grid sizes, and each figure is the
# difference, so that start-up and input generation cancel out.  Counts
# do not depend on the machine's load, which wall times on a shared
# 2-core machine do.  Prints a table (millions of instructions for the
# CTAs added, and the ratio to plain) and PASS/MISS for the issue's
# target: --check (every kind) within 10x a plain run on reduce, scan and
# transpose.  Every run is the interpreter's (--jit off: --check and
# --profile use it anyway, and a plain run under --jit auto compiles or
# not by its first batch's wall time, which would make its count depend
# on the machine's load).  `make bench-check` runs it.
set -u
bld=${1:?usage: check_cost.sh BUILDDIR [SRCDIR]}
src=${2:-$(cd "$(dirname "$0")/.." && pwd)}
W="$bld/src/.libs/warpemu"
[ -x "$W" ] || W="$bld/src/warpemu"
command -v valgrind >/dev/null || { echo "check_cost.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/checkcost.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

# args NAME CTAS: the launch of benchmark NAME with CTAS CTAs (bench/wbench.c's
# shapes).  Inputs are zeros (fresh device memory, no generation to count):
# these kernels do the same work whatever the data; but diverge, whose
# branches depend on it, which takes random words (their generation is
# counted in its figures).
args() {
	n=$2
	case $1 in
	reduce) echo "$src/kernels/reduce.we --grid $n --block 256 --arg in=zeros:$((n * 1024)) --arg out=zeros:$((n * 4))" ;;
	scan) echo "$src/kernels/scan.we --grid $n --block 256 --arg n=$((n * 256)) --arg in=zeros:$((n * 1024)) --arg out=zeros:$((n * 1024))" ;;
	transpose) echo "$src/kernels/transpose.we --grid 4,$((n / 4)) --block 32,8 --arg width=128 --arg height=$((n * 8)) --arg in=zeros:$((n * 4096)) --arg out=zeros:$((n * 4096))" ;;
	prodcons) echo "$src/kernels/prodcons.we --grid $n --block 128 --arg iters=8 --arg in=zeros:2048 --arg out=zeros:$((n * 256))" ;;
	alu) echo "$src/bench/kernels/alu.we --grid $n --block 256 --arg iters=50 --arg out=zeros:$((n * 1024))" ;;
	diverge) echo "$src/bench/kernels/diverge.we --grid $n --block 256 --arg n=$((n * 256)) --arg in=random:u32:$((n * 256)) --arg out=zeros:$((n * 1024))" ;;
	esac
}

# count OPTS NAME CTAS: host instructions of one run
count() {
	opts=$1
	# shellcheck disable=SC2046,SC2086
	LD_LIBRARY_PATH="$bld/src/.libs" valgrind --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file=/dev/null "$W" run $(args "$2" "$3") --threads 1 --jit off --quiet $opts \
		> /dev/null 2> "$T/err" || { echo "check_cost.sh: $2 $opts failed: $(tail -3 "$T/err")" >&2; exit 1; }
	sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$T/err" | tr -d ,
}

# the CTAs of the two sizes per benchmark (the figure is their difference)
sizes() {
	case $1 in
	reduce) echo "200 400" ;; scan) echo "100 200" ;; transpose) echo "32 64" ;;
	prodcons) echo "50 100" ;; alu | diverge) echo "20 40" ;;
	esac
}

configs="plain|--lockstep 1|--check=barriers|--check=races|--check|--profile"
printf '%-10s' benchmark
echo "$configs" | tr '|' '\n' | while IFS= read -r c; do printf ' %18s' "$c"; done
echo
miss=0
for b in ${CHECK_COST_ONLY:-reduce scan transpose prodcons alu diverge}; do
	set -- $(sizes $b)
	printf '%-10s' $b
	plain=
	old_ifs=$IFS
	IFS='|'
	for c in $configs; do
		IFS=$old_ifs
		o=$c
		[ "$c" = plain ] && o=
		lo=$(count "$o" $b "$1") && hi=$(count "$o" $b "$2") || exit 1
		d=$((hi - lo))
		[ -z "$plain" ] && plain=$d
		r=$(awk -v d=$d -v p=$plain 'BEGIN { printf "%.1f", d / p }')
		printf ' %11.2fM %4sx' "$(awk -v d=$d 'BEGIN { print d / 1e6 }')" "$r"
		if [ "$c" = --check ]; then
			case $b in reduce | scan | transpose)
				awk -v r=$r 'BEGIN { exit !(r > 10) }' && miss=$((miss + 1)) ;;
			esac
			eval "ratio_$b=$r"
		fi
		IFS='|'
	done
	IFS=$old_ifs
	echo
done
echo
for b in reduce scan transpose; do
	eval "r=\${ratio_$b:-}"
	[ -n "$r" ] || continue
	if awk -v r="$r" 'BEGIN { exit !(r <= 10) }'; then s=PASS; else s=MISS; fi
	printf '  %s --check vs plain, %-10s %5sx   (target <= 10x; host instructions for the CTAs added)\n' $s $b "$r"
done
[ $miss -eq 0 ]
