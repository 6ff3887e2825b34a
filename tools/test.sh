#!/usr/bin/env bash
# Builds both TLFEA configurations and runs every test:
#   1. Trilinos build (Debian's Trilinos 13.2: Serial Kokkos, Trilinos solvers)
#   2. OpenMP build (Kokkos 3.4.1 + Kokkos Kernels built by tools/setup.sh),
#      its tests run with OMP_NUM_THREADS=1 and =2 (same answers required).
#   3. CUDA build (when tools/setup.sh built the CUDA Kokkos; TLFEA_CUDA=on
#      requires it, =off skips it): libraries, tlfea, tests and benchmarks
#      compiled and linked with nvcc for the GPU, with cuDSS; nothing run
#      (no GPU here). A compile-and-link check, so host and device
#      optimisation are off (-O0, cicc and ptxas -O0): 2 to 3 times cheaper,
#      and it checks the same code. benchmarks/gpu/build.sh builds the
#      optimised configuration for a GPU machine.
#   4. ASan + UBSan build of the reader, kernel and solver suites, run with
#      OMP_NUM_THREADS=1 (tools/sanitize.sh; its header lists the suites).
#   5. libFuzzer targets over the scene, Gmsh and TetGen readers, built with
#      clang, ASan and UBSan, 60 s each (tools/fuzz.sh).
#   0. (first) every C++ file formatted as .clang-format says (tools/format.sh
#      --check).
# Any failure, sanitizer report, fuzzer finding or unformatted file makes the
# script fail.
# Run tools/setup.sh first. Build trees go to ${TLFEA_BUILD_ROOT:-build}/.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "== $* ==" >&2; }
# Formatting first: seconds, and a tree that differs from .clang-format fails.
step "format: clang-format --dry-run --Werror on every C++ file (tools/format.sh)"
tools/format.sh --check
step "docs: the benchmark page is generated from benchmarks/results, every Markdown link resolves"
python3 benchmarks/make_page.py --check
python3 tools/check_doc_links.py
ROOT=${TLFEA_BUILD_ROOT:-build}
PREFIX=${TLFEA_DEPS_PREFIX:-/opt/tlfea-deps}
JOBS=${TLFEA_JOBS:-$(nproc)}
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
# OpenMP waiters spin briefly, then sleep (libgomp): fast on a quiet machine
# and robust when other processes share the cores (docs/benchmarks.md,
# "OpenMP wait policy"). An OMP_WAIT_POLICY set by the caller wins.
if [ -z "${OMP_WAIT_POLICY:-}" ]; then export GOMP_SPINCOUNT=${GOMP_SPINCOUNT:-10000}; fi

step "configure + build: Trilinos (Serial) configuration"
cmake -S . -B "$ROOT/trilinos" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$ROOT/trilinos" -j "$JOBS"

# --- pip package, part 1: ccache for the OpenMP build ----------------------
# The pip build (pyproject.toml) compiles the library again in the OpenMP
# configuration; with ccache (tools/setup.sh) and its base directory at the
# repository, build/openmp and build/pip issue the same compile commands,
# so the pip build's objects are cache hits.
CCACHE_ARGS=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
  CCACHE_ARGS=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# --- end pip package, part 1 -------------------------------------------------

step "configure + build: OpenMP configuration"
cmake -S . -B "$ROOT/openmp" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DKokkos_ROOT="$PREFIX/kokkos-openmp" -DTLFEA_ENABLE_TRILINOS=OFF "${CCACHE_ARGS[@]}"
cmake --build "$ROOT/openmp" -j "$JOBS"

CUDA_MODE=${TLFEA_CUDA:-auto}
CUDA_ARCH=${TLFEA_CUDA_ARCH:-HOPPER90}
CUDA_STAMP=$PREFIX/kokkos-cuda/.tlfea-kokkos-3.4.1-cuda13-$CUDA_ARCH
if [ "$CUDA_MODE" != off ]; then
  if [ -f "$CUDA_STAMP" ]; then
    step "configure + build: CUDA configuration (compile and link only)"
    cmake -S . -B "$ROOT/cuda" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG -Xcicc=-O0 -Xptxas=-O0" \
      -DCMAKE_CXX_COMPILER="$PREFIX/kokkos-cuda/bin/nvcc_wrapper" \
      -DKokkos_ROOT="$PREFIX/kokkos-cuda" -DTLFEA_ENABLE_TRILINOS=OFF \
      -DTLFEA_ENABLE_CUDSS=ON -DCUDSS_ROOT="$PREFIX/cudss"
    cmake --build "$ROOT/cuda" -j "$JOBS"
  elif [ "$CUDA_MODE" = on ] || [ "$CUDA_MODE" = required ]; then
    echo "tools/test.sh: TLFEA_CUDA=$CUDA_MODE but no CUDA Kokkos at $PREFIX/kokkos-cuda (run tools/setup.sh)" >&2
    exit 1
  else
    step "CUDA configuration skipped (no CUDA Kokkos; tools/setup.sh builds it where nvcc is found)"
  fi
fi

status=0
step "tests: Trilinos configuration"
ctest --test-dir "$ROOT/trilinos" --output-on-failure || status=1
for t in 1 2; do
  step "tests: OpenMP configuration, OMP_NUM_THREADS=$t"
  OMP_NUM_THREADS=$t ctest --test-dir "$ROOT/openmp" --output-on-failure || status=1
done

# --- pip package, part 2 (docs/python.md "pip install") ---------------------
# In a fresh virtual environment of Debian's python3 (its NumPy, pytest, h5py
# and matplotlib as system site packages; pandas and tqdm from PyPI):
# `pip install .`, then the Python tests against the installed package, run
# from outside the clone. Then `python -m build --wheel`, the wheel installed
# into a second fresh environment without system packages (NumPy from PyPI),
# which imports tlfea and runs a scene from another directory.
# TLFEA_PIP=off skips this part.
if [ "${TLFEA_PIP:-on}" != off ]; then
  step "pip: install ., Python tests against the installed package, wheel"
  pip_t0=$(date +%s)
  # A subshell: the compiler names exported for the pip build (CXX, CC) must
  # not reach the sanitizer and fuzz trees below, which pick clang by them.
  pip_rc=0
  (
  set +e
  pip_ok=1
  REPO=$PWD
  # Absolute: the checks below run from a folder outside the clone.
  ABSROOT=$(cd "$ROOT" && pwd)
  PYV=$ABSROOT/venv-pip; WHV=$ABSROOT/venv-wheel; WHD=$ABSROOT/wheel
  PIPTMP=$(mktemp -d /tmp/tlfea-pip.XXXXXX)
  rm -rf "$PYV" "$WHV" "$WHD"
  /usr/bin/python3 -m venv --system-site-packages "$PYV" || pip_ok=0
  "$PYV/bin/pip" install -q pandas==2.2.3 tqdm==4.67.1 build==1.2.2.post1 || pip_ok=0
  export CMAKE_BUILD_PARALLEL_LEVEL=$JOBS
  # The OpenMP build's compilers by the same names (scikit-build-core would
  # take Python's, e.g. x86_64-linux-gnu-g++, and ccache hashes the name).
  CXX=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$ROOT/openmp/CMakeCache.txt")
  CC=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$ROOT/openmp/CMakeCache.txt")
  export CXX CC
  [ $pip_ok = 1 ] && { CMAKE_ARGS="${CCACHE_ARGS[*]}" "$PYV/bin/pip" install -q . || pip_ok=0; }
  [ $pip_ok = 1 ] && { (cd "$PIPTMP" && "$PYV/bin/python" -c "import tlfea; print('tlfea', tlfea.__version__, tlfea.__file__)") || pip_ok=0; }
  [ $pip_ok = 1 ] && { (cd "$PIPTMP" && TLFEA_SOURCE_DIR="$REPO" TLFEA_EXE="$PYV/bin/tlfea" \
    TLFEA_EXPECT_INSTALLED=1 MPLBACKEND=Agg GOMP_SPINCOUNT=10000 PYTHONDONTWRITEBYTECODE=1 \
    "$PYV/bin/python" -m pytest -q -p no:cacheprovider "$REPO/tests/python") || pip_ok=0; }
  [ $pip_ok = 1 ] && { CMAKE_ARGS="${CCACHE_ARGS[*]}" "$PYV/bin/python" -m build --wheel \
    --outdir "$WHD" . >/dev/null || pip_ok=0; }
  if [ $pip_ok = 1 ]; then
    /usr/bin/python3 -m venv "$WHV"
    "$WHV/bin/pip" install -q "$WHD"/tlfea-*.whl || pip_ok=0
  fi
  if [ $pip_ok = 1 ]; then
    site=$("$WHV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])")
    # Every library it loads from the wheel's .libs or the system (/usr, /lib).
    if ldd "$site"/tlfea/_tlfea*.so "$site/tlfea/bin/tlfea" | grep '=>' \
        | grep -v -e '=> /usr/' -e '=> /lib/' -e '=> [^ ]*/site-packages/tlfea/'; then
      echo "tools/test.sh: the wheel's module loads libraries from outside the wheel and /usr" >&2
      pip_ok=0
    fi
    (cd "$PIPTMP" && "$WHV/bin/python" -c "import tlfea; print('wheel: tlfea', tlfea.__version__)" &&
      "$WHV/bin/python" -m tlfea run "$REPO/examples/ancf_pendulum.yaml" --steps 10 \
        --output "$PIPTMP/out" && test -s "$PIPTMP/out/history.csv") || pip_ok=0
  fi
  rm -rf "$PIPTMP"
  [ $pip_ok = 1 ]
  ) || pip_rc=1
  echo "pip: $(( $(date +%s) - pip_t0 )) s" >&2
  [ $pip_rc = 0 ] || { echo "tools/test.sh: the pip package failed" >&2; status=1; }
fi
# --- end pip package, part 2 -------------------------------------------------

# Each script prints its own steps; a build failure there counts as a failure.
tools/sanitize.sh || status=1
tools/fuzz.sh || status=1
exit $status
