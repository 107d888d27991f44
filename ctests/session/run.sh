#!/bin/bash
# Multi-process session tests. host.c is a PMIx host written on the server API only; it runs N
# copies of client.c, whose first argument picks a scenario (see client.c). Each scenario's
# sorted stdout must equal expected/SCENARIO.out, and the host must exit with the expected
# code (0, or the abort status 3 for the abort scenarios).
#
# Expected files are written for any N: a line starting with @R@ stands for one line per rank
# (0..N-1), one starting with @R>0@ for one line per rank but 0; in every line @R@ is that
# rank, @N@ is N, @N-1@ is N-1 and @LIST@ is "0,1,...,N-1".
#
# Environment:
#   INC         headers to build against (default: the reference's)
#   LINK_DIR    directory of the libpmix.so to link against (default: the system's)
#   HOST_LIB    directory put first in the host's LD_LIBRARY_PATH (empty: the reference)
#   CLIENT_LIB  same for the clients, including the processes they spawn
#   ODD_LIB     if set, the odd ranks use this directory instead of CLIENT_LIB: one job that
#               mixes ranks of two libraries (set it to "ref" for the reference)
#   THIRD_LIB   if set (with ODD_LIB), ranks take CLIENT_LIB, ODD_LIB and THIRD_LIB by rank
#               modulo 3 instead: one job of three libraries
#   STATUS_FROM a libpmix.so.2 whose PMIx_Error_string names statuses otherwise than the
#               expected files (OpenPMIx 5.0's "PMIX_ERR_NOT_FOUND" for 4.2's "NOT-FOUND"):
#               the clients' output is rewritten with status_names.c before the comparison
#   N           number of ranks (default 3; pubsub and abort need at least 2)
#   VALGRIND=1  runs the clients (not the processes they spawn) under valgrind
#   HOST_VALGRIND=1 runs the host (the server library) under valgrind: any error or definite
#               leak makes it exit 77
#   HOST_DEBUG=1 traces the host's upcalls on stderr (shown on failure)
# With the reference as the server, the scenarios of REF_SKIP (reference server bugs,
# described in client.c) are skipped; RUN_REF_SKIP=1 runs them anyway. ONLY="a b" runs those
# scenarios only. SKIP="a b" skips those (the caller says why).
#
# usage: run.sh [SCENARIO...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${INC:=/usr/lib/x86_64-linux-gnu/pmix2/include}"
: "${LINK_DIR:=}"
: "${HOST_LIB:=}"
: "${CLIENT_LIB:=}"
: "${ODD_LIB:=}"
: "${THIRD_LIB:=}"
: "${STATUS_FROM:=}"
: "${N:=3}"
: "${VALGRIND:=0}"
: "${HOST_VALGRIND:=0}"
: "${RUN_REF_SKIP:=0}"

SCENARIOS=(modex barrier job pubsub spawn connect events query log jobctl group invite fabric fabric_plane
           threads resolve refresh getall abort
           abort_in_fence)
REF_SKIP=(fabric_plane abort_in_fence refresh)
# Scenarios whose client side OpenPMIx 4.2.2 answers otherwise than 5.0.11 and ours: skipped
# when a client is 4.2.2's. getall: 4.2.2's client answers a peer's PMIx_Get without a key
# with the peer's job data only, 5.0.11's and ours with its shared data too.
NOT_42_CLIENTS=(getall)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR="$work"

CFLAGS="-g -O1 -Wall -Wextra -Werror -I$INC"
LDFLAGS="${LINK_DIR:+-L$LINK_DIR} -lpmix -lpthread"
for prog in host client; do
  # shellcheck disable=SC2086
  if ! cc $CFLAGS "$here/$prog.c" -o "$work/$prog" $LDFLAGS 2>"$work/$prog.cc"; then
    echo "FAIL build of $prog.c"; sed 's/^/  /' "$work/$prog.cc"; exit 1
  fi
done

normalize=(cat)
if [ -n "$STATUS_FROM" ]; then
  . "$here/status_names.sh"
  status_sed "$STATUS_FROM" "$work" || exit 1
  normalize=(sed -f "$work/status.sed")
fi

# host watchdog and per-scenario timeout (valgrind is slow)
host_timeout=60; [ "$VALGRIND" = 1 ] || [ "$HOST_VALGRIND" = 1 ] && host_timeout=180
host_cmd=("$work/host")
if [ "$HOST_VALGRIND" = 1 ]; then
  host_cmd=(valgrind -q --error-exitcode=77 --leak-check=full --show-leak-kinds=definite
            --errors-for-leak-kinds=definite "$work/host")
fi
scenario_timeout=$((host_timeout + 15))
if [ -n "$THIRD_LIB" ]; then
  odd=$ODD_LIB; [ "$odd" = ref ] && odd=
  third=$THIRD_LIB; [ "$third" = ref ] && third=
  client_cmd=(/bin/sh -c 'case $((PMIX_RANK % 3)) in 1) LD_LIBRARY_PATH=$1 ;; 2) LD_LIBRARY_PATH=$2 ;; *) LD_LIBRARY_PATH=$3 ;; esac; export LD_LIBRARY_PATH; shift 3; exec "$@"' mixed "$odd" "$third" "$CLIENT_LIB")
elif [ -n "$ODD_LIB" ]; then
  odd=$ODD_LIB; [ "$odd" = ref ] && odd=
  # The rank comes from the environment the host's PMIx_server_setup_fork made.
  client_cmd=(/bin/sh -c 'if [ $((PMIX_RANK % 2)) = 1 ]; then LD_LIBRARY_PATH=$1; else LD_LIBRARY_PATH=$2; fi; export LD_LIBRARY_PATH; shift 2; exec "$@"' mixed "$odd" "$CLIENT_LIB")
else
  client_cmd=(/usr/bin/env "LD_LIBRARY_PATH=$CLIENT_LIB")
fi
if [ "$VALGRIND" = 1 ]; then
  client_cmd+=(valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite)
fi
client_cmd+=("$work/client")

expand() {
  awk -v n="$N" '{
    line = $0
    list = ""; for (i = 0; i < n; i++) list = list (i ? "," : "") i
    gsub(/@N@/, n, line); gsub(/@N-1@/, n - 1, line); gsub(/@LIST@/, list, line)
    if (line ~ /^@R>0@/) {
      for (r = 1; r < n; r++) { l = line; sub(/^@R>0@/, r, l); gsub(/@R@/, r, l); print l }
    } else if (line ~ /@R@/) {
      for (r = 0; r < n; r++) { l = line; gsub(/@R@/, r, l); print l }
    } else print line
  }' "$1" | LC_ALL=C sort
}

names=("$@")
# shellcheck disable=SC2206
[ ${#names[@]} -eq 0 ] && [ -n "${ONLY:-}" ] && names=($ONLY)
[ ${#names[@]} -eq 0 ] && names=("${SCENARIOS[@]}")
fail=0
for s in "${names[@]}"; do
  if [[ " ${SKIP:-} " == *" $s "* ]]; then
    echo "SKIP $s (the caller's list)"; continue
  fi
  # REF_SKIP holds reference *server* bugs: skipped whenever the server is the reference.
  if [ -z "$HOST_LIB" ] && [ "$RUN_REF_SKIP" != 1 ] \
     && [[ " ${REF_SKIP[*]} " == *" $s "* ]]; then
    echo "SKIP $s (reference bug, see client.c)"; continue
  fi
  if { [ -z "$CLIENT_LIB" ] || [ "$ODD_LIB" = ref ] || [ "$THIRD_LIB" = ref ]; } \
     && [[ " ${NOT_42_CLIENTS[*]} " == *" $s "* ]]; then
    echo "SKIP $s (4.2.2 clients answer otherwise, see NOT_42_CLIENTS)"; continue
  fi
  if [ ! -f "$here/expected/$s.out" ]; then
    echo "FAIL $s: no expected/$s.out"; fail=1; continue
  fi
  case "$s" in abort|abort_in_fence) want_rc=3 ;; *) want_rc=0 ;; esac
  start=$(date +%s)
  env LD_LIBRARY_PATH="$HOST_LIB" timeout -k 5 "$scenario_timeout" \
    "${host_cmd[@]}" -n "$N" -t "$host_timeout" -- "${client_cmd[@]}" "$s" \
    >"$work/$s.out" 2>"$work/$s.err"
  rc=$?
  secs=$(( $(date +%s) - start ))
  ok=1
  "${normalize[@]}" "$work/$s.out" | LC_ALL=C sort >"$work/$s.sorted"
  expand "$here/expected/$s.out" >"$work/$s.expected"
  if ! cmp -s "$work/$s.expected" "$work/$s.sorted"; then
    echo "FAIL $s: stdout differs from expected/$s.out (sorted; < expected, > got)"
    diff "$work/$s.expected" "$work/$s.sorted" | head -30 | sed 's/^/  /'
    ok=0
  fi
  if [ $rc -ne $want_rc ]; then
    echo "FAIL $s: host exited with $rc, expected $want_rc"; ok=0
  fi
  if [ $want_rc -eq 3 ] && ! grep -q "^host: abort from ctest.0:1 status 3 msg test abort$" "$work/$s.err"; then
    echo "FAIL $s: the host did not report the abort"; ok=0
  fi
  if [ "$VALGRIND" = 1 ] && grep -q "^==[0-9]*==" "$work/$s.err"; then
    echo "FAIL $s: valgrind"; ok=0
  fi
  if [ $ok = 1 ]; then
    echo "PASS $s (${secs}s)"
  else
    echo "  stderr:"; tail -40 "$work/$s.err" | sed 's/^/  /'
    fail=1
  fi
done
exit $fail
