#!/bin/bash
# OpenPMIx's own example clients (Debian's /usr/share/doc/libpmix-dev/examples) as jobs of 4
# under the session host, in the four arrangements of the two libraries: each must end with
# the exit code it has on the reference alone (0; 1 for bad_exit, which fails on purpose).
# Not run here: dynamic (spawns a program by a relative name the host cannot exec) and fault
# (waits for a notification this host never sends): both fail the same way on the reference.
# usage: LIB_DIR=<dir with our libpmix.so.2> ctests/session/examples.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${LIB_DIR:?LIB_DIR must name a directory holding our libpmix.so.2}"
: "${INC:=/usr/lib/x86_64-linux-gnu/pmix2/include}"
: "${EXAMPLES_DIR:=/usr/share/doc/libpmix-dev/examples}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
cc -g -O1 -Wall -Wextra -Werror -I"$INC" "$here/host.c" -o "$work/host" -lpmix -lpthread || exit 1
fail=0
for ex in hello client client2 dmodex pub pubi log jctrl group asyncgroup nodeinfo bad_exit; do
  want=0; [ "$ex" = bad_exit ] && want=1
  if ! cc -g -w -I"$INC" -I"$here" "$EXAMPLES_DIR/$ex.c" -o "$work/$ex" -lpmix -lpthread 2>"$work/$ex.cc"; then
    echo "FAIL example $ex: does not build"; fail=1; continue
  fi
  codes=""
  for combo in ref:ref ours:ref ref:ours ours:ours; do
    s=${combo%%:*}; c=${combo##*:}
    slib=; [ "$s" = ours ] && slib=$LIB_DIR
    clib=; [ "$c" = ours ] && clib=$LIB_DIR
    LD_LIBRARY_PATH=$slib timeout 60 "$work/host" -n 4 -t 45 -- /usr/bin/env LD_LIBRARY_PATH=$clib "$work/$ex" \
      >"$work/$ex.$s.$c.out" 2>&1
    rc=$?
    codes="$codes $s/$c=$rc"
    if [ $rc -ne $want ]; then
      echo "FAIL example $ex: server $s, clients $c: exit $rc, want $want"
      tail -5 "$work/$ex.$s.$c.out" | sed 's/^/  /'; fail=1
    fi
  done
  echo "example $ex:$codes"
done
exit $fail
