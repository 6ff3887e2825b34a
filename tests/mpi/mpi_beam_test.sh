#!/usr/bin/env bash
# The distributed TimeStepper against the one-rank run
# (docs/guide/mpi.md): tlfea_test_mpi_beam on 1, 2 and 3 ranks with the
# dist-cg backend, for the plain cantilever and the one with a spherical
# joint; the z displacement histories of the probe node must agree with the
# 1-rank run to TOL relative to the largest displacement of that run, and
# the 1-rank dist-cg run with the direct tacho run likewise. The same for
# dist-cg with the muelu preconditioner (algebraic multigrid on the
# rigid-body modes, coarse levels gathered onto one rank) on 1, 2 and 3
# ranks against the 1-rank dist-cg (ILU) run. And the element partition:
# METIS and contiguous ranges of a scrambled element numbering (below).
#
# TOL: the runs differ only through their linear solves (the block-Jacobi
# ILU preconditioner changes with the rank count, as do muelu's aggregates
# and hybrid Gauss-Seidel smoother, so the Krylov iterates differ; tacho is
# direct) and the order of the sums over elements
# (round-off, 1e-16). Each solve meets the relative residual 1e-10
# (LinearSolverOptions::tolerance), so a Newton correction dv is off by at
# most cond(J) * 1e-10 relative, with cond(J) of the mass-dominated J = M/h
# + h K (h = 2e-3 s) taken as <= 1e2; the Newton iteration removes the
# error of all but its last correction, so the converged states agree to
# TOL = 1e-8 relative (measured: ~1e-13 for ILU and muelu alike, the Newton
# updates at convergence being far below the stopping test).
#   mpi_beam_test.sh EXE
# Exit 77 (skipped) where mpirun cannot start processes.
set -u
exe=$1
TOL=${TOL:-1e-8}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/mpi_common.sh"  # mpi N CMD..., and the probe
fail=0
# max over steps |b - a| / max |a| (column 3: the displacement)
compare() {
  awk 'NR == FNR { a[$1] = $3; m = ($3 < 0 ? -$3 : $3) > m ? ($3 < 0 ? -$3 : $3) : m; next }
       { d = $3 - a[$1]; d = d < 0 ? -d : d; if (d > w) w = d; n++ }
       END { if (n != 8 || m == 0) print "bad"; else printf "%.3e\n", w / m }' "$1" "$2"
}
for case in plain joint; do
  "$exe" "$case" tacho "$work/$case.direct" > /dev/null || { echo "FAIL: $case with tacho" >&2; exit 1; }
  for n in 1 2 3; do
    mpi "$n" "$exe" "$case" dist-cg "$work/$case.$n" > "$work/$case.$n.log" 2>&1 ||
      { echo "FAIL: $case on $n ranks: $(tail -5 "$work/$case.$n.log")" >&2; fail=1; continue; }
    mpi "$n" "$exe" "$case" dist-cg "$work/$case.muelu$n" muelu > "$work/$case.muelu$n.log" 2>&1 ||
      { echo "FAIL: $case with muelu on $n ranks: $(tail -5 "$work/$case.muelu$n.log")" >&2; fail=1; continue; }
    echo "$n ranks: $(tail -1 "$work/$case.muelu$n.log")"
  done
  [ $fail -eq 0 ] || continue
  for other in direct 2 3 muelu1 muelu2 muelu3; do
    r=$(compare "$work/$case.1" "$work/$case.$other")
    echo "$case: $other vs 1 rank (dist-cg): max relative difference $r (tolerance $TOL)"
    if [ "$r" = bad ] || awk -v r="$r" -v t="$TOL" 'BEGIN { exit !(r > t) }'; then
      echo "FAIL: $case: $other differs from the 1-rank run" >&2
      paste "$work/$case.1" "$work/$case.$other" >&2
      fail=1
    fi
  done
  echo "$case, 1 rank: $(tail -1 "$work/$case.1")"
done
# The element partition (StepperSettings::partition): the cantilever with
# its elements numbered in a scrambled order, split on 2 and 3 ranks by
# METIS (the executable fails when more rows than slab cuts give are shared)
# and by contiguous ranges, against the plain 1-rank run (the same physics:
# only the order of the sums over elements differs). METIS is the default
# where built; without it only the ranges run.
parts="range"
if "$exe" --partitions | grep -qx metis; then parts="metis range"; fi
for part in $parts; do
  for n in 2 3; do
    mpi "$n" "$exe" shuffled dist-cg "$work/shuffled.$part$n" default "$part" > "$work/shuffled.$part$n.log" 2>&1 ||
      { echo "FAIL: scrambled numbering, partition $part on $n ranks: $(tail -5 "$work/shuffled.$part$n.log")" >&2; fail=1; continue; }
    echo "$(head -1 "$work/shuffled.$part$n.log")"
    r=$(compare "$work/plain.1" "$work/shuffled.$part$n")
    echo "scrambled numbering, partition $part on $n ranks vs plain 1 rank: max relative difference $r (tolerance $TOL)"
    if [ "$r" = bad ] || awk -v r="$r" -v t="$TOL" 'BEGIN { exit !(r > t) }'; then
      echo "FAIL: scrambled numbering, partition $part on $n ranks differs from the 1-rank run" >&2
      fail=1
    fi
  done
done
# The values of the Newton matrix each rank stores: the plain cantilever
# split into contiguous element ranges on 2 and 3 ranks (the executable
# checks each rank's count against one made from the mesh alone, see
# range_split_values), the most on one rank falling with the rank count,
# and the histories against the plain 1-rank run.
most() { sed -n 's/^matrix values: \([0-9]*\) on the most loaded rank.*/\1/p' "$1"; }
for n in 2 3; do
  mpi "$n" "$exe" plain dist-cg "$work/plain.range$n" default range > "$work/plain.range$n.log" 2>&1 ||
    { echo "FAIL: plain, partition range on $n ranks: $(tail -5 "$work/plain.range$n.log")" >&2; fail=1; continue; }
  r=$(compare "$work/plain.1" "$work/plain.range$n")
  echo "plain, partition range on $n ranks: $(most "$work/plain.range$n.log") matrix values on the most loaded rank; vs 1 rank: max relative difference $r (tolerance $TOL)"
  if [ "$r" = bad ] || awk -v r="$r" -v t="$TOL" 'BEGIN { exit !(r > t) }'; then
    echo "FAIL: plain, partition range on $n ranks differs from the 1-rank run" >&2
    fail=1
  fi
done
v1=$(most "$work/plain.1.log"); v2=$(most "$work/plain.range2.log"); v3=$(most "$work/plain.range3.log")
echo "matrix values on the most loaded rank, 1 / 2 / 3 ranks (range): $v1 / $v2 / $v3"
if [ -z "$v1" ] || [ -z "$v2" ] || [ -z "$v3" ] || [ "$v2" -ge "$v1" ] || [ "$v3" -ge "$v2" ]; then
  echo "FAIL: the matrix values per rank do not fall with the rank count" >&2
  fail=1
fi
exit $fail
