# Sourced by the multi-rank test scripts (tests/mpi/*_test.sh): mpi N CMD...
# runs CMD on N ranks (root allowed, oversubscribed, 300 s limit); the probe
# exits 77 (ctest: skipped) where mpirun is missing or cannot start 3
# processes. Needs $work, a scratch directory.
mpi() {
  local n=$1
  shift
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
    timeout 300 mpirun -np "$n" "$@"
}
if ! command -v mpirun > /dev/null; then
  echo "note: no mpirun on PATH: multi-rank checks skipped" >&2
  exit 77
fi
if ! mpi 3 true > "$work/probe" 2>&1; then
  echo "note: mpirun -np 3 true fails here, multi-rank checks skipped: $(head -c 300 "$work/probe")" >&2
  exit 77
fi
