#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz: scene reader, Gmsh reader, TetGen
# reader, ANCF readers) in the clang ASan + UBSan tree of tools/sanitizer_tree.sh
# (${TLFEA_BUILD_ROOT:-build}/fuzz, shared with tools/sanitize.sh) and runs each one for a bounded
# time from seeds taken from the repository (examples/*.yaml,
# tests/scene/data/*.yaml, tests/data/*). Exits non-zero on any finding: a
# crash, a sanitizer report, an exception other than tlfea::Error, an input
# that runs over -timeout seconds or over -rss_limit_mb. The failing input is
# left in <build>/fuzz/artifacts/ (replay: <build>/fuzz/tests/fuzz/<target>
# <file>).
#
#   tools/fuzz.sh                          # 60 s per target (what CI runs)
#   TLFEA_FUZZ_SECONDS=600 tools/fuzz.sh   # a longer campaign
#
# Needs clang with libFuzzer and its OpenMP runtime (Debian: clang-14,
# libclang-rt-14-dev, libomp-14-dev; tools/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${TLFEA_FUZZ_SECONDS:-60}
. tools/sanitizer_tree.sh
BUILD=$SAN_BUILD

step() { echo "== $* ==" >&2; }

step "configure + build: fuzz targets ($CXX, ASan + UBSan + libFuzzer)"
configure_sanitizer_tree
cmake --build "$BUILD" -j "$SAN_JOBS" --target fuzz_scene fuzz_gmsh fuzz_tetgen fuzz_ancf

# Seeds, rebuilt every run from the repository's own inputs.
SEEDS=$BUILD/seeds
rm -rf "$SEEDS"
mkdir -p "$SEEDS/fuzz_scene" "$SEEDS/fuzz_gmsh" "$SEEDS/fuzz_tetgen" "$SEEDS/fuzz_ancf"
cp examples/*.yaml tests/scene/data/*.yaml "$SEEDS/fuzz_scene/"
cp tests/data/*.msh "$SEEDS/fuzz_gmsh/"
cp tests/data/*.ancf tests/data/quarter_ring.msh tests/data/beam_net.msh tests/data/half_cylinder_quads.msh "$SEEDS/fuzz_ancf/"
for node in tests/data/*.node; do
  # fuzz_tetgen's input: "<node file>\0<ele file>".
  { cat "$node"; printf '\0'; cat "${node%.node}.ele"; } > "$SEEDS/fuzz_tetgen/$(basename "${node%.node}")"
done

status=0
for t in fuzz_scene fuzz_gmsh fuzz_tetgen fuzz_ancf; do
  step "fuzz: $t for ${SECONDS_PER_TARGET} s"
  corpus=$BUILD/corpus/$t
  artifacts=$BUILD/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  # New inputs go to the first folder (kept between local runs); the seeds
  # are read only. -timeout: seconds per input (a hang is a finding);
  # -rss_limit_mb: the readers refuse absurd sizes up front, so a run that
  # grows past 4 GiB is a regression.
  if ! "$BUILD/tests/fuzz/$t" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 \
      -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" \
      "$corpus" "$SEEDS/$t"; then
    echo "tools/fuzz.sh: $t found a problem; the input is in $artifacts/" >&2
    status=1
  fi
done
exit $status
