#!/bin/bash
# The soak of issue 13 (item 4): one persistent pmixrun serving 10,000 jobs one after the other;
# its memory and descriptors must stay flat and every job's output must arrive whole.
#
#   bench/soak.sh                                  (make soak) 10,000 jobs, 20 batches of 500
#   SOAK_JOBS=2000 SOAK_BATCH=200 bench/soak.sh    a shorter pass
#
# What it does: starts `pmixrun --persistent` (ours, $STAGE/bin/pmixrun) in a private TMPDIR;
# per batch, one tool (`dbgtool jobs K soakapp DIR`, pmixrun/tests/c/dbgtool.c: PMIx_tool_init,
# then K times PMIx_Spawn of one process and a wait for its PMIX_EVENT_JOB_END, which must say
# success) spawns K jobs of bench/soakapp.c (PMIx_Init, Fence, one line "soakapp NSPACE:0 of 1
# done", Finalize). After each batch it counts those lines in pmixrun's stdout (every job's
# line, each namespace once), and samples pmixrun's VmRSS, RssAnon, RssFile, RssShmem, threads
# (/proc/PID/status), the Rss of its [heap] mapping (/proc/PID/smaps), its open descriptors
# (/proc/PID/fd, read until two reads 0.2 s apart agree) and the files and directories in its
# TMPDIR (session directory, rendezvous files). The programs are built against our installed
# headers and run on our library ($STAGE/lib).
#
# Verdict (exit 0 when every check passes, 1 otherwise):
#   - every batch's tool succeeded and every job's line arrived, each namespace once;
#   - descriptors flat: the same count after every batch past the warm-up; the same for the
#     entries in pmixrun's TMPDIR (a job's directories go when the job does);
#   - RSS growth, the least-squares slope of VmRSS against jobs over the batches past the
#     warm-up, below SOAK_BOUND kB per job. The bound, 0.05 kB (51 bytes) per job, is 9,000
#     jobs x 0.05 = 450 kB over the fitted part of a default run: well above the page-granular
#     noise of RSS and of malloc's arenas (tens of kB between samples), well below a leak of a
#     record per job (the 0.27 kB per job measured before this soak existed is 5x the bound);
#   - pmixrun alive to the end, and stopped by SIGTERM (exit status 0 or 143).
# At the end pmixrun is stopped by its pid, and any process left with this run's TMPDIR in its
# environment is killed by pid.
#
# Environment [defaults]:
#   STAGE            our install: bin/pmixrun, lib/libpmix.so.2, include/ [build/install]
#   SOAK_JOBS        jobs in all [10000]
#   SOAK_BATCH       jobs per batch (one tool each) [500]
#   SOAK_WARMUP      batches left out of the fit and of the descriptor check [2]
#   SOAK_BOUND       RSS growth bound, kB per job [0.05]
#   SOAK_BUILD       where the programs and the results go [build/soak]
#   SOAK_REPORT      a markdown file the results are written to (none: stdout only) []
#   SOAK_BATCH_TIMEOUT  seconds one batch may take before it is killed and reported [600]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
: "${STAGE:=$root/build/install}"
: "${SOAK_JOBS:=10000}"
: "${SOAK_BATCH:=500}"
: "${SOAK_WARMUP:=2}"
: "${SOAK_BOUND:=0.05}"
: "${SOAK_BUILD:=$root/build/soak}"
: "${SOAK_REPORT:=}"
: "${SOAK_BATCH_TIMEOUT:=600}"

die() { echo "soak: $*" >&2; exit 1; }
[ -x "$STAGE/bin/pmixrun" ] || die "$STAGE/bin/pmixrun not found (make stage, or set STAGE)"
[ -e "$STAGE/lib/libpmix.so.2" ] || die "$STAGE/lib/libpmix.so.2 not found (make stage)"
nbatch=$(( (SOAK_JOBS + SOAK_BATCH - 1) / SOAK_BATCH ))
[ "$nbatch" -gt $((SOAK_WARMUP + 1)) ] || die "need at least SOAK_WARMUP + 2 batches ($nbatch)"

bin="$SOAK_BUILD/bin"
mkdir -p "$bin"
cc -O2 -Wall -Wextra -Werror -I"$STAGE/include" "$root/pmixrun/tests/c/dbgtool.c" -o "$bin/dbgtool" \
  -L"$STAGE/lib" -lpmix -lpthread || die "dbgtool.c does not build"
cc -O2 -Wall -Wextra -Werror -I"$STAGE/include" "$here/soakapp.c" -o "$bin/soakapp" \
  -L"$STAGE/lib" -lpmix || die "soakapp.c does not build"

work=$(mktemp -d "$SOAK_BUILD/run-$(date -u +%Y%m%dT%H%M%SZ).XXXXXX")
tmp="$work/tmp"
mkdir -p "$tmp"
runenv=(env "TMPDIR=$tmp" "LD_LIBRARY_PATH=$STAGE/lib")

pid=
stop_pmixrun() {
  local i
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null
  for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && { echo "soak: pmixrun $pid still up 10 s after SIGTERM: SIGKILL" >&2; kill -KILL "$pid"; }
  wait "$pid"
  stop_rc=$?
  pid=
}
# processes of this run left behind: those with its private TMPDIR in their environment
kill_leftovers() {
  local p n=0
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" = $$ ] && continue
    if tr '\0' '\n' 2>/dev/null < "/proc/$p/environ" | grep -qxF "TMPDIR=$tmp"; then
      echo "soak: killing leftover process $p ($(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null))" >&2
      kill -KILL "$p" 2>/dev/null
      n=$((n + 1))
    fi
  done
  leftovers=$n
}
stop_rc=
leftovers=0
trap 'stop_pmixrun; kill_leftovers' EXIT

"${runenv[@]}" "$STAGE/bin/pmixrun" --persistent --report-uri "$work/uri" \
  > "$work/pmixrun.out" 2> "$work/pmixrun.err" &
pid=$!
server_pid=$pid
for i in $(seq 1 300); do [ -s "$work/uri" ] && break; sleep 0.1; done
[ -s "$work/uri" ] || die "pmixrun (pid $pid) wrote no URI within 30 s: $(tail -3 "$work/pmixrun.err")"

status_kb() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status"; }
heap_kb() { awk '/\[heap\]$/ { h = 1; next } h && $1 == "Rss:" { print $2; exit }' "/proc/$pid/smaps"; }
fds() {
  local a b i
  a=$(ls "/proc/$pid/fd" | wc -l)
  for i in $(seq 1 10); do
    sleep 0.2
    b=$(ls "/proc/$pid/fd" | wc -l)
    [ "$a" = "$b" ] && break
    a=$b
  done
  echo "$a"
}
tmp_entries() { find "$tmp" -mindepth 1 | wc -l; }
lines() { grep -c '^soakapp run\.[0-9]*\.[0-9]*:0 of 1 done$' "$work/pmixrun.out"; }

echo "soak: pmixrun $pid ($STAGE/bin/pmixrun), $SOAK_JOBS jobs in $nbatch batches of $SOAK_BATCH; results in $work"
samples="$work/samples.tsv"
printf 'batch\tjobs\tseconds\tvmrss_kb\trss_anon_kb\trss_file_kb\trss_shmem_kb\theap_kb\tthreads\tfds\tlines\ttmp_entries\n' > "$samples"
printf 'before\t0\t0\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t0\t%s\n' "$(status_kb VmRSS)" "$(status_kb RssAnon)" \
  "$(status_kb RssFile)" "$(status_kb RssShmem)" "$(heap_kb)" "$(status_kb Threads)" "$(fds)" \
  "$(tmp_entries)" >> "$samples"
failures=()
done_jobs=0
start=$EPOCHREALTIME
for b in $(seq 1 "$nbatch"); do
  k=$SOAK_BATCH
  [ $((done_jobs + k)) -le "$SOAK_JOBS" ] || k=$((SOAK_JOBS - done_jobs))
  t0=$EPOCHREALTIME
  (cd "$work" && timeout -k 5 "$SOAK_BATCH_TIMEOUT" "${runenv[@]}" "$bin/dbgtool" jobs "$k" \
    "$bin/soakapp" "$work" > "$work/tool.$b.out" 2> "$work/tool.$b.err")
  rc=$?
  secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  if [ $rc != 0 ] || ! grep -qx "dbgtool: $k jobs ran" "$work/tool.$b.out"; then
    failures+=("batch $b: the tool exited $rc: $(grep -h FAIL "$work/tool.$b.err" "$work/tool.$b.out" | head -2 | tr '\n' ' ')")
  fi
  done_jobs=$((done_jobs + k))
  kill -0 "$pid" 2>/dev/null || { failures+=("pmixrun died during batch $b"); pid=; break; }
  # the last job's line may trail its end event: wait for it a little
  for i in $(seq 1 50); do [ "$(lines)" -ge "$done_jobs" ] && break; sleep 0.1; done
  n=$(lines)
  [ "$n" = "$done_jobs" ] || failures+=("after batch $b: $n lines in pmixrun's output for $done_jobs jobs")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$b" "$done_jobs" "$secs" "$(status_kb VmRSS)" \
    "$(status_kb RssAnon)" "$(status_kb RssFile)" "$(status_kb RssShmem)" "$(heap_kb)" \
    "$(status_kb Threads)" "$(fds)" "$n" "$(tmp_entries)" >> "$samples"
  tail -1 "$samples" | awk -F'\t' '{ printf "  batch %3s: %6s jobs in %5s s; VmRSS %6s kB (anon %s, heap %s, shmem %s), %s threads, %s fds, %s lines, %s entries in TMPDIR\n", $1, $2, $3, $4, $5, $8, $7, $9, $10, $11, $12 }'
done
elapsed=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
distinct=$(sed -n 's/^soakapp \(run\.[0-9]*\.[0-9]*\):0 of 1 done$/\1/p' "$work/pmixrun.out" | sort -u | wc -l)
[ "$distinct" = "$done_jobs" ] || failures+=("$distinct distinct namespaces in the output for $done_jobs jobs")
errlines=$(wc -l < "$work/pmixrun.err")
alive=1
[ -n "$pid" ] || alive=0
stop_pmixrun
kill_leftovers
trap - EXIT
case $stop_rc in 0|143) ;; *) failures+=("pmixrun exited $stop_rc after SIGTERM") ;; esac
[ "$leftovers" = 0 ] || failures+=("$leftovers processes left behind")
left=$(find "$tmp" -mindepth 1 | head -3)
[ -z "$left" ] || failures+=("left in its TMPDIR: $left")

# fit and checks over the batches past the warm-up
fit=$(awk -F'\t' -v w="$SOAK_WARMUP" 'NR > 2 && $1 > w {
    n++; x = $2; y = $4; sx += x; sy += y; sxx += x * x; sxy += x * y
    if (n == 1) { f0 = $10; r0 = $4; j0 = $2; h0 = $8; s0 = $7; t0 = $12 } else if ($10 != f0) notflat = 1
    r1 = $4; j1 = $2; h1 = $8; s1 = $7; t1 = $12
  }
  END {
    d = n * sxx - sx * sx
    printf "%.4f %s %d %d %d %d %d %d %d %d %d %d\n", d ? (n * sxy - sx * sy) / d : 0, notflat ? "no" : "yes",
      n, j0, j1, r0, r1, h1 - h0, s1 - s0, f0, t0, t1
  }' "$samples")
read -r slope fdflat nfit j0 j1 r0 r1 heapgrow shmgrow fd0 tmp0 tmp1 <<< "$fit"
tmpflat=yes
[ "$tmp0" = "$tmp1" ] || { tmpflat=no; failures+=("entries in pmixrun's TMPDIR past the warm-up: $tmp0 → $tmp1 ($(awk -v a="$tmp0" -v b="$tmp1" -v j=$((j1 - j0)) 'BEGIN { printf "%.2f", (b - a) / j }') per job)"); }
[ "$fdflat" = yes ] || failures+=("descriptors not flat after the warm-up: $(awk -F'\t' 'NR > 1 { printf "%s ", $10 }' "$samples")")
slope_ok=$(awk -v s="$slope" -v b="$SOAK_BOUND" 'BEGIN { print (s < b) ? "yes" : "no" }')
[ "$slope_ok" = yes ] || failures+=("RSS grows by $slope kB per job past the warm-up (bound $SOAK_BOUND)")
verdict=PASS
[ ${#failures[@]} = 0 ] || verdict=FAIL

report() {
  echo "Soak of $(date -u '+%Y-%m-%d %H:%M UTC'), checkout $(git -C "$root" describe --always --dirty 2>/dev/null):"
  echo "$done_jobs jobs in $nbatch batches of $SOAK_BATCH into one \`pmixrun --persistent\` (pid $server_pid), $elapsed s;"
  echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg). Results: \`$work\`."
  echo
  echo "| batch | jobs | s | VmRSS kB | RssAnon kB | RssFile kB | RssShmem kB | [heap] Rss kB | threads | fds | lines | TMPDIR entries |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }' "$samples"
  echo
  echo "- RSS growth past the warm-up ($SOAK_WARMUP batches; $nfit batches, jobs $j0 to $j1): least-squares slope"
  echo "  **$slope kB per job** (VmRSS $r0 → $r1 kB; [heap] Rss $heapgrow kB, RssShmem $shmgrow kB over the"
  echo "  same batches); bound $SOAK_BOUND kB per job: $([ "$slope_ok" = yes ] && echo met || echo '**not met**')."
  echo "- Descriptors flat past the warm-up: $fdflat ($fd0 open). Entries in pmixrun's TMPDIR flat: $tmpflat"
  echo "  ($tmp0 → $tmp1 over the same batches)."
  echo "- Output: $(lines 2>/dev/null || echo '?') job lines counted for $done_jobs jobs, $distinct distinct namespaces;"
  echo "  pmixrun's stderr $errlines lines; pmixrun alive to the end: $([ $alive = 1 ] && echo yes || echo no); exit after SIGTERM $stop_rc;"
  echo "  processes left behind $leftovers."
  echo "- Verdict: **$verdict**$([ ${#failures[@]} = 0 ] || printf '; %s' "${failures[@]}")"
}
report | tee "$work/report.md"
[ -z "$SOAK_REPORT" ] || cp "$work/report.md" "$SOAK_REPORT"
[ $verdict = PASS ]
