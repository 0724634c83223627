#!/bin/sh
# nvcc's time on wide chains, up to the tensor limit (LIMIT_TENSORS in
# src/fusec.h, docs/language.md): a chain of N inputs (y = x0 + x1 + ...), of
# N outputs (y<k> = x * c), of N - 1 params (y = x * p0 * p1 ...) and of N
# ops in one line of statements (kind ops: * + relu tanh in turn, N kernels
# unfused, the LIMIT_OPS of emitting CUDA), each
# compiled as the library (-DFUSEC_NO_HARNESS -c) and as the harness, with
# nvcc -O3 -arch=sm_90, one compile at a time. Prints wall and CPU seconds
# (user + sys of nvcc and its children: what a loaded machine does not
# inflate) and CPU seconds per tensor, so that linear growth shows as a
# constant last column. No GPU needed. Not a ctest: at the limit it takes
# minutes (ctest's nvcc_wide compiles a 64-tensor chain).
#   bench/nvcc_width.sh [FUSEC] [NVCC] [WIDTHS] [KINDS] [FORMS]
# e.g. bench/nvcc_width.sh build/fusec /usr/local/cuda/bin/nvcc "64 256 1024" "in out par" "library harness"
set -eu
fusec=${1:-build/fusec}
nvcc=${2:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
widths=${3:-64 256 1024}
kinds=${4:-in out par}
forms=${5:-library harness}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# wide.fuse: KIND N, N tensors in all (the chain's own x and y included)
gen() {
  case $1 in
  in) awk -v n="$2" 'BEGIN { printf "y = x0"; for (i = 1; i < n - 1; i++) printf " + x%d", i; print "" }' ;;
  out) awk -v n="$2" 'BEGIN { for (i = 0; i < n - 1; i++) printf "y%d = x * %d.5\n", i, i }' ;;
  par) awk -v n="$2" 'BEGIN { for (i = 0; i < n - 2; i++) printf "param p%d = %d.5\n", i, i;
         printf "y = x"; for (i = 0; i < n - 2; i++) printf " * p%d", i; print "" }' ;;
  ops) awk -v n="$2" 'BEGIN { split("* 1.5;+ 0.25;relu;tanh", f, ";"); print "v0 = x"
         for (i = 1; i <= n; i++) { k = (i - 1) % 4 + 1
           if (k <= 2) printf "v%d = v%d %s\n", i, i - 1, f[k]; else printf "v%d = %s(v%d)\n", i, f[k], i - 1 }
         printf "y = v%d\n", n }' ;;
  esac
}
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $("$nvcc" --version | tail -1), $(date -u +%Y-%m-%dT%H:%MZ)"
printf "%-5s %6s %-8s %10s %10s %14s\n" kind width form "wall s" "cpu s" "cpu ms/tensor"
for kind in $kinds; do
  for n in $widths; do
    gen "$kind" "$n" >"$tmp/wide.fuse"
    "$fusec" -w "$tmp/wide.fuse" -o "$tmp/wide.cu"
    for form in $forms; do
      if [ "$form" = library ]; then set -- -DFUSEC_NO_HARNESS -c; else set -- ; fi
      python3 -c '
import resource, subprocess, sys, time
t = time.time()
rc = subprocess.run(sys.argv[2:]).returncode
u = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.2f %.2f\n" % (time.time() - t, u.ru_utime + u.ru_stime))
sys.exit(rc)' "$tmp/t" "$nvcc" -O3 -arch=sm_90 "$@" "$tmp/wide.cu" -o "$tmp/wide.out"
      read -r wall cpu <"$tmp/t"
      printf "%-5s %6d %-8s %10.1f %10.1f %14.1f\n" "$kind" "$n" "$form" "$wall" "$cpu" "$(echo "$cpu * 1000 / $n" | bc -l)"
    done
  done
done
