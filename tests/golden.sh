#!/bin/sh
# Golden-file test: runs fusec on one .fuse file and compares with the
# expected output beside it. A mismatch prints a unified diff.
#   golden.sh FUSEC MODE FILE.fuse      MODE: report | json | cuda | header | torch | error
# torch compares NAME_torch.cpp and NAME.py of --emit=torch with the expected files
# and checks that its NAME.cu and NAME.h are --emit=cuda's and --emit=header's.
# FUSEC_REGEN=1 rewrites the expected file instead (on purpose, never silently).
# Extra fusec arguments come from a first line "# fusec-args: ..." in the file.
set -u
fusec=$1 mode=$2 src=$3
case $mode in
  report) ext=report; args="--predict" ;;
  json)   ext=json;   args="--predict --format=json" ;;
  cuda)   ext=cu;     args="--emit=cuda" ;;
  header) ext=h;      args="--emit=header" ;;
  torch)  ext=torch;  args="--emit=torch" ;;
  error)  ext=err;    args="--predict" ;;
  *) echo "golden.sh: unknown mode $mode" >&2; exit 2 ;;
esac
expected=${src%.fuse}.$ext
extra=$(sed -n '1s/^# fusec-args: //p' "$src")
dir=$(dirname "$src")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Run from the file's folder so locations print as the bare file name.
if [ "$mode" = torch ]; then
  name=$(basename "$src" .fuse)
  (cd "$dir" && "$fusec" $args $extra "$(basename "$src")" -o "$tmp/ext") 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; echo "FAIL: fusec --emit=torch exited $?" >&2; exit 1; }
  for kind in cuda:cu header:h; do
    (cd "$dir" && "$fusec" --emit=${kind%:*} $extra "$(basename "$src")") >"$tmp/one" 2>/dev/null
    cmp -s "$tmp/one" "$tmp/ext/$name.${kind#*:}" ||
      { echo "FAIL: $name.${kind#*:} of --emit=torch differs from --emit=${kind%:*}" >&2; exit 1; }
  done
  [ "$(ls "$tmp/ext" | tr '\n' ' ')" = "$name.cu $name.h $name.py ${name}_torch.cpp " ] ||
    { echo "FAIL: --emit=torch wrote: $(ls "$tmp/ext")" >&2; exit 1; }
  fails=0
  for f in ${name}_torch.cpp $name.py; do
    sed '/^\/\* ---- runtime\//,/^\/\* ---- end of runtime\//d' "$tmp/ext/$f" >"$tmp/actual"
    if [ "${FUSEC_REGEN:-0}" = 1 ]; then
      cp "$tmp/actual" "$dir/$f"
      echo "regenerated $dir/$f"
    elif [ ! -f "$dir/$f" ]; then
      echo "FAIL: no expected file $dir/$f (run with FUSEC_REGEN=1 to create it)" >&2
      fails=1
    elif ! diff -u "$dir/$f" "$tmp/actual"; then
      echo "FAIL: $f of $src differs from $dir/$f" >&2
      fails=1
    fi
  done
  exit $fails
fi
(cd "$dir" && "$fusec" $args $extra "$(basename "$src")") >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$mode" = error ]; then
  { cat "$tmp/err"; echo "exit $rc"; } >"$tmp/actual"
  if [ -s "$tmp/out" ]; then echo "FAIL: an error run wrote to stdout" >&2; exit 1; fi
else
  if [ $rc -ne 0 ]; then cat "$tmp/err" >&2; echo "FAIL: fusec exited $rc" >&2; exit 1; fi
  if [ "$mode" = cuda ]; then
    # The banner's contents give the line each part starts on, and that line
    # says the part's title (up to a " (" note): each entry is checked against
    # the whole file, then its number becomes N (the numbers move whenever a
    # runtime/ file changes).
    awk 'NR == FNR { text[FNR] = $0; next }
         /^ \* Contents/ { inside = 1; next }
         inside && !/^ \* +[0-9]+: / { exit }
         inside { n = $2 + 0; t = $0; sub(/^ \* +[0-9]+: /, "", t); sub(/ \(.*/, "", t); entries++
                  if (index(text[n], t) == 0) { print "FAIL: contents: line " n " does not start " t; bad = 1 } }
         END { if (!entries) { print "FAIL: no contents in the banner"; bad = 1 }; exit bad }' \
      "$tmp/out" "$tmp/out" >&2 || exit 1
    sed -i '1,/^ \*\/$/ s/^ \* *[0-9][0-9]*: / *   N: /' "$tmp/out"
  fi
  # The embedded runtime/ files have their own tests; goldens hold the chain's code.
  sed '/^\/\* ---- runtime\//,/^\/\* ---- end of runtime\//d' "$tmp/out" >"$tmp/actual"
fi
if [ "${FUSEC_REGEN:-0}" = 1 ]; then
  cp "$tmp/actual" "$expected"
  echo "regenerated $expected"
  exit 0
fi
if [ ! -f "$expected" ]; then
  echo "FAIL: no expected file $expected (run with FUSEC_REGEN=1 to create it)" >&2
  exit 1
fi
diff -u "$expected" "$tmp/actual" && exit 0
echo "FAIL: $src differs from $expected" >&2
exit 1
