#!/usr/bin/env bash
# Installs every dependency of TLFEA from Debian 12 packages (clang-14 with
# libFuzzer, the sanitizer runtimes and its OpenMP runtime for tools/fuzz.sh
# among them) and builds, from
# the Kokkos sources inside Debian's trilinos source package:
#   - the OpenMP configuration's Kokkos + Kokkos Kernels 3.4.1, into
#     ${TLFEA_DEPS_PREFIX:-/opt/tlfea-deps}/kokkos-openmp;
#   - when nvcc is found (TLFEA_CUDA=auto, the default; =on requires it, =off
#     skips it): the CUDA configuration's Kokkos + Kokkos Kernels 3.4.1 with
#     TLFEA's CUDA 13 compatibility patch (tools/patches/), static, for
#     Kokkos_ARCH_${TLFEA_CUDA_ARCH:-HOPPER90}, into <prefix>/kokkos-cuda, and
#     NVIDIA cuDSS from its Python wheel (nvidia-cudss-cu13) into
#     <prefix>/cudss.
#
# With TLFEA_PARAVIEW=on it also installs ParaView (paraview,
# python3-paraview: about 130 MB of packages), which the multi-rank output
# test then uses to open the ranks' pieces with ParaView's own readers.
#
#   tools/setup.sh
#   TLFEA_DEPS_PREFIX=/opt/x TLFEA_CUDA=off tools/setup.sh
#
# Each Kokkos install is reused when its stamp file is present.
set -euo pipefail

PREFIX=${TLFEA_DEPS_PREFIX:-/opt/tlfea-deps}
KOKKOS_PREFIX=$PREFIX/kokkos-openmp
JOBS=${TLFEA_JOBS:-$(nproc)}
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive

log() { echo "[tlfea-setup] $*" >&2; }

PKGS=(
  build-essential cmake ninja-build pkg-config dpkg-dev
  trilinos-all-dev libopenmpi-dev openmpi-bin
  libeigen3-dev libhdf5-dev libyaml-cpp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenblas-dev libmetis-dev
  clang-14 libclang-rt-14-dev libomp-14-dev clang-format-14
  python3 python3-numpy python3-h5py python3-meshio python3-matplotlib
  python3-dev pybind11-dev python3-pybind11 python3-pytest
  python3-venv ccache
)
if [ "${TLFEA_PARAVIEW:-off}" = on ]; then PKGS+=(paraview python3-paraview); fi

need_install=0
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    need_install=1; break
  fi
done
if [ $need_install = 1 ]; then
  log "installing Debian packages"
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${PKGS[@]}"
else
  log "Debian packages already installed"
fi

# OpenBLAS as the BLAS/LAPACK alternative (reference BLAS makes Tacho slow).
for alt in libblas.so.3-x86_64-linux-gnu liblapack.so.3-x86_64-linux-gnu; do
  cand=$(update-alternatives --list "$alt" 2>/dev/null | grep openblas | head -1 || true)
  if [ -n "$cand" ]; then $SUDO update-alternatives --set "$alt" "$cand" >/dev/null; fi
done

PATCHES=$(cd "$(dirname "$0")" && pwd)/patches
CUDA_MODE=${TLFEA_CUDA:-auto}
CUDA_ARCH=${TLFEA_CUDA_ARCH:-HOPPER90}
CUDA_PREFIX=$PREFIX/kokkos-cuda
CUDSS_PREFIX=$PREFIX/cudss
# (-rpath: the shared libraries find each other, e.g. libkokkoskernels.so its
# libkokkoscontainers.so, without LD_LIBRARY_PATH; an install without it is
# rebuilt.)
OMP_STAMP=$KOKKOS_PREFIX/.tlfea-kokkos-3.4.1-openmp-rpath
CUDA_STAMP=$CUDA_PREFIX/.tlfea-kokkos-3.4.1-cuda13-$CUDA_ARCH

want_cuda=0
case "$CUDA_MODE" in
  off) ;;
  auto) if command -v nvcc >/dev/null 2>&1; then want_cuda=1; else log "nvcc not found: no CUDA configuration (TLFEA_CUDA=on to require it)"; fi ;;
  on|required)
    if ! command -v nvcc >/dev/null 2>&1; then
      echo "tools/setup.sh: TLFEA_CUDA=$CUDA_MODE but nvcc is not on PATH (install the CUDA toolkit)" >&2; exit 1
    fi
    want_cuda=1 ;;
  *) echo "tools/setup.sh: TLFEA_CUDA must be auto, on or off (got '$CUDA_MODE')" >&2; exit 1 ;;
esac

if [ $want_cuda = 1 ] && [ ! -f "$CUDSS_PREFIX/nvidia/cu13/include/cudss.h" ]; then
  log "installing NVIDIA cuDSS (Python wheel nvidia-cudss-cu13) into $CUDSS_PREFIX"
  python3 -m pip install -q --no-deps --target "$CUDSS_PREFIX" nvidia-cudss-cu13
  # The wheel ships libcudss.so.1 only; the link name for -lcudss users.
  ln -sf libcudss.so.1 "$CUDSS_PREFIX/nvidia/cu13/lib/libcudss.so"
fi

need_omp=1; [ -f "$OMP_STAMP" ] && need_omp=0
need_cuda=$want_cuda; [ -f "$CUDA_STAMP" ] && need_cuda=0
[ $need_omp = 0 ] && log "OpenMP Kokkos already at $KOKKOS_PREFIX"
[ $want_cuda = 1 ] && [ $need_cuda = 0 ] && log "CUDA Kokkos already at $CUDA_PREFIX"
if [ $need_omp = 0 ] && [ $need_cuda = 0 ]; then exit 0; fi

# deb-src entry derived from the machine's own Debian sources (no host names here).
if ! apt-get source --print-uris trilinos >/dev/null 2>&1; then
  log "enabling deb-src from the existing Debian sources"
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
      | $SUDO tee /etc/apt/sources.list.d/tlfea-deb-src.sources >/dev/null
  elif [ -f /etc/apt/sources.list ]; then
    grep -E '^deb ' /etc/apt/sources.list | sed -e 's/^deb /deb-src /' \
      | $SUDO tee /etc/apt/sources.list.d/tlfea-deb-src.list >/dev/null
  else
    echo "tools/setup.sh: no Debian sources file found to derive deb-src from" >&2; exit 1
  fi
  $SUDO apt-get update -q
fi

WORK=$(mktemp -d /tmp/tlfea-kokkos.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
log "fetching trilinos source package (only the Kokkos parts are used)"
apt-get source --download-only trilinos >/dev/null
orig=$(ls trilinos_*.orig.tar.* | head -1)
log "extracting Kokkos and Kokkos Kernels from $orig"
tar -xf "$orig" --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
src=$(ls -d */packages | head -1)
src=$WORK/${src%/packages}

if [ $need_omp = 1 ]; then
  cmake -S "$src/packages/kokkos" -B build-kokkos -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$KOKKOS_PREFIX" \
    -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON \
    -DCMAKE_INSTALL_RPATH="$KOKKOS_PREFIX/lib" -DBUILD_SHARED_LIBS=ON >/dev/null
  cmake --build build-kokkos -j "$JOBS" >/dev/null
  cmake --install build-kokkos >/dev/null
  log "Kokkos installed"

  cmake -S "$src/packages/kokkos-kernels" -B build-kk -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$KOKKOS_PREFIX" \
    -DCMAKE_CXX_STANDARD=17 -DKokkos_ROOT="$KOKKOS_PREFIX" \
    -DKokkosKernels_INST_DOUBLE=ON -DKokkosKernels_INST_ORDINAL_INT=ON \
    -DKokkosKernels_INST_OFFSET_INT=ON -DKokkosKernels_INST_OFFSET_SIZE_T=OFF \
    -DKokkosKernels_ENABLE_TPL_BLAS=OFF -DKokkosKernels_ENABLE_TESTS=OFF \
    -DCMAKE_INSTALL_RPATH="$KOKKOS_PREFIX/lib" -DBUILD_SHARED_LIBS=ON >/dev/null
  cmake --build build-kk -j "$JOBS" >/dev/null
  cmake --install build-kk >/dev/null
  touch "$OMP_STAMP"
  log "Kokkos Kernels installed to $KOKKOS_PREFIX"
fi

if [ $need_cuda = 1 ]; then
  log "patching Kokkos 3.4.1 for CUDA 13 (tools/patches/kokkos-3.4.1-cuda13.patch)"
  patch -p1 -s -d "$src/packages" < "$PATCHES/kokkos-3.4.1-cuda13.patch"
  wrapper=$src/packages/kokkos/bin/nvcc_wrapper
  # Static libraries: a build for a GPU machine carries no Kokkos .so files.
  # Serial is the host space; the tests' Serial/OpenMP answers come from the
  # OpenMP configuration.
  cmake -S "$src/packages/kokkos" -B build-kokkos-cuda -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$CUDA_PREFIX" \
    -DCMAKE_CXX_COMPILER="$wrapper" -DCMAKE_CXX_STANDARD=17 \
    -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ENABLE_SERIAL=ON \
    -DKokkos_ARCH_"$CUDA_ARCH"=ON -DBUILD_SHARED_LIBS=OFF >/dev/null
  cmake --build build-kokkos-cuda -j "$JOBS" >/dev/null
  cmake --install build-kokkos-cuda >/dev/null
  log "CUDA Kokkos installed"
  # Kokkos Kernels without explicit instantiations (TLFEA's few kernels are
  # instantiated where they are used) and without the cuBLAS/cuSPARSE TPLs
  # (3.4.1 calls cuSPARSE interfaces removed from CUDA 12+).
  cmake -S "$src/packages/kokkos-kernels" -B build-kk-cuda -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$CUDA_PREFIX" \
    -DCMAKE_CXX_COMPILER="$CUDA_PREFIX/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=17 \
    -DKokkos_ROOT="$CUDA_PREFIX" \
    -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF \
    -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF \
    -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_INST_OFFSET_INT=OFF \
    -DKokkosKernels_INST_OFFSET_SIZE_T=OFF -DKokkosKernels_INST_LAYOUTLEFT=OFF \
    -DKokkosKernels_ENABLE_TPL_BLAS=OFF -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF \
    -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF -DKokkosKernels_ENABLE_TESTS=OFF \
    -DBUILD_SHARED_LIBS=OFF >/dev/null
  cmake --build build-kk-cuda -j "$JOBS" >/dev/null
  cmake --install build-kk-cuda >/dev/null
  touch "$CUDA_STAMP"
  log "CUDA Kokkos Kernels installed to $CUDA_PREFIX"
fi
