#!/usr/bin/env bash
# Builds the Trilinos configuration and runs TLFEA's main job on its embedded
# default: the element-kernel benchmark on built-in meshes (JSON on stdout).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${TLFEA_BUILD_ROOT:-build}
cmake -S . -B "$ROOT/trilinos" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$ROOT/trilinos" -j "${TLFEA_JOBS:-$(nproc)}" --target tlfea_bench_kernels >&2
exec "$ROOT/trilinos/benchmarks/tlfea_bench_kernels" "$@"
