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
"$fusec" -h | grep -q '^usage: fusec'; check "-h" 0 $?
"$fusec" --help | tr '\n' ' ' | grep -q 'Exit status: 0 success.* 1 an error.* 2 a usage error'; check "--help lists the exit statuses" 0 $?
"$fusec" --version | grep -q '^fusec [0-9]'; check "--version" 0 $?
"$fusec" -V | grep -q '^fusec [0-9]'; check "-V" 0 $?
"$fusec" --bogus "$seed" 2>/dev/null; check "unknown option" 2 $?
"$fusec" 2>/dev/null; check "no input" 2 $?
"$fusec" --emit=wat "$seed" 2>/dev/null; check "bad --emit" 2 $?
"$fusec" --sizes=12,abc "$seed" 2>/dev/null; check "bad --sizes" 2 $?
"$fusec" --dtype=bool "$seed" 2>/dev/null; check "--dtype bool" 2 $?
"$fusec" --device=h2000 "$seed" 2>"$tmp/e"; check "unknown device" 2 $?
grep -q "did you mean 'h200'" "$tmp/e"; check "device suggestion" 0 $?
"$fusec" --name=9bad "$seed" 2>/dev/null; check "bad --name" 2 $?
for n in fx_print fh FUSEC_KERNEL Fusec; do
  "$fusec" --name=$n "$seed" 2>/dev/null; check "--name $n reaches fusec's own names" 2 $?
done
# issue 15.13: --help and --version fail when standard output is full or closed
if [ -w /dev/full ]; then
  "$fusec" --help >/dev/full 2>/dev/null; check "--help to a full disk" 1 $?
  "$fusec" --version >/dev/full 2>/dev/null; check "--version to a full disk" 1 $?
fi
"$fusec" --help >&- 2>/dev/null; check "--help with stdout closed" 1 $?
"$fusec" --version >&- 2>/dev/null; check "--version with stdout closed" 1 $?
"$fusec" "$tmp/missing.fuse" 2>/dev/null; check "missing file" 1 $?
"$fusec" -Wall "$seed" 2>/dev/null; check "-W other than -Werror" 2 $?

# every refused option gets its own message (hostile round three): exit 2,
# the message's first line exactly, nothing on standard output
# usage NAME MESSAGE ARGS...
usage() {
  name=$1 want=$2
  shift 2
  "$fusec" "$@" >"$tmp/o" 2>"$tmp/e"
  rc=$?
  got=$(head -1 "$tmp/e")
  if [ $rc != 2 ] || [ "$got" != "fusec: $want" ] || [ -s "$tmp/o" ]; then
    echo "FAIL: $name: exit $rc, '$got', expected 'fusec: $want'"; fails=$((fails + 1))
  else echo "ok: $name"; fi
}
w="(-Werror is the one -W option)"
usage "-W FILE: -W alone, not -W with the file" "unknown option '-W' $w" -W "$seed"
usage "-W at the end" "unknown option '-W' $w" "$seed" -W
usage "-W error is not -Werror" "unknown option '-W' $w" -W error "$seed"
usage "-Wall" "unknown option '-Wall' $w" -Wall "$seed"
usage "-o at the end" "option '-o' needs a value (-o FILE)" "$seed" -o
usage "-wo at the end" "option '-o' needs a value (-o FILE)" "$seed" -wo
usage "an empty -o" "-o: the file name is empty" -o "" "$seed"
usage "an unknown option in a cluster (-wx)" "unknown option '-x'" -wx "$seed"
usage "an unknown option first in a cluster (-xw)" "unknown option '-x'" --predict -xw "$seed"
usage "an unknown long option" "unknown option '--bogus'" --bogus=1 "$seed"
usage "--=x" "unknown option '--=x'" --=x "$seed"
usage "--emit at the end" "option '--emit' needs a value (--emit=...)" "$seed" --emit
usage "--predict=1" "option '--predict' takes no value" --predict=1 "$seed"
usage "--help=x" "option '--help' takes no value" --help=x
usage "an ambiguous abbreviation" "ambiguous option '--s' (--sizes, --sweep)" --s=1 "$seed"
usage "an ambiguous abbreviation of three" "ambiguous option '--d' (--dtype, --device, --dims)" --d "$seed"
usage "-o twice" "-o given twice, as '$tmp/a.cu' and '$tmp/b.cu': give it once" -o "$tmp/a.cu" -o "$tmp/b.cu" "$seed"
[ ! -e "$tmp/a.cu" ] && [ ! -e "$tmp/b.cu" ]; check "-o twice writes nothing" 0 $?
usage "--emit twice" "--emit given twice, as 'cuda' and 'header': give it once" --emit=cuda --emit header "$seed"
usage "--dtype twice" "--dtype given twice, as 'f16' and 'f32': give it once" --dtype=f16 --dtype=f32 "$seed"
usage "--name twice" "--name given twice, as 'a' and 'b': give it once" --name=a --name=b "$seed"
usage "--mode twice" "--mode given twice, as 'hot' and 'cold': give it once" --predict --mode=hot --mode=cold "$seed"
usage "an unknown --mode" "unknown --mode 'warm'" --predict --mode=warm "$seed"
"$fusec" --dtype=f16 --dtype f16 -o - -o - "$seed" >/dev/null; check "an option twice with the same value" 0 $?
# -- ends the options: a file named like an option is a file
cp "$seed" "$tmp/-x.fuse"
(cd "$tmp" && "$fusec" -w -- -x.fuse) >"$tmp/o" 2>"$tmp/e"; check "-- then a file named -x.fuse" 0 $?
grep -q '^__global__' "$tmp/o"; check "-- then a file named -x.fuse: its CUDA" 0 $?
(cd "$tmp" && "$fusec" -- -y.fuse) 2>"$tmp/e"; check "-- then a missing -y.fuse" 1 $?
grep -q "cannot read '-y.fuse'" "$tmp/e"; check "-- then a missing -y.fuse: the message" 0 $?
usage "an empty --sizes" "--sizes: the size list is empty (write e.g. 4096,1M,2^20..2^28)" --predict --sizes= "$seed"
usage "--sizes of 0" "--sizes: bad size list '0': a size of 0 (a size is 1 to 2^40), at '0'" --predict --sizes=0 "$seed"
usage "--sizes with an empty item" "--sizes: bad size list '1,,2': an empty size, at ',2'" --predict --sizes=1,,2 "$seed"
usage "--sizes ending in a comma" "--sizes: bad size list '1,2,': an empty size, at the end" --predict --sizes=1,2, "$seed"
usage "--sizes above 2^40" "--sizes: bad size list '2^41': a size above 2^40, at '2^41'" --predict --sizes=2^41 "$seed"
usage "--sizes of 23 digits" "--sizes: bad size list '99999999999999999999999': a size above 2^40, at '99999999999999999999'" \
  --predict --sizes=99999999999999999999999 "$seed"
usage "--sizes with a range down" "--sizes: bad size list '4096..1024': a range that ends below its start, at '4096..1024'" \
  --predict --sizes=4096..1024 "$seed"
usage "--sizes of 1e3" "--sizes: bad size list '1e3' near '1e3' (write e.g. 4096,1M,2^20..2^28)" --predict --sizes=1e3 "$seed"

# --format chooses the report's form: alone it implies --predict; beside an
# --emit of something else it is a usage error, never silently ignored
"$fusec" --format=json "$seed" >"$tmp/f.json"; check "--format alone" 0 $?
grep -q '"traffic_ratio": 4,' "$tmp/f.json"; check "--format=json alone writes the JSON report" 0 $?
"$fusec" --format=csv "$seed" | head -1 | grep -q '^n,'; check "--format=csv alone writes the CSV report" 0 $?
"$fusec" --format=json --emit=cuda "$seed" >"$tmp/o" 2>"$tmp/e"; check "--format with --emit=cuda" 2 $?
grep -q "cannot be combined with --emit=cuda" "$tmp/e" && [ ! -s "$tmp/o" ]; check "--format/--emit message" 0 $?
"$fusec" --predict --emit=header "$seed" >/dev/null 2>&1; check "--predict with --emit=header" 2 $?
"$fusec" --emit=report --format=json "$seed" | grep -q '"traffic_ratio"'; check "--emit=report --format=json" 0 $?

# a shaped chain's dims (issue 16): --dims and --sweep, each bad one a usage error
ln=$root/examples/layernorm_affine.fuse
"$fusec" --predict --dims=C=1024 "$ln" >/dev/null; check "--dims" 0 $?
"$fusec" --predict "$ln" >"$tmp/o" 2>"$tmp/e"; check "--predict of a shaped chain without --dims" 2 $?
grep -q "give e.g. --dims=C=1024" "$tmp/e" && [ ! -s "$tmp/o" ]; check "missing dims: the message names the dim" 0 $?
"$fusec" --predict --dims=C=1024,Q=2 "$ln" 2>"$tmp/e" >/dev/null; check "unknown dim" 2 $?
grep -q "has no dim 'Q' (its dims: R, C)" "$tmp/e"; check "unknown dim: the message lists the dims" 0 $?
"$fusec" --predict --dims=C=x "$ln" 2>/dev/null >/dev/null; check "bad dim size" 2 $?
"$fusec" --predict --dims=C "$ln" 2>/dev/null >/dev/null; check "dim without a size" 2 $?
"$fusec" --predict --dims=C=1,C=2 "$ln" 2>/dev/null >/dev/null; check "dim given twice" 2 $?
usage "an empty --dims" "--dims: '' is not NAME=SIZE (write e.g. --dims=R=1024)" --predict --dims= "$ln"
usage "--dims ending in a comma" "--dims: '' is not NAME=SIZE (write e.g. --dims=R=1024)" --predict --dims=C=64, "$ln"
usage "--dims with an empty item" "--dims: '' is not NAME=SIZE (write e.g. --dims=R=1024)" --predict --dims=C=64,,R=2 "$ln"
usage "--dims of 0" "--dims: bad size in 'C=0' (one size of 1 to 2^40: N, 4K, 1M, 2^20)" --predict --dims=C=0 "$ln"
usage "--dims of a range" "--dims: bad size in 'C=1..4' (one size of 1 to 2^40: N, 4K, 1M, 2^20)" --predict --dims=C=1..4 "$ln"
usage "--dims twice" "--dims given twice, as 'C=64' and 'C=32': give it once" --predict --dims=C=64 --dims=C=32 "$ln"
"$fusec" --predict --dims=R=64 --sweep=C "$ln" >/dev/null; check "--sweep" 0 $?
"$fusec" --predict --dims=C=64 --sweep=Z "$ln" 2>/dev/null >/dev/null; check "unknown --sweep" 2 $?
usage "the sweep dim's own size in --dims past 2^40 elements" \
  "--dims, --sizes: R = 1099511627776 makes 1.21e+24 elements; a chain has at most 2^40" --predict --dims=R=2^40,C=2^40 "$ln"
# a usage error is exit 2 with -o too, and writes nothing (fuzzing, session 32: it was 1 through the temporary file)
"$fusec" --predict --dims=C=x "$ln" -o "$tmp/dims.txt" 2>"$tmp/e"; check "bad dim size with -o" 2 $?
[ ! -e "$tmp/dims.txt" ] && grep -q 'fusec --help lists the options' "$tmp/e"; check "bad dim size with -o: no file, the hint" 0 $?
"$fusec" --predict --dims=N=4 "$seed" 2>/dev/null >/dev/null; check "--dims on a chain without shapes" 2 $?
"$fusec" --format=csv --dims=C=1024 "$ln" | head -1 | grep -q '^R,'; check "a shaped CSV sweeps its first dim" 0 $?
"$fusec" --format=json --dims=C=1024,R=8 "$ln" | grep -q "\"bytes\": 41024," ; check "JSON bytes at the dims (4*R*C + 8*R + 8*C at R = 8, C = 1024)" 0 $?
"$fusec" "$ln" >/dev/null; check "--emit=cuda needs no --dims" 0 $?

# an implicit input one typo from a known name warns; -Werror makes it fatal
printf 'in x\nh = x*2\ny = h2 + 1\n' >"$tmp/near.fuse"
"$fusec" --predict "$tmp/near.fuse" >"$tmp/o" 2>"$tmp/e"; check "near-miss name: warning only" 0 $?
grep -q "near.fuse:3:5: warning: 'h2' is never assigned or declared, so it is a new input; did you mean 'h'?" "$tmp/e"
check "near-miss name: located warning" 0 $?
"$fusec" -Werror "$tmp/near.fuse" -o "$tmp/near.cu" 2>"$tmp/e"; check "-Werror" 1 $?
[ ! -e "$tmp/near.cu" ] && grep -q "error: .*did you mean 'h'? \[-Werror\]" "$tmp/e"; check "-Werror: error, no output" 0 $?
"$fusec" -w -Werror --predict "$tmp/near.fuse" >/dev/null 2>"$tmp/e"; check "-w -Werror" 0 $?
[ ! -s "$tmp/e" ]; check "-w silences the warning" 0 $?
printf 'y1 = x1 * 2\ny2 = y1 + x2\nz = y1 * ab\n' >"$tmp/family.fuse"
"$fusec" -Werror --predict "$tmp/family.fuse" >/dev/null; check "name families do not warn" 0 $?

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

# issue 15.1: -o never names the input, however it is spelled
cp "$seed" "$tmp/s.fuse"
ln -s s.fuse "$tmp/link.fuse"
for o in "$tmp/s.fuse" "$tmp/./s.fuse" "$tmp/link.fuse"; do
  "$fusec" "$tmp/s.fuse" -o "$o" 2>"$tmp/e"; check "-o the input ($o)" 1 $?
  grep -q "it is the input file" "$tmp/e"; check "-o the input: message" 0 $?
  cmp -s "$seed" "$tmp/s.fuse"; check "-o the input: source untouched" 0 $?
done
(cd "$tmp" && "$fusec" s.fuse -o ./s.fuse 2>/dev/null); check "-o ./the input, relative" 1 $?
cmp -s "$seed" "$tmp/s.fuse"; check "-o ./the input, relative: source untouched" 0 $?
# standard input read from the file that -o names through /dev/stdin (hostile round two)
"$fusec" - -o /dev/stdin <"$tmp/s.fuse" 2>"$tmp/e"; check "-o /dev/stdin, standard input the source" 1 $?
cmp -s "$seed" "$tmp/s.fuse"; check "-o /dev/stdin: source untouched" 0 $?

# issue 15.2: a symlink is written through (it stays a link); a FIFO and a
# character device are written to, not replaced by a regular file
"$fusec" "$seed" -o "$tmp/ref.cu"
echo old >"$tmp/target.cu"
chmod 640 "$tmp/target.cu"
ln -s target.cu "$tmp/sym.cu"
"$fusec" "$seed" -o "$tmp/sym.cu"; check "-o a symlink" 0 $?
[ -L "$tmp/sym.cu" ]; check "-o a symlink: still a symlink" 0 $?
cmp -s "$tmp/ref.cu" "$tmp/target.cu"; check "-o a symlink: its target written" 0 $?
[ "$(stat -c %a "$tmp/target.cu")" = 640 ]; check "-o an existing file keeps its mode" 0 $?
ln -s new.cu "$tmp/dangling.cu"
"$fusec" "$seed" -o "$tmp/dangling.cu"; check "-o a dangling symlink" 0 $?
[ -L "$tmp/dangling.cu" ] && cmp -s "$tmp/ref.cu" "$tmp/new.cu"; check "-o a dangling symlink: creates its target" 0 $?
mkfifo "$tmp/fifo"
timeout 20 cat "$tmp/fifo" >"$tmp/fromfifo" &
"$fusec" "$seed" -o "$tmp/fifo"; check "-o a FIFO" 0 $?
wait
[ -p "$tmp/fifo" ]; check "-o a FIFO: still a FIFO" 0 $?
cmp -s "$tmp/ref.cu" "$tmp/fromfifo"; check "-o a FIFO: the reader gets the .cu" 0 $?
# a character device of our own (a copy of /dev/null, where mknod is allowed):
# a fusec that replaced it must not damage the real /dev/null
if mknod "$tmp/null" c 1 3 2>/dev/null; then
  "$fusec" "$seed" -o "$tmp/null"; check "-o a character device" 0 $?
  [ -c "$tmp/null" ]; check "-o a character device: still a character device" 0 $?
fi
# /dev/stdout, as a link of our own to /proc/self/fd/1 (never the real one)
ln -s /proc/self/fd/1 "$tmp/stdout"
"$fusec" --predict "$seed" -o "$tmp/stdout" | cat >"$tmp/viastdout"
[ -L "$tmp/stdout" ]; check "-o /dev/stdout: still a link" 0 $?
grep -q 'traffic ratio' "$tmp/viastdout"; check "-o /dev/stdout: the report arrives" 0 $?

# issue 15.3: with standard error closed, warnings do not land in the output
printf 'in x, unused\ny = x * 2\n' >"$tmp/warn.fuse"
"$fusec" "$tmp/warn.fuse" -o "$tmp/warn.cu" 2>&-; check "stderr closed" 0 $?
grep -q 'warning' "$tmp/warn.cu"; check "stderr closed: no warning in the .cu" 1 $?
head -c 2 "$tmp/warn.cu" | grep -q '^/[*/]'; check "stderr closed: the .cu starts as a .cu" 0 $?
"$fusec" --predict "$seed" <&- >"$tmp/e"; check "stdin closed" 0 $?

# issue 15.4: a 255-character output name (the temporary stays within
# NAME_MAX), and SIGTERM during the write leaves no temporary behind
long=$(awk 'BEGIN { for (i = 0; i < 252; i++) printf "o"; print ".cu" }')
mkdir "$tmp/long"
"$fusec" "$seed" -o "$tmp/long/$long"; check "-o a 255-character name" 0 $?
cmp -s "$tmp/ref.cu" "$tmp/long/$long"; check "-o a 255-character name: written" 0 $?
[ "$(ls "$tmp/long" | wc -l)" = 1 ]; check "-o a 255-character name: no temporary left" 0 $?
awk 'BEGIN { print "v0 = x * 1.5"; for (i = 1; i < 300000; i++) printf "v%d = v%d * 0.5 + 1\n", i, i - 1 }' >"$tmp/big.fuse"
mkdir "$tmp/sig"
"$fusec" -w "$tmp/big.fuse" -o "$tmp/sig/big.cu" &
pid=$!
i=0
while [ -z "$(ls "$tmp/sig")" ] && [ $i -lt 2000 ]; do i=$((i + 1)); sleep 0.01; done
kill -TERM $pid
wait $pid
check "SIGTERM during the write" 143 $?
[ -z "$(ls "$tmp/sig")" ]; check "SIGTERM during the write: no temporary left" 0 $?
# nor do a closed pipe on standard error (SIGPIPE), the file-size limit (SIGXFSZ) or running out of
# memory (an exit from the arena) (fuzzing, session 32: each left the temporary)
printf 'in x\ny = x +\n' >"$tmp/bad.fuse"
{ sleep 1; "$fusec" "$tmp/bad.fuse" -o "$tmp/sig/bad.cu"; } 2>&1 | true
[ -z "$(ls "$tmp/sig")" ]; check "SIGPIPE on standard error: no temporary left" 0 $?
(ulimit -f 8; exec "$fusec" "$seed" -o "$tmp/sig/seed.cu") 2>/dev/null; check "SIGXFSZ: the file-size limit" 153 $?
[ -z "$(ls "$tmp/sig")" ]; check "SIGXFSZ: no temporary left" 0 $?
if [ -n "${ASAN_OPTIONS:-}" ] || ldd "$fusec" 2>/dev/null | grep -q asan; then
  echo "skip: out of memory under a memory limit (AddressSanitizer reserves more than the limit)"
else
  awk 'BEGIN { printf "in x\ny = x"; for (i = 0; i < 100000; i++) printf " + 1"; print "" }' >"$tmp/deep.fuse"
  (ulimit -v 60000; exec "$fusec" --emit=dot "$tmp/deep.fuse" -o "$tmp/sig/deep.dot") 2>"$tmp/e"; check "out of memory" 1 $?
  grep -q 'fatal error: out of memory' "$tmp/e" && [ -z "$(ls "$tmp/sig")" ]; check "out of memory: no temporary left" 0 $?
fi
# a message shows at most 120 bytes of its line, and reads no more of it: 200,000 warnings on one
# line of 3 MB (fuzzing, session 32: each message read the whole line, 33 s for 100,000)
awk 'BEGIN { printf "in x: f32; out y;"; for (i = 0; i < 200000; i++) printf " t%d = x*2;", i; print " y = x" }' >"$tmp/line.fuse"
timeout "${FUSEC_LIMITS_TIMEOUT:-60}" "$fusec" --predict "$tmp/line.fuse" >/dev/null 2>"$tmp/e"; check "200,000 warnings on one line" 0 $?
[ "$(grep -c "warning: 't[0-9]*' reaches no output" "$tmp/e")" = 200000 ]; check "200,000 warnings on one line: each one" 0 $?

# --emit=torch writes a folder: -o DIR is required, made when missing, never half-written
"$fusec" --emit=torch "$seed" 2>/dev/null; check "--emit=torch without -o" 2 $?
"$fusec" --emit=torch "$seed" -o - 2>/dev/null; check "--emit=torch -o -" 2 $?
"$fusec" --emit=torch --name=lambda "$seed" -o "$tmp/kw" 2>"$tmp/e"; check "--emit=torch, a keyword as the op name" 2 $?
grep -q "'lambda' is a Python keyword" "$tmp/e"; check "keyword op name message" 0 $?
"$fusec" --emit=torch --name=torch "$seed" -o "$tmp/shadow" 2>"$tmp/e"; check "--emit=torch --name=torch" 2 $?
grep -q "torch.py would shadow the Python module it imports" "$tmp/e"; check "--name=torch message" 0 $?
"$fusec" --emit=torch "$tmp/bad.fuse" -o "$tmp/bad_ext" 2>/dev/null; check "--emit=torch error exit" 1 $?
[ ! -e "$tmp/bad_ext" ]; check "--emit=torch error makes no folder" 0 $?
"$fusec" --emit=torch "$seed" -o "$tmp/seed.cu" 2>"$tmp/e"; check "--emit=torch -o a file" 1 $?
grep -q "not a folder" "$tmp/e"; check "--emit=torch -o a file message" 0 $?
"$fusec" --emit=torch "$seed" -o "$tmp/seed_ext"; check "--emit=torch" 0 $?
[ "$(ls "$tmp/seed_ext" | tr '\n' ' ')" = "seed.cu seed.h seed.py seed_torch.cpp " ]; check "--emit=torch files" 0 $?
# ... all or nothing: a folder where one of its files cannot be replaced (a directory by that name,
# the first or the last written) keeps every old file and gets no new one (review of session 21)
for blocked in seed_torch.cpp seed.py; do
  rm -rf "$tmp/partial" && mkdir -p "$tmp/partial/$blocked" && echo OLD >"$tmp/partial/seed.cu"
  "$fusec" --emit=torch "$seed" -o "$tmp/partial" 2>"$tmp/e"; check "--emit=torch, $blocked a folder" 1 $?
  grep -q "'$tmp/partial/$blocked': it is not a regular file" "$tmp/e"; check "--emit=torch, $blocked a folder: message" 0 $?
  [ "$(cat "$tmp/partial/seed.cu")" = OLD ] && [ "$(ls "$tmp/partial" | tr '\n' ' ')" = "seed.cu $blocked " ]
  check "--emit=torch, $blocked a folder: nothing written" 0 $?
done
# ... and never over the input: a source named like one of the folder's files
# (s.py, s.cu, s.h, s_torch.cpp) in the folder itself (hostile round two)
mkdir -p "$tmp/src_in_dir"
for f in s.py s.cu s.h s_torch.cpp; do
  cp "$seed" "$tmp/src_in_dir/$f"
  "$fusec" --emit=torch --name=s "$tmp/src_in_dir/$f" -o "$tmp/src_in_dir" 2>"$tmp/e"; check "--emit=torch over the input $f" 1 $?
  grep -q "src_in_dir/$f': it is the input file" "$tmp/e"; check "--emit=torch over the input $f: message" 0 $?
  cmp -s "$seed" "$tmp/src_in_dir/$f"; check "--emit=torch over the input $f: source untouched" 0 $?
  [ "$(ls "$tmp/src_in_dir")" = "$f" ]; check "--emit=torch over the input $f: nothing written" 0 $?
  rm -f "$tmp/src_in_dir/$f"
done
echo stale >"$tmp/seed_ext/seed.py"
"$fusec" --emit=torch "$seed" -o "$tmp/seed_ext"; check "--emit=torch into an existing folder" 0 $?
grep -q "^fused = torch.ops.fusec.seed.default$" "$tmp/seed_ext/seed.py"; check "--emit=torch replaces the files" 0 $?
[ "$(ls "$tmp/seed_ext" | grep -c tmp)" = 0 ]; check "--emit=torch leaves no temporary" 0 $?

# a calibrated profile file round-trips through --device
cat >"$tmp/dev.json" <<'JSON'
{"name": "test-gpu", "note": "hand-written", "hbm_gbps": 1000.0, "l2_gbps": 2000.0, "l2_bytes": 1048576,
 "launch_us": 2.0, "graph_node_us": 1.0, "fp32_gflops": 10000, "fp64_gflops": 5000, "sfu_gops": 1000,
 "eager_op_us": 10.0, "compiled_call_us": 40.0}
JSON
"$fusec" --predict --format=json --device="$tmp/dev.json" "$seed" | grep -q '"name": "test-gpu"'; check "--device FILE" 0 $?
echo '{"name": "x"}' >"$tmp/bad.json"
"$fusec" --predict --device="$tmp/bad.json" "$seed" 2>/dev/null; check "incomplete profile" 2 $?
# a profile's own op costs ("op_slots") replace the built-in rows: a dearer erf, a slower chain
printf 'in x: f64\ny = erf(x)\n' >"$tmp/erf.fuse"
sed 's/^{/{"op_slots": {"erf": {"f64": 500, "f32": 50}},/' "$tmp/dev.json" >"$tmp/dev_ops.json"
a=$("$fusec" --predict --format=csv --sizes=2^28 --device="$tmp/dev.json" "$tmp/erf.fuse" | tail -1)
b=$("$fusec" --predict --format=csv --sizes=2^28 --device="$tmp/dev_ops.json" "$tmp/erf.fuse" | tail -1)
[ -n "$a" ] && [ "$a" != "$b" ]; check "--device op_slots changes the prediction" 0 $?
sed 's/^{/{"op_slots": {"erff": {"f64": 5}},/' "$tmp/dev.json" >"$tmp/dev_bad_op.json"
"$fusec" --predict --device="$tmp/dev_bad_op.json" "$seed" 2>"$tmp/e"; check "op_slots: unknown op" 2 $?
grep -q '"erff" is not an op of the cost table' "$tmp/e"; check "op_slots: unknown op named" 0 $?
sed 's/^{/{"op_slots": {"erf": {"f64": -1}},/' "$tmp/dev.json" >"$tmp/dev_bad_val.json"
"$fusec" --predict --device="$tmp/dev_bad_val.json" "$seed" 2>/dev/null; check "op_slots: a value out of range" 2 $?

# -werror is not -w -e ...; --device=DIR says it is a folder (review of session 21)
"$fusec" -werror "$seed" 2>"$tmp/e"; check "-werror: a usage error" 2 $?
grep -q "unknown option '-werror' (did you mean -Werror?)" "$tmp/e"; check "-werror: message" 0 $?
"$fusec" --predict --device="$tmp" "$seed" 2>"$tmp/e"; check "--device=DIR: a usage error" 2 $?
grep -q "it is a directory" "$tmp/e"; check "--device=DIR: message" 0 $?

# a param's value in the harness's table is a double literal: -0.0 keeps its sign (C's -0 is the int 0)
printf 'param s = -0.0\nin x\ny = x / s\n' >"$tmp/negzero.fuse"
"$fusec" "$tmp/negzero.fuse" | grep -q '_par\[\] = {{"s", FX_F32, -0.0}};'; check "param -0.0 in the harness's table" 0 $?

# by a literal zero the fused kernel runs other code than by a number (src/ops.c, docs/model.md):
# a float // folds to one multiply, an integer // or % to a select, a float / takes the slow path
slots() { # slots EXPR DTYPE: the fused kernel's fp32 issue slots an element of y = EXPR
  printf 'in x: %s\ny = %s\n' "$2" "$1" >"$tmp/z.fuse"
  "$fusec" --predict --format=json "$tmp/z.fuse" | python3 -c "import json, sys; print(json.load(sys.stdin)['fused']['fp32_slots_per_element'])"
}
[ "$(slots 'x // 0' f32)" = 1 ] && [ "$(slots 'x // 3' f32)" = 38.9 ]; check "x // 0: a multiply, x // 3: fmod" 0 $?
[ "$(slots 'x % 0' i32)" = 2 ] && [ "$(slots 'x % 3' i32)" = 11.1 ]; check "i32 x % 0: a select" 0 $?
[ "$(slots 'x / 0' f32)" = 52.3 ] && [ "$(slots 'x / 3' f32)" = 14.3 ]; check "x / 0: the division's slow path" 0 $?

# a shaped chain's fused kernel finds each broadcast element's offset where its rows are not a multiple
# of E (FUSEC_GATHER_SLOTS_PER_DIM a divide, each element), once a chunk of E where they are
printf 'in x: f32[R, C]\nin b: f32[C]\ny = erf(sin(x) + cos(x)) * 1.5 + b\n' >"$tmp/gat.fuse"
fus() { "$fusec" --predict --format=json --dims=R=65536,C=$1 --sweep=R --sizes=$(( (1 << 24) / $1 )) "$tmp/gat.fuse" |
  python3 -c "import json, sys; print(json.load(sys.stdin)['sweep'][0]['fused_us'])"; }
"$fusec" -w --dims=R=4,C=33 "$tmp/gat.fuse" -o "$tmp/gat.cu" && grep -qF 'FX_INDEX32_MAX, 14 /* gathers: ' "$tmp/gat.cu"
check "gather_slots: 14 for a [C] bias in the fused call's version" 0 $?
awk -v a="$(fus 32)" -v b="$(fus 33)" -v c="$(fus 64)" 'BEGIN { exit !(b > 1.1 * a && c < 1.02 * a) }'
check "gather_slots: a compute-bound fused kernel with rows of 33 costs its gathers, of 32 and 64 little" 0 $?

# an operand broadcast along an outer dim is read again on each pass (a [S, D] table of [B, S, D]: B
# passes, S*D elements apart): from HBM when the traffic between passes outgrows the L2, free while small
printf 'in x: bf16[B, S, D]\nin pos: bf16[S, D]\ny = x + pos\n' >"$tmp/pass.fuse"
"$fusec" -w --dims=B=4,S=2,D=4096 "$tmp/pass.fuse" -o "$tmp/pass.cu" &&
    grep -q '^    {0, FUSEC_REREAD, 2, {1, 1, 1, 0}},$' "$tmp/pass.cu" &&
    grep -q '^    {0, FUSEC_REREAD, -2, {0, 1, 1, 0}},$' "$tmp/pass.cu" && grep -q '^    {0, FUSEC_REREAD_DIST, 1, {0, 1, 1, 0}},$' "$tmp/pass.cu"
check "reread: B passes over a [S, D] table, less its own, S*D apart" 0 $?
# a [C] operand of [R, C] is read again each row, a row apart: terms of their own, one distance a kernel
# (the last dim) for all such operands; from HBM once a row's traffic outgrows the L2 (golden shape_names
# swept along its last dim at 3 rows ran at 80% of the copy, session 31), free for rows of 4 and 4096
printf 'in x: f32[R, C]\nin b: f32[C]\nin w: f32[C]\ny = x * w + b\n' >"$tmp/row.fuse"
"$fusec" -w --dims=R=4,C=8 "$tmp/row.fuse" -o "$tmp/row.cu" && [ "$(sed -n '/_fterms\[\] = {/,/^};/p' "$tmp/row.cu" |
    grep -c -e '^    {0, FUSEC_REREAD_ROW, 4, {1, 1, 0, 0}},$' -e '^    {0, FUSEC_REREAD_ROW, -4, {0, 1, 0, 0}},$')" = 4 ] &&
    [ "$(sed -n '/_fterms\[\] = {/,/^};/p' "$tmp/row.cu" | grep -c '^    {0, FUSEC_ROW_DIST, 1, {0, 1, 0, 0}},$')" = 1 ]
check "reread: R passes over each [C] operand, less its own, one row distance for the kernel" 0 $?
rus() { "$fusec" --predict --format=json --dims=R=$1,C=$2 --sizes=$1 "$tmp/row.fuse" |
  python3 -c "import json, sys; print(json.load(sys.stdin)['sweep'][0]['fused_us'])"; }
awk -v a="$(rus 4 4194304)" -v b="$(rus 4194304 4)" -v c="$(rus 4096 4096)" \
    'BEGIN { exit !(a > 1.8 * b && c < 1.01 * b && c > 0.99 * b) }'
check "reread: rows of 2^22 read both [C] operands again each row, rows of 4 and 4096 once" 0 $?
printf 'in x: bf16[B, S, D]\nin pos: bf16[B, S, D]\ny = x + pos\n' >"$tmp/nopass.fuse"
pus() { "$fusec" --predict --format=json --dims=B=4,S=$1,D=4096 --sweep=S --sizes=$1 "$2" |
  python3 -c "import json, sys; print(json.load(sys.stdin)['sweep'][0]['fused_us'])"; }
awk -v a="$(pus 512 "$tmp/pass.fuse")" -v b="$(pus 512 "$tmp/nopass.fuse")" -v c="$(pus 32768 "$tmp/pass.fuse")" \
    -v d="$(pus 32768 "$tmp/nopass.fuse")" 'BEGIN { exit !(a < 0.85 * b && c > 0.97 * d) }'
check "reread: a 4 MiB table costs its own bytes, one of 256 MiB its bytes each pass" 0 $?
printf 'in x: f32[B, S, D]\nin pos: f32[S, D]\ny = x * 2 + pos\n' >"$tmp/pass2.fuse"
"$fusec" --predict --dims=B=8,S=32768,D=1024 --sweep=S --sizes=32768 "$tmp/pass2.fuse" |
    grep -q 'a broadcast operand is read again on each pass of an outer dim .*below the traffic ratio'
check "reread: the report names the passes where they move the speedup" 0 $?

# eager reads an input again in a later kernel (x * sigmoid(x)): that read finds x in L2 while the arrays
# fit, as an intermediate's does; the same chain over a second input w pays HBM for it. Both miss at 2^26.
printf 'in x: f32\ny = x * sigmoid(x)\n' >"$tmp/again.fuse"
printf 'in x, w: f32\ny = w * sigmoid(x)\n' >"$tmp/other.fuse"
uus() { "$fusec" --predict --format=json --sizes=$1 "$2" |
  python3 -c "import json, sys; print(json.load(sys.stdin)['sweep'][0]['unfused_us'])"; }
awk -v a="$(uus 2^20 "$tmp/again.fuse")" -v b="$(uus 2^20 "$tmp/other.fuse")" -v c="$(uus 2^26 "$tmp/again.fuse")" \
    -v d="$(uus 2^26 "$tmp/other.fuse")" 'BEGIN { exit !(a < 0.97 * b && c > 0.99 * d && c < 1.01 * d) }'
check "an input read again by a later unfused kernel hits in L2 while it fits" 0 $?

# a profile of today's fields; one written before l2_hot_end existed gets the old model's 1.1
cat >"$tmp/dev2.json" <<'JSON'
{"name": "test-gpu2", "note": "hand-written", "hbm_gbps": 1000.0, "l2_gbps": 2000.0, "l2_bytes": 1048576,
 "ramp_us": 0, "ramp_bytes": 1, "launch_first_us": 3, "launch_second_us": 2, "launch_next_us": 2,
 "host_call_us": 1, "host_launch_us": 3, "graph_launch_us": 4, "graph_node_us": 1,
 "fp32_gflops": 10000, "fp64_gflops": 5000, "eager_op_us": 10.0, "compiled_call_us": 40.0}
JSON
"$fusec" --predict --format=json --device="$tmp/dev2.json" "$seed" | grep -q '"l2_hot_keep": 1, "l2_hot_end": 1.1[,}]'
check "profile without l2_hot_keep, l2_hot_end: 1, 1.1" 0 $?
# one written before the third and far launch terms: the third kernel, those past the 32nd and the
# graph's second, third and far nodes cost what each later one did (launch_next_us, graph_node_us)
"$fusec" --predict --format=json --device="$tmp/dev2.json" "$seed" |
    grep -q '"launch_third_us": 2, "launch_next_us": 2, "launch_far_us": 2, .*"graph_second_us": 1, "graph_third_us": 1, "graph_node_us": 1, "graph_far_us": 1[,}]'
check "profile without the third launch terms: launch_next_us, graph_node_us" 0 $?
sed 's/^{/{"launch_third_us": 5,/' "$tmp/dev2.json" >"$tmp/dev5.json"
a=$("$fusec" --predict --format=json --sizes=1 --device="$tmp/dev2.json" "$seed" | sed -n 's/.*"unfused_us": \([0-9.]*\).*/\1/p')
b=$("$fusec" --predict --format=json --sizes=1 --device="$tmp/dev5.json" "$seed" | sed -n 's/.*"unfused_us": \([0-9.]*\).*/\1/p')
awk -v a="$a" -v b="$b" 'BEGIN { exit !(b - a > 2.99 && b - a < 3.01) }'
check "launch_third_us: the third of the seed's 4 kernels (5 us against 2)" 0 $?
# a legacy (fusec 0.1) file that also names a newer field keeps the legacy model: no -2 sentinel
printf '{"name": "old", "hbm_gbps": 1000, "l2_gbps": 2000, "l2_bytes": 1048576, "launch_us": 4, "graph_node_us": 1, "graph_second_us": 7, "fp32_gflops": 10000, "fp64_gflops": 5000, "sfu_gops": 100, "eager_op_us": 10, "compiled_call_us": 40}\n' >"$tmp/legacy2.json"
"$fusec" --predict --format=json --device="$tmp/legacy2.json" "$seed" | grep -q '"graph_second_us": 1, "graph_third_us": 1, "graph_node_us": 1, "graph_far_us": 1[,}]'
check "legacy profile with a newer field: graph terms from graph_node_us" 0 $?
# the reuse distance: y = d * a reads a four kernels after its write: a's 4 B and the 24 B of the
# three kernels between (b, c, d: 8 B each); an adjacent read, the array's own 4 B
printf 'in x: f32\na = x*2\nb = a+1\nc = b*3\nd = c+4\ny = d*a\n' >"$tmp/dist.fuse"
"$fusec" -w "$tmp/dist.fuse" -o "$tmp/dist.cu" && grep -q '^    {0, 8, 0, 4, 1, 0, 1, 0, 0, 1, 0, 28, 0, 1, 0, 0, 0, 0, 0, 0},$' "$tmp/dist.cu" &&
    grep -q '^    {0, 4, 4, 0, 1, 0, 1, 0, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0},$' "$tmp/dist.cu"
check "mid_dist: 28 B for a read four kernels back, 4 B for the kernel before's" 0 $?
# an input read again: y = b * x reads b (the kernel before's, 4 B) and x, last read two kernels back
# (x's 4 B and the 8 B of the kernel between): in_again 4 B, again_dist 12 B, beside mid_dist 4
printf 'in x: f32\na = x*2\nb = a+1\ny = b*x\n' >"$tmp/again2.fuse"
"$fusec" -w "$tmp/again2.fuse" -o "$tmp/again2.cu" && grep -q '^    {0, 4, 0, 4, 1, 0, 1, 0, 0, 1, 0, 4, 0, 1, 0, 0, 0, 0, 4, 12},$' "$tmp/again2.cu"
check "again_dist: an input read again, by its own distance beside the intermediate's" 0 $?
# an unfused kernel with a broadcast operand gathers its elements (eager's per-element form, gather_gelems);
# the cast after it, of one layout, does not
printf 'in x: f16[R, C]\nin s: f32[R, 1]\ny = f16(x * s)\n' >"$tmp/gather.fuse"
"$fusec" -w "$tmp/gather.fuse" -o "$tmp/gather.cu" && grep -q '^    {0, FUSEC_GATHER, 1, {1, 1, 0, 0}},$' "$tmp/gather.cu" &&
    [ "$(grep -c '^    {[0-9]*, FUSEC_GATHER, ' "$tmp/gather.cu")" = 1 ]
check "gather: the broadcast kernel's R*C elements, not the cast's" 0 $?
"$fusec" --predict --dims=R=16384,C=4096 "$tmp/gather.fuse" |
    grep -q "2^16, the unfused call's 1 kernel with a broadcast operand finds each element's place, as eager's do, at most 545 G"
check "gather: the report names the term that lifts the speedup above the traffic ratio" 0 $?
# a number over a tensor, unfused, as eager's Tensor.__rtruediv__: the reciprocal rounded to the tensor's
# dtype (f32 for an integer one), times the number; the fused kernel divides
printf 'in h: bf16\nin q: i32\ny = 3 / h\nz = 2 / q\n' >"$tmp/rdiv.fuse"
"$fusec" -w "$tmp/rdiv.fuse" -o "$tmp/rdiv.cu" && grep -q 'fx_to_bf16(fx_rdiv<__nv_bfloat16>(3.0f, fx_widen(x0)))' "$tmp/rdiv.cu" &&
    grep -q 'fx_rdiv<float>(2.0f, ' "$tmp/rdiv.cu" && [ "$(grep -c 'fx_rdiv<' "$tmp/rdiv.cu")" = 2 ]
check "number / tensor: eager's reciprocal times the number in the unfused kernels only" 0 $?
# hot_call_us: a file written before it gets 0 (its model as it was); given, a hot call of the seed's
# fused kernel at one element costs that much more (GPU-bound: this profile's host takes 1 + 3 us a call)
"$fusec" --predict --format=json --device="$tmp/dev2.json" "$seed" | grep -q '"host_launch_us": 3, "hot_call_us": 0, '
check "profile without hot_call_us: 0" 0 $?
sed 's/^{/{"hot_call_us": 2.5,/' "$tmp/dev2.json" >"$tmp/dev6.json"
hotf() { "$fusec" --predict --format=json --mode=hot --sizes=1 --device="$1" "$seed" | sed -n 's/.*"fused_us": \([0-9.]*\).*/\1/p'; }
a=$(hotf "$tmp/dev2.json") b=$(hotf "$tmp/dev6.json")
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 3.99 && a < 4.01 && b > 4.49 && b < 4.51) }'
check "hot_call_us: the fused hot call, max(host 4, GPU 2.5 + 2) = 4.5 us against 4" 0 $?
sed 's/^{/{"l2_hot_end": 0.7,/' "$tmp/dev2.json" >"$tmp/dev3.json"
"$fusec" --predict --format=json --device="$tmp/dev3.json" "$seed" | grep -q '"l2_hot_end": 0.7[,}]'
check "profile's l2_hot_end read" 0 $?
sed 's/^{/{"l2_hot_end": 0.1,/' "$tmp/dev2.json" >"$tmp/dev4.json"
"$fusec" --predict --device="$tmp/dev4.json" "$seed" 2>"$tmp/e"; check "l2_hot_end out of range" 2 $?
grep -q '"l2_hot_end" is 0.1, outside its range' "$tmp/e"; check "l2_hot_end out of range named" 0 $?

# a cast to f8e4m3 drops c10's overflow rule only where the value is known within +-448:
# a clamp to literals, not one to a param (computed on the host, unwrapped)
printf 'in x: f32\nq = f8e4m3(clamp(x, -448, 448.0))\n' >"$tmp/sat.fuse"
"$fusec" -w "$tmp/sat.fuse" -o "$tmp/sat.cu" && grep -q "q_u_v\[e\] = fx_to_f8e4m3_satc(" "$tmp/sat.cu"
check "bounded e4m3 cast of an f32 clamp: saturating conversion, canonical NaN" 0 $?
# an e4m3 input's NaN keeps its sign through a cast, an f64 clamp's too: the sign is or-ed in
printf 'in q: f8e4m3\nin x: f64\nr = f8e4m3(f32(q))\ns = f8e4m3(clamp(x, -448, 448))\n' >"$tmp/sat3.fuse"
"$fusec" -w "$tmp/sat3.fuse" -o "$tmp/sat3.cu" && grep -q "r_u_v\[e\] = fx_to_f8e4m3_sat(" "$tmp/sat3.cu" &&
    grep -q "s_u_v\[e\] = fx_to_f8e4m3_sat(" "$tmp/sat3.cu"
check "bounded e4m3 cast of a signed NaN: the sign or-ed in" 0 $?
printf 'in x: f32\nparam p: f32 = 5\nq = f8e4m3(clamp(x, -(i8(p) * 100), 448.0))\n' >"$tmp/sat2.fuse"
"$fusec" -w "$tmp/sat2.fuse" -o "$tmp/sat2.cu" && grep -q "q_u_v\[e\] = fx_to_f8e4m3(" "$tmp/sat2.cu"
check "e4m3 cast of a clamp to a param: c10's rule kept" 0 $?

# a pow by a param costs the form its declared value picks (fx_pow_scalar at run time):
# by e = 2 as pow(x, 2), by e = 2.5 as pow(x, 2.5)
slots() { "$fusec" -w --predict --format=json "$1" | sed -n 's/.*"fp32_slots_per_element": \([0-9.e+-]*\).*/\1/p' | tail -1; }
printf 'param e = 2\ny = pow(x, e)\n' >"$tmp/pe2.fuse"
printf 'y = pow(x, 2)\n' >"$tmp/p2.fuse"
printf 'param e = 2.5\ny = pow(x, e)\n' >"$tmp/pe25.fuse"
printf 'y = pow(x, 2.5)\n' >"$tmp/p25.fuse"
[ -n "$(slots "$tmp/p2.fuse")" ] && [ "$(slots "$tmp/pe2.fuse")" = "$(slots "$tmp/p2.fuse")" ] &&
    [ "$(slots "$tmp/pe25.fuse")" = "$(slots "$tmp/p25.fuse")" ] && [ "$(slots "$tmp/pe2.fuse")" != "$(slots "$tmp/pe25.fuse")" ]
check "pow by a param: costed at its declared value's form" 0 $?

# what nvcc folds costs no slots in the fused kernel (src/traffic.c, fused_folds): a shift out of
# range is 0, and so is what only it feeds (the erf here); x | x is x; a shift in range is counted
printf 'in x: f32\nin q: i32\ny = x + f32((i32(erf(x)) << 40) %% 7)\n' >"$tmp/f1.fuse"
printf 'in x: f32\nin q: i32\ny = x + f32((i32(erf(x)) << 3) %% 7)\n' >"$tmp/f2.fuse"
printf 'in x: f32\ny = x + 1\n' >"$tmp/f3.fuse"
printf 'in q: i32\ny = f32(q | q) * 2\n' >"$tmp/f4.fuse"
printf 'in q: i32\ny = f32(q) * 2\n' >"$tmp/f5.fuse"
[ "$(slots "$tmp/f1.fuse")" = "$(slots "$tmp/f3.fuse")" ] && [ "$(slots "$tmp/f4.fuse")" = "$(slots "$tmp/f5.fuse")" ] &&
    python3 -c "import sys; a, b = map(float, sys.argv[1:]); assert a > b + 30" "$(slots "$tmp/f2.fuse")" "$(slots "$tmp/f3.fuse")"
check "folded values cost no slots: a shift out of range, x | x" 0 $?
# a transcendental of constants is computed once a thread, not folded: priced at its slots over E
printf 'in x: f32\nin q: i32\ny = x + pow(sigmoid(f32(q << 40)) + 0.25, -2.254)\n' >"$tmp/f6.fuse"
printf 'in x: f32\nin q: i32\ny = x + pow(sigmoid(f32(q << 4)) + 0.25, -2.254)\n' >"$tmp/f7.fuse"
python3 -c "import sys; a, b, c = map(float, sys.argv[1:]); assert a + 10 < b < c / 2, sys.argv" \
    "$(slots "$tmp/f3.fuse")" "$(slots "$tmp/f6.fuse")" "$(slots "$tmp/f7.fuse")"
check "a pow of constants: once a thread" 0 $?
# ... and the divisions and selects nvcc settles at compile time (SASS: tests/sass.sh): an i32 or
# i64 q % q or q // q, and what only it feeds, is a constant; a where on sign(x) == a non-integer,
# or f32(q) of an i32 or i64 == one, is never true (!= always), so only one side runs; a u8 % divides
# in float and a u8 converted is not seen through: counted
printf 'in q: i32\ny = f32(i64(q %% q) %% 7) + f32(q // q) + f32(q)\n' >"$tmp/f8.fuse"
printf 'in q: i64\ny = f32(q %% q) + f32(q // q) + f32(q)\n' >"$tmp/f8b.fuse"
printf 'in q: i32\ny = f32(q)\n' >"$tmp/f9.fuse"
printf 'in q: u8\ny = f32(q %% q) + f32(q)\n' >"$tmp/f10.fuse"
printf 'in x: f32\ny = x + where(sign(x) == 1.5, sin(x), erf(x))\n' >"$tmp/f11.fuse"
printf 'in x: f32\ny = x + where(sign(x) == 1.0, sin(x), erf(x))\n' >"$tmp/f12.fuse"
printf 'in x: f32\ny = x + erf(x)\n' >"$tmp/f13.fuse"
printf 'in x: f32\ny = where(2 < 1, sin(x), x * 2)\n' >"$tmp/f14.fuse"
printf 'in x: f32\ny = x * 2\n' >"$tmp/f15.fuse"
printf 'in x: f32\nin q: i32\ny = x + where(f32(q) != 0.5, erf(x), sin(x))\n' >"$tmp/f16.fuse"
printf 'in x: f32\nin q: u8\ny = x + where(f32(q) != 0.5, erf(x), sin(x))\n' >"$tmp/f17.fuse"
python3 -c "
import sys
a, a2, b, c, d, e, f, g, h, i, j = map(float, sys.argv[1:])
assert abs(a - b) < 3 and abs(a2 - b) < 3 and c > b + 5, sys.argv  # q % q, q // q: i32, i64; u8 counted
assert abs(d - f) < 3 and e > f + 20 and g == h, sys.argv            # sign(x) == 1.5 folded, == 1.0 not; 2 < 1
assert abs(i - f) < 3 and j > f + 20, sys.argv                        # f32(q) != 0.5: i32 folded, u8 not
" "$(slots "$tmp/f8.fuse")" "$(slots "$tmp/f8b.fuse")" "$(slots "$tmp/f9.fuse")" "$(slots "$tmp/f10.fuse")" \
    "$(slots "$tmp/f11.fuse")" "$(slots "$tmp/f12.fuse")" "$(slots "$tmp/f13.fuse")" "$(slots "$tmp/f14.fuse")" \
    "$(slots "$tmp/f15.fuse")" "$(slots "$tmp/f16.fuse")" "$(slots "$tmp/f17.fuse")"
check "folded: an integer q % q, a where nvcc decides" 0 $?

# --mode=hot: the harness's hot mode (calls back to back, what fits stays in L2): the seed's
# fused call at 2^20 (8 MB, within the L2) costs the host's issue time, not its bytes, and at 2^28
# (2 GB) about what a cold one does; the report, JSON and CSV say which mode they predict
json_us() { "$fusec" --predict --format=json --sizes="$1" $2 "$seed" |
  python3 -c "import json, sys; s = json.load(sys.stdin); print(s['mode'], '%.3f' % s['sweep'][0]['fused_us'])"; }
h20=$(json_us 2^20 --mode=hot) c20=$(json_us 2^20 --mode=cold) h28=$(json_us 2^28 --mode=hot) c28=$(json_us 2^28 "")
python3 - "$h20" "$c20" "$h28" "$c28" <<'PY'; check "--mode=hot: the host's issue time at 2^20, the bytes at 2^28" 0 $?
import sys
(m1, h20), (m2, c20), (m3, h28), (m4, c28) = (a.split() for a in sys.argv[1:])
assert (m1, m2, m3, m4) == ("hot", "cold", "hot", "cold"), sys.argv
h20, c20, h28, c28 = map(float, (h20, c20, h28, c28))
assert h20 > c20 and abs(h28 / c28 - 1) < 0.01, sys.argv  # 6.3 (1.84 + 4.49 us of host) against 5.1; 511 against 510
PY
"$fusec" --predict --mode=hot "$seed" | grep -q '^Predicted sweep (c; hot: calls back to back'; check "--mode=hot in the report" 0 $?
"$fusec" --predict --mode=hot "$seed" | grep -q 'launches rule: back to back, a call costs the larger of the host'
check "--mode=hot: the launch words are the hot ones" 0 $?
"$fusec" --predict --format=csv --mode=hot --sizes=4096 "$seed" | tail -1 | grep -q ',c,hot,"h200"$'
check "--mode=hot in the CSV" 0 $?

# determinism: byte-identical output, run after run
for f in "$root"/examples/*.fuse; do
  for e in cuda header report json csv dot; do
    "$fusec" -w --emit=$e "$f" >"$tmp/a" 2>/dev/null
    "$fusec" -w --emit=$e "$f" >"$tmp/b" 2>/dev/null
    cmp -s "$tmp/a" "$tmp/b"; check "deterministic $e $(basename "$f")" 0 $?
  done
done
for f in "$root"/examples/*.fuse; do
  "$fusec" -w --emit=torch "$f" -o "$tmp/ta" 2>/dev/null
  "$fusec" -w --emit=torch "$f" -o "$tmp/tb" 2>/dev/null
  diff -r "$tmp/ta" "$tmp/tb" >/dev/null; check "deterministic torch $(basename "$f")" 0 $?
  rm -rf "$tmp/ta" "$tmp/tb"
done
[ $fails = 0 ]
