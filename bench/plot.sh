#!/bin/sh
# Renders the charts of docs/ with gnuplot.
#
#   bench/plot.sh RESULTS_DIR [OUT_DIR]
#       From one bench/device.sh run (e.g. bench/results/h200-2026-11-30-b/run-h-seed-torch,
#       OUT_DIR default docs/img). RESULTS_DIR holds seed.csv (the harness's --csv)
#       and h200-calibrated.json; torch.csv and h200-calibrated-torch.json (from the
#       torch phase) add PyTorch eager and torch.compile. Writes seed-speedup.png,
#       seed-gbps.png and hosts.png.
#   bench/plot.sh --predict FILE.fuse OUT.png [fusec options...]
#       The predicted speedup of any chain for the three ways of launching, from
#       fusec --predict --format=csv alone: no GPU needed.
#   bench/plot.sh --examples OUT.png SWEEP.csv...
#       One panel per chain and dtype that the harness ran in the given runs'
#       sweep.csv (bench/merge.py): the speedup against n, cold, measured by the
#       harness and predicted by this fusec with the run's profile (the
#       h200-calibrated.json beside the sweep.csv), PyTorch's eager /
#       torch.compile, and the traffic ratio. Where several runs have the same
#       chain, the last one given wins (for the harness and torch apart).
# FUSEC (default build/fusec) is the fusec binary; GNUPLOT (default gnuplot)
# reads the script on standard input (tests/bench.sh replaces it to read the
# script and its data).
set -eu
fusec=${FUSEC:-build/fusec}
gnuplot=${GNUPLOT:-gnuplot}
usage='usage: bench/plot.sh RESULTS_DIR [OUT_DIR]
       bench/plot.sh --predict FILE.fuse OUT.png [fusec options...]
       bench/plot.sh --examples OUT.png SWEEP.csv...
(the comment at the top of bench/plot.sh says what each draws)'
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
case $1 in
  -h | --help) echo "$usage"; exit 0 ;;
  -*) [ "$1" = --predict ] || [ "$1" = --examples ] || { echo "bench/plot.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2; } ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# gp_text TEXT: TEXT as a literal in gnuplot's enhanced text, where _ ^ @ &
# ~ { } are markup (two_out.fuse would show as "two" and a subscript "out").
# The backslash is doubled: the text goes inside a double-quoted string.
gp_text() {
  printf '%s' "$1" | sed 's/[][_^@&~{}]/\\\\&/g'
}

head='set terminal pngcairo size 900,620 font "DejaVu Sans,11"
set datafile separator ","
set logscale x 2
set format x "2^{%L}"
set grid ytics lc rgb "#dddddd"
set key below box
set xlabel "n (elements)"'

# shade FILE.csv: gnuplot lines that shade where FILE's fused version is
# overhead-bound (its regime column, 7) and label both regimes.
shade() {
  cross=$(awk -F, 'NR > 1 && $7 != "overhead" { print $1; exit }' "$1")
  [ -n "$cross" ] || return 0
  printf 'set object 1 rect from graph 0, graph 0 to first %s, graph 1 fc rgb "#f3e6d0" fs solid 0.6 behind\n' "$cross"
  printf 'set label 1 "overhead-bound\\n(launches rule)" at first 2**11, graph 0.12 tc rgb "#8a6d3b"\n'
  printf 'set label 2 "memory-bound\\n(bytes rule)" at first %s*4, graph 0.12 tc rgb "#31708f"\n' "$cross"
}

if [ "${1:-}" = --predict ]; then
  [ $# -ge 3 ] || { echo "usage: bench/plot.sh --predict FILE.fuse OUT.png [fusec options...]" >&2; exit 2; }
  src=$2 png=$3
  shift 3
  # The chart draws every host over its own sizes: options that would
  # change which host or sizes a curve shows are refused, not overridden.
  for o in "$@"; do
    case $o in
      --host* | --sizes* | --format* | --emit* | --predict | -o*)
        echo "bench/plot.sh --predict: '$o' is not allowed: the chart draws --host=c, graph and pytorch over 2^10..2^30" >&2
        exit 2 ;;
    esac
  done
  for h in c graph pytorch; do
    "$fusec" --predict --format=csv --sizes=2^10..2^30 --host=$h "$@" "$src" >"$tmp/$h.csv"
  done
  ratio=$("$fusec" --predict --format=json --sizes=2^20 "$@" "$src" |
    sed -n 's/.*"traffic_ratio": *\([0-9.]*\).*/\1/p' | head -n 1)
  "$gnuplot" <<GP
$head
$(shade "$tmp/c.csv")
set output "$png"
set title "$(gp_text "$(basename "$src")"): predicted fusion speedup against n\n{/*0.8 fusec --predict --format=csv $(gp_text "$*") (no GPU involved)}"
set ylabel "predicted speedup (unfused / fused)"
set yrange [0:*]
plot ${ratio:-0} title "traffic ratio ${ratio:-?}" lc rgb "#999999" dt 2 lw 1.5, \
     "$tmp/c.csv" using 1:4 every ::1 with lines lw 2.5 lc rgb "#1f77b4" title "--host=c (plain launches)", \
     "$tmp/graph.csv" using 1:4 every ::1 with lines lw 2.5 lc rgb "#2ca02c" title "--host=graph (one CUDA graph)", \
     "$tmp/pytorch.csv" using 1:4 every ::1 with lines lw 2.5 lc rgb "#9467bd" title "--host=pytorch (eager vs torch.compile)"
GP
  echo "wrote $png"
  exit 0
fi

if [ "${1:-}" = --examples ]; then
  [ $# -ge 3 ] || { echo "usage: bench/plot.sh --examples OUT.png SWEEP.csv..." >&2; exit 2; }
  png=$2
  shift 2
  # every row, with the index of its file in front
  awk 'FNR == 1 { f++; next } { print f "," $0 }' "$@" >"$tmp/all.csv"
  printf '%s\n' "$@" >"$tmp/files"
  when=$(awk -F, '$2 == "fusec" { print substr($13, 1, 10) }' "$tmp/all.csv" | sort -u | paste -sd, -)
  # chain,dtype of every fused harness row, in order of first appearance
  awk -F, '$2 == "fusec" && $5 == "fused" && !seen[$3 "," $4]++ { print $3 "," $4 }' "$tmp/all.csv" >"$tmp/pairs"
  # pick TOOL VERSION CHAIN DTYPE: "file-index,n,speedup" of the cold rows of
  # the last file that has them
  pick() {
    awk -F, -v t="$1" -v v="$2" -v c="$3" -v d="$4" '$2 == t && $5 == v && $3 == c && $4 == d && $6 == "cold" {
        if ($1 > last) { last = $1; n = 0 }
        if ($1 == last) row[n++] = $1 "," $7 "," $11 }
      END { for (i = 0; i < n; i++) print row[i] }' "$tmp/all.csv"
  }
  panels=$(wc -l <"$tmp/pairs")
  cols=3 rows=$(((panels + 2) / 3))
  plots=""
  k=0
  while IFS=, read -r c d; do
    k=$((k + 1))
    pick fusec fused "$c" "$d" >"$tmp/f$k.csv"
    pick torch compile "$c" "$d" >"$tmp/t$k.csv"
    opt=""
    case $d in f16 | bf16) opt=--dtype=$d ;; esac
    run=$(sed -n "$(head -n 1 "$tmp/f$k.csv" | cut -d, -f1)p" "$tmp/files")
    "$fusec" --predict --format=csv --sizes=2^12..2^28 --device="$(dirname "$run")/h200-calibrated.json" $opt \
      "examples/$c.fuse" >"$tmp/p$k.csv"
    ratio=$(awk -F, 'NR == 2 { printf "%.2f", $10 }' "$tmp/p$k.csv")
    torch=""
    [ -s "$tmp/t$k.csv" ] && torch=", \"$tmp/t$k.csv\" using 2:3 with points pt 13 ps 1.1 lc rgb \"#9467bd\" title \"torch eager / torch.compile\""
    plots="$plots
set title \"$c $d (traffic ratio ${ratio}x)\" noenhanced
plot $ratio notitle lc rgb \"#999999\" dt 2, \\
     \"$tmp/p$k.csv\" using 1:4 every ::1 with lines lw 2 lc rgb \"#1f77b4\" title \"predicted\", \\
     \"$tmp/f$k.csv\" using 2:3 with points pt 7 ps 0.9 lc rgb \"#d62728\" title \"fusec measured\" $torch"
  done <"$tmp/pairs"
  "$gnuplot" <<GP
set terminal pngcairo size 1200,$((330 * rows + 60)) font "DejaVu Sans,10"
set output "$png"
set datafile separator ","
set logscale x 2
set format x "2^{%L}"
set xrange [2**11:2**29]
set yrange [0:*]
set grid ytics lc rgb "#dddddd"
set key center right Left reverse samplen 2 font ",8"
set multiplot layout $rows,$cols title "Fusion speedup against n, cold (unfused or eager time / fused or compiled time): every example\n{/*0.85 NVIDIA H200, $when; bench/device.sh runs, bench/plot.sh --examples; predicted: fusec --predict with each run's profile; dashed: the traffic ratio}"
$plots
unset multiplot
GP
  echo "wrote $png"
  exit 0
fi

res=$1 out=${2:-docs/img}
mkdir -p "$out"
when=$(sed -n 's/^# date_utc,//p' "$res/seed.csv")
gpu=$(sed -n 's/^# gpu,"\(.*\)"/\1/p' "$res/seed.csv")
gpu=$(gp_text "$gpu")
copy=$(sed -n 's/^  "hbm_gbps": \([0-9.]*\),/\1/p' "$res/h200-calibrated.json")
torch=$res/torch.csv
tprof=$res/h200-calibrated-torch.json

# The model's curves, with the profile calibrated in the run.
for h in c graph; do
  "$fusec" --predict --format=csv --sizes=2^10..2^30 --host=$h --device="$res/h200-calibrated.json" \
    examples/seed.fuse >"$tmp/$h.csv"
done
# torch.csv rows of the seed chain, f32: "n,value" per version and mode.
pick() { # pick VERSION MODE COLUMN
  awk -F, -v v="$1" -v m="$2" -v c="$3" '$1 == "seed" && $2 == "f32" && $3 == v && $4 == m { print $5 "," $c }' "$torch"
}
gb_torch="" sp_torch="" sp_pytorch=""
if [ -f "$torch" ]; then
  pick eager cold 12 >"$tmp/eager_gbps.csv"
  pick compile cold 12 >"$tmp/compile_gbps.csv"
  pick compile hot 14 >"$tmp/compile_hot_speedup.csv"
  gb_torch=", \"$tmp/compile_gbps.csv\" using 1:2 with linespoints pt 13 lc rgb \"#9467bd\" title \"torch.compile (8 B/element)\", \
     \"$tmp/eager_gbps.csv\" using 1:2 with linespoints pt 11 lc rgb \"#8c564b\" title \"torch eager (32 B/element)\""
  sp_torch=", \"$tmp/compile_hot_speedup.csv\" using 1:2 with points pt 13 ps 1.5 lc rgb \"#9467bd\" title \"PyTorch measured: eager / torch.compile, hot\""
fi
if [ -f "$tprof" ]; then
  "$fusec" --predict --format=csv --sizes=2^10..2^30 --host=pytorch --device="$tprof" \
    examples/seed.fuse >"$tmp/pytorch.csv"
  sp_pytorch=", \"$tmp/pytorch.csv\" using 1:4 every ::1 with lines lw 2.5 lc rgb \"#9467bd\" title \"--host=pytorch predicted (host costs from the sweep)\""
fi

"$gnuplot" <<GP
$head
set xrange [2**10:2**30]

$(shade "$tmp/c.csv")
set output "$out/seed-speedup.png"
set title "Seed chain y = relu(x*2+1)*0.5, f32: fusion speedup against n\n{/*0.8 $gpu, $when; bench/device.sh; model: fusec --predict with the profile calibrated in the run}"
set ylabel "speedup (unfused time / fused time)"
set yrange [0:5]
plot 4 title "traffic ratio 32 B / 8 B = 4.0" lc rgb "#999999" dt 2 lw 1.5, \
     "$tmp/c.csv" using 1:4 every ::1 with lines lw 2.5 lc rgb "#1f77b4" title "predicted (cold, calibrated)", \
     "$res/seed.csv" using 1:(strcol(2) eq "cold" ? \$10 : 1/0) with points pt 7 ps 1.3 lc rgb "#d62728" title "measured, cold", \
     "$res/seed.csv" using 1:(strcol(2) eq "hot" ? \$10 : 1/0) with points pt 5 ps 1.3 lc rgb "#ff7f0e" title "measured, hot", \
     "$res/seed.csv" using 1:(strcol(2) eq "graph" ? \$10 : 1/0) with points pt 9 ps 1.3 lc rgb "#2ca02c" title "measured, CUDA graph"

unset object 1
unset label 1
unset label 2
set output "$out/seed-gbps.png"
set title "Seed chain, f32, cold (L2 flushed before each call): bandwidth each version achieves\n{/*0.8 $gpu, $when; GB/s = bytes the version must move / its time; all from one bench/device.sh run}"
set ylabel "GB/s"
set yrange [0:4800]
plot "$res/seed.csv" using 1:(strcol(2) eq "cold" ? \$16 : 1/0) with linespoints pt 7 lc rgb "#d62728" title "fusec fused (8 B/element)", \
     "$res/seed.csv" using 1:(strcol(2) eq "cold" ? \$15 : 1/0) with linespoints pt 5 lc rgb "#1f77b4" title "fusec unfused (32 B/element)", \
     "$tmp/c.csv" using 1:9 every ::1 with lines dt 3 lc rgb "#d62728" title "model, fused", \
     ${copy:-0} with lines lw 2 lc rgb "#555555" title "cudaMemcpy ceiling (same run)" $gb_torch

set output "$out/hosts.png"
set title "Seed chain, f32, hot: two stories of the small-n speedup, predicted and measured\n{/*0.8 $gpu, $when; lines: fusec --predict --host=c|graph|pytorch; points: the same run}"
set ylabel "speedup"
set yrange [0:5]
plot "$tmp/c.csv" using 1:4 every ::1 with lines lw 2.5 lc rgb "#1f77b4" title "--host=c predicted", \
     "$res/seed.csv" using 1:(strcol(2) eq "hot" ? \$10 : 1/0) with points pt 5 ps 1.3 lc rgb "#1f77b4" title "fusec harness measured, hot", \
     "$tmp/graph.csv" using 1:4 every ::1 with lines lw 2.5 lc rgb "#2ca02c" title "--host=graph predicted", \
     "$res/seed.csv" using 1:(strcol(2) eq "graph" ? \$10 : 1/0) with points pt 9 ps 1.3 lc rgb "#2ca02c" title "fusec harness measured, CUDA graph" $sp_pytorch $sp_torch
GP
echo "wrote $out/seed-speedup.png $out/seed-gbps.png $out/hosts.png"
