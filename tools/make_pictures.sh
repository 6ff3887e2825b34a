#!/usr/bin/env bash
# Renders the pictures of docs/guide/scenes.md from real runs: the Q27 block under follower
# pressure (von Mises), the contact drop, the double pendulum and the three
# rigid/flexible examples (displacement), into docs/images/.
# Needs a built build/trilinos (tools/test.sh or tools/run.sh) and
# python3-h5py / python3-matplotlib (tools/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
TLFEA=${TLFEA_BIN:-build/trilinos/apps/tlfea}
PY=${TLFEA_PYTHON:-/usr/bin/python3}
OUT=${1:-docs/images}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
# picture EXAMPLE FIELD TITLE: runs examples/EXAMPLE.yaml and renders FIELD
# at its last step into $OUT/EXAMPLE.png, with the scene's gravity pointing
# down on the page (--scene: the plot's vertical is -gravity).
picture() {
  "$TLFEA" run "examples/$1.yaml" --output "$WORK/$1" >/dev/null
  "$PY" tools/render_pictures.py "$WORK/$1" "$OUT/$1.png" --field "$2" --title "$3" \
    --scene "examples/$1.yaml"
}
picture q27_pressure von_mises "Q27 block under follower pressure: von Mises stress"
picture contact_drop displacement "Q27 and T10 bodies dropped on the ground (contact)"
picture double_pendulum displacement "ANCF 3243 double pendulum (revolute + spherical) at t = 1 s"
picture rigid_ball_net displacement "Rigid ball caught by a net of ANCF 3243 beams (Gmsh mesh)"
picture rigid_chassis_leaf_springs displacement "Rigid chassis on two ANCF 3243 leaf springs"
picture rigid_wheel_tire displacement "Rigid rim in an ANCF 3443 shell tire rolling with friction"
echo "pictures in $OUT" >&2
