# Sourced by the multi-rank scene tests (mpi_scenes_test.sh,
# mpi_examples_test.sh) after mpi_common.sh; needs $tlfea, $work, $TOL and
# $fail (set to 1 on a failure).
# compare A B LABEL [exact]: A/history.csv against B/history.csv
# (compare_history.py: per column, relative to the column's scale).
compare() {
  python3 "$(dirname "${BASH_SOURCE[0]}")/compare_history.py" "$1/history.csv" "$2/history.csv" \
    "$3" "$TOL" "${4:-}" || fail=1
}
# run N LABEL ARGS...: tlfea run on N ranks with dist-cg (or $solver) into
# $work/LABEL.N
run() {
  local n=$1 label=$2
  shift 2
  mpi "$n" "$tlfea" run "$@" --set solver.linear_solver=${solver:-dist-cg} --output "$work/$label.$n" \
    > /dev/null 2> "$work/$label.$n.log" ||
    { echo "FAIL: $label on $n ranks: $(tail -5 "$work/$label.$n.log")" >&2; fail=1; return 1; }
}
# scene LABEL ARGS...: 1, 2 and 3 ranks (1 and 2 with ranks="1 2"), each
# compared with 1
scene() {
  local label=$1
  shift
  local ok=1 n
  for n in ${ranks:-1 2 3}; do run "$n" "$label" "$@" || ok=0; done
  [ $ok -eq 1 ] || return
  grep -q "^MPI: 2 ranks" "$work/$label.2.log" || { echo "FAIL: $label: no MPI line on 2 ranks" >&2; fail=1; }
  for n in ${ranks:-1 2 3}; do
    [ "$n" = 1 ] || compare "$work/$label.1" "$work/$label.$n" "$label, $n vs 1 rank"
  done
}
