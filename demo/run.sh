#!/bin/bash
# The demo: (1) demo.c, a tour of the data API, built with pkg-config against our private
# install as any PMIx program would be; (2) a job of 4 ranks (job.c) under pmixrun, server
# and clients both on our library, exchanging data through a fence, and pps (our p-tool)
# attaching to show the running job. Usage: STAGE=<install prefix> demo/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${STAGE:?STAGE must name our install (make stage)}"
out=${DEMO_OUT:-$here/../build/demo}
mkdir -p "$out"; out=$(cd "$out" && pwd)
export PKG_CONFIG_PATH="$STAGE/lib/pkgconfig"
build() {
  cc -Wall -Wextra -Werror -Wno-unused-parameter "$@" $(pkg-config --cflags --libs pmix) \
     $(pkg-config --cflags --libs hwloc) -lpthread -Wl,-rpath,"$STAGE/lib"
}
build "$here/demo.c" -o "$out/demo"
echo "demo links: $(ldd "$out/demo" | grep libpmix)"
"$out/demo"

echo
build "$here/job.c" -o "$out/job"
echo "job links: $(ldd "$out/job" | grep libpmix)"
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
export TMPDIR=$tmp
# pmixrun (our launcher, hosting our server) runs 4 ranks; rank 0 reads pmixrun's stdin,
# which is a FIFO held open here until pps has shown the job.
mkfifo "$tmp/stdin"
echo "\$ pmixrun -n 4 job"
"$STAGE/bin/pmixrun" -n 4 "$out/job" < "$tmp/stdin" > "$tmp/job.out" 2>&1 &
pid=$!
exec 3> "$tmp/stdin"
for _ in $(seq 200); do grep -q "rank 3 (pid" "$tmp/job.out" && break; sleep 0.05; done
cat "$tmp/job.out"
echo
echo "\$ pps --pid $pid     # a tool attaching to the running job through pmixrun's rendezvous file"
"$STAGE/bin/pps" --pid "$pid"
echo go >&3
exec 3>&-
status=0
wait "$pid" || status=$?
pid=
echo "pmixrun exited with status $status"
exit $status
