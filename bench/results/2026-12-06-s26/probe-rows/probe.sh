# Session 26: why the fused kernels of shaped random programs with rows of 33 ran 15-37% over the model
# at 2^22+ (session 24 call 3, H100: programs 21, 28, 55, 57, 84 +22 to +37% fused time; rows of 257 within
# -14..+8% but 79's +24%). Each program's harness (one binary; the dims are run-time arguments) at about
# 2^24 elements, cold, for last dims 33/32 and 257/256: ROW (cols a multiple of E or E/2) against the
# element-by-element gather, the rest of the chain unchanged. Prints fused us and % of copy per dims.
export PATH=/usr/local/cuda/bin:$PATH; F=$PWD/.dev/bin/fusec; D=$(dirname "$0"); W=$PWD/build-probe; mkdir -p $W
# PROBE_PHASE=build builds only, =run runs only what was built (default: both)
[ "$PROBE_PHASE" != run ] && { for f in $D/*.fuse; do b=$W/$(basename $f .fuse); ( $F -w $f -o $b.cu && nvcc -O3 -arch=sm_90 $b.cu -o $b.bin ) 2> $b.err & done; wait; }
[ "$PROBE_PHASE" = build ] && exit 0
for f in $D/rand_*.fuse; do
  b=$W/$(basename $f .fuse); lead=$(grep -o 'B=3,' $f); m=1; [ -n "$lead" ] && m=3; [ -x $b.bin ] || { echo "$b: build failed"; cat $b.err; continue; }
  for C in 33 32 257 256; do
    R=$(( (1 << 24) / C / m ))
    $b.bin --no-verify --modes cold --reps 10 --seed 7 --dims=${lead}R=$R,C=$C --sweep=R --sizes=$R --csv $OUT/$(basename $b)_C$C.csv > /dev/null 2>&1
    awk -F, -v c=$C -v b=$(basename $b) '$2=="cold" {print b, "C=" c, "fused_us", $5, "pred", $14, "pct_copy", $18}' $OUT/$(basename $b)_C$C.csv
  done
done
# an operand broadcast along the outer dim: pos [S, D] of 16, 64 and 256 MiB beside x [4, S, D]
b=$W/outer_bcast
for S in 2048 8192 32768; do
  $b.bin --no-verify --modes cold,hot --reps 10 --seed 7 --dims=B=4,S=$S,D=4096 --sweep=S --sizes=$S --csv $OUT/outer_S$S.csv > /dev/null 2>&1
  awk -F, -v s=$S '$2=="cold" || $2=="hot" {print "outer_bcast S=" s, $2, "unfused_us", $4, "pred", $13, "fused_us", $5, "pred", $14, "pct_copy", $18}' $OUT/outer_S$S.csv
done
