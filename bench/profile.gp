# profile.gp — the per-PC profile of one kernel (bench/profile.sh): the
# warp-instructions executed at each PC, and the average active lanes
# there (SIMD efficiency), from the data profile.sh made of `warpemu run
# --profile`:
#   gnuplot -e "dat='p.dat'; out='p.png'; title='reduce'" bench/profile.gp
# Columns of dat: PC (hex), warp-instructions, thread-instructions,
# lanes, diverged, reconverged, barrier completions, blocked, mnemonic.
if (!exists("title")) title = "kernel"
set terminal pngcairo size 1100,700 font "sans,9"
set output out
set datafile missing "nan"
set multiplot layout 2,1 title "warpemu --profile: ".title
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set xtics rotate by 90 right nomirror font "sans,7"
set bmargin 7
set ylabel "warp-instructions"
set logscale y
set yrange [0.8:*]
plot dat using 0:($2 > 0 ? $2 : 1/0):xtic(sprintf("%s %s", stringcolumn(1), stringcolumn(9))) \
     with boxes linecolor rgb "#3465a4" notitle
unset logscale y
set ylabel "active lanes (of 32)"
set yrange [0:33]
plot dat using 0:($2 > 0 ? $4 : 1/0):xtic(sprintf("%s %s", stringcolumn(1), stringcolumn(9))) \
     with boxes linecolor rgb "#73d216" notitle, \
     32 with lines dashtype 2 linecolor rgb "#555555" notitle
unset multiplot
