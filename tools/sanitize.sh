#!/usr/bin/env bash
# Builds the test suites that exercise the readers, the element kernels and
# the solvers with AddressSanitizer + UndefinedBehaviorSanitizer in the clang
# tree of tools/sanitizer_tree.sh (${TLFEA_BUILD_ROOT:-build}/fuzz, shared
# with the fuzz targets of tools/fuzz.sh; Kokkos itself is not instrumented)
# and runs them with ctest and OMP_NUM_THREADS=1. A sanitizer report aborts
# the test, so the script exits non-zero.
#
# Suites (CI time picks them): SUITES below. Left out: the long simulation
# suites (validation, dynamics, dynamics_validation, contact_dynamics), which
# run the same kernels and solvers for many steps, the tlfea command-line
# tests and the install test. TLFEA_ASAN_SUITES="core scene ..." picks others.
#
#   tools/sanitize.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/sanitizer_tree.sh
read -r -a SUITES <<< "${TLFEA_ASAN_SUITES:-core io scene elements materials constraints contact solvers}"

step() { echo "== $* ==" >&2; }

step "configure + build: ASan + UBSan test suites ($CXX: ${SUITES[*]})"
configure_sanitizer_tree
targets=()
for s in "${SUITES[@]}"; do targets+=("tlfea_test_$s"); done
cmake --build "$SAN_BUILD" -j "$SAN_JOBS" --target "${targets[@]}"

step "tests: ASan + UBSan suites, OMP_NUM_THREADS=1"
regex="^($(IFS='|'; echo "${SUITES[*]}"))\$"
ctest --test-dir "$SAN_BUILD" --output-on-failure -R "$regex"
