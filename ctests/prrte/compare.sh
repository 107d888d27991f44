# Sourced by run.sh and multinode.sh: how a check's two runs (the reference's and ours,
# files $work/CHECK.{ref,ours}.{out,rc,masked}) are compared and reported. The caller keeps
# the list of what is wrong in the array `problems`.

# compare CHECK: the exit statuses (sets rref and rours) and the masked outputs; a check
# named exit-status must fail on the reference.
compare() {
  local c=$1
  rref=$(cat "$work/$c.ref.rc") rours=$(cat "$work/$c.ours.rc")
  [ "$rref" = "$rours" ] || problems+=("exit status $rours, the reference's $rref")
  cmp -s "$work/$c.ref.masked" "$work/$c.ours.masked" || problems+=("output differs")
  [ "$c" = exit-status ] && [ "$rref" = 0 ] && problems+=("the reference run exited 0")
}

# report_fail LABEL CHECK LINES: the FAIL line, the first LINES lines of both outputs and the
# start of their masked difference
report_fail() {
  local label=$1 c=$2 lines=$3
  echo "FAIL $label: $(IFS=';'; echo "${problems[*]}")"
  echo "  --- reference (exit $rref)"; head -"$lines" "$work/$c.ref.out" | sed 's/^/  /'
  echo "  --- ours (exit $rours)"; head -"$lines" "$work/$c.ours.out" | sed 's/^/  /'
  diff "$work/$c.ref.masked" "$work/$c.ours.masked" | head -20 | sed 's/^/  /'
}

# helplog_texts_once OUT: ctests/prrte/helplog.c's texts as ours must write them with 4
# ranks: the folded one once, each rank's unfolded one once
helplog_texts_once() {
  local k
  [ "$(grep -c '^help text from rank' "$1")" = 1 ] || problems+=("ours did not write the folded text once")
  for k in 0 1 2 3; do
    [ "$(grep -c "^unfolded text from rank $k\$" "$1")" = 1 ] || problems+=("ours did not write rank $k's unfolded text once")
  done
}

# undouble_unfolded MASKED: one of each pair of equal unfolded texts in a sorted output
# (OpenPMIx 5.0.11 writes an unfolded log twice when PRRTE hands it back to prterun)
undouble_unfolded() {
  awk '!/^unfolded text/ || $0 != prev { print } { prev = $0 }' "$1" > "$1.u" && mv "$1.u" "$1"
}
