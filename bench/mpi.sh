#!/bin/sh
# bench/mpi.sh — `make bench-mpi` (issue 18, doc/distributed.md): the
# shared-memory reduction and the tiny-CTA benchmark at 1, 2 and 3 MPI
# ranks x 1 and 2 host threads each, beside the single-process run, and
# the merge cost in seconds per GB written.  Writes OUT/mpi.dat (one line
# per run) and, with gnuplot, OUT/mpi.png (the measured points against
# doc/distributed.md's model).  Best of REPS runs (default 3).
#
#   sh bench/mpi.sh BUILD_DIR SRC_DIR OUT_DIR [--quick | --plot]
# (--plot: only the model and the plot of the OUT/mpi.dat there is)
#
# Needs MPI built in (configure found it) and mpiexec; reads the figures
# from --stats=json with awk.  Not part of `make check`: on 2 cores, and
# with other work on the machine, the figures scatter.
set -u
bld=$1 src=$2 out=$3
quick=${4:-}
we=$bld/src/warpemu
mpx=${MPIEXEC:-mpiexec}
reps=${REPS:-3}
extra=
case $("$mpx" --version 2>&1) in *"Open MPI"*|*OpenRTE*) extra="--oversubscribe --allow-run-as-root" ;; esac
mkdir -p "$out" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# reduce: 40,000 CTAs of 256 threads (10.24M u32 in, 160 KB out);
# tiny: 1,000,000 one-warp CTAs (128 MB in, 128 MB out, all written)
g_reduce=40000 g_tiny=1000000
if [ "$quick" = --quick ]; then g_reduce=4000 g_tiny=100000 reps=1; fi
reduce="$src/kernels/reduce.we --grid $g_reduce --block 256 --arg in=fill:u32:$((g_reduce * 256)):3 --arg out=zeros:$((g_reduce * 4)) --expect out=fill:u32:$g_reduce:768"
tiny="$src/bench/kernels/tiny.we --grid $g_tiny --block 32 --arg in=random:u32:$((g_tiny * 32)):6 --arg out=zeros:$((g_tiny * 128))"

# num KEY FILE: a number member of the document's top level
num() { grep -o "\"$1\":[0-9.e+-]*" "$2" | head -1 | cut -d: -f2; }
# the largest of a key's values in the ranks' entries (the slowest rank)
rankmax() { grep -o "\"ranks\":.*" "$2" | grep -o "\"$1\":[0-9.e+-]*" | cut -d: -f2 | sort -g | tail -1; }
# sum of a key over the ranks' entries
ranksum() { grep -o "\"ranks\":.*" "$2" | grep -o "\"$1\":[0-9.e+-]*" | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }'; }

[ "$quick" = --plot ] || echo "# kernel ranks threads seconds ctas_per_s launch_s merge_s bytes_merged merge_s_per_gb" > "$out/mpi.dat"
run() { # NAME RANKS THREADS ARGS
	name=$1 np=$2 th=$3; shift 3
	best=
	for i in $(seq "$reps"); do
		# shellcheck disable=SC2086
		if [ "$np" = 0 ]; then "$we" run $* --threads "$th" --stats=json > "$tmp/j" 2> "$tmp/e"
		else timeout 600 "$mpx" $extra -n "$np" "$we" run $* --threads "$th" --stats=json > "$tmp/j" 2> "$tmp/e" < /dev/null; fi
		rc=$?
		[ $rc -eq 0 ] || { echo "bench-mpi: $name, $np ranks x $th: exit status $rc: $(head -3 "$tmp/e")" >&2; return 1; }
		s=$(num seconds "$tmp/j")
		if [ -z "$best" ] || [ "$(echo "$s < $best" | bc -l 2>/dev/null || awk "BEGIN { print ($s < $best) }")" = 1 ]; then
			best=$s
			cp "$tmp/j" "$tmp/best"
		fi
	done
	ctas=$(num ctas "$tmp/best")
	if [ "$np" = 0 ]; then launch=$best merge=0 bytes=0
	else launch=$(rankmax seconds "$tmp/best") merge=$(num merge_seconds "$tmp/best") bytes=$(ranksum bytes_merged "$tmp/best"); fi
	awk -v n="$name" -v r="$np" -v t="$th" -v s="$best" -v c="$ctas" -v l="$launch" -v m="$merge" -v b="$bytes" \
		'BEGIN { printf "%s %d %d %.4f %.0f %.4f %.4f %d %s\n", n, r, t, s, c / s, l, m, b, (b > 0 ? sprintf("%.3f", m / (b / 1e9)) : "nan") }' >> "$out/mpi.dat"
	tail -1 "$out/mpi.dat"
}

st=0
# --plot: the model and the plot of an OUT/mpi.dat already measured
for k in reduce tiny; do
	[ "$quick" = --plot ] && break
	eval "args=\$$k"
	for th in 1 2; do
		# rank count 0: the single process, without mpirun
		for np in 0 1 2 3; do
			# shellcheck disable=SC2154
			run "$k" "$np" "$th" "$args" || st=1
		done
	done
done
# The model's parameters (doc/distributed.md) from these runs: r, r1 the
# CTAs/s of one process on 2 threads and on 1; over = seconds - launch -
# merge of 2 ranks = t0 + S / Bc (two kernels, two sizes S: solved for t0
# and Bc); the reduction writes almost nothing, so its merge of 2 ranks is
# the diff of S bytes (Bs), and the tiny CTAs' merge of 2 ranks beyond
# that is the bytes rank 1 sent, half of its D (B).  (mpirun -n 1 runs as
# one process.)
awk -v Wr="$g_reduce" -v Wt="$g_tiny" -v C="$(getconf _NPROCESSORS_ONLN)" '
	!/^#/ { k = $1 "." $2 "." $3; sec[k] = $4; rate[k] = $5; launch[k] = $6; merge[k] = $7; bytes[k] = $8 }
	END {
		Sr = Wr * 256 * 4 + Wr * 4; St = Wt * 32 * 4 * 2
		orr = sec["reduce.2.2"] - launch["reduce.2.2"] - merge["reduce.2.2"]
		ot = sec["tiny.2.2"] - launch["tiny.2.2"] - merge["tiny.2.2"]
		Bc = ot > orr ? (St - Sr) / (ot - orr) : 1e10; t0 = orr - Sr / Bc; if (t0 < 0) t0 = 0
		Bs = merge["reduce.2.2"] > 0 ? Sr / merge["reduce.2.2"] : 1e10
		# D: all the bytes written (2 ranks send half of them)
		Dt = 2 * bytes["tiny.2.2"]; Dr = 2 * bytes["reduce.2.2"]
		mt = merge["tiny.2.2"] - St / Bs; B = mt > 0 ? bytes["tiny.2.2"] / mt : 1e10
		printf "C = %d\nWr = %d\nWt = %d\nrr = %g\nrr1 = %g\nrt = %g\nrt1 = %g\n", C, Wr, Wt,
			rate["reduce.0.2"], rate["reduce.0.1"], rate["tiny.0.2"], rate["tiny.0.1"]
		printf "Sr = %g\nSt = %g\nDr = %g\nDt = %g\nt0 = %g\nBc = %g\nBs = %g\nB = %g\n", Sr, St, Dr, Dt, t0, Bc, Bs, B
	}' "$out/mpi.dat" > "$out/mpi_model.gp"
cat "$out/mpi_model.gp"
if command -v gnuplot > /dev/null 2>&1; then
	gnuplot -e "dir='$out'" "$src/bench/mpi.gp" && echo "wrote $out/mpi.png"
else
	echo "bench-mpi: notice: gnuplot not found: no plot (bench/setup.sh installs it)"
fi
exit $st
