#!/usr/bin/env bash
# Builds, on a machine with nvcc (no GPU needed), what benchmarks/gpu/run.sh
# runs on a GPU machine, and packs it into one folder that travels:
#   <bundle>/gpu/   optimised CUDA build (-O3, Kokkos_ARCH from tools/setup.sh)
#                   of tlfea, the kernel and solver test suites and the drivers;
#   <bundle>/cpu/   the same programs from the OpenMP build, for the CPU
#                   comparison on the GPU machine;
#   <bundle>/lib/   the shared libraries they need beyond glibc, libstdc++ and
#                   the CUDA driver (Kokkos is static in the CUDA build).
# cuDSS is left out unless TLFEA_GPU_CUDSS=ON: its library alone is 160 MiB,
# more than a bundle should carry; the GPU run then solves with kk-cg.
#
#   tools/setup.sh && benchmarks/gpu/build.sh [BUNDLE]     # default build/gpu-bundle
set -euo pipefail
cd "$(dirname "$0")/../.."
BUNDLE=${1:-build/gpu-bundle}
PREFIX=${TLFEA_DEPS_PREFIX:-/opt/tlfea-deps}
JOBS=${TLFEA_JOBS:-$(nproc)}
CUDSS=${TLFEA_GPU_CUDSS:-OFF}
[ -x "$PREFIX/kokkos-cuda/bin/nvcc_wrapper" ] ||
  { echo "benchmarks/gpu/build.sh: no CUDA Kokkos at $PREFIX/kokkos-cuda (TLFEA_CUDA=on tools/setup.sh)" >&2; exit 1; }
TARGETS=(tlfea tlfea_bench_t10_beam tlfea_bench_contact_drop tlfea_bench_kernels
         tlfea_test_materials tlfea_test_elements tlfea_test_solvers tlfea_test_constraints
         tlfea_test_contact tlfea_test_dynamics)

cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$PREFIX/kokkos-cuda/bin/nvcc_wrapper" \
  -DKokkos_ROOT="$PREFIX/kokkos-cuda" -DTLFEA_ENABLE_TRILINOS=OFF \
  -DTLFEA_ENABLE_CUDSS="$CUDSS" -DCUDSS_ROOT="$PREFIX/cudss"
cmake --build build/gpu -j "$JOBS" --target "${TARGETS[@]}"
cmake -S . -B build/openmp -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DKokkos_ROOT="$PREFIX/kokkos-openmp" -DTLFEA_ENABLE_TRILINOS=OFF
cmake --build build/openmp -j "$JOBS" --target "${TARGETS[@]}"

rm -rf "$BUNDLE"
mkdir -p "$BUNDLE/gpu" "$BUNDLE/cpu" "$BUNDLE/lib"
for t in "${TARGETS[@]}"; do
  for cfg in gpu openmp; do
    f=$(find "build/$cfg" -maxdepth 2 -type f -name "$t" | head -1)
    [ -n "$f" ] || { echo "benchmarks/gpu/build.sh: $t not built in build/$cfg" >&2; exit 1; }
    dest=$BUNDLE/$([ $cfg = gpu ] && echo gpu || echo cpu)
    cp "$f" "$dest/"
    strip --strip-unneeded "$dest/$t" 2>/dev/null || true
  done
done
# Shared libraries outside the base system (found by ldd here, with the
# OpenMP Kokkos on the search path).
LD_LIBRARY_PATH="$PREFIX/kokkos-openmp/lib"
[ "$CUDSS" = ON ] && LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PREFIX/cudss/nvidia/cu13/lib"
export LD_LIBRARY_PATH
for exe in "$BUNDLE"/gpu/* "$BUNDLE"/cpu/*; do
  ldd "$exe" | awk '/=> \//{print $3}'
done | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libstdc++.so*|libgcc_s.so*|libcuda.so*) ;;
    *) cp -L "$lib" "$BUNDLE/lib/" ;;
  esac
done
cp benchmarks/gpu/run.sh "$BUNDLE/"
mkdir -p "$BUNDLE/data" && cp tests/data/* "$BUNDLE/data/"
du -sh "$BUNDLE"
echo "bundle: $BUNDLE (run there: ./run.sh OUT.json)" >&2
