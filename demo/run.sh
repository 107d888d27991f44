#!/bin/bash
# Builds demo.c against our private install with pkg-config, as any PMIx program would be
# built, shows that it links our library, and runs it. Usage: STAGE=<install prefix> demo/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${STAGE:?STAGE must name our install (make stage)}"
out=${DEMO_OUT:-$here/../build/demo}
mkdir -p "$out"
export PKG_CONFIG_PATH="$STAGE/lib/pkgconfig"
cc -Wall -Wextra -Werror "$here/demo.c" -o "$out/demo" $(pkg-config --cflags --libs pmix) \
   $(pkg-config --cflags --libs hwloc) -Wl,-rpath,"$STAGE/lib"
echo "demo links: $(ldd "$out/demo" | grep libpmix)"
"$out/demo"
