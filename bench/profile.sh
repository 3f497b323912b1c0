#!/bin/sh
# profile.sh OUT.png WARPEMU run KERNEL [run's options]: run a kernel with
# --profile and draw its per-PC profile (bench/profile.gp) into OUT.png:
# warp-instructions and average active lanes per instruction.  The
# profile's text is kept beside it (OUT.png.txt).  For example, from the
# build directory:
#   sh ../bench/profile.sh reduce.png src/warpemu run ../kernels/reduce.we \
#       --grid 64 --block 256 --arg in=random:u32:16384 --arg out=zeros:256
set -eu
[ $# -ge 4 ] || { echo "usage: profile.sh OUT.png WARPEMU run KERNEL [options]" >&2; exit 2; }
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
prof="$out.txt"
"$@" --profile="$prof" --quiet
# the per-PC lines: "  0xPC warp thread lanes div reconv barriers blocked INSN..."
awk '/^  0x/ { m = $9; if (m ~ /^@/) m = $10; print $1, $2, $3, $4, $5, $6, $7, $8, m }' "$prof" > "$out.dat"
title=$(sed -n '1s/^# warpemu profile: kernel \([^,]*\),.*/\1/p' "$prof")
gnuplot -e "dat='$out.dat'; out='$out'; title='$title'" "$here/profile.gp"
rm -f "$out.dat"
echo "profile.sh: $out ($prof)"
