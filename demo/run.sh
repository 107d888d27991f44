#!/bin/bash
# The demo: (1) demo.c, a tour of the data API, built with pkg-config against our private
# install as any PMIx program would be; (2) a job of 4 ranks (job.c) under a PMIx host
# (ctests/session/host.c, written on the server API only), server and clients both on our
# library, exchanging data through a fence. Usage: STAGE=<install prefix> demo/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${STAGE:?STAGE must name our install (make stage)}"
out=${DEMO_OUT:-$here/../build/demo}
mkdir -p "$out"
export PKG_CONFIG_PATH="$STAGE/lib/pkgconfig"
build() {
  cc -Wall -Wextra -Werror -Wno-unused-parameter "$@" $(pkg-config --cflags --libs pmix) \
     $(pkg-config --cflags --libs hwloc) -lpthread -Wl,-rpath,"$STAGE/lib"
}
build "$here/demo.c" -o "$out/demo"
echo "demo links: $(ldd "$out/demo" | grep libpmix)"
"$out/demo"

echo
build "$here/../ctests/session/host.c" -o "$out/host"
build "$here/job.c" -o "$out/job"
echo "host links: $(ldd "$out/host" | grep libpmix)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
TMPDIR=$tmp "$out/host" -n 4 -- "$out/job"
