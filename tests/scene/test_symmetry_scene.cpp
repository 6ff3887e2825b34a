// Symmetry planes in scenes (docs/scene.md `symmetry`): a quarter model with
// two symmetry planes gives the full model's answer, and a plane that is not
// normal to a coordinate axis, a gradient oblique to the plane and a rigid
// body are refused at their keys.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "tlfea/core/error.hpp"
#include "tlfea/scene/scene.hpp"

namespace tlfea {
namespace {

using scene::Scene;

// A square ANCF 3443 plate, 1 m a side, 0.02 m thick, SVK E = 2e8, nu = 0.3,
// clamped on its four edges and loaded by its weight, solved statically in
// one increment. `quarter`: the quarter [0, 0.5]^2 with symmetry planes
// x = 0.5 and y = 0.5 on 4 x 4 elements (the same elements as the full
// 8 x 8 mesh's quarter).
std::string plate(bool quarter) {
  const std::string mesh = quarter ? "lx: 0.5, ly: 0.5, thickness: 0.02, divisions: [4, 4]"
                                   : "lx: 1.0, ly: 1.0, thickness: 0.02, divisions: [8, 8]";
  const std::string bc = quarter
                             ? R"(    clamp: [{set: xmin}, {set: ymin}]
    symmetry:
      - {plane: {point: [0.5, 0, 0], normal: [1, 0, 0]}}
      - {plane: {point: [0, 0.5, 0], normal: [0, -1, 0]}}
)"
                             : "    clamp: [{set: xmin}, {set: xmax}, {set: ymin}, {set: ymax}]\n";
  return R"(
analysis: static
gravity: [0, 0, -9.81]
time: {dt: 1.0, end_time: 1.0}
bodies:
  - name: plate
    element: ANCF3443
    mesh: {generator: plate, )" +
         mesh + R"(}
    material: {model: svk, E: 2.0e8, nu: 0.3}
    density: 1000
)" + bc + "output: {enabled: false}\n";
}

// z of the node at (0.5, 0.5) after the static solve.
Real centre_deflection(const std::string& text, Ordinal centre_node) {
  Scene s = scene::load_scene_text(text, "symmetry.yaml", ".");
  TimeStepper st(*s.model, s.settings);
  s.apply_initial_state(st);
  for (long i = 0; i < s.steps; ++i) st.step();
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), st.positions());
  return q(4 * centre_node, 2);
}

TEST(SymmetryScene, QuarterPlateEqualsFullPlate) {
  // Nodes are numbered i + (nx + 1) j: the centre is (4, 4) in both meshes.
  const Real full = centre_deflection(plate(false), 4 + 9 * 4);
  const Real quarter = centre_deflection(plate(true), 4 + 5 * 4);
  std::printf("[ symmetry ] centre deflection full %.12e, quarter %.12e\n", full, quarter);
  ASSERT_LT(full, 0.0);
  // The two solves differ only in round-off (the quarter's equations are the
  // full model's restricted to symmetric motions) and in the Newton stopping
  // point: the step's residual tolerance leaves at most ~1e-8 relative.
  EXPECT_NEAR(quarter / full, 1.0, 1e-7);
}

void expect_refused(const std::string& text, const std::string& says) {
  try {
    scene::load_scene_text(text, "bad.yaml", ".");
    ADD_FAILURE() << "accepted; expected: " << says;
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad.yaml:"), std::string::npos) << msg;
    EXPECT_NE(msg.find(says), std::string::npos) << msg;
  }
}

TEST(SymmetryScene, BadPlanesAreRefusedAtTheirKeys) {
  std::string oblique = plate(true);
  oblique.replace(oblique.find("normal: [1, 0, 0]"), 17, "normal: [1, 1, 0]");
  expect_refused(oblique, "must be along x, y or z");
  // A plane through the plate's mid-surface (normal z): r_w is normal to
  // it, r_u and r_v lie in it, so it is accepted; one with a rotated plate
  // (r_u oblique to x = 0.5) is not.
  std::string rotated = plate(true);
  rotated.replace(rotated.find("    clamp:"), 0,
                  "    placement: {rotation: {axis: [0, 0, 1], angle: 0.3}}\n");
  rotated.replace(rotated.find("point: [0.5, 0, 0]"), 18, "point: [0, 0, 0]");
  expect_refused(rotated, "is oblique to the symmetry plane");
  const std::string rigid = R"(
bodies:
  - name: box
    type: rigid
    shape: {type: box, size: [1, 1, 1]}
    density: 1000
    symmetry: [{plane: {point: [0, 0, 0], normal: [1, 0, 0]}}]
)";
  expect_refused(rigid, "symmetry applies to deformable bodies");
}

}  // namespace
}  // namespace tlfea
