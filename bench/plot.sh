#!/bin/sh
# Renders the charts of docs/ with gnuplot from a harness run and from
# fusec's own prediction (which needs no GPU).
#   bench/plot.sh RESULTS_DIR [OUT_DIR]      e.g. bench/results/h200-2026-11-30 docs/img
# RESULTS_DIR holds seed.csv (a harness --csv file) and h200-calibrated.json.
set -eu
res=$1 out=${2:-docs/img}
fusec=${FUSEC:-build/fusec}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
when=$(sed -n 's/^# date_utc,//p' "$res/seed.csv")
gpu=$(sed -n 's/^# gpu,"\(.*\)"/\1/p' "$res/seed.csv")

# The model's curves: with the calibrated profile, and with the built-in h200
# profile for each way of launching (c, graph, pytorch).
"$fusec" --predict --format=csv --sizes=2^10..2^30 --device="$res/h200-calibrated.json" examples/seed.fuse >"$tmp/cal.csv"
for h in c graph pytorch; do
  "$fusec" --predict --format=csv --sizes=2^10..2^30 --host=$h examples/seed.fuse >"$tmp/$h.csv"
done
# The fused kernel's crossover (first memory-bound n) for the shading.
cross=$(awk -F, 'NR > 1 && $7 != "overhead" { print $1; exit }' "$tmp/cal.csv")

gnuplot <<GP
set terminal pngcairo size 900,620 font "DejaVu Sans,11"
set datafile separator ","
set logscale x 2
set format x "2^{%L}"
set grid ytics lc rgb "#dddddd"
set key below box

set output "$out/seed-speedup.png"
set title "Seed chain y = relu(x*2+1)*0.5, f32: fusion speedup against n\n{/*0.8 $gpu, $when; bench/device.sh; model: fusec --predict with the calibrated profile}"
set xlabel "n (elements)"
set ylabel "speedup (unfused time / fused time)"
set yrange [0:5]
set xrange [2**10:2**30]
set object 1 rect from graph 0, graph 0 to first $cross, graph 1 fc rgb "#f3e6d0" fs solid 0.6 behind
set label 1 "overhead-bound\n(launches rule)" at first 2**11, first 0.6 tc rgb "#8a6d3b"
set label 2 "memory-bound\n(bytes rule)" at first $cross*4, first 0.6 tc rgb "#31708f"
plot 4 title "traffic ratio 32 B / 8 B = 4.0" lc rgb "#999999" dt 2 lw 1.5, \
     "$tmp/cal.csv" using 1:4 every ::1 with lines lw 2.5 lc rgb "#1f77b4" title "predicted (cold, calibrated)", \
     "$tmp/c.csv" using 1:4 every ::1 with lines lw 1.5 dt 3 lc rgb "#1f77b4" title "predicted (built-in h200 profile)", \
     "$res/seed.csv" using 1:(strcol(2) eq "cold" ? \$10 : 1/0) with linespoints pt 7 lc rgb "#d62728" title "measured, cold", \
     "$res/seed.csv" using 1:(strcol(2) eq "hot" ? \$10 : 1/0) with linespoints pt 5 lc rgb "#ff7f0e" title "measured, hot", \
     "$res/seed.csv" using 1:(strcol(2) eq "graph" ? \$10 : 1/0) with linespoints pt 9 lc rgb "#2ca02c" title "measured, CUDA graph"

unset object 1
unset label 1
unset label 2
set output "$out/seed-gbps.png"
set title "Seed chain, f32, cold: bandwidth each version achieves\n{/*0.8 $gpu, $when; GB/s = bytes the version must move / its time}"
set ylabel "GB/s"
set yrange [0:4800]
set key below box
plot "$res/seed.csv" using 1:(strcol(2) eq "cold" ? \$16 : 1/0) with linespoints pt 7 lc rgb "#d62728" title "fusec fused (8 B/element)", \
     "$res/seed.csv" using 1:(strcol(2) eq "cold" ? \$15 : 1/0) with linespoints pt 5 lc rgb "#1f77b4" title "fusec unfused (32 B/element)", \
     "$tmp/cal.csv" using 1:9 every ::1 with lines dt 3 lc rgb "#d62728" title "model, fused", \
     $(sed -n 's/^  "hbm_gbps": \([0-9.]*\),/\1/p' "$res/h200-calibrated.json") with lines lw 2 lc rgb "#555555" title "cudaMemcpy ceiling (same run)", \
     "-" using 1:2 with points pt 13 ps 2 lc rgb "#9467bd" title "torch.compile, cold (h200-reference.md)", \
     "-" using 1:2 with points pt 11 ps 2 lc rgb "#8c564b" title "torch eager, hot (h200-reference.md)"
268435456,4214
e
268435456,4204
e

set output "$out/hosts.png"
set title "Seed chain, f32: predicted speedup for each way of launching\n{/*0.8 fusec --predict --host=c|graph|pytorch, built-in h200 profile; points: h200-reference.md}"
set ylabel "predicted speedup"
set yrange [0:5]
set key below box
plot "$tmp/c.csv" using 1:4 every ::1 with lines lw 2.5 lc rgb "#1f77b4" title "--host=c (plain launches)", \
     "$tmp/graph.csv" using 1:4 every ::1 with lines lw 2.5 lc rgb "#2ca02c" title "--host=graph", \
     "$tmp/pytorch.csv" using 1:4 every ::1 with lines lw 2.5 lc rgb "#9467bd" title "--host=pytorch (eager vs torch.compile)", \
     "-" using 1:2 with points pt 7 ps 1.8 lc rgb "#9467bd" title "PyTorch measured (eager/compile)", \
     "-" using 1:2 with points pt 5 ps 1.8 lc rgb "#1f77b4" title "C launches measured (reference hand kernels, hot)"
4096,0.668
268435456,3.89
e
4096,4.5
1048576,3.76
16777216,4.12
268435456,3.98
e
GP
echo "wrote $out/seed-speedup.png $out/seed-gbps.png $out/hosts.png"
