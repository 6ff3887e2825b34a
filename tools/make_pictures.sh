#!/usr/bin/env bash
# Renders README's pictures from real runs: the Q27 block under follower
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
"$TLFEA" run examples/q27_pressure.yaml --output "$WORK/q27" >/dev/null
"$PY" tools/render_pictures.py "$WORK/q27" "$OUT/q27_pressure.png" --field von_mises \
  --title "Q27 block under follower pressure: von Mises stress"
"$TLFEA" run examples/contact_drop.yaml --output "$WORK/drop" >/dev/null
"$PY" tools/render_pictures.py "$WORK/drop" "$OUT/contact_drop.png" --field displacement \
  --title "Q27 and T10 bodies dropped on the ground (contact)"
"$TLFEA" run examples/double_pendulum.yaml --output "$WORK/dp" >/dev/null
"$PY" tools/render_pictures.py "$WORK/dp" "$OUT/double_pendulum.png" --field displacement \
  --title "ANCF 3243 double pendulum (revolute + spherical) at t = 1 s"
"$TLFEA" run examples/rigid_ball_net.yaml --output "$WORK/net" >/dev/null
"$PY" tools/render_pictures.py "$WORK/net" "$OUT/rigid_ball_net.png" --field displacement \
  --title "Rigid ball caught by a net of ANCF 3243 beams (Gmsh mesh)"
"$TLFEA" run examples/rigid_chassis_leaf_springs.yaml --output "$WORK/chassis" >/dev/null
"$PY" tools/render_pictures.py "$WORK/chassis" "$OUT/rigid_chassis_leaf_springs.png" \
  --field displacement --title "Rigid chassis on two ANCF 3243 leaf springs"
"$TLFEA" run examples/rigid_wheel_tire.yaml --output "$WORK/tire" >/dev/null
"$PY" tools/render_pictures.py "$WORK/tire" "$OUT/rigid_wheel_tire.png" --field displacement \
  --title "Rigid rim in an ANCF 3443 shell tire rolling with friction"
echo "pictures in $OUT" >&2
