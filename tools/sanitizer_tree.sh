# Sourced by tools/sanitize.sh and tools/fuzz.sh: the one build tree both use,
# ${TLFEA_BUILD_ROOT:-build}/fuzz. clang, every TU with ASan + UBSan
# (-fno-sanitize-recover=undefined) and libFuzzer's coverage instrumentation
# (TLFEA_ENABLE_FUZZ), OpenMP Kokkos from tools/setup.sh (not instrumented),
# no Trilinos. Sharing it means the library is compiled once for both the
# sanitized test suites and the fuzz targets; the coverage instrumentation
# costs the tests little. -O1 -gline-tables-only: libFuzzer's recommended
# optimisation, with file and line in sanitizer reports.
# CC/CXX pick the compiler (default clang-14/clang++-14, else clang/clang++;
# Debian: clang-14, libclang-rt-14-dev, libomp-14-dev).
SAN_ROOT=${TLFEA_BUILD_ROOT:-build}
SAN_PREFIX=${TLFEA_DEPS_PREFIX:-/opt/tlfea-deps}
SAN_JOBS=${TLFEA_JOBS:-$(nproc)}
SAN_BUILD=$SAN_ROOT/fuzz
if [ -z "${CXX:-}" ]; then
  if command -v clang++-14 >/dev/null 2>&1; then CC=clang-14 CXX=clang++-14; else CC=clang CXX=clang++; fi
fi

configure_sanitizer_tree() {
  CC=$CC CXX=$CXX cmake -S . -B "$SAN_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
    -DKokkos_ROOT="$SAN_PREFIX/kokkos-openmp" -DTLFEA_ENABLE_TRILINOS=OFF \
    -DTLFEA_ENABLE_FUZZ=ON -DTLFEA_ENABLE_TESTS=ON -DTLFEA_ENABLE_BENCHMARKS=OFF
}

# Sanitizer reports are fatal (UBSan also by -fno-sanitize-recover); one
# OpenMP thread (Kokkos' runtime is g++'s libgomp, clang's code uses libomp).
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
