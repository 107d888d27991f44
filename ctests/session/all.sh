#!/bin/bash
# Runs the session scenarios in every arrangement of the two libraries (issue 3, "must show"
# 1 and 2): the reference alone (the scenarios' own check), our server with reference
# clients, reference server with our clients, ours alone (programs built against the
# reference headers, then rebuilt against ours), one job mixing ranks of both libraries under
# each server, ours alone with the clients under valgrind, ours alone with the host under
# valgrind, and OpenPMIx's example clients.
# usage: STAGE=<our install prefix> ctests/session/all.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${STAGE:?STAGE must name our private install (make stage)}"
ours=$STAGE/lib
fail=0
check() {
  local what=$1; shift
  echo "== $what"
  env "$@" bash "$here/run.sh" >"$tmp" 2>&1; local rc=$?
  sed 's/^/  /' "$tmp"
  [ $rc = 0 ] || { echo "FAIL session: $what"; fail=1; }
}
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
check "reference server, reference clients"  HOST_LIB= CLIENT_LIB=
check "our server, reference clients"        HOST_LIB="$ours" CLIENT_LIB=
check "reference server, our clients"        HOST_LIB= CLIENT_LIB="$ours"
check "our server, our clients"              HOST_LIB="$ours" CLIENT_LIB="$ours"
check "our headers and library throughout"   INC="$STAGE/include" LINK_DIR="$ours" HOST_LIB="$ours" CLIENT_LIB="$ours"
# Mixed jobs run the data-exchange scenarios and groups. (The group scenario with mixed ranks
# used to hang under the reference server, 1 run in 10, until host.c registered every client
# before forking the first: docs/notes/server.md, "Groups".)
mixed="modex barrier job pubsub connect events spawn query log group fabric threads"
check "reference server, ranks mixed (even ours, odd reference)" N=4 ONLY="$mixed" HOST_LIB= CLIENT_LIB="$ours" ODD_LIB=ref
check "our server, ranks mixed (even ours, odd reference)"       N=4 HOST_LIB="$ours" CLIENT_LIB="$ours" ODD_LIB=ref
check "our server, our clients under valgrind" VALGRIND=1 HOST_LIB="$ours" CLIENT_LIB="$ours"
check "our server under valgrind, our clients" HOST_VALGRIND=1 HOST_LIB="$ours" CLIENT_LIB="$ours"
echo "== our ds21 store, read by reference clients"
STAGE="$STAGE" bash "$here/ds21.sh" >"$tmp" 2>&1 || { echo "FAIL session: ds21"; fail=1; }
sed 's/^/  /' "$tmp"
echo "== OpenPMIx example clients, every arrangement"
LIB_DIR="$ours" bash "$here/examples.sh" >"$tmp" 2>&1 || { echo "FAIL session: examples"; fail=1; }
sed 's/^/  /' "$tmp"
exit $fail
