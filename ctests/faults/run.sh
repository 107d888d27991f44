#!/bin/bash
# Fault tests of our PMIx server (and client), issue 3 item 6. Each check prints one line,
# PASS or FAIL; the script exits non-zero if any check of our library failed.
#
#   garbage    a raw TCP peer completes a valid handshake, then sends (a) a frame of random
#              bytes, (b) a truncated frame and closes its side, (c) a REQ then a garbage
#              frame; on fresh connections (d) random bytes as handshake, (d2) a plausible
#              handshake header with a random body, (e) a valid handshake of an unregistered
#              rank. Each time the server must drop that connection, and the other ranks must
#              still complete put/commit/fence/get; the host must not crash.
#   killfence  a rank is SIGKILLed while two others wait in a fence: their fence must fail
#              within 10 s, and the host must be told (notify_event upcall and the event
#              handler it registered in the server process, both with LOST_CONNECTION).
#   timeouts   PMIX_TIMEOUT=1 on a PMIx_Get of a key never put, on a fence a rank never
#              enters, and on a PMIx_Lookup with PMIX_WAIT of a key never published.
#   spoof      a raw peer claiming uid 4242, for a rank registered with uid 4242 while it
#              runs as another user, must be refused; an honest claim is accepted; both
#              over TCP and over the Unix socket our server offers its own peers.
#   memory     1000 cycles of put/commit/fence(collect)/get: client and host RSS must stay
#              flat (< 2 MB growth between cycle 100 and cycle 1000).
#   valgrind   the session scenario "modex" with the host and both clients under valgrind
#              (--leak-check=full, only definite leaks are errors).
#
# Every scenario that uses the client API also runs with our server and the reference's
# clients ("NAME/ref-clients"; same checks). With REF=1 (the default) the scenarios also run
# over the reference library (host and clients), and what it does is printed as REF lines;
# they never fail the run.
#
# The host is ctests/session/host.c, unchanged, linked with host_wrap.c (--wrap) to log the
# events it is given and to register one rank with a fake uid; the clients are fclient.c.
#
# Environment:
#   LIB_DIR   directory holding our libpmix.so.2 (required)
#   INC       headers (default: the reference's)
#   REF=0     skip the reference runs
#   VALGRIND=0 skip the valgrind check
#
# usage: LIB_DIR=dir run.sh [garbage|killfence|timeouts|spoof|memory|valgrind ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
session=$here/../session
: "${LIB_DIR:?set LIB_DIR to the directory holding our libpmix.so.2}"
LIB_DIR=$(cd "$LIB_DIR" && pwd)
: "${INC:=/usr/lib/x86_64-linux-gnu/pmix2/include}"
: "${REF:=1}"
: "${VALGRIND:=1}"

if [ ! -e "$LIB_DIR/libpmix.so.2" ]; then
  echo "FAIL no libpmix.so.2 in $LIB_DIR"; exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/faults.XXXXXX")
export TMPDIR="$work"
started=()

# Kill, by pid, every process this script started (hosts: TERM first, on which a host kills
# every process it started) and every fault client that left its pid in a pids/ directory
# and is still running.
cleanup() {
  local p f live=()
  for p in "${started[@]}"; do
    kill -0 "$p" 2>/dev/null && live+=("$p") && kill -TERM "$p" 2>/dev/null
  done
  [ ${#live[@]} -gt 0 ] && sleep 0.5
  for p in "${live[@]}"; do
    kill -KILL "$p" 2>/dev/null
  done
  for f in "$work"/*/pids/*; do
    [ -e "$f" ] || continue
    p=${f##*/}
    if grep -qa fclient "/proc/$p/cmdline" 2>/dev/null; then
      kill -KILL "$p" 2>/dev/null
    fi
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail=0
nfail=0
pass() { echo "PASS $*"; }
flunk() { echo "FAIL $*"; fail=1; nfail=$((nfail + 1)); }
ref() { echo "REF  $*"; }

CFLAGS="-g -O1 -Wall -Wextra -Werror -I$INC"
build() {
  local out=$1; shift
  # shellcheck disable=SC2086
  if ! cc $CFLAGS "$@" -o "$work/$out" -lpmix -lpthread 2>"$work/$out.cc"; then
    echo "FAIL build of $out"; sed 's/^/  /' "$work/$out.cc"; exit 1
  fi
}
build host "$session/host.c" "$here/host_wrap.c" \
  -Wl,--wrap=PMIx_server_init -Wl,--wrap=PMIx_server_register_client
build fclient "$here/fclient.c"
build sclient "$session/client.c"

# run LABEL SCENARIO NPROCS HOST_TIMEOUT [VAR=VALUE...]
# LABEL "ours" runs host and clients over LIB_DIR, "mixed" the host over LIB_DIR and the
# clients over the reference, "ref" both over the reference. Sets $dir
# (output in $dir/out and $dir/err), $rc and $secs.
run() {
  local label=$1 s=$2 n=$3 t=$4 pid start
  shift 4
  dir=$work/$label-$s
  mkdir -p "$dir/pids"
  local libenv=() client=("$work/fclient")
  case "$label" in
    ours) libenv=(LD_LIBRARY_PATH="$LIB_DIR") ;;
    # our server, the reference's clients (env execs the client: the host stays its parent)
    mixed) libenv=(LD_LIBRARY_PATH="$LIB_DIR"); client=(/usr/bin/env -u LD_LIBRARY_PATH "$work/fclient") ;;
    *) libenv=(-u LD_LIBRARY_PATH) ;;
  esac
  start=$(date +%s.%N)
  # env execs the host, so $! is the host's pid; its own watchdog (-t) bounds the run
  env "${libenv[@]}" FAULT_DIR="$dir" FAULT_NPROCS="$n" "$@" \
    "$work/host" -n "$n" -t "$t" -- "${client[@]}" "$s" >"$dir/out" 2>"$dir/err" &
  pid=$!
  started+=("$pid")
  wait "$pid"
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
}

# judge SCENARIO WANT_CHECKS WANT_RC: our run's check lines, their number, the host's code.
judge() {
  local s=$1 want=$2 want_rc=$3 line n before=$nfail
  n=$(grep -c '^\(PASS\|FAIL\) ' "$dir/out")
  while IFS= read -r line; do
    case "$line" in
      PASS\ *) pass "$s: rank ${line#PASS }" ;;
      FAIL\ *) flunk "$s: rank ${line#FAIL }" ;;
      INFO\ *) echo "     $s: rank ${line#INFO }" ;;
      *) flunk "$s: unexpected output: $line" ;;
    esac
  done < <(sort -s -k2,2n "$dir/out")
  if [ "$n" -eq "$want" ]; then
    pass "$s: all $want checks ran (${secs}s)"
  else
    flunk "$s: $n of $want checks ran (${secs}s)"
  fi
  if [ "$rc" -eq "$want_rc" ]; then
    pass "$s: host exited with $rc as expected (no crash, no watchdog)"
  else
    flunk "$s: host exited with $rc, expected $want_rc"
  fi
  if grep -q "watchdog expired\|PMIx_server_finalize:" "$dir/err"; then
    flunk "$s: host trouble: $(grep -m1 "watchdog expired\|PMIx_server_finalize:" "$dir/err")"
  fi
  if [ "$nfail" -gt "$before" ] && [ -s "$dir/err" ]; then
    echo "  host stderr ($s):"; tail -20 "$dir/err" | sed 's/^/    /'
  fi
}

# show_ref SCENARIO: the reference's run, for the record.
show_ref() {
  local s=$1 line
  while IFS= read -r line; do
    ref "$s: rank $line"
  done < <(sort -s -k2,2n "$dir/out")
  ref "$s: host exited with $rc after ${secs}s$(grep -q 'watchdog expired' "$dir/err" && echo ' (its watchdog fired)')"
  grep '^fault-host: \|PMIX ERROR' "$dir/err" | sort | uniq -c | sed 's/^ */count /' |
    while IFS= read -r line; do ref "$s: host stderr: $line"; done
}

# host_told SCENARIO WHO: the host saw LOST_CONNECTION about WHO through both paths.
host_told() {
  local s=$1 who=$2
  if grep -q "^fault-host: notify_event upcall LOST_CONNECTION (-61) source $who " "$dir/err"; then
    pass "$s: host's notify_event upcall got LOST_CONNECTION from $who"
  else
    flunk "$s: host's notify_event upcall never got LOST_CONNECTION from $who"
  fi
  if grep -q "^fault-host: lost-connection handler LOST_CONNECTION (-61) source $who affected $who" "$dir/err"; then
    pass "$s: host's PMIx_Register_event_handler handler got LOST_CONNECTION, affected $who"
  else
    flunk "$s: host's event handler never got LOST_CONNECTION about $who"
  fi
}

scenario_garbage() {
  run ours garbage 3 30
  judge garbage 22 0
  run mixed garbage 3 30
  judge "garbage/ref-clients" 22 0
  if [ "$REF" = 1 ]; then
    # the reference keeps such connections and, after (c), stops serving the others: the
    # survivors' waits are cut short and the host's watchdog ends the run
    run ref garbage 3 20 FAULT_WAIT=8
    show_ref garbage
  fi
}

scenario_killfence() {
  run ours killfence 3 30
  judge killfence 4 137          # 137: the host reports its SIGKILLed child
  host_told killfence ctest.0:2
  run mixed killfence 3 30
  judge "killfence/ref-clients" 4 137
  host_told "killfence/ref-clients" ctest.0:2
  if [ "$REF" = 1 ]; then
    run ref killfence 3 20 FAULT_WAIT=8
    show_ref killfence
  fi
}

scenario_timeouts() {
  run ours timeouts 3 30
  judge timeouts 8 0
  run mixed timeouts 3 30
  judge "timeouts/ref-clients" 8 0
  if [ "$REF" = 1 ]; then
    run ref timeouts 3 20 FAULT_WAIT=8
    show_ref timeouts
  fi
}

scenario_spoof() {
  run ours spoof 2 30 FAULT_FAKE_UID_RANK=1
  # 5 checks over TCP, 2 over our Unix socket
  judge spoof 7 0
  if [ "$REF" = 1 ]; then
    # the reference accepts the spoofed claim, then hangs in PMIx_server_finalize
    run ref spoof 2 6 FAULT_FAKE_UID_RANK=1 FAULT_WAIT=4
    show_ref spoof
  fi
}

scenario_memory() {
  run ours memory 2 30
  judge memory 5 0
  run mixed memory 2 30
  judge "memory/ref-clients" 5 0
  if [ "$REF" = 1 ]; then
    run ref memory 2 20 FAULT_WAIT=8
    show_ref memory
  fi
}

# The session scenario "modex" (2 ranks) with the host and the clients under valgrind, all
# over our library.
scenario_valgrind() {
  local vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
            --show-leak-kinds=definite)
  local pid start
  if [ "$VALGRIND" != 1 ]; then
    echo "SKIP valgrind (VALGRIND=0)"; return
  fi
  if ! command -v valgrind >/dev/null; then
    flunk "valgrind: not installed"; return
  fi
  dir=$work/ours-valgrind
  mkdir -p "$dir"
  start=$(date +%s.%N)
  env LD_LIBRARY_PATH="$LIB_DIR" "${vg[@]}" "$work/host" -n 2 -t 90 -- \
    "$(command -v valgrind)" "${vg[@]:1}" "$work/sclient" modex >"$dir/out" 2>"$dir/err" &
  pid=$!
  started+=("$pid")
  wait "$pid"
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if [ "$rc" -eq 0 ] && ! grep -q '^==[0-9]*==' "$dir/err" \
     && [ "$(grep -c 'typed values from each of 1 peers match' "$dir/out")" -eq 4 ]; then
    pass "valgrind: modex, host and 2 clients under valgrind: no errors, no definite leaks (${secs}s)"
  else
    flunk "valgrind: modex under valgrind: host exited with $rc (99 = valgrind error) (${secs}s)"
    grep -m 40 '' "$dir/err" | sed 's/^/    /'
  fi
}

all=(garbage killfence timeouts spoof memory valgrind)
names=("$@")
[ ${#names[@]} -eq 0 ] && names=("${all[@]}")
begin=$(date +%s)
for s in "${names[@]}"; do
  if [[ " ${all[*]} " != *" $s "* ]]; then
    echo "FAIL unknown check $s"; fail=1; continue
  fi
  "scenario_$s"
done
echo "faults: $(( $(date +%s) - begin ))s, $([ $fail = 0 ] && echo 'all checks of our library passed' || echo 'FAILURES')"
exit $fail
