#!/usr/bin/env bash
# Contact split between MPI ranks (tests/mpi/mpi_contact.cpp: surface counts
# against the mesh's, points, forces and friction history against the
# unsplit contact) on 1, 2 and 3 ranks.
#   mpi_contact_test.sh TLFEA_TEST_MPI_CONTACT
# Exit 77 (skipped) where mpirun cannot start processes.
set -u
exe=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/mpi_common.sh"  # mpi N CMD..., and the probe
fail=0
for n in 1 2 3; do
  if mpi "$n" "$exe" > "$work/$n.log" 2>&1; then
    echo "$n ranks: $(tr '\n' ' ' < "$work/$n.log")"
  else
    echo "FAIL: $n ranks: $(tail -8 "$work/$n.log")" >&2
    fail=1
  fi
done
exit $fail
