#!/bin/bash
# Doors against another local user (docs/security.md): root runs the servers, user nobody
# (uid 65534, or $OTHER) attacks them, and root's own tools must still be served.
#
#   pmixrun   our pmixrun as root, a 2-rank job of our clients (rank 0 copies its stdin to a
#             file). As nobody: a tool by URI over TCP and over the Unix socket, raw
#             handshakes claiming root's uid (tool, and a client claiming rank 0) over both,
#             spawn, kill of rank 1, stdin push to rank 0, lookup of data published for
#             root only, query of the job's processes, reading the job's shared-memory
#             segments, and pps. Each must be refused, and nothing may happen (no spawned
#             command runs, rank 1 lives, rank 0 never reads nobody's text). Then the same
#             calls from root's tool must work.
#   planted   root's pmixrun in a shared TMPDIR where nobody made its session directory's name
#             first (a directory, a link): pmixrun must leave it alone and still run the job;
#             and a link nobody planted at the temporary name of the system server's
#             rendezvous file must not lead root's pmixrun to overwrite the file it names;
#             nor may rendezvous files nobody planted (pmix.sys.<host>, pmix.<host>.tool.<pid
#             of root's>) lead root's tools to nobody's listener.
#   allow     pmixrun --allow-user nobody: nobody's tool is served, and still cannot look up
#             data published with PMIX_ACCESS_USERIDS naming root only (root can).
#   host      ctests/security/shost.c, a host on the public server API, on our library: it
#             logs the PMIX_USERID/GRPID each upcall is handed. nobody's tool must reach
#             tool_connected with uid 65534 and be refused; raw handshakes claiming uid 0
#             never reach the host; root's requests reach it with uid 0. The same host
#             without a tool_connected upcall must refuse every tool (root's too).
#             With REF=1 (default) the host also runs on the reference library and what it
#             does is printed as REF lines (never a failure).
#   launcher  a launcher tool listening without a host module (ctests/v5/tool_server.c):
#             nobody's tool with an identity, and raw tools claiming root, are refused;
#             root's tool is served.
#
# Must run as root (CI does). Every process it starts is stopped by pid; its files live
# in one directory under /tmp (nobody must be able to enter it), removed at the end.
# usage: STAGE=<our install prefix> ctests/security/run.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${STAGE:?set STAGE to our install prefix}"
: "${INC:=/usr/lib/x86_64-linux-gnu/pmix2/include}"
: "${OTHER:=nobody}"
: "${REF:=1}"
if [ "$(id -u)" != 0 ]; then
  echo "FAIL security: must run as root (it acts as a second user)"; exit 1
fi
ouid=$(id -u "$OTHER") || { echo "FAIL security: no user $OTHER"; exit 1; }
ogid=$(id -g "$OTHER")

work=$(mktemp -d /tmp/pmix-security.XXXXXX)
chmod 711 "$work"
started=()
cleanup() {
  local p
  for p in "${started[@]}"; do kill -TERM "$p" 2>/dev/null; done
  sleep 0.3
  for p in "${started[@]}"; do kill -KILL "$p" 2>/dev/null; done
  exec 3>&- 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# What nobody may read: the test's programs and our library (a copy), and a drop box.
mkdir -p "$work/bin" "$work/lib" "$work/pub" "$work/root" "$work/other"
cp -a "$STAGE"/lib/libpmix.so* "$work/lib/"
cp "$STAGE/bin/pps" "$work/bin/"
for p in stool shost; do
  cc -g -O1 -Wall -Wextra -Werror -I"$INC" "$here/$p.c" -o "$work/bin/$p" -lpmix || exit 1
done
# (a 5.0 function: built against our headers)
cc -g -O1 -Wall -Wextra -Werror -I"$STAGE/include" "$here/../v5/tool_server.c" \
  -o "$work/bin/tool_server" -L"$STAGE/lib" -lpmix || exit 1
cp "$here/rawpeer.py" "$work/bin/"
chmod -R a+rX "$work/bin" "$work/lib"
chmod 700 "$work/root"
chmod 1777 "$work/pub"
chown "$OTHER" "$work/other"
ours=$work/lib

fail=0; npass=0; nfail=0
pass() { echo "PASS $*"; npass=$((npass + 1)); }
bad() { echo "FAIL $*"; nfail=$((nfail + 1)); fail=1; }
# check NAME CONDITION...: PASS when the command succeeds
check() { local name=$1; shift; if "$@"; then pass "$name"; else bad "$name"; fi; }
# As the other user, with its own tmpdir and our library (LIB= for the reference).
as_other() {
  setpriv --reuid="$ouid" --regid="$ogid" --clear-groups \
    env -i PATH=/usr/bin:/bin TMPDIR="$work/other" LD_LIBRARY_PATH="${LIB-$ours}" "$@"
}
as_root() { env TMPDIR="$work/root" LD_LIBRARY_PATH="${LIB-$ours}" "$@"; }
wait_for() { local i; for i in $(seq 200); do [ -s "$1" ] && return 0; sleep 0.05; done; return 1; }
refused_init() { grep -q '^init ' "$1" && ! grep -q '^init SUCCESS' "$1"; }
tcp_of() { sed 's|.*tcp4://||' <<< "$1"; }

# ---- pmixrun ------------------------------------------------------------------------------
mkfifo "$work/root/stdin"
exec 3<>"$work/root/stdin"
TMPDIR=$work/root LD_LIBRARY_PATH=$ours "$STAGE/bin/pmixrun" --report-uri "$work/root/uri" -n 2 --timeout 120 \
  "$work/bin/stool" rank 110 "$work/root/rank.txt" < "$work/root/stdin" > "$work/root/prun.out" 2>&1 &
prun=$!; started+=("$prun")
wait_for "$work/root/uri" || { bad "pmixrun: no URI"; cat "$work/root/prun.out"; exit 1; }
uri=$(head -1 "$work/root/uri")
ns="run.$prun.1"
for _ in $(seq 100); do
  [ "$(pgrep -P "$prun" -c -f 'stool rank' 2>/dev/null)" = 2 ] && \
    [ -n "$(find "$work/root" -path '*pmix-rsshm.*' -name 'job.*' 2>/dev/null)" ] && break
  sleep 0.05
done
rdv=$(find "$work/root" -name "pmix.*.tool.$prun" | head -1)
# What an attacker finds: the TCP port (/proc/net/tcp) and the abstract socket's name
# (/proc/net/unix). Copied where nobody can read them.
cp "$rdv" "$work/pub/rdv"; chmod 644 "$work/pub/rdv"
unix=$(sed -n 's/^PMIX_RS_SERVER_UNIX=//p' "$rdv")
rank1=$(pgrep -P "$prun" -f 'stool rank' | sort -n | tail -1)
echo "pmixrun $prun, job $ns, uri $uri, unix socket ${unix:-none}"

# The ds21 store (reference clients' job data and committed data; the server takes the
# mutexes of its lock file): the other user can neither enter it nor open the lock file.
ds21=$(find "$work/root" -type d -name 'pmix-rsshm.*.ds21.*' | head -1)
lockf=$(find "${ds21:-/nonexistent}" -name 'smlockseg-*' 2>/dev/null | head -1)
check "pmixrun: its ds21 store has a lock file (${lockf##*/})" test -n "$lockf"
ds21_closed() {
  ! as_other ls "$ds21" > /dev/null 2>&1 \
    && ! as_other sh -c ': < "$1"' sh "$lockf" 2> /dev/null \
    && ! as_other sh -c ': >> "$1"' sh "$lockf" 2> /dev/null
}
check "pmixrun: $OTHER can neither list its ds21 store nor open its lock file" ds21_closed
as_other "$work/bin/stool" "$uri" none > "$work/o.tcp" 2>&1
check "pmixrun: $OTHER's tool by TCP URI refused ($(head -1 "$work/o.tcp"))" refused_init "$work/o.tcp"
as_other "$work/bin/stool" "file:$work/pub/rdv" none > "$work/o.unix" 2>&1
check "pmixrun: $OTHER's tool by rendezvous file (Unix socket) refused ($(head -1 "$work/o.unix"))" \
  refused_init "$work/o.unix"
for door in "tcp $(tcp_of "$uri")" "unix $unix"; do
  set -- $door
  [ -n "${2:-}" ] || { bad "pmixrun: no $1 door to try"; continue; }
  for claim in tool-root tool-none "client $ns 0"; do
    r=$(as_other python3 "$work/bin/rawpeer.py" "$1" "$2" $claim 2>&1)
    check "pmixrun: raw $claim over $1 as $OTHER: $r" test "$r" != accepted
  done
done
as_other "$work/bin/stool" "$uri" spawn "$work/pub/marker.other" > "$work/o.spawn" 2>&1
sleep 0.5
check "pmixrun: $OTHER's spawn refused, nothing ran ($(tail -1 "$work/o.spawn"))" \
  bash -c "grep -q '^spawn ' '$work/o.spawn' && ! grep -q '^spawn SUCCESS' '$work/o.spawn' && [ ! -e '$work/pub/marker.other' ]"
as_other "$work/bin/stool" "$uri" kill "$ns" 1 > "$work/o.kill" 2>&1
sleep 0.3
check "pmixrun: $OTHER's kill of rank 1 refused, rank 1 lives ($(tail -1 "$work/o.kill"))" \
  bash -c "! grep -q '^kill SUCCESS' '$work/o.kill' && kill -0 $rank1"
as_other "$work/bin/stool" "$uri" stdin "$ns" 0 from-other > "$work/o.stdin" 2>&1
as_root "$work/bin/stool" "$uri" publish sec.root secret-of-root 0 > "$work/r.pub" 2>&1
as_other "$work/bin/stool" "$uri" lookup sec.root > "$work/o.lookup" 2>&1
check "pmixrun: $OTHER's lookup of root-only data refused ($(tail -1 "$work/o.lookup"))" \
  bash -c "! grep -q secret-of-root '$work/o.lookup'"
as_other "$work/bin/stool" "$uri" query "$ns" > "$work/o.query" 2>&1
check "pmixrun: $OTHER's query of the job refused ($(tail -1 "$work/o.query"))" \
  bash -c "grep -q '^query ' '$work/o.query' && ! grep -q '^query SUCCESS' '$work/o.query'"
segs=$(find "$work/root" -path '*pmix-rsshm.*' -type f | head -3)
if [ -z "$segs" ]; then
  bad "pmixrun: no shared-memory segment to try"
else
  for s in $segs; do
    if setpriv --reuid="$ouid" --regid="$ogid" --clear-groups cat "$s" > /dev/null 2>&1; then
      bad "pmixrun: $OTHER read segment $s"
    else
      pass "pmixrun: $OTHER cannot open segment $(basename "$s")"
    fi
  done
fi
as_other "$work/bin/pps" --uri "$uri" > "$work/o.pps" 2>&1
prc=$?
check "pmixrun: $OTHER's pps says not authorized (rc $prc)" \
  bash -c "[ $prc -ne 0 ] && grep -q 'not authorized' '$work/o.pps'"

# root's own tool: everything works.
as_root "$work/bin/stool" "$uri" none > "$work/r.none" 2>&1
check "pmixrun: root's tool served" grep -q '^init SUCCESS' "$work/r.none"
check "pmixrun: root's publish for root only" grep -q '^publish SUCCESS' "$work/r.pub"
as_root "$work/bin/stool" "$uri" lookup sec.root > "$work/r.lookup" 2>&1
check "pmixrun: root's lookup finds it" grep -q '^lookup SUCCESS secret-of-root' "$work/r.lookup"
as_root "$work/bin/stool" "$uri" query "$ns" > "$work/r.query" 2>&1
check "pmixrun: root's query lists 2 procs" grep -q '^query SUCCESS 2' "$work/r.query"
as_root "$work/bin/stool" "$uri" stdin "$ns" 0 from-root > "$work/r.stdin" 2>&1
for _ in $(seq 40); do grep -q from-root "$work/root/rank.txt" 2>/dev/null && break; sleep 0.05; done
check "pmixrun: root's stdin push reaches rank 0, $OTHER's never did" \
  bash -c "grep -q '^stdin SUCCESS' '$work/r.stdin' && grep -q from-root '$work/root/rank.txt' && ! grep -q from-other '$work/root/rank.txt'"
as_root "$work/bin/stool" "$uri" spawn "$work/pub/marker.root" > "$work/r.spawn" 2>&1
for _ in $(seq 40); do [ -s "$work/pub/marker.root" ] && break; sleep 0.05; done
check "pmixrun: root's spawn runs (as uid $(cat "$work/pub/marker.root" 2>/dev/null))" \
  bash -c "grep -q '^spawn SUCCESS' '$work/r.spawn' && [ \"\$(cat '$work/pub/marker.root')\" = 0 ]"
as_root "$work/bin/pps" --uri "$uri" > "$work/r.pps" 2>&1
check "pmixrun: root's pps lists the job" grep -q "$ns" "$work/r.pps"
as_root "$work/bin/stool" "$uri" kill "$ns" 1 > "$work/r.kill" 2>&1
for _ in $(seq 40); do kill -0 "$rank1" 2>/dev/null || break; sleep 0.05; done
check "pmixrun: root's kill of rank 1 works" bash -c "grep -q '^kill SUCCESS' '$work/r.kill' && ! kill -0 $rank1 2>/dev/null"
kill -TERM "$prun" 2>/dev/null; wait "$prun" 2>/dev/null

# ---- pmixrun in a shared TMPDIR: a session directory planted by the other user ------------
# pmixrun's session directory is TMPDIR/pmixrun.<uid>.<pid>. In a shared TMPDIR (1777) the
# other user makes that name first, as a directory of its own (mode 777) and as a link to a
# directory of its own; root's pmixrun must not use either (it used the planted directory,
# where nobody could read, replace or remove root's rendezvous files), and the job must run.
mkdir "$work/shared"; chmod 1777 "$work/shared"
planted() {  # KIND: dir or link
  local kind=$1 go=$work/shared/go.$1 pidf=$work/root/pid.$1 p target
  mkfifo "$go"; chmod 666 "$go"
  # The shell writes its pid, waits, then becomes pmixrun: the pid is known beforehand.
  TMPDIR=$work/shared LD_LIBRARY_PATH=$ours sh -c 'echo $$ > "$1"; read x < "$2"; shift 2; exec "$@"' \
    sh "$pidf" "$go" "$STAGE/bin/pmixrun" -n 1 --timeout 60 sh -c 'sleep 1.5; echo job ran' \
    > "$work/root/planted.$kind.out" 2>&1 &
  p=$!; started+=("$p")
  wait_for "$pidf" || { bad "planted $kind: no pid"; return; }
  target=$work/shared/pmixrun.0.$(cat "$pidf")
  if [ "$kind" = dir ]; then
    as_other mkdir -m 777 "$target"
  else
    as_other mkdir -m 777 "$work/shared/mine.$kind"
    as_other ln -s "$work/shared/mine.$kind" "$target"
    target=$work/shared/mine.$kind
  fi
  echo go > "$go"
  sleep 0.8
  local during; during=$(ls -A "$target" 2>/dev/null | tr '\n' ' ')
  local own; own=$(find "$work/shared" -maxdepth 1 -name "pmixrun.0.$(cat "$pidf").*" -user 0 -perm 700 | wc -l)
  wait "$p"; local rc=$?
  check "planted $kind: root's pmixrun put nothing in $OTHER's ${kind} (found: ${during:-nothing})" test -z "$during"
  check "planted $kind: root's pmixrun made a private session directory of its own instead" test "$own" = 1
  check "planted $kind: the job ran (exit $rc)" \
    bash -c "[ $rc = 0 ] && grep -q '^job ran' '$work/root/planted.$kind.out'"
}
planted dir
planted link

# The system server's rendezvous file (pmixrun --system-server) in a shared directory without
# the sticky bit (where the kernel's protected_symlinks does not apply): nobody links the
# temporary name a writer would use (pmix.sys.tmp<pid>, as ours used) to a file of root's.
# Root's file must stay as it was, and the rendezvous file must be written.
mkdir "$work/open"; chmod 777 "$work/open"
echo precious > "$work/root/victim"
mkfifo "$work/open/go"; chmod 666 "$work/open/go"
TMPDIR=$work/open PMIX_SYSTEM_TMPDIR=$work/open LD_LIBRARY_PATH=$ours \
  sh -c 'echo $$ > "$1"; read x < "$2"; shift 2; exec "$@"' sh "$work/root/pid.sys" "$work/open/go" \
  "$STAGE/bin/pmixrun" --system-server -n 1 --timeout 60 sleep 1 > "$work/root/sys.out" 2>&1 &
p=$!; started+=("$p")
if wait_for "$work/root/pid.sys"; then
  spid=$(cat "$work/root/pid.sys")
  for n in "pmix.sys.tmp$spid" "pmix.sys.$(hostname).tmp$spid"; do
    as_other ln -s "$work/root/victim" "$work/open/$n"
  done
  echo go > "$work/open/go"
  for _ in $(seq 100); do [ -e "$work/open/pmix.sys.$(hostname)" ] && break; sleep 0.05; done
  check "planted rendezvous link: root's file untouched ($(head -c 40 "$work/root/victim" | tr '\n' ' '))" \
    test "$(cat "$work/root/victim")" = precious
  check "planted rendezvous link: the system server's rendezvous file was written" \
    grep -q "^$spid\$" "$work/open/pmix.sys.$(hostname)"
  wait "$p"
else
  bad "planted rendezvous link: no pid"
fi

# ---- rendezvous files another user planted for root's tools --------------------------------
# In a shared system tmpdir (1777), nobody runs a TCP listener of its own and writes
# rendezvous files that point to it: pmix.sys.<host> (the system server), and
# pmix.<host>.tool.<pid> for a process of root's. Root's tool asking for the system server,
# or for the server of that pid, must not believe them: init fails and nothing connects to
# nobody's listener. (OpenPMIx's tools read any such file.)
mkdir "$work/sys"; chmod 1777 "$work/sys"
as_other python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1])); __import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
s.settimeout(30)
try:
    c, _ = s.accept(); open(sys.argv[2], "w").write("connected\n")
except OSError:
    pass
' "$work/other/bait.port" "$work/other/bait.hit" &
bait=$!; started+=("$bait")
sleep 30 & rootproc=$!; started+=("$rootproc")
if wait_for "$work/other/bait.port"; then
  port=$(cat "$work/other/bait.port"); h=$(hostname)
  text="bait.0;tcp4://127.0.0.1:$port
4.2.2
PID
65534:65534
$(date)
"
  as_other sh -c "printf '%s\n' \"\$1\" > \"\$2\"" sh "${text/PID/$bait}" "$work/sys/pmix.sys.$h"
  as_other sh -c "printf '%s\n' \"\$1\" > \"\$2\"" sh "${text/PID/$rootproc}" "$work/sys/pmix.$h.tool.$rootproc"
  as_root env PMIX_SYSTEM_TMPDIR="$work/sys" timeout 20 "$work/bin/stool" system none > "$work/bait.sys" 2>&1
  as_root env PMIX_SYSTEM_TMPDIR="$work/sys" timeout 20 "$work/bin/stool" "pid:$rootproc" none > "$work/bait.pid" 2>&1
  sleep 0.3
  check "planted pmix.sys: root's tool did not take $OTHER's file ($(head -1 "$work/bait.sys"))" refused_init "$work/bait.sys"
  check "planted pmix.<host>.tool.<root's pid>: root's tool did not take $OTHER's file ($(head -1 "$work/bait.pid"))" \
    refused_init "$work/bait.pid"
  check "planted rendezvous files: nothing connected to $OTHER's listener" test ! -e "$work/other/bait.hit"
else
  bad "planted rendezvous files: $OTHER's listener did not start"
fi
kill "$bait" "$rootproc" 2>/dev/null

# ---- pmixrun --allow-user -----------------------------------------------------------------
rm -f "$work/root/uri"
TMPDIR=$work/root LD_LIBRARY_PATH=$ours "$STAGE/bin/pmixrun" --persistent --allow-user "$OTHER" --report-uri "$work/root/uri" \
  > "$work/root/prun2.out" 2>&1 < /dev/null &
prun2=$!; started+=("$prun2")
wait_for "$work/root/uri" || { bad "pmixrun --allow-user: no URI"; exit 1; }
uri=$(head -1 "$work/root/uri")
as_root "$work/bin/stool" "$uri" publish sec.root secret-of-root 0 > /dev/null 2>&1
as_root "$work/bin/stool" "$uri" publish sec.open open-data > /dev/null 2>&1
as_other "$work/bin/stool" "$uri" lookup sec.open > "$work/a.open" 2>&1
check "allow: $OTHER's tool served, reads unrestricted data" \
  bash -c "grep -q '^init SUCCESS' '$work/a.open' && grep -q '^lookup SUCCESS open-data' '$work/a.open'"
as_other "$work/bin/stool" "$uri" lookup sec.root > "$work/a.root" 2>&1
check "allow: $OTHER cannot look up data published for root only ($(tail -1 "$work/a.root"))" \
  bash -c "grep -q '^lookup ' '$work/a.root' && ! grep -q secret-of-root '$work/a.root'"
as_root "$work/bin/stool" "$uri" lookup sec.root > "$work/a.rroot" 2>&1
check "allow: root can" grep -q '^lookup SUCCESS secret-of-root' "$work/a.rroot"
kill -TERM "$prun2" 2>/dev/null; wait "$prun2" 2>/dev/null

# ---- a C host on the server library -------------------------------------------------------
# host_run LIB LABEL [notools]: starts shost on library LIB (empty: the reference); sets
# hpid, huri (TCP), hunix, hlog.
host_run() {
  local lib=$1 label=$2
  hlog=$work/host.$label.log; rm -f "$work/root/hpid" "$hlog"
  rm -f "$work"/root/pmix.*.tool.* 2>/dev/null
  TMPDIR=$work/root LD_LIBRARY_PATH=$lib "$work/bin/shost" "$work/root/hpid" "$hlog" ${3:-} \
    > "$work/host.$label.out" 2>&1 &
  hpid=$!; started+=("$hpid")
  wait_for "$work/root/hpid"
  local f
  for _ in $(seq 100); do f=$(ls "$work"/root/pmix.*.tool.* 2>/dev/null | head -1); [ -n "$f" ] && break; sleep 0.05; done
  huri=$(head -1 "$f" 2>/dev/null); hunix=$(sed -n 's/^PMIX_RS_SERVER_UNIX=//p' "$f" 2>/dev/null)
  cp "$f" "$work/pub/hrdv" 2>/dev/null; chmod 644 "$work/pub/hrdv" 2>/dev/null
}
host_stop() { kill -TERM "$hpid" 2>/dev/null; wait "$hpid" 2>/dev/null; }
# one-line summary of a tool's run
said() { tr '\n' ' ' < "$1"; }

host_run "$ours" ours
as_other "$work/bin/stool" "$huri" none > "$work/h.o" 2>&1
check "host: $OTHER's tool refused ($(head -1 "$work/h.o"))" refused_init "$work/h.o"
check "host: tool_connected was given $OTHER's verified ids ($ouid/$ogid)" \
  grep -q "^tool_connected uid=$ouid gid=$ogid -> no" "$hlog"
before=$(wc -l < "$hlog")
for door in "tcp $(tcp_of "$huri")" "unix $hunix"; do
  set -- $door
  r=$(as_other python3 "$work/bin/rawpeer.py" "$1" "$2" tool-root 2>&1)
  check "host: raw tool claiming root over $1 as $OTHER: $r" test "$r" != accepted
done
check "host: no claim of uid 0 reached the host" \
  bash -c "! tail -n +$((before + 1)) '$hlog' | grep -q 'uid=0'"
as_root "$work/bin/stool" "$huri" spawn "$work/pub/marker.host" > "$work/h.spawn" 2>&1
check "host: root's spawn reaches the host as uid 0 and runs" \
  bash -c "grep -q '^spawn SUCCESS' '$work/h.spawn' && grep -q '^spawn uid=0 gid=0 -> yes' '$hlog' && [ \"\$(cat '$work/pub/marker.host')\" = 0 ]"
for act in "kill x 0" "stdin x 0 hello" "publish k v" "lookup k"; do
  set -- $act
  as_root "$work/bin/stool" "$huri" $act > /dev/null 2>&1
  up=$1; case $1 in kill) up=job_control;; stdin) up=push_stdin;; esac
  check "host: root's $1 reaches the host with uid 0" grep -q "^$up uid=0 gid=0 -> yes" "$hlog"
done
host_stop
host_run "$ours" ours-notools notools
as_root "$work/bin/stool" "$huri" none > "$work/h.n" 2>&1
check "host without tool_connected: root's tool refused too ($(head -1 "$work/h.n"))" refused_init "$work/h.n"
host_stop

# ---- a launcher tool that listens (ctests/v5/tool_server.c) -------------------------------
# Without a module it accepts the tools of its own user that bring their identity (the
# launcher it started, connecting back): root's. Not nobody's, not a raw peer claiming root.
rm -f "$work/root/luri"
as_root "$work/bin/tool_server" listen "$work/root/luri" 60 > "$work/launcher.out" 2>&1 &
lpid=$!; started+=("$lpid")
wait_for "$work/root/luri" || bad "launcher tool: no URI ($(said "$work/launcher.out"))"
luri=$(head -1 "$work/root/luri" 2>/dev/null)
as_other "$work/bin/tool_server" connect "$luri" other-tool > "$work/l.o" 2>&1
check "launcher tool: $OTHER's tool with an identity refused ($(said "$work/l.o"))" \
  grep -q '^  connect with an identity: failed' "$work/l.o"
r=$(as_other python3 "$work/bin/rawpeer.py" tcp "$(tcp_of "$luri")" tool-named-root root-claim 0 2>&1)
check "launcher tool: raw tool with an identity claiming root as $OTHER: $r" test "$r" != accepted
r=$(as_other python3 "$work/bin/rawpeer.py" tcp "$(tcp_of "$luri")" tool-root 2>&1)
check "launcher tool: raw tool asking for an id as $OTHER: $r" test "$r" != accepted
as_root "$work/bin/tool_server" connect "$luri" root-tool > "$work/l.r" 2>&1
check "launcher tool: root's tool with an identity served ($(said "$work/l.r"))" \
  grep -q '^  connect with an identity: 0, I am root-tool:5' "$work/l.r"
kill -TERM "$lpid" 2>/dev/null; wait "$lpid" 2>/dev/null

if [ "$REF" = 1 ]; then
  # The reference's tools retry a server that went away: bounded by timeout.
  alive() { kill -0 "$hpid" 2>/dev/null && echo "host up" || echo "host DIED"; }
  LIB="" host_run "" ref
  LIB="" as_other timeout 20 "$work/bin/stool" "$huri" none > "$work/hr.o" 2>&1
  sleep 0.3
  echo "REF host: $OTHER's tool: $(said "$work/hr.o"); host log: $(grep tool_connected "$hlog" | tr '\n' ' '); $(alive)"
  host_stop
  LIB="" host_run "" ref
  r=$(LIB="" as_other timeout 20 python3 "$work/bin/rawpeer.py" tcp "$(tcp_of "$huri")" tool-root 2>&1 | tail -1)
  sleep 0.3
  echo "REF host: raw tool claiming root over tcp as $OTHER: $r; host was told: $(tr '\n' ' ' < "$hlog"); $(alive)"
  host_stop
  LIB="" host_run "" ref
  LIB="" as_root timeout 20 "$work/bin/stool" "$huri" spawn "$work/pub/marker.ref" > "$work/hr.spawn" 2>&1
  echo "REF host: root's spawn: $(said "$work/hr.spawn"); host log: $(grep '^spawn' "$hlog" | tr '\n' ' ')"
  host_stop
  LIB="" host_run "" ref-notools notools
  LIB="" as_root timeout 20 "$work/bin/stool" "$huri" none > "$work/hr.n" 2>&1
  echo "REF host without tool_connected: root's tool: $(said "$work/hr.n")"
  host_stop
fi

echo "security: $npass passed, $nfail failed"
exit $fail
