# plot.gp — the plots of `make bench` (bench/README.md).
# Reads scaling.dat and ratios.dat written by wbench and writes
# scaling.png and ratios.png beside them:
#   gnuplot -e "dir='bench/results'" bench/plot.gp
if (!exists("dir")) dir = "bench/results"

set terminal pngcairo size 1100,560 font "sans,10"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set key top left
set xtics rotate by -30 nomirror
set datafile missing "nan"

# ---- scaling: time on one core / time on all cores, both engines
set output dir."/scaling.png"
cores = system("sed -n '1s/.*all \\([0-9]*\\) cores.*/\\1/p' '".dir."/scaling.dat'")
set title "warpemu: speedup of ".cores." cores over 1 core (target 1.8 for alu and reduce)"
set ylabel "time on 1 core / time on ".cores." cores"
set yrange [0:*]
set offsets 0, 0, 0.3, 0
plot dir."/scaling.dat" using 2:xtic(1) title "scheduler engine" linecolor rgb "#3465a4", \
     ''                  using 3 title "warp-threads engine" linecolor rgb "#cc0000", \
     1.8 with lines dashtype 2 linecolor rgb "#555555" title "target 1.8", \
     1 with lines linecolor rgb "#000000" notitle

# ---- ratios: warpemu time per unit of work / the baseline's (log scale)
set output dir."/ratios.png"
set title "warpemu (scheduler engine) time per unit of work over each baseline's (>1: warpemu slower)"
set ylabel "ratio (log scale)"
set logscale y
set yrange [*:*]
set offsets 0, 0, 0, 0
set format y "%g"
plot dir."/ratios.dat" using 2:xtic(1) title "1 core / C serial" linecolor rgb "#73d216", \
     ''                using 3 title "all cores / C pthreads" linecolor rgb "#4e9a06", \
     ''                using 4 title "all cores / POCL" linecolor rgb "#3465a4", \
     ''                using 5 title "all cores / Oclgrind" linecolor rgb "#cc0000", \
     1 with lines linecolor rgb "#000000" notitle
