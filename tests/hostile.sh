#!/bin/sh
# Hostile input (issue 15) that the error programs, cli.sh and limits.sh do
# not cover: odd but valid programs, warnings, device profiles, and the
# emitted code of awkward names and comments.
#   hostile.sh FUSEC SOURCE_DIR [NVCC]     (NVCC '-' or absent: no CUDA compile)
set -u
fusec=$1 root=$(cd "$2" && pwd) nvcc=${3:--}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
# expect NAME RC TEXT ARGS...: fusec ARGS exits RC and TEXT (a fixed string)
# appears in standard error
expect() {
  name=$1 want=$2 text=$3
  shift 3
  "$fusec" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc != "$want" ]; then fail "$name: exit $rc, expected $want"; sed 's/^/    /' "$tmp/err" | head -5; return; fi
  if [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/err"; then
    fail "$name: no '$text' in:"; sed 's/^/    /' "$tmp/err" | head -5; return
  fi
  ok "$name"
}
cd "$tmp"

# ---- 15.10, 15.11: params in their dtype ----
printf 'param s: f16 = 1e-10\ny = x * s\n' >p16_tiny.fuse
expect "an f16 param that rounds to 0 warns" 0 \
  "p16_tiny.fuse:1:16: warning: 1e-10 rounds to 0 in f16 (the smallest nonzero f16 is 5.9604644775390625e-08)" --predict p16_tiny.fuse
printf 'param s: f16 = 65519\ny = x * s\n' >p16_max.fuse
expect "65519 rounds to f16's 65504: accepted" 0 "" --predict p16_max.fuse
printf 'param s: f16 = 65520\ny = x * s\n' >p16_over.fuse
expect "65520 rounds to infinity in f16" 1 "65520 is out of range for f16: it rounds to infinity (the largest f16 is 65504)" \
  --predict p16_over.fuse
printf 'param s: f32 = 3.4028235e38\ny = x * s\n' >p32_max.fuse
expect "3.4028235e38 rounds to f32's largest: accepted" 0 "" --predict p32_max.fuse

# ---- 15.12: device profiles, every field in a physical range ----
# profile FILE KEY=VALUE...: the built-in h200's numbers with some changed
profile() {
  out=$1
  shift
  awk -v kv="$*" 'BEGIN {
    split("hbm_gbps=4247 l2_gbps=9000 l2_bytes=62914560 launch_us=4.3 graph_node_us=2 fp32_gflops=67000 fp64_gflops=34000 sfu_gops=4181 eager_op_us=12.5 compiled_call_us=65", d, " ")
    n = split(kv, o, " ")
    printf "{\"name\": \"test-gpu\""
    for (i = 1; i <= 10; i++) {
      split(d[i], p, "="); v = p[2]
      for (j = 1; j <= n; j++) { split(o[j], q, "="); if (q[1] == p[1]) v = q[2] }
      printf ", \"%s\": %s", p[1], v
    }
    print "}"
  }' >"$out"
}
seed=$root/examples/seed.fuse
profile big.json hbm_gbps=1e300
expect "a bandwidth of 1e300 is out of its range, said with the range" 2 \
  'big.json: key "hbm_gbps" is 1e+300, outside its range [1, 1e+06]' --predict --device=big.json "$seed"
profile tiny.json hbm_gbps=1e-300
expect "a bandwidth of 1e-300 is refused" 2 'key "hbm_gbps" is 1e-300, outside its range [1, 1e+06]' \
  --predict --device=tiny.json "$seed"
profile l2.json l2_bytes=-1
expect "a negative L2 size is refused" 2 'key "l2_bytes" is -1, outside its range [1024, 1e+12]' \
  --predict --device=l2.json "$seed"
expect "a missing profile file: no ':-1:-1:'" 2 "cannot read 'nosuch.json': No such file or directory" \
  --predict --device=nosuch.json "$seed"
grep -q -- ':-1:-1:' err && fail "a missing profile file still prints ':-1:-1:'"
# jansson's messages quote the text near the error: a control character there is
# shown as '?', and an empty file is at column 1, not 0
printf '{\v"name": "g"}' >vt.json
expect "a control character in a profile" 2 "vt.json:1:2: string or '}' expected near '?'" --predict --device=vt.json "$seed"
: >empty.json
expect "an empty profile" 2 "empty.json:1:1: '[' or '{' expected near end of file" --predict --device=empty.json "$seed"
# a crossover of 0: the fused kernel never overhead-bound (wide f64 inputs at 1 GB/s); within
# the profile's ranges no chain is overhead-bound up to 2^40, the other case
awk 'BEGIN { printf "in a0"; for (i = 1; i < 30; i++) printf ", a%d", i; print ": f64"; printf "y = a0";
  for (i = 1; i < 30; i++) printf " + a%d", i; print "" }' >wide.fuse
profile slow.json hbm_gbps=1 l2_gbps=1 launch_us=0.1 graph_node_us=0.1
expect "a profile where fused is never overhead-bound" 0 "" --predict --device=slow.json wide.fuse
grep -q 'the fused kernel is never (not even at n = 1) overhead-bound' out && ! grep -q 'at 0 GB/s' out &&
  ok "the explanation says the fused kernel is never overhead-bound" || fail "explanation for a crossover of 0: $(grep 'GB/s' out)"
# ... and so does the crossover line, not "fused at n = 0" (hostile round two)
grep -q '^Crossover (overhead- to memory- or compute-bound): unfused at n = [1-9][0-9]*, fused: never (not even at n = 1)$' out &&
  ok "the crossover line says never" || fail "crossover line for a crossover of 0: $(grep '^Crossover' out)"
# hostile round three: odd profiles, each a usage error that says why; a name
# or note with a control character broke the report's lines and its CSV (a
# newline, a CR and a tab printed raw: exit 0), and an empty name printed
# "device   : FILE"
fields='"hbm_gbps": 4247, "l2_gbps": 9000, "l2_bytes": 62914560, "graph_node_us": 2, "fp32_gflops": 67000, "fp64_gflops": 34000, "sfu_gops": 4181, "eager_op_us": 12.5, "compiled_call_us": 65'
# odd NAME MESSAGE JSON: the profile JSON is refused with MESSAGE
odd() {
  printf '%s' "$3" >"$1.json"
  expect "profile $1" 2 "$2" --predict --device="$1.json" "$seed"
}
odd name_newline 'name_newline.json: key "name" holds a control character (U+000A): it is one line of text' \
  "{\"name\": \"a\\nb\", $fields, \"launch_us\": 4}"
odd name_tab 'name_tab.json: key "name" holds a control character (U+0009)' "{\"name\": \"a\\tb\", $fields, \"launch_us\": 4}"
odd note_del 'note_del.json: key "note" holds a control character (U+007F)' \
  "{\"name\": \"g\", \"note\": \"x\\u007f\", $fields, \"launch_us\": 4}"
odd name_empty 'name_empty.json: key "name" is empty' "{\"name\": \"\", $fields, \"launch_us\": 4}"
odd nan "nan.json:1:" "{\"name\": \"g\", $fields, \"launch_us\": NaN}"
odd infinity "infinity.json:1:" "{\"name\": \"g\", $fields, \"launch_us\": Infinity}"
odd exp400 "real number overflow near '1e400'" "{\"name\": \"g\", $fields, \"launch_us\": 1e400}"
odd dup_key "duplicate object key near '\"launch_us\"'" "{\"name\": \"g\", $fields, \"launch_us\": 4, \"launch_us\": 5}"
odd string_number 'missing or non-numeric key "launch_us"' "{\"name\": \"g\", $fields, \"launch_us\": \"4\"}"
odd trailing "end of file expected near 'x'" "{\"name\": \"g\", $fields, \"launch_us\": 4} x"
odd deep "maximum parsing depth reached" "$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "["; for (i = 0; i < 5000; i++) printf "]" }')"
odd array "array.json: a device profile is a JSON object" "[1, 2]"
printf '{"name": "a \\"quoted\\" */ ??/ name", %s, "launch_us": 4}' "$fields" >quoted.json
expect "a device name with quotes, a comment end and a trigraph" 0 "" --predict --format=csv --device=quoted.json "$seed"
[ "$(wc -l <out)" = 18 ] && ok "the CSV of a quoted device name has its 18 lines" || fail "quoted device name: CSV of $(wc -l <out) lines"

# ---- 15.13: the JSON report is valid UTF-8 ----
json_ok() { python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1" 2>/dev/null; }
name70=$(awk 'BEGIN { for (i = 0; i < 35; i++) printf "\303\251" }') # 35 e-acute: 70 bytes, cut at 63
printf '{"name": "%s", "hbm_gbps": 4247, "l2_gbps": 9000, "l2_bytes": 62914560, "launch_us": 4.3, "graph_node_us": 2, "fp32_gflops": 67000, "fp64_gflops": 34000, "sfu_gops": 4181, "eager_op_us": 12.5, "compiled_call_us": 65}\n' "$name70" >utf8.json
expect "a 70-byte UTF-8 device name" 0 "" --predict --format=json --device=utf8.json "$seed"
json_ok out && ok "a device name cut at 63 bytes stays valid UTF-8" || fail "a long UTF-8 device name breaks the JSON"
cp "$seed" "$(printf 'bad\377name.fuse')"
"$fusec" --predict --format=json "$(printf 'bad\377name.fuse')" >out 2>err
json_ok out && ok "a file name that is not UTF-8 gives valid JSON" || fail "a non-UTF-8 file name breaks the JSON"

# ---- 15.5: a stem that reaches the runtime's names gets chain_ in front ----
cp "$seed" fx_print.fuse
expect "a stem fx_print" 0 "" --emit=header fx_print.fuse
grep -q 'cudaError_t chain_fx_print_fused(' out && ok "fx_print.fuse gives chain_fx_print_fused" || fail "fx_print.fuse: $(grep _fused out)"

if [ $fails -gt 0 ]; then
  echo "$fails hostile-input check(s) failed"
  exit 1
fi
echo "all hostile-input checks passed"
