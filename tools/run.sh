#!/usr/bin/env bash
# Builds the Trilinos configuration and runs TLFEA's main job: `tlfea run`
# on its embedded default scene (an ANCF 3243 pendulum on a revolute joint and
# a Q27 block dropping onto the ground with contact), writing
# tlfea_out/<scene>/{output.h5, output.xdmf, history.csv, checkpoint.h5}.
# Arguments go to `tlfea run` (e.g. a scene file, --steps N, --output DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${TLFEA_BUILD_ROOT:-build}
cmake -S . -B "$ROOT/trilinos" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$ROOT/trilinos" -j "${TLFEA_JOBS:-$(nproc)}" --target tlfea >&2
exec "$ROOT/trilinos/apps/tlfea" run "$@"
