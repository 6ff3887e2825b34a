#!/usr/bin/env bash
# Builds, on a machine with nvcc (no GPU needed), what benchmarks/gpu/run.sh
# runs on a GPU machine, and packs it into pieces that travel to a machine
# without a package registry:
#   gpu/   optimised CUDA build (-O3, Kokkos_ARCH from tools/setup.sh, cuDSS)
#          of tlfea, every test suite that runs device code and the drivers;
#   cpu/   the same programs from the OpenMP build (the side-by-side CPU runs);
#   lib/   shared libraries they need beyond glibc, libstdc++ and the CUDA
#          driver, except cuDSS; libcublas and libnvrtc are on the GPU
#          machine (/usr/local/cuda-13.0/targets/x86_64-linux/lib);
#   src/   tests/data and examples (the test suites find their data at the
#          build's source path, which run.sh links to src/ when it can).
# Packed as bundle.tar.zst (zstd -19 --long=30) split into parts of 60 MiB,
# cuDSS's libraries as cudss.tar.zst parts likewise; a zstd binary and its
# libraries travel uncompressed (the GPU machine has none), with run.sh.
#
#   tools/setup.sh && benchmarks/gpu/build.sh [OUTDIR]    # default build/gpu-bundle
# Then copy OUTDIR's files to the GPU machine and run ./run.sh OUT.json there.
set -euo pipefail
cd "$(dirname "$0")/../.."
SRC=$(pwd)
OUTDIR=${1:-build/gpu-bundle}
PREFIX=${TLFEA_DEPS_PREFIX:-/opt/tlfea-deps}
JOBS=${TLFEA_JOBS:-2}
PART=${TLFEA_BUNDLE_PART:-60M}
CUDSS_LIB=$PREFIX/cudss/nvidia/cu13/lib
[ -x "$PREFIX/kokkos-cuda/bin/nvcc_wrapper" ] ||
  { echo "benchmarks/gpu/build.sh: no CUDA Kokkos at $PREFIX/kokkos-cuda (TLFEA_CUDA=on tools/setup.sh)" >&2; exit 1; }
[ -d "$CUDSS_LIB" ] || { echo "benchmarks/gpu/build.sh: no cuDSS at $PREFIX/cudss" >&2; exit 1; }
command -v zstd >/dev/null || { echo "benchmarks/gpu/build.sh: zstd not found" >&2; exit 1; }
# Every suite whose tests run kernels or solvers (the pure host-side suites
# scene and io run on the CPU build's machine already, and need HDF5 scenes).
SUITES=(core materials elements constraints contact contact_dynamics dynamics dynamics_validation
        validation solvers io scene)
DRIVERS=(tlfea tlfea_bench_t10_beam tlfea_bench_ancf_beam tlfea_bench_ancf_plate
         tlfea_bench_q27_block tlfea_bench_contact_drop tlfea_bench_kernels)
TARGETS=("${DRIVERS[@]}")
for s in "${SUITES[@]}"; do TARGETS+=("tlfea_test_$s"); done

cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$PREFIX/kokkos-cuda/bin/nvcc_wrapper" \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DKokkos_ROOT="$PREFIX/kokkos-cuda" -DTLFEA_ENABLE_TRILINOS=OFF \
  -DTLFEA_ENABLE_CUDSS=ON -DCUDSS_ROOT="$PREFIX/cudss"
cmake --build build/gpu -j "$JOBS" --target "${TARGETS[@]}"
cmake -S . -B build/openmp -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DKokkos_ROOT="$PREFIX/kokkos-openmp" -DTLFEA_ENABLE_TRILINOS=OFF
cmake --build build/openmp -j "$JOBS" --target "${TARGETS[@]}"

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
B=$STAGE/bundle
mkdir -p "$B/gpu" "$B/cpu" "$B/lib" "$B/src/tests" "$STAGE/cudss/lib"
for t in "${TARGETS[@]}"; do
  for cfg in gpu openmp; do
    f=$(find "build/$cfg" -maxdepth 3 -type f -name "$t" -perm -u+x | head -1)
    [ -n "$f" ] || { echo "benchmarks/gpu/build.sh: $t not built in build/$cfg" >&2; exit 1; }
    dest=$B/$([ $cfg = gpu ] && echo gpu || echo cpu)
    cp "$f" "$dest/"
    strip --strip-unneeded "$dest/$t" 2>/dev/null || true
  done
done
LD_LIBRARY_PATH="$PREFIX/kokkos-openmp/lib:$CUDSS_LIB"
export LD_LIBRARY_PATH
for exe in "$B"/gpu/* "$B"/cpu/*; do
  ldd "$exe" | awk '/=> \//{print $3}'
done | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libstdc++.so*|libgcc_s.so*) ;;
    libcuda.so*|libcublas*|libcublasLt*|libnvrtc*|libcudart*) ;;  # on the GPU machine
    libcudss*) ;;                                                 # the cudss parts
    *) cp -L "$lib" "$B/lib/" ;;
  esac
done
cp -L "$CUDSS_LIB"/libcudss*.so* "$STAGE/cudss/lib/"
cp -r tests/data "$B/src/tests/data"
cp -r examples "$B/src/examples"
printf '%s\n' "$SRC/tests/data" > "$B/data_dir.txt"  # the path compiled into the test suites

rm -rf "$OUTDIR"
mkdir -p "$OUTDIR/zstd"
tar -C "$STAGE" -cf - bundle | zstd -19 --long=30 -T0 -q | split -b "$PART" -d - "$OUTDIR/bundle.tar.zst.part-"
tar -C "$STAGE" -cf - cudss | zstd -19 --long=30 -T0 -q | split -b "$PART" -d - "$OUTDIR/cudss.tar.zst.part-"
# zstd and the libraries it links beyond glibc, uncompressed.
cp -L "$(command -v zstd)" "$OUTDIR/zstd/"
ldd "$(command -v zstd)" | awk '/=> \//{print $3}' | while read -r lib; do
  case "$(basename "$lib")" in libc.so*|ld-linux*) ;; *) cp -L "$lib" "$OUTDIR/zstd/" ;; esac
done
cp benchmarks/gpu/run.sh "$OUTDIR/"
ls -l "$OUTDIR" >&2
du -sh "$OUTDIR" >&2
echo "bundle: $OUTDIR (copy its files to the GPU machine; run there: ./run.sh OUT.json)" >&2
