#!/usr/bin/env bash
# Builds both TLFEA configurations and runs every test:
#   1. Trilinos build (Debian's Trilinos 13.2: Serial Kokkos, Trilinos solvers)
#   2. OpenMP build (Kokkos 3.4.1 + Kokkos Kernels built by tools/setup.sh),
#      its tests run with OMP_NUM_THREADS=1 and =2 (same answers required).
# Run tools/setup.sh first. Build trees go to ${TLFEA_BUILD_ROOT:-build}/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${TLFEA_BUILD_ROOT:-build}
PREFIX=${TLFEA_DEPS_PREFIX:-/opt/tlfea-deps}
JOBS=${TLFEA_JOBS:-$(nproc)}
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}

step() { echo "== $* ==" >&2; }

step "configure + build: Trilinos (Serial) configuration"
cmake -S . -B "$ROOT/trilinos" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$ROOT/trilinos" -j "$JOBS"

step "configure + build: OpenMP configuration"
cmake -S . -B "$ROOT/openmp" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DKokkos_ROOT="$PREFIX/kokkos-openmp" -DTLFEA_ENABLE_TRILINOS=OFF
cmake --build "$ROOT/openmp" -j "$JOBS"

status=0
step "tests: Trilinos configuration"
ctest --test-dir "$ROOT/trilinos" --output-on-failure || status=1
for t in 1 2; do
  step "tests: OpenMP configuration, OMP_NUM_THREADS=$t"
  OMP_NUM_THREADS=$t ctest --test-dir "$ROOT/openmp" --output-on-failure || status=1
done
exit $status
