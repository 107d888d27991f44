# Sourced by ctests/session/run.sh and ctests/tools/run.sh.
# status_sed FROM_LIB DIR: builds status_names.c in DIR and writes DIR/status.sed, the sed
# script that rewrites FROM_LIB's PMIx_Error_string texts as the reference 4.2.2 (the system
# libpmix.so.2) writes them; on failure says why and returns 1.
status_sed() {
  local from=$1 dir=$2 src ref
  src=$(dirname "${BASH_SOURCE[0]}")/status_names.c
  ref=$(/sbin/ldconfig -p | awk '$1 == "libpmix.so.2" && /x86-64/ {print $NF; exit}')
  if ! cc -Wall -Wextra -Werror "$src" -o "$dir/status_names" -ldl 2>"$dir/status_names.cc" \
     || ! "$dir/status_names" "$from" "$ref" >"$dir/status.sed"; then
    echo "FAIL status names of $from"; cat "$dir/status_names.cc"; return 1
  fi
}
