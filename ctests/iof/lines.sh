#!/bin/bash
# Output stays whole (issue 13, part 3): the staged pmixrun never cuts a line of one rank's
# output or mixes it with another rank's (lines up to 1 MiB; docs/notes/iof.md, "Whole
# lines"), and forwards output without a newline (a prompt, binary data) within its bound.
# Each check prints one PASS or FAIL line; the script exits non-zero if any failed.
#
#   lines       8 ranks x 200,000 lines "RANK I o PAD" (PAD 0-96 letters, written by awk in
#               4 KiB writes that end mid-line), plain and with --tag-output: every line of
#               pmixrun's stdout well formed (with the tag of the rank the line names), and
#               per rank, sha256 of its lines = sha256 of what the rank generated.
#   stderr      4 ranks x 50,000 lines, odd ones to stdout, even ones to stderr, pmixrun's
#               2>&1 into one pipe: well formed, and checksums per rank and channel.
#   long        4 ranks x 16 lines of 64 KiB and 200 KiB (within the limit: whole, same
#               checks); 2 ranks x one line of 2.5 MiB (past it), --tag-output: each piece a
#               tagged line of at most 1 MiB, the pieces of each rank its line, in order.
#   1024        1024 ranks (pmixrun oversubscribes without an option), each 300 lines as
#               soon as it starts; then AT_ONCE ranks (default 256; 1024 takes ~35 s more)
#               started together behind a fifo, so that all write at once on 2 cores (a rank
#               then waits for a CPU for up to ~0.9 s in the middle of a line): well formed,
#               checksums per rank.
#   prompt      a rank prints "name? " (no newline) and sleeps 3 s: it is on pmixrun's
#               stdout within 1 s of the rank's printf; the same with --tag-output.
#   binary      1,000,000 random bytes from one rank, in one go and with a 300 ms pause in
#               the middle: byte-exact (sha256).
#
# usage: STAGE=<our private install (make stage)> ctests/iof/lines.sh
set -u
export LC_ALL=C
: "${STAGE:?STAGE must name our private install (make stage)}"
P=$STAGE/bin/pmixrun
[ -x "$P" ] || { echo "FAIL: $P not found (make stage)"; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir "$W/tmp"
export TMPDIR=$W/tmp

fail=0
ms() { echo $(( $(date +%s%N) / 1000000 )); }
mark=$(ms)
# Each result with the time since the previous one.
took() { local now; now=$(ms); printf -v took '[%d.%01d s]' $(( (now - mark) / 1000 )) $(( (now - mark) % 1000 / 100 )); mark=$now; }
pass() { took; echo "PASS $* $took"; }
bad() { took; echo "FAIL $* $took"; fail=1; }

# gen.sh RANK MODE N ARG [DIR]: the lines rank RANK writes (RANK "-": the rank's
# $PMIX_RANK; "A-B": ranks A to B, each into DIR/RANK.o and DIR/RANK.e).
#   var    N lines, PAD of (i*7919 + RANK*104729) % ARG letters
#   fixed  N lines of exactly 65536 and 204800 bytes (newline included), alternately
#   both   like var, odd lines to stdout ("o"), even ones to stderr ("e")
#   long   one line of ARG bytes (newline included), then "RANK 2 o end"
cat > "$W/gen.sh" <<'EOF'
r=$1; [ "$r" = - ] && r=$PMIX_RANK
exec awk -v r="$r" -v mode="$2" -v n="$3" -v m="$4" -v d="${5:-}" '
function out(s, c) {
  if (d != "") printf "%s", s > (d "/" r "." c)
  else if (c == "e") printf "%s", s > "/dev/stderr"
  else printf "%s", s
}
function gen(r,   h, i, L) {
  if (mode == "long") { h = r " 1 o "; out(h substr(p, 1, m - length(h) - 1) "\n", "o"); out(r " 2 o end\n", "o"); return }
  for (i = 1; i <= n; i++) {
    if (mode == "fixed") { h = r " " i " o "; L = (i % 2) ? 65536 : 204800; out(h substr(p, 1, L - length(h) - 1) "\n", "o"); continue }
    if (mode == "both" && i % 2 == 0) out(r " " i " e " substr(p, 1, (i * 7919 + r * 104729) % m) "\n", "e")
    else out(r " " i " o " substr(p, 1, (i * 7919 + r * 104729) % m) "\n", "o")
  }
}
BEGIN {
  p = "abcdefghijklmnopqrstuvwxyz"; want = (mode == "var" || mode == "both" || mode == "long") ? m : 262144
  while (length(p) < want) p = p p
  split(r, rr, "-"); if (!(2 in rr)) rr[2] = rr[1]
  for (r = rr[1] + 0; r <= rr[2] + 0; r++) {
    if (d != "") { printf "" > (d "/" r ".o"); printf "" > (d "/" r ".e") }
    gen(r)
    if (d != "") { close(d "/" r ".o"); close(d "/" r ".e") }
  }
}'
EOF

# check NAME OUT NRANKS TAGGED GEN-ARGS...: every line of OUT well formed (tagged with the
# rank it names when TAGGED=1), and per rank and channel, OUT's lines in order = GEN's.
check() {
  local name=$1 out=$2 nr=$3 tagged=$4; shift 4
  local d=$W/split
  rm -rf "$d"; mkdir "$d"
  local nbad
  nbad=$(awk -v tagged="$tagged" -v d="$d" '
    function no(why) { bad++; if (bad <= 3) printf "  %s: line %d: %s\n", why, NR, substr($0, 1, 80) > "/dev/stderr" }
    {
      if (tagged) {
        # "[nspace,rank]<stdout>: ": its rank must be the one the line names (below)
        k = index($0, "]<stdout>: "); if (k == 0) k = index($0, "]<stderr>: ")
        if (k == 0 || substr($0, 1, 1) != "[") { no("no tag"); next }
        c = split(substr($0, 2, k - 2), tp, ","); tr = tp[c]
        $0 = substr($0, k + 11)
      }
      if ($0 !~ /^[0-9]+ [0-9]+ [oe] [a-z]*$/) { no("malformed"); next }
      if (tagged && $1 != tr) { no("tag of rank " tr); next }
      print > (d "/" $1 "." $3)
    }
    END { print bad + 0 }' "$out" 2>"$d/why")
  # What each rank generated, per channel; then the checksums of both sides at once.
  mkdir "$d/want"
  sh "$W/gen.sh" "0-$((nr - 1))" "$@" "$d/want"
  local r c wrong
  for r in $(seq 0 $((nr - 1))); do
    for c in o e; do [ -e "$d/$r.$c" ] || : > "$d/$r.$c"; done
  done
  (cd "$d/want" && sha256sum -- *) > "$d/want.sum"
  (cd "$d" && sha256sum -- *.[oe]) > "$d/got.sum"
  comm -3 <(sort "$d/want.sum") <(sort "$d/got.sum") | awk '{ print $NF }' | sort -u > "$d/differ"
  wrong=$(wc -l < "$d/differ")
  head -3 "$d/differ" | while read -r f; do
    echo "  rank ${f%.*} ($f): $(wc -l < "$d/$f") lines, want $(wc -l < "$d/want/$f"): checksum differs"
  done >> "$d/why"
  if [ "$nbad" = 0 ] && [ $wrong = 0 ]; then
    pass "$name: $(wc -l < "$out") lines of $nr ranks, all well formed, every rank's checksum right"
  else
    bad "$name: $nbad malformed line(s), $wrong rank stream(s) with a wrong checksum"
    cat "$d/why"
  fi
  rm -rf "$d"
}

run() { "$P" --timeout 120 "$@"; }

# ---- lines -------------------------------------------------------------------------------
for tag in "" --tag-output; do
  run -n 8 $tag sh "$W/gen.sh" - var 200000 97 > "$W/out" 2>"$W/err" ||
    bad "lines ${tag:-plain}: pmixrun failed ($(head -3 "$W/err"))"
  check "lines ${tag:-plain}" "$W/out" 8 "$([ -n "$tag" ] && echo 1 || echo 0)" var 200000 97
done

# ---- stderr into the same pipe -----------------------------------------------------------
run -n 4 sh "$W/gen.sh" - both 50000 97 2>&1 | cat > "$W/out"
check "stderr 2>&1" "$W/out" 4 0 both 50000 97

# ---- long lines --------------------------------------------------------------------------
run -n 4 sh "$W/gen.sh" - fixed 16 0 > "$W/out" 2>"$W/err"
check "long 64 KiB and 200 KiB" "$W/out" 4 0 fixed 16 0

run -n 2 --tag-output sh "$W/gen.sh" - long 1 2621440 > "$W/out" 2>"$W/err"
d=$W/long; mkdir "$d"
read -r nbad big pieces < <(awk -v d="$d" '
  { if (!match($0, /^\[[^],]+,[0-9]+\]<stdout>: /)) { bad++; next }
    r = substr($0, 1, RLENGTH); sub(/^\[[^,]*,/, "", r); sub(/\].*/, "", r)
    body = substr($0, RLENGTH + 1); if (length(body) > 1048576) big++
    n++; printf "%s", body > (d "/" r) }
  END { print bad + 0, big + 0, n + 0 }' "$W/out")
wrong=0
for r in 0 1; do
  [ "$(sh "$W/gen.sh" $r long 1 2621440 | tr -d '\n' | sha256sum)" = "$(sha256sum < "$d/$r")" ] || wrong=$((wrong + 1))
done
if [ "$nbad" = 0 ] && [ "$big" = 0 ] && [ $wrong = 0 ] && [ "$pieces" -ge 8 ]; then
  pass "long 2.5 MiB, tagged: $pieces tagged lines, none over 1 MiB, each rank's line complete and in order"
else
  bad "long 2.5 MiB, tagged: $nbad untagged, $big over 1 MiB, $pieces lines, $wrong rank(s) wrong"
fi

# ---- 1024 ranks, and ranks writing at once -------------------------------------------------
t0=$(ms)
run -n 1024 sh "$W/gen.sh" - var 300 97 > "$W/out" 2>"$W/err" ||
  bad "1024 ranks: pmixrun failed ($(head -3 "$W/err"))"
check "1024 ranks ($(( $(ms) - t0 )) ms)" "$W/out" 1024 0 var 300 97

# AT_ONCE ranks wait behind a fifo until all have started, then write together. Not 1024 by
# default: pmixrun needs ~35 s to start 1024 processes that stay alive (each fork copies its
# address space, which grows with its two reader threads per process), ~4 s for 256.
n=${AT_ONCE:-256}
mkdir "$W/ready"; mkfifo "$W/go"
t0=$(ms)
run -n "$n" sh -c ': > "$1/ready/$PMIX_RANK"; cat "$1/go" > /dev/null; exec sh "$1/gen.sh" "$PMIX_RANK" var 300 97' \
  sh "$W" > "$W/out" 2>"$W/err" &
prun=$!
up=0
for _ in $(seq 1200); do
  up=$(ls "$W/ready" | wc -l); [ "$up" -ge "$n" ] && break
  kill -0 $prun 2>/dev/null || break
  sleep 0.1
done
if [ "$up" -ge "$n" ]; then
  t1=$(ms)
  timeout 10 sh -c ': > "$1"' sh "$W/go"
  wait $prun
  check "$n ranks at once (started in $(( t1 - t0 )) ms, wrote in $(( $(ms) - t1 )) ms)" "$W/out" "$n" 0 var 300 97
else
  bad "$n ranks at once: only $up started ($(head -3 "$W/err"))"
  kill $prun 2>/dev/null; wait $prun
fi

# ---- a prompt without newline ------------------------------------------------------------
# Both variants at once, each in a directory of its own. The rank notes the time of its
# printf ($EPOCHREALTIME, in µs) in t0 after it; the loop here notes when stdout shows it.
for v in plain tag; do
  d=$W/prompt.$v; mkdir "$d"; : > "$d/out"
  run -n 1 $([ $v = tag ] && echo --tag-output) bash -c \
    't=$EPOCHREALTIME; printf "name? "; echo "${t/./}" > "$1/t0"; sleep 3; echo Bob' bash "$d" \
    > "$d/out" 2>"$d/err" &
  echo $! > "$d/pid"
done
declare -A seen=()
end=$(( $(ms) + 4000 ))
while [ ${#seen[@]} -lt 2 ] && [ "$(ms)" -lt $end ]; do
  for v in plain tag; do
    [ -n "${seen[$v]:-}" ] && continue
    IFS= read -r -d '' x < "$W/prompt.$v/out"
    [[ $x == *"name? "* ]] && seen[$v]=${EPOCHREALTIME/./}
  done
  sleep 0.01
done
for v in plain tag; do
  d=$W/prompt.$v
  wait "$(cat "$d/pid")"
  if [ -z "${seen[$v]:-}" ] || [ ! -s "$d/t0" ]; then
    bad "prompt $v: not on stdout within 4 s ($(head -c 200 "$d/out"))"
    continue
  fi
  late=$(( (seen[$v] - $(cat "$d/t0")) / 1000 ))
  if [ $v = tag ]; then
    want=$(printf '[%s]<stdout>: name? \n[%s]<stdout>: Bob' x x)
    got=$(sed 's/^\[[^]]*\]/[x]/' "$d/out")
  else
    want="name? Bob"; got=$(cat "$d/out")
  fi
  if [ "$late" -le 1000 ] && [ "$got" = "$want" ]; then
    pass "prompt $v: on stdout $late ms after the rank's printf, then the rest: $(printf %q "$got")"
  else
    bad "prompt $v: on stdout $late ms after the rank's printf; output $(printf %q "$got")"
  fi
done

# ---- binary ------------------------------------------------------------------------------
head -c 1000000 /dev/urandom > "$W/bin"
want=$(sha256sum < "$W/bin")
run -n 1 cat "$W/bin" > "$W/out"
got=$(sha256sum < "$W/out")
run -n 1 sh -c 'head -c 300000 "$1"; sleep 0.3; tail -c +300001 "$1"' sh "$W/bin" > "$W/out2"
got2=$(sha256sum < "$W/out2")
if [ "$got" = "$want" ] && [ "$got2" = "$want" ]; then
  pass "binary: 1,000,000 random bytes byte-exact, in one go and with a pause"
else
  bad "binary: $(wc -c < "$W/out") and $(wc -c < "$W/out2") bytes, checksum differs"
fi

exit $fail
