#!/usr/bin/env bash
# Installs every dependency of TLFEA from Debian 12 packages and builds the
# OpenMP configuration's Kokkos + Kokkos Kernels 3.4.1 from the Kokkos sources
# inside Debian's trilinos source package.
#
#   tools/setup.sh            # packages + OpenMP Kokkos (reused when present)
#   TLFEA_DEPS_PREFIX=/opt/x tools/setup.sh
#
# The OpenMP Kokkos goes to ${TLFEA_DEPS_PREFIX:-/opt/tlfea-deps}/kokkos-openmp,
# outside the checkout, and is reused when its stamp file is present.
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
  python3 python3-numpy python3-h5py python3-meshio python3-matplotlib
)

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

STAMP=$KOKKOS_PREFIX/.tlfea-kokkos-3.4.1-openmp
if [ -f "$STAMP" ]; then
  log "OpenMP Kokkos already at $KOKKOS_PREFIX"
  exit 0
fi

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
src=${src%/packages}

cmake -S "$src/packages/kokkos" -B build-kokkos -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$KOKKOS_PREFIX" \
  -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON \
  -DBUILD_SHARED_LIBS=ON >/dev/null
cmake --build build-kokkos -j "$JOBS" >/dev/null
cmake --install build-kokkos >/dev/null
log "Kokkos installed"

cmake -S "$src/packages/kokkos-kernels" -B build-kk -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$KOKKOS_PREFIX" \
  -DCMAKE_CXX_STANDARD=17 -DKokkos_ROOT="$KOKKOS_PREFIX" \
  -DKokkosKernels_INST_DOUBLE=ON -DKokkosKernels_INST_ORDINAL_INT=ON \
  -DKokkosKernels_INST_OFFSET_INT=ON -DKokkosKernels_INST_OFFSET_SIZE_T=OFF \
  -DKokkosKernels_ENABLE_TPL_BLAS=OFF -DKokkosKernels_ENABLE_TESTS=OFF \
  -DBUILD_SHARED_LIBS=ON >/dev/null
cmake --build build-kk -j "$JOBS" >/dev/null
cmake --install build-kk >/dev/null
touch "$STAMP"
log "Kokkos Kernels installed to $KOKKOS_PREFIX"
