#!/bin/bash
# Two nodes in two processes: xhost.c, a PMIx host on the public server API only, runs as
# node A and as node B (one PMIx server each, joined by a Unix socket that carries fences,
# direct-modex requests and answers, events and aborts between them, as Slurm's plugin or
# PRRTE's daemons do between real nodes); each forks its half of a job of N ranks
# (xclient.c) and registers the whole job as a real RM does (maps, per-node and per-rank
# data of both nodes). Every scenario of xclient.c runs in every arrangement of the two
# libraries:
#   ref              both hosts and all ranks on the reference (the test's own check)
#   ours             both hosts and all ranks on ours
#   mixed            node A's host and ranks on the reference, node B's on ours
#   mixed-rev        node A's on ours, node B's on the reference
#   ours-refclients  both hosts on ours, every rank on the reference
# The library is chosen per process with LD_LIBRARY_PATH. Variants of the hosts (xhost.c):
#   fence-BA      the fence data concatenated in the other order (B's first): the fence_nb
#                 contract does not fix an order
#   fence-lean    the job registered as Slurm does: maps and per-rank data without
#                 PMIX_NODEID and PMIX_HOSTNAME, no per-node arrays (node data from the maps)
#   *-1by1        each local client registered just before it is forked, 0.5 s apart (a
#                 host may do so): the first ranks ask for the data of ranks not registered
#                 yet, on their own node and, by direct modex, on the other
#   die-late      the survivors enter their fence 0.5 s after the victim died, when its host
#                 has deregistered it (in "die", whichever comes first)
#
# One line per (arrangement, scenario): PASS, or FAIL with the failed checks and the hosts'
# stderr. A run passes when both hosts exit as expected (0; node B 137 in "die", whose
# victim SIGKILLs itself), every rank but the victim prints its "done" line, and no check
# fails but the known failures of the reference below, printed as REF lines (none of ours is
# known today; one would be listed the same way, with a comment):
#   KNOWN  a check that fails every time in that run: the run FAILs if none of them fails,
#          so that the list is kept true;
#   FLAKY  a check of the reference that fails in some runs only (timing); it may fail.
# Exit status: non-zero on any FAIL.
#
# Environment: OURS_LIB (our library's directory, e.g. build/install/lib; without it only
# the reference arrangement runs), N (ranks, default 4), RUN_TIMEOUT (seconds per run,
# default 60), ONLY="arr/scenario ..." (those runs only), KEEP=1 (keep the directory),
# HOST_DEBUG=1 (trace the hosts).
set -u
here=$(cd "$(dirname "$0")" && pwd)
INC=/usr/lib/x86_64-linux-gnu/pmix2/include
LINK_DIR=/usr/lib/x86_64-linux-gnu/pmix2/lib
REF_LIB=$(dirname "$(realpath /usr/lib/x86_64-linux-gnu/libpmix.so.2)")
OURS_LIB=${OURS_LIB:-}
N=${N:-4}
RUN_TIMEOUT=${RUN_TIMEOUT:-60}
ONLY=${ONLY:-}
KEEP=${KEEP:-0}
SCENARIOS=(fence fence-BA fence-lean fence-1by1 dmodex nofence nofence-1by1 subset event die
           die-late)
# variants: the client scenario and the hosts' settings (xhost.c)
variant() {
  case $1 in
    fence-BA) echo "fence XHOST_FENCE_ORDER=BA" ;;
    fence-lean) echo "fence XHOST_REGISTER=lean" ;;
    *-1by1) echo "${1%-1by1} XHOST_REGISTER=one-by-one" ;;
    die-late) echo "die XTWO_DIE_LATE=1" ;;
    *) echo "$1" ;;
  esac
}

# arrangement -> "host A lib, ranks of A lib, host B lib, ranks of B lib"
declare -A ARR=(
  [ref]="ref ref ref ref"
  [ours]="ours ours ours ours"
  [mixed]="ref ref ours ours"
  [mixed-rev]="ours ours ref ref"
  [ours-refclients]="ours ref ours ref"
)
ARR_ORDER=(ref ours mixed mixed-rev ours-refclients)
[ -n "$OURS_LIB" ] || ARR_ORDER=(ref)

# ---- known failures: "arrangement/scenario" -> extended regex of check names -------------
declare -A KNOWN=() FLAKY=()
# Reference clients (4.2.2) never answer PMIX_NODEID of a rank on another node, nor
# PMIX_NODEID of any node asked as node data by hostname (PMIX_NODE_INFO + PMIX_HOSTNAME):
# NOT_FOUND, under either server, although both nodes' PMIX_NODE_INFO_ARRAY and every rank's
# PMIX_PROC_DATA carry it. PMIX_NODEID is a node-realm key for them: PMIx_Get of it for a
# rank finds the rank's PMIX_HOSTNAME, and, the host not being its own, asks its own store
# (with PMIX_OPTIONAL, so never the server) for node data it does not hold. The same
# NOT_FOUND as under Slurm (docs/multinode.md). PMIX_HOSTNAME, PMIX_LOCAL_RANK and
# PMIX_LOCAL_PEERS by hostname are right.
# (In the lean registration, without per-node arrays and without PMIX_NODEID and
# PMIX_HOSTNAME in the per-rank data, as Slurm registers, they answer NOT_FOUND for the ranks
# of their own node too under the reference's server.)
for a in ref mixed mixed-rev ours-refclients; do
  for s in fence fence-BA fence-lean fence-1by1; do
    KNOWN[$a/$s]='^(nodeid@[0-9]+|nodeidof@node[AB])$'
  done
done
# The reference's server completes a fence without a local participant that died before
# it (its local count just drops) and contributes to the host's fence: every survivor, on
# both nodes, is told SUCCESS. (The victim is on node B.)
# And its server never answers a direct-modex request for a rank its host has deregistered
# (a dead one here): PMIx_server_dmodex_request defers a request for a rank it does not know,
# as for one not registered yet, and nothing ends the wait (OpenPMIx fixed it after 4.2.2,
# "Answer a direct modex for a proc that has terminated"); the other node's Get of the dead
# rank's key ends only with the host's timeout. In "die" the request may come before the
# deregistration, and is answered then; and the death may come after the fence's local
# count was taken, and the fence then ends with the host's timeout, as it should (seen once
# in CI, 2026-11-29): in "die" both are flaky, in "die-late" both fail every time.
for a in ref mixed-rev; do
  KNOWN[$a/die-late]='^die-(fence|get)$' FLAKY[$a/die]='^die-(fence|get)$'
done
# The reference's server, after it answered the other node's direct-modex request for one
# of its ranks, now and then gives that rank's PMIX_REMOTE data to a rank of its own node
# (seen: rank 2 getting rank 3's PMIX_REMOTE key and the reverse, about 1 run in 8).
for a in ref mixed mixed-rev; do
  for s in fence fence-BA fence-lean fence-1by1 dmodex; do
    FLAKY[$a/$s]='^scope-remote@[0-9]+$'
  done
done

# ---- build --------------------------------------------------------------------------------
work=$(mktemp -d)
pids_to_stop=()
cleanup() {
  local p
  for p in "${pids_to_stop[@]}"; do kill -KILL "$p" 2>/dev/null; done
  for f in "$work"/*/pids; do
    [ -f "$f" ] || continue
    while read -r p; do kill -KILL "$p" 2>/dev/null; done < "$f"
  done
  if [ "$KEEP" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
export TMPDIR="$work"

for prog in xhost xclient; do
  if ! cc -g -O1 -Wall -Wextra -Werror -I"$INC" "$here/$prog.c" -o "$work/$prog" \
       -L"$LINK_DIR" -lpmix -lpthread 2>"$work/$prog.cc"; then
    echo "FAIL build of $prog.c"; sed 's/^/  /' "$work/$prog.cc"; exit 1
  fi
done

libdir() { if [ "$1" = ref ]; then echo "$REF_LIB"; else echo "$OURS_LIB"; fi; }

# ---- one run --------------------------------------------------------------------------------
fail=0
# run ARRANGEMENT SCENARIO
run() {
  local arr=$1 scen=$2 client_scen settings
  local d="$work/$arr.$scen" libs
  read -r -a libs <<< "${ARR[$arr]}"
  read -r client_scen settings <<< "$(variant "$scen")"
  mkdir -p "$d/A" "$d/B"
  local start t0 pa pb rca rcb node i
  start=$EPOCHREALTIME
  for i in 0 1; do
    node=$([ $i = 0 ] && echo A || echo B)
    # shellcheck disable=SC2086 # (settings: words)
    env TMPDIR="$d/$node" LD_LIBRARY_PATH="$(libdir "${libs[$((2 * i))]}")" \
      XHOST_PIDS="$d/pids" HOST_DEBUG="${HOST_DEBUG:-0}" $settings \
      "$work/xhost" -node $node -link "$d/link" -n "$N" -t "$RUN_TIMEOUT" -- \
      /usr/bin/env LD_LIBRARY_PATH="$(libdir "${libs[$((2 * i + 1))]}")" \
      "$work/xclient" "$client_scen" > "$d/$node.out" 2> "$d/$node.err" &
    if [ $i = 0 ]; then pa=$!; else pb=$!; fi
  done
  pids_to_stop=("$pa" "$pb")
  # the watchdog: the hosts have their own (RUN_TIMEOUT); this one is for a host that hangs
  t0=$SECONDS
  while kill -0 "$pa" 2>/dev/null || kill -0 "$pb" 2>/dev/null; do
    if [ $((SECONDS - t0)) -gt $((RUN_TIMEOUT + 10)) ]; then
      echo "  (watchdog: stopping the hosts of $arr/$scen)" >> "$d/B.err"
      kill -TERM "$pa" "$pb" 2>/dev/null; sleep 1; kill -KILL "$pa" "$pb" 2>/dev/null
      break
    fi
    sleep 0.1
  done
  wait "$pa"; rca=$?
  wait "$pb"; rcb=$?
  pids_to_stop=()
  if [ -f "$d/pids" ]; then
    while read -r p; do kill -KILL "$p" 2>/dev/null; done < "$d/pids"
  fi
  local secs
  secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')

  # ---- verdict ----
  local problems=() want_rcb=0 r last=$((N - 1))
  [ "$client_scen" = die ] && want_rcb=137
  [ "$rca" = 0 ] || problems+=("host A exited with $rca, expected 0")
  [ "$rcb" = "$want_rcb" ] || problems+=("host B exited with $rcb, expected $want_rcb")
  cat "$d/A.out" "$d/B.out" > "$d/all.out"
  for ((r = 0; r < N; r++)); do
    [ "$client_scen" = die ] && [ $r = $last ] && continue
    grep -q "^done $r " "$d/all.out" || problems+=("rank $r did not finish")
  done
  local known=${KNOWN[$arr/$scen]:-} flaky=${FLAKY[$arr/$scen]:-}
  local line check kfails=() ffails=() ufails=()
  while IFS= read -r line; do
    check=$(echo "$line" | awk '{print $3}'); check=${check%:}
    if [ -n "$known" ] && [[ $check =~ $known ]]; then kfails+=("$line")
    elif [ -n "$flaky" ] && [[ $check =~ $flaky ]]; then ffails+=("$line")
    else ufails+=("$line"); fi
  done < <(grep '^FAILED' "$d/all.out")
  [ ${#ufails[@]} -eq 0 ] || problems+=("${#ufails[@]} checks failed")
  if [ -n "$known" ] && [ ${#kfails[@]} -eq 0 ]; then
    problems+=("a known failure ($known) did not fail: update KNOWN")
  fi
  if [ ${#problems[@]} -eq 0 ]; then
    printf 'PASS %s %s (%ss, %d checks)\n' "$arr" "$scen" "$secs" "$(grep -c '^ok' "$d/all.out")"
  else
    printf 'FAIL %s %s (%ss): %s\n' "$arr" "$scen" "$secs" "$(IFS=';'; echo "${problems[*]}")"
    fail=1
    for line in "${ufails[@]}"; do echo "  $line"; done
    for node in A B; do
      echo "  host $node stderr:"; tail -15 "$d/$node.err" | sed 's/^/    /'
    done
  fi
  if [ ${#kfails[@]} -gt 0 ]; then
    echo "REF $arr $scen: ${#kfails[@]} known failures, e.g. ${kfails[0]}"
  fi
  if [ ${#ffails[@]} -gt 0 ]; then
    echo "REF $arr $scen (flaky): ${ffails[*]}"
  fi
}

[ -n "$OURS_LIB" ] || echo "NOTE: no OURS_LIB: the reference arrangement only"
for arr in "${ARR_ORDER[@]}"; do
  for scen in "${SCENARIOS[@]}"; do
    if [ -n "$ONLY" ] && [[ " $ONLY " != *" $arr/$scen "* ]]; then continue; fi
    run "$arr" "$scen"
  done
done
exit $fail
