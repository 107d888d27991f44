#!/bin/bash
# Reference 4.2 clients under our server read their job data from our ds21 store
# (pmix-core/src/datastore/ds21.rs, docs/notes/ds21.md): the session host on our library runs
# the "job" scenario (every rank Gets every rank's job data) with reference clients, and
#   - every client declared gds "ds21" at its handshake (the server's trace says so), and the
#     scenario's output is the expected one (the same as under the reference server);
#   - no Get of a reserved key reached the server (they were answered from the store);
#   - the store's files existed while the job ran, and none is left after the host exits;
#   - with PMIX_RS_DS21=0 the same clients declare "hash" and the scenario still passes;
#   - the "modex" scenario (37 typed values Put, Commit, Fence with and without collection,
#     Get of every peer's) passes, and the only Gets that reach the server are of the peers'
#     REMOTE-scope keys, which a local peer may not see (the rest the clients read from the
#     store, where the server appended them as each fence completed); with PMIX_RS_DS21=0
#     the typed values are asked of the server.
# usage: STAGE=<our install prefix> ctests/session/ds21.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${STAGE:?STAGE must name our private install (make stage)}"
: "${INC:=/usr/lib/x86_64-linux-gnu/pmix2/include}"
N=4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
for prog in host client; do
  cc -g -O1 -Wall -Wextra -Werror -I"$INC" "$here/$prog.c" -o "$work/$prog" -lpmix -lpthread \
    || { echo "FAIL ds21: build of $prog.c"; exit 1; }
done
fail=0
pass() { echo "PASS ds21: $*"; }
bad() { echo "FAIL ds21: $*"; fail=1; }

# run NAME [ENV...]: the job scenario (or $SCENARIO), host on our library, clients on the
# reference's.
run() {
  local name=$1; shift
  env "$@" PMIX_TRACE_SERVER=1 LD_LIBRARY_PATH="$STAGE/lib" timeout -k 5 60 \
    "$work/host" -n "$N" -t 45 -- /usr/bin/env LD_LIBRARY_PATH= \
    /bin/sh -c 'ls "$PMIX_DSTORE_21_BASE_PATH" > "$0.files.$PMIX_RANK" 2>&1; exec "$@"' \
    "$work/$name" "$work/client" "${SCENARIO:-job}" > "$work/$name.out" 2> "$work/$name.err"
}
want_output() {
  [ "$(grep -c "^[0-9]*: job data of $N of $N ranks as placed$" "$work/$1.out")" = "$N" ]
}

run on
rc=$?
[ $rc = 0 ] && want_output on && pass "the job scenario passes (host rc 0)" \
  || { bad "the job scenario failed (host rc $rc)"; tail -20 "$work/on.err" "$work/on.out"; }
n=$(grep -c 'attached, gds ds21$' "$work/on.err")
[ "$n" = "$N" ] && pass "$N of $N clients declared gds ds21" || bad "$n of $N clients declared gds ds21"
n=$(grep -c 'server: get .* key Some("pmix\.' "$work/on.err")
[ "$n" = 0 ] && pass "no Get of a reserved key reached the server" \
  || bad "$n Gets of reserved keys reached the server"
# What a client attaches at its PMIx_Init exists before it starts (the client's view).
if grep -q '^smlockseg-' "$work/on.files.0" && grep -q '^initial-pmix_shared-segment-0$' "$work/on.files.0"; then
  pass "the lock and initial files existed when rank 0 started"
else
  bad "rank 0 saw no store: $(head -3 "$work/on.files.0")"
fi
left=$(find "$TMPDIR" -mindepth 1 | head -5)
[ -z "$left" ] && pass "nothing left in TMPDIR after the host exited" || bad "left behind: $left"

run off PMIX_RS_DS21=0
rc=$?
[ $rc = 0 ] && want_output off && pass "PMIX_RS_DS21=0: the job scenario passes" \
  || { bad "PMIX_RS_DS21=0: the job scenario failed (host rc $rc)"; tail -20 "$work/off.err"; }
n=$(grep -c 'attached, gds hash$' "$work/off.err")
[ "$n" = "$N" ] && pass "PMIX_RS_DS21=0: $N of $N clients declared gds hash" \
  || bad "PMIX_RS_DS21=0: $n of $N clients declared gds hash"
# modex_ok NAME: every rank matched every peer's typed values in both rounds.
modex_ok() {
  [ "$(grep -c "^[0-9]*: modex round [12] (.*): all [0-9]* typed values from each of $((N - 1)) peers match$" \
    "$work/$1.out")" = $((2 * N)) ]
}
SCENARIO=modex run mx
rc=$?
[ $rc = 0 ] && modex_ok mx && pass "modex scenario passes (host rc 0)" \
  || { bad "modex scenario failed (host rc $rc)"; tail -20 "$work/mx.err" "$work/mx.out"; }
gets=$(grep -c 'server: get ' "$work/mx.err")
others=$(grep 'server: get ' "$work/mx.err" | grep -vc 'key Some("mx[12]\.remote")')
# each rank asks for each peer's REMOTE key in each round: 2 N (N-1) Gets, nothing else
[ "$others" = 0 ] && [ "$gets" = $((2 * N * (N - 1))) ] \
  && pass "after each fence only the $gets Gets of REMOTE-scope keys reached the server" \
  || bad "$others Gets of keys the store holds reached the server ($gets in all)"
SCENARIO=modex run mxoff PMIX_RS_DS21=0
rc=$?
[ $rc = 0 ] && modex_ok mxoff && pass "PMIX_RS_DS21=0: modex scenario passes" \
  || { bad "PMIX_RS_DS21=0: modex scenario failed (host rc $rc)"; tail -20 "$work/mxoff.err"; }
n=$(grep 'server: get ' "$work/mxoff.err" | grep -vc 'key Some("mx[12]\.remote")')
[ "$n" -gt 0 ] && pass "PMIX_RS_DS21=0: $n Gets of typed values reached the server" \
  || bad "PMIX_RS_DS21=0: no Get of a typed value reached the server"
left=$(find "$TMPDIR" -mindepth 1 | head -5)
[ -z "$left" ] && pass "nothing left in TMPDIR after the modex runs" || bad "left behind: $left"
exit $fail
