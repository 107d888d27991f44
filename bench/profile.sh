#!/bin/bash
# Profiles behind the notes of docs/BENCHMARKS.md (bench/notes.md). perf has software events
# only in this VM (cpu-clock sampling, sched tracepoints); valgrind counts instructions
# (callgrind) and heap (massif), strace and perf sched show the waits.
#
#   bench/profile.sh handshake   strace of the host: time our server spends per client
#                                connection reading /proc/net/tcp (PMIx_Init cost)
#   bench/profile.sh dmodex      callgrind of the host (server side of direct modex), then of the
#                                two clients (client side), N=2, 20 direct-modex rounds
#   bench/profile.sh memory      massif of one client of a 10,000-rank job (N=1), summarised by
#                                bench/massif_summary.py (peak heap by allocating frame)
#   bench/profile.sh wakeups     perf sched record of the host and one client (N=1, host on CPU 0,
#                                client on CPU 1, 300 barrier rounds), then perf sched timehist:
#                                who wakes whom and how long each woken thread waited for a CPU
#                                (needs perf; not part of "all")
#   bench/profile.sh text-order  callgrind of clients (bclient main, N=2 and 1, bclient init, the
#                                MPI hello under mpirun if there is one), then of a host: writes
#                                the functions of our library they run (the clients' first) to
#                                pmix-ffi/client-text.order, which the linker places first in
#                                .text (see pmix-ffi/build.rs); rerun it after `make stage` when
#                                the code paths of clients or hosts change
#   bench/profile.sh text-order-check   how many names of that list this build's library lacks
#                                (renamed or inlined away since the list was made), and the
#                                64 kB windows of text the listed functions span
#   bench/profile.sh text-order-strict  the same, failing when more than 5 % are missing and
#                                the compiler is the one the list was made with (make test)
#   bench/profile.sh all         handshake, dmodex and memory
#
# LIB=ref profiles the reference instead of ours. Output: build/bench/profile/ (or
# $BENCH_BUILD/profile); the summaries are printed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
: "${STAGE:=$root/build/install}"
: "${OURS_LIB:=$STAGE/lib}"
: "${REF_LIB:=$(dirname "$(realpath /usr/lib/x86_64-linux-gnu/libpmix.so.2)")}"
: "${REF_INC:=/usr/lib/x86_64-linux-gnu/pmix2/include}"
: "${BENCH_BUILD:=$root/build/bench}"
: "${LIB:=ours}"
lib=$OURS_LIB; [ "$LIB" = ref ] && lib=$REF_LIB
out="$BENCH_BUILD/profile"
bin="$BENCH_BUILD/bin"
mkdir -p "$out/tmp" "$bin"
VALGRIND=$(command -v valgrind) || { echo "valgrind not found"; exit 1; }
export TMPDIR="$out/tmp"
cc -O2 -g -Wall -Wextra -I"$REF_INC" "$here/bhost.c" -o "$bin/bhost" -L"$REF_LIB" -lpmix -lpthread || exit 1
cc -O2 -g -Wall -Wextra -I"$REF_INC" "$here/bclient.c" -o "$bin/bclient" -L"$REF_LIB" -lpmix || exit 1

run() {  # DIR [ENV=VALUE...] CMD...
  local d=$1; shift
  rm -rf "$d"; mkdir -p "$d"
  env LD_LIBRARY_PATH="$lib" BENCH_OUT="$d" "$@"
}

handshake() {
  echo "== handshake: strace -f of the host, 4 clients (TCP sockets on the machine: $(($(wc -l < /proc/net/tcp) - 1)))"
  run "$out/hs" strace -f -tt -T -e trace=openat,close,accept4 -o "$out/handshake.strace" \
    "$bin/bhost" -n 4 -t 120 -- "$bin/bclient" init
  python3 - "$out/handshake.strace" <<'EOF'
import re, sys
def t(s):
    h, m, x = s.split(':'); return int(h) * 3600 + int(m) * 60 + float(x)
opens, spans, pending = {}, [], {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) < 3:
        continue
    if '/proc/net/tcp' in line and 'openat(' in line:
        if 'unfinished' in line:
            pending[p[0]] = t(p[1])
            continue
        fd = line.rsplit('=', 1)[1].split()[0]
        opens[(p[0], fd)] = t(p[1])
        continue
    if '<... openat resumed>' in line and p[0] in pending:
        fd = line.rsplit('=', 1)[1].split()[0]
        opens[(p[0], fd)] = pending.pop(p[0])
        continue
    m = re.search(r'close\((\d+)', line)
    if m and (p[0], m.group(1)) in opens:
        spans.append(t(p[1]) - opens.pop((p[0], m.group(1))))
print(f"/proc/net/tcp read {len(spans)} times, {sum(spans) * 1e3:.1f} ms in all "
      f"({(sum(spans) / len(spans) * 1e3) if spans else 0:.1f} ms each, under strace)")
EOF
  echo "init per client (ms):" $(awk '{printf "%.1f ", $1 / 1e6}' "$out"/hs/init.* 2>/dev/null)
}

dmodex() {
  echo "== dmodex: callgrind of the host (server side), N=2, 20 rounds"
  run "$out/dm-host" BENCH_GET_ITERS=1 BENCH_WARMUP=0 BENCH_FENCE_ROUNDS=10 BENCH_DM_ROUNDS=20 \
    valgrind -q --tool=callgrind --callgrind-out-file="$out/dmodex-host.callgrind" \
    "$bin/bhost" -n 2 -t 280 -- "$bin/bclient" main
  callgrind_annotate --inclusive=yes "$out/dmodex-host.callgrind" 2>/dev/null | sed -n '/^Ir/,$p' | sed -n 3,40p | cut -c1-180
  echo "== dmodex: callgrind of the two clients, N=2, 50 rounds"
  rm -f "$out"/dmodex-client.callgrind.*
  run "$out/dm-client" BENCH_GET_ITERS=1 BENCH_WARMUP=0 BENCH_FENCE_ROUNDS=1 BENCH_DM_ROUNDS=50 \
    "$bin/bhost" -n 2 -t 280 -- "$VALGRIND" -q --tool=callgrind \
    --callgrind-out-file="$out/dmodex-client.callgrind.%p" "$bin/bclient" main
  callgrind_annotate --inclusive=yes "$(ls "$out"/dmodex-client.callgrind.* | head -1)" 2>/dev/null | sed -n '/^Ir/,$p' | sed -n 3,40p | cut -c1-180
}

memory() {
  echo "== memory: massif of one client of a 10,000-rank job"
  rm -f "$out"/memory.massif.*
  run "$out/mem" BENCH_GET_ITERS=10 BENCH_WARMUP=0 BENCH_FENCE_ROUNDS=2 BENCH_DM_ROUNDS=2 \
    "$bin/bhost" -n 1 -j 10000 -t 280 -- "$VALGRIND" -q --tool=massif \
    --massif-out-file="$out/memory.massif.%p" "$bin/bclient" main
  python3 "$here/massif_summary.py" "$(ls "$out"/memory.massif.* | head -1)"
}

wakeups() {
  echo "== wakeups: perf sched record of bhost -n 1 -- bclient main (300 fence rounds)"
  command -v perf >/dev/null || { echo "perf not found"; return 1; }
  run "$out/wk" BENCH_GET_ITERS=10 BENCH_WARMUP=0 BENCH_FENCE_ROUNDS=300 BENCH_DM_ROUNDS=1 \
    perf sched record -o "$out/wakeups.perf" -- "$bin/bhost" -n 1 -H 0 -C 1 -t 120 -- "$bin/bclient" main
  # The last rounds are barriers: per switch, the wait, the scheduling delay and the run time.
  perf sched timehist -i "$out/wakeups.perf" -w 2>/dev/null |
    grep -E 'bclient|pmix-progress|pmix-server|bhost' | tail -40
  echo "delays of the woken threads (ms): median of the 'sch delay' column"
  perf sched timehist -i "$out/wakeups.perf" 2>/dev/null |
    awk '$3 ~ /^(bclient|pmix-progress|pmix-server)/ { print $3, $5 }' | sed 's/\[.*\]//' |
    sort -k1,1 -k2,2n | awk '{ v[$1] = v[$1] " " $2; n[$1]++ }
      END { for (k in v) { split(v[k], a, " "); printf "  %-14s %s (%d switches)\n", k, a[int((n[k] + 1) / 2)], n[k] } }'
}

# Mangled names of the functions of our library that the callgrind outputs ($@) ran.
cg_functions() {
  python3 - "$@" <<'EOF'
import re, sys
ran = set()
for path in sys.argv[1:]:
    names, objs, ob = {}, {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"^(c?ob|c?fn)=(?:\((\d+)\))?\s*(.*)$", line.rstrip("\n"))
        if not m:
            continue
        kind, idx, name = m.groups()
        table = objs if kind.endswith("ob") else names
        if idx is not None:
            if name:
                table[idx] = name
            else:
                name = table.get(idx, "")
        if kind == "ob":
            ob = name
        elif kind == "fn" and ob and "libpmix" in ob:
            ran.add(re.sub(r"'\d+$", "", name))  # callgrind's recursion-depth suffix
for name in sorted(ran):
    if not name.startswith("0x"):  # PLT stubs and the like, no symbol
        print(name)
EOF
}

text_order() {
  [ "$LIB" = ours ] || { echo "text-order profiles our library only"; return 1; }
  local cg="$out/text-order" vg=("$VALGRIND" -q --tool=callgrind --demangle=no --dump-instr=no)
  rm -rf "$cg"; mkdir -p "$cg"
  echo "== text-order: callgrind of bclient main (N=2 and N=1), bclient init (N=1)"
  run "$cg/main" BENCH_GET_ITERS=200 BENCH_WARMUP=0 BENCH_FENCE_ROUNDS=10 BENCH_DM_ROUNDS=5 \
    "$bin/bhost" -n 2 -t 280 -- "${vg[@]}" --callgrind-out-file="$cg/main.%p.cg" \
    "$bin/bclient" main || return 1
  run "$cg/main1" BENCH_GET_ITERS=200 BENCH_WARMUP=0 BENCH_FENCE_ROUNDS=10 BENCH_DM_ROUNDS=5 \
    "$bin/bhost" -n 1 -t 280 -- "${vg[@]}" --callgrind-out-file="$cg/main1.%p.cg" \
    "$bin/bclient" main || return 1
  run "$cg/init" "$bin/bhost" -n 1 -r 2 -t 280 -- "${vg[@]}" --callgrind-out-file="$cg/init.%p.cg" \
    "$bin/bclient" init || return 1
  if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
    echo "== text-order: callgrind of the MPI hello, mpirun -np 2"
    mpicc -O2 -Wall "$here/hello_mpi.c" -o "$bin/hello_mpi" &&
      env LD_LIBRARY_PATH="$lib" mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_LIBRARY_PATH \
        "${vg[@]}" --callgrind-out-file="$cg/mpi.%p.cg" "$bin/hello_mpi" >/dev/null || return 1
  fi
  echo "== text-order: callgrind of the host (bhost -n 2 -j 100, clients bclient main)"
  run "$cg/host" BENCH_GET_ITERS=200 BENCH_WARMUP=0 BENCH_FENCE_ROUNDS=10 BENCH_DM_ROUNDS=5 \
    "${vg[@]}" --callgrind-out-file="$cg/host.cg" "$bin/bhost" -n 2 -j 100 -t 280 -- \
    "$bin/bclient" main || return 1
  # The clients' functions first, then the host's others: a client maps the first part only,
  # the host both, and neither maps the code only tools or the launcher run.
  # The C runtime's start-up code (crtbeginS.o) runs at every load; callgrind does not name
  # it (its symbols have no size).
  { cg_functions $(ls "$cg"/*.cg | grep -v '/host\.cg$')
    printf '%s\n' frame_dummy register_tm_clones deregister_tm_clones __do_global_dtors_aux
  } > "$cg/client.txt"
  cg_functions "$cg/host.cg" | grep -vxF -f "$cg/client.txt" > "$cg/host-only.txt"
  cat "$cg/client.txt" "$cg/host-only.txt" > "$root/pmix-ffi/client-text.order"
  rustc -V > "$root/pmix-ffi/client-text.order.rustc"
  echo "$(wc -l < "$cg/client.txt") client functions and $(wc -l < "$cg/host-only.txt") more" \
    "of the host written to pmix-ffi/client-text.order"
  text_order_check
}

text_order_check() {
  local so; so=$(realpath "$OURS_LIB/libpmix.so.2")
  nm -S "$so" | python3 -c '
import sys
order = [l.strip() for l in open(sys.argv[1]) if l.strip()]
syms = {}
for line in sys.stdin:
    p = line.split()
    if len(p) == 3:  # no size
        p = [p[0], "0", p[1], p[2]]
    if len(p) == 4 and p[2] in "tTwW":
        syms[p[3]] = (int(p[0], 16), int(p[1], 16))
missing = [n for n in order if n not in syms]
spans = [syms[n] for n in order if n in syms]
windows = {a // 65536 for s, z in spans for a in range(s, s + max(z, 1), 4096)}
print(f"{len(order)} names listed, {len(missing)} not in {sys.argv[2]}; the listed functions: "
      f"{sum(z for _, z in spans) // 1024} kB in {len(windows)} windows of 64 kB")
for n in missing[:20]:
    print("  missing:", n)
# Strict (make check-text-order): with the compiler the list was made with, a list that lost
# more than 5 % of its names is stale (a change of code, dependency or feature renamed them).
if sys.argv[3] == "strict":
    made, now = sys.argv[4].strip(), sys.argv[5].strip()
    if made != now:
        made = made or "an unrecorded compiler"
        print(f"list made with {made}, building with {now}: not checked")
    elif len(missing) * 20 > len(order):
        print("the list is stale: regenerate it with bench/profile.sh text-order after make stage")
        sys.exit(1)
' "$root/pmix-ffi/client-text.order" "$so" "${STRICT:-}" \
    "$(cat "$root/pmix-ffi/client-text.order.rustc" 2>/dev/null)" "$(rustc -V)"
}

case ${1:-all} in
  handshake) handshake ;;
  dmodex) dmodex ;;
  memory) memory ;;
  wakeups) wakeups ;;
  text-order) text_order ;;
  text-order-check) text_order_check ;;
  text-order-strict) STRICT=strict text_order_check || exit 1 ;;
  all) handshake; dmodex; memory ;;
  *) echo "usage: bench/profile.sh handshake|dmodex|memory|wakeups|text-order|text-order-check|text-order-strict|all"
     exit 2 ;;
esac
echo "profile output in $out"
