#!/bin/bash
# Consumer test: the Python bindings (Debian's python3-pmix, built for /usr/bin/python3 3.11)
# over a chosen libpmix.so.2. py_server.py hosts two py_client.py processes (see both files).
#
#   PMIX_LIB_DIR=DIR ctests/consumers/python.sh   DIR holds the libpmix.so.2 under test
#   ctests/consumers/python.sh                    empty/unset: Debian's reference library
#   RUNS=N                                        repeat N times (default 1)
#   KEEP=1                                        keep the work directory
#
# Library selection is LD_LIBRARY_PATH=$PMIX_LIB_DIR (the bindings' module has no RPATH/RUNPATH,
# so the search path decides). Proof: the server and each client write the libpmix* files
# mapped in their own /proc/self/maps to $CHECK_MAPS_FILE; every one must be exactly
# realpath($PMIX_LIB_DIR/libpmix.so.2), or the reference library's realpath when unset.
# Each run has a private TMPDIR (the server's PMIX_SERVER_TMPDIR / PMIX_SYSTEM_TMPDIR too) and a
# 60 s timeout. Prints PASS/FAIL; exits non-zero on any failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
REF_LIB=/usr/lib/x86_64-linux-gnu/libpmix.so.2

if ! $PY -c 'import pmix' 2>/dev/null; then
  echo "FAIL python: $PY cannot import pmix (apt-get install -y python3-pmix)"; exit 1
fi
if [ -n "${PMIX_LIB_DIR:-}" ]; then
  [ -e "$PMIX_LIB_DIR/libpmix.so.2" ] || { echo "FAIL python: $PMIX_LIB_DIR/libpmix.so.2 not found"; exit 1; }
  expect=$(realpath "$PMIX_LIB_DIR/libpmix.so.2")
  export LD_LIBRARY_PATH="$PMIX_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  expect=$(realpath "$REF_LIB")
fi
# the bindings call threading.Thread.setDaemon(), deprecated in 3.10
export PYTHONWARNINGS=ignore::DeprecationWarning

# work directory: short, because PMIx puts its rendezvous sockets under TMPDIR (108-byte limit)
work=$(mktemp -d /tmp/pmixpy.XXXXXX)
fail=0
trap '[ "${KEEP:-0}" = 1 ] || [ $fail -ne 0 ] || rm -rf "$work"' EXIT

one_run() {  # $1 = run number
  local d="$work/run$1" t0 t1 rc ok=1
  mkdir -p "$d/tmp"
  t0=$EPOCHREALTIME
  TMPDIR="$d/tmp" CHECK_MAPS_FILE="$d/maps" timeout -k 5 60 \
    $PY "$here/py_server.py" "$here/py_client.py" > "$d/out" 2> "$d/err"
  rc=$?
  t1=$EPOCHREALTIME
  local secs; secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  local why=()
  [ $rc -eq 0 ] || why+=("exit status $rc")
  for pat in '^py_server: .* OK$' '^py_client 0: peer from-1/1001 lookup None server-event-from ctest-pysrv OK$' \
             '^py_client 1: peer from-0/1000 lookup port-of-ctest\.py\.[0-9]* server-event-from ctest-pysrv OK$'; do
    grep -q "$pat" "$d/out" || why+=("no line matching /$pat/")
  done
  # library proof
  local roles; roles=$(awk '{print $1}' "$d/maps" 2>/dev/null | sort | tr '\n' ' ')
  [ "$roles" = "client-rank0 client-rank1 server " ] || why+=("maps reports from [$roles], want server and both clients")
  while read -r role pid comm libs; do
    [ "$libs" = "$expect" ] || why+=("$role (pid $pid) mapped [$libs], want [$expect]")
  done < <(cat "$d/maps" 2>/dev/null)
  if [ ${#why[@]} -eq 0 ]; then
    echo "PASS python run $1 (${secs}s): $(grep '^py_server:' "$d/out")"
    echo "     library: $expect (server + 2 clients)"
  else
    fail=1
    echo "FAIL python run $1 (${secs}s):"
    printf '  %s\n' "${why[@]}"
    sed 's/^/  out: /' "$d/out"; sed 's/^/  err: /' "$d/err" | head -40
    [ -f "$d/maps" ] && sed 's/^/  maps: /' "$d/maps"
  fi
}

for i in $(seq 1 "${RUNS:-1}"); do one_run "$i"; done
[ $fail -eq 0 ] || echo "work directory kept: $work"
exit $fail
