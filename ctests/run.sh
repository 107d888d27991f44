#!/bin/bash
# Differential C tests. Each ctests/*.c program is built twice, against the reference
# headers and against ours (installed in $STAGE), and run three ways:
#   ref:  reference headers, reference library   (the expected output)
#   bin:  reference headers, our library          (existing binaries, drop-in)
#   ours: our headers, our library                (programs rebuilt against us)
# stdout must be identical in all three. A file ctests/NAME.ours-only marks a program whose
# output is checked only against ctests/expected/NAME.out (behaviour the reference lacks).
# VALGRIND=1 also runs the "ours" build under valgrind and fails on any error or leak.
# The OpenPMIx example programs named in ctests/examples/LIST are run the same way, built from
# $EXAMPLES_DIR (Debian's copy) with our stand-in examples.h; their names start with "ex:".
# usage: run.sh [NAME...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${REF_INC:=/usr/lib/x86_64-linux-gnu/pmix2/include}"
: "${STAGE:?STAGE must name our private install (make stage)}"
: "${EXAMPLES_DIR:=/usr/share/doc/libpmix-dev/examples}"
out=${CTEST_OUT:-$here/../build/ctests}
mkdir -p "$out"
export TMPDIR=$(mktemp -d "$out/tmp.XXXXXX")
trap 'rm -rf "$TMPDIR"' EXIT
CFLAGS="-g -O1 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-unused-function -I$here"
hw="$(pkg-config --cflags --libs hwloc 2>/dev/null || echo -lhwloc)"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in "$here"/*.c; do names+=("$(basename "$f" .c)"); done
  while read -r ex; do
    case "$ex" in ''|'#'*) ;; *) names+=("ex:$ex") ;; esac
  done < "$here/examples/LIST"
fi
fail=0
for n in "${names[@]}"; do
  src="$here/$n.c"; flags="$CFLAGS"
  if [ "${n#ex:}" != "$n" ]; then
    n="${n#ex:}"; src="$EXAMPLES_DIR/$n.c"; flags="-g -O1 -w -I$here/examples"
    [ -f "$src" ] || { echo "FAIL $n: $src not found (install libpmix-dev)"; fail=1; continue; }
  fi
  if ! cc $flags -I"$REF_INC" "$src" -o "$out/$n.ref" -lpmix $hw 2>"$out/$n.ref.cc"; then
    echo "FAIL $n: does not build against the reference headers"; sed 's/^/  /' "$out/$n.ref.cc"; fail=1; continue
  fi
  if ! cc $flags -I"$STAGE/include" "$src" -o "$out/$n.ours" -L"$STAGE/lib" -Wl,-rpath,"$STAGE/lib" -lpmix $hw 2>"$out/$n.ours.cc"; then
    echo "FAIL $n: does not build against our headers"; sed 's/^/  /' "$out/$n.ours.cc"; fail=1; continue
  fi
  timeout 60 "$out/$n.ours" > "$out/$n.ours.out" 2>"$out/$n.ours.err"; rc_ours=$?
  LD_LIBRARY_PATH="$STAGE/lib" timeout 60 "$out/$n.ref" > "$out/$n.bin.out" 2>"$out/$n.bin.err"; rc_bin=$?
  if [ -f "$here/$n.ours-only" ]; then
    expect="$here/expected/$n.out"; rc_ref=0
  else
    LD_LIBRARY_PATH= timeout 60 "$out/$n.ref" > "$out/$n.ref.out" 2>"$out/$n.ref.err"; rc_ref=$?
    expect="$out/$n.ref.out"
  fi
  ok=1
  for v in ours bin; do
    if ! cmp -s "$expect" "$out/$n.$v.out"; then
      echo "FAIL $n ($v): output differs from the reference"; diff "$expect" "$out/$n.$v.out" | head -20 | sed 's/^/  /'; ok=0
    fi
  done
  if [ $rc_ours -ne $rc_ref ] || [ $rc_bin -ne $rc_ref ]; then
    echo "FAIL $n: exit codes ref=$rc_ref bin=$rc_bin ours=$rc_ours"; ok=0
  fi
  if grep -q '^FAILED' "$expect" "$out/$n.ours.out" 2>/dev/null; then
    echo "FAIL $n: a CHECK failed"; grep -h '^FAILED' "$expect" "$out/$n.ours.out" | sed 's/^/  /'; ok=0
  fi
  if [ "${VALGRIND:-0}" = 1 ]; then
    if ! valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
         "$out/$n.ours" > /dev/null 2>"$out/$n.vg"; then
      echo "FAIL $n: valgrind"; head -30 "$out/$n.vg" | sed 's/^/  /'; ok=0
    fi
  fi
  if [ $ok = 1 ]; then echo "ok   $n"; else fail=1; fi
done
exit $fail
