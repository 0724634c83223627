#!/bin/sh
# Command line, exit codes, output safety and determinism.
#   cli.sh FUSEC SOURCE_DIR
set -u
fusec=$1 root=$2
seed=$root/examples/seed.fuse
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # check NAME EXPECTED_RC ACTUAL_RC
  if [ "$2" != "$3" ]; then echo "FAIL: $1: exit $3, expected $2"; fails=$((fails + 1)); else echo "ok: $1"; fi
}

"$fusec" --help >/dev/null; check "--help" 0 $?
"$fusec" --version | grep -q '^fusec [0-9]'; check "--version" 0 $?
"$fusec" --bogus "$seed" 2>/dev/null; check "unknown option" 2 $?
"$fusec" 2>/dev/null; check "no input" 2 $?
"$fusec" --emit=wat "$seed" 2>/dev/null; check "bad --emit" 2 $?
"$fusec" --sizes=12,abc "$seed" 2>/dev/null; check "bad --sizes" 2 $?
"$fusec" --dtype=bool "$seed" 2>/dev/null; check "--dtype bool" 2 $?
"$fusec" --device=h2000 "$seed" 2>"$tmp/e"; check "unknown device" 2 $?
grep -q "did you mean 'h200'" "$tmp/e"; check "device suggestion" 0 $?
"$fusec" --name=9bad "$seed" 2>/dev/null; check "bad --name" 2 $?
"$fusec" "$tmp/missing.fuse" 2>/dev/null; check "missing file" 1 $?

# stdin, and the JSON contract of the seed chain
"$fusec" --predict --format=json - <"$seed" >"$tmp/seed.json"; check "stdin" 0 $?
grep -q '"traffic_ratio": 4,' "$tmp/seed.json"; check "seed traffic ratio 4" 0 $?
grep -q '"unfused": {"kernels": 4, "bytes_per_element": 32,' "$tmp/seed.json"; check "seed unfused 4 kernels 32 B" 0 $?
grep -q '"fused": {"kernels": 1, "bytes_per_element": 8,' "$tmp/seed.json"; check "seed fused 1 kernel 8 B" 0 $?

# an error leaves an existing output untouched and no temporary file behind
printf 'y = relu(x *\n' >"$tmp/bad.fuse"
echo "precious" >"$tmp/out.cu"
"$fusec" "$tmp/bad.fuse" -o "$tmp/out.cu" 2>/dev/null; check "error exit" 1 $?
[ "$(cat "$tmp/out.cu")" = precious ]; check "existing output untouched" 0 $?
[ "$(ls "$tmp" | grep -c tmp)" = 0 ]; check "no temporary left" 0 $?
"$fusec" "$seed" -o "$tmp" 2>"$tmp/e"; check "-o a directory" 1 $?
grep -q "is a directory" "$tmp/e"; check "-o directory message" 0 $?
"$fusec" "$seed" -o "$tmp/no/such/dir/x.cu" 2>/dev/null; check "-o in a missing directory" 1 $?
if [ -w /dev/full ]; then
  "$fusec" --predict "$seed" >/dev/full 2>/dev/null; check "stdout full disk" 1 $?
fi
"$fusec" "$seed" -o "$tmp/seed.cu"; check "emit to file" 0 $?
[ -s "$tmp/seed.cu" ]; check "output written" 0 $?

# a calibrated profile file round-trips through --device
cat >"$tmp/dev.json" <<'JSON'
{"name": "test-gpu", "note": "hand-written", "hbm_gbps": 1000.0, "l2_gbps": 2000.0, "l2_bytes": 1048576,
 "launch_us": 2.0, "graph_node_us": 1.0, "fp32_gflops": 10000, "fp64_gflops": 5000, "sfu_gops": 1000,
 "eager_op_us": 10.0, "compiled_call_us": 40.0}
JSON
"$fusec" --predict --format=json --device="$tmp/dev.json" "$seed" | grep -q '"name": "test-gpu"'; check "--device FILE" 0 $?
echo '{"name": "x"}' >"$tmp/bad.json"
"$fusec" --predict --device="$tmp/bad.json" "$seed" 2>/dev/null; check "incomplete profile" 2 $?

# determinism: byte-identical output, run after run
for f in "$root"/examples/*.fuse; do
  for e in cuda header report json csv dot; do
    "$fusec" -w --emit=$e "$f" >"$tmp/a" 2>/dev/null
    "$fusec" -w --emit=$e "$f" >"$tmp/b" 2>/dev/null
    cmp -s "$tmp/a" "$tmp/b"; check "deterministic $e $(basename "$f")" 0 $?
  done
done
[ $fails = 0 ]
