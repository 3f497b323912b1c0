# mpi.gp — the plot of `make bench-mpi` (bench/mpi.sh, doc/distributed.md):
# CTAs/s of the reduction and of the tiny CTAs against the number of ranks,
# measured on this machine (points) and as doc/distributed.md's model
# predicts them (lines): N ranks sharing this machine's cores, and N nodes
# of this machine each.  bench/mpi.sh writes the model's parameters to
# DIR/mpi_model.gp:
#   gnuplot -e "dir='bench/results'" bench/mpi.gp
if (!exists("dir")) dir = "bench/results"
load dir."/mpi_model.gp"

set terminal pngcairo size 1100,560 font "sans,10"
set output dir."/mpi.png"
set multiplot layout 1,2 title "warpemu under MPI: measured (points) and model (lines)"
set grid
set logscale x 2
set xrange [1:64]
set samples 400
set xlabel "ranks (N)"
set ylabel "CTAs per second"
set key bottom right

# T(N) = t0 + S / Bc + S / Bs + W / (N r) + (N - 1) / N * D / B: the fixed
# MPI cost, the copy and the diff of the S bytes of buffers (on every rank
# at once), the CTAs, and the D bytes written that rank 0 receives and
# applies; on one machine N ranks of 2 threads share its C cores
# (every quantity made a float: gnuplot divides integers as integers)
T(W, r, D, S, N) = t0 + S * 1.0 / Bc + S * 1.0 / Bs + W * 1.0 / (N * r) + (N - 1.0) / N * D / B
one(W, r1, D, S, N) = N > 3.5 ? 1/0 : \
	W * 1.0 / (t0 + S * 1.0 / Bc + S * 1.0 / Bs + W * 1.0 / (r1 * (N * 2 < C ? N * 2.0 : C * 1.0)) + (N - 1.0) / N * D / B)

set title "reduction (".sprintf("%d", Wr)." CTAs of 256 threads)"
plot dir."/mpi.dat" using (strcol(1) eq "reduce" && $2 > 0 && $3 == 2 ? $2 : 1/0):5 with points pt 7 ps 1.5 lc rgb "#3465a4" title "measured, 2 threads a rank", \
     ''              using (strcol(1) eq "reduce" && $2 > 0 && $3 == 1 ? $2 : 1/0):5 with points pt 5 ps 1.3 lc rgb "#73d216" title "measured, 1 thread a rank", \
     ''              using (strcol(1) eq "reduce" && $2 == 0 && $3 == 2 ? 1 : 1/0):5 with points pt 9 ps 1.8 lc rgb "#000000" title "one process, 2 threads", \
     Wr * 1.0 / T(Wr, rr, Dr, Sr, x) with lines lw 2 lc rgb "#cc0000" title "model: N nodes of this machine", \
     one(Wr, rr1, Dr, Sr, x) with lines dt 2 lw 2 lc rgb "#3465a4" title "model: N ranks x 2 threads on this machine"

set title "tiny CTAs (".sprintf("%d", Wt)." one-warp CTAs, 128 MB written)"
plot dir."/mpi.dat" using (strcol(1) eq "tiny" && $2 > 0 && $3 == 2 ? $2 : 1/0):5 with points pt 7 ps 1.5 lc rgb "#3465a4" title "measured, 2 threads a rank", \
     ''              using (strcol(1) eq "tiny" && $2 > 0 && $3 == 1 ? $2 : 1/0):5 with points pt 5 ps 1.3 lc rgb "#73d216" title "measured, 1 thread a rank", \
     ''              using (strcol(1) eq "tiny" && $2 == 0 && $3 == 2 ? 1 : 1/0):5 with points pt 9 ps 1.8 lc rgb "#000000" title "one process, 2 threads", \
     Wt * 1.0 / T(Wt, rt, Dt, St, x) with lines lw 2 lc rgb "#cc0000" title "model: N nodes of this machine", \
     one(Wt, rt1, Dt, St, x) with lines dt 2 lw 2 lc rgb "#3465a4" title "model: N ranks x 2 threads on this machine"
unset multiplot
