// Scene files: setup time grows less than quadratically, the shipped examples
// with finely divided beams build, --set overrides apply, and mesh files are
// found relative to the scene.
#include "scene_test_util.hpp"

namespace tlfea {
namespace {

using namespace scene_test;
using scene::Scene;
using scene::TimeFunctionSpec;

// Setup grows like n log n at most (a prescribed rotation of
// `set: all` must not scan the list of prescribed coefficients once per
// coefficient). Building 8 times the model
// must take well under the 64 times of quadratic growth: the bound 32 leaves
// n log n (about 8 to 11 here) a wide margin for a busy machine; each size is
// timed as the best of three builds.
TEST(SceneSetup, PrescribingEveryNodeGrowsLessThanQuadratically) {
  auto text = [](int elements) {
    return "time: {dt: 1.0e-3, steps: 2}\n"
           "bodies:\n"
           "  - name: beam\n"
           "    mesh: {generator: beam, length: 1.0, width: 0.02, height: 0.02, elements: " +
           std::to_string(elements) +
           "}\n"
           "    material: {model: svk, E: 7.0e9, nu: 0.33}\n"
           "    density: 2700\n"
           "    clamp: [{set: end0}]\n"
           "    prescribe: [{set: all, rotation: {axis: [0, 0, 1], angle: 0.1}}]\n";
  };
  auto best_seconds = [&](int elements, int repeats) {
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      Scene s = scene::load_scene_text(text(elements), "big.yaml", ".");
      best = std::min(best,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      // Every coefficient prescribed (4 per node), none left clamped or free.
      EXPECT_EQ(s.model->prescribed().size(), 4u * (elements + 1));
      EXPECT_TRUE(s.model->clamped_coefficients().empty());
      EXPECT_EQ(s.unknowns(), 0);
    }
    return best;
  };
  const int n = 5000;
  const double small = best_seconds(n, 3), large = best_seconds(8 * n, 3);
  std::printf("setup: %d elements %.3f s, %d elements %.3f s\n", n, small, 8 * n, large);
  EXPECT_LT(large, 32.0 * small) << n << " elements: " << small << " s; " << 8 * n << ": " << large
                                 << " s";
}

// Joints on finely divided ANCF beams (joint points must not be reported
// "outside body" however fine the mesh): the shipped
// examples with 300 and 100 elements per beam build, with as many constraint
// rows as with 4, and the reference configuration satisfies every joint.
TEST(SceneJoints, ExamplesWithFinelyDividedBeamsBuild) {
  const std::string dir = std::string(TLFEA_TEST_DATA_DIR) + "/../../examples/";
  struct Case {
    const char* file;
    std::vector<std::string> fine;
  };
  for (const Case& c : {Case{"ancf_pendulum.yaml", {"bodies.0.mesh.elements=300"}},
                        Case{"universal_joint_shaft.yaml",
                             {"bodies.0.mesh.elements=100", "bodies.1.mesh.elements=100"}}}) {
    const Scene coarse = scene::load_scene(dir + c.file);
    Scene s = scene::load_scene(dir + c.file, c.fine);
    EXPECT_EQ(s.bodies[0].elements, c.fine.size() == 1 ? 300 : 100) << c.file;
    ASSERT_GT(s.constraint_rows(), 0) << c.file;
    EXPECT_EQ(s.constraint_rows(), coarse.constraint_rows()) << c.file;
    DeviceView<Real*> values("c", s.constraint_rows());
    s.model->constraints().evaluate(s.model->reference(), 0.0, values);
    EXPECT_LT(s.model->constraints().violation_max(values), 1e-12) << c.file;
  }
}

// --set overrides reach the scene; a bad path is an error.
TEST(SceneOverrides, SetKeyPaths) {
  Scene s = scene::load_scene_text(kGood, "good.yaml", ".",
                                   {"time.steps=7", "bodies.0.density=500", "gravity=[0, 0, -1]"});
  EXPECT_EQ(s.steps, 7);
  // 0.1^3 m^3 at 500 kg/m^3.
  EXPECT_NEAR(s.bodies[0].mass, 0.5, 1e-12);
  EXPECT_EQ(s.model->gravity()[2], -1.0);
  EXPECT_THROW(scene::load_scene_text(kGood, "good.yaml", ".", {"bodies.3.density=1"}), Error);
  EXPECT_THROW(scene::load_scene_text(kGood, "good.yaml", ".", {"time.dt=-1"}), Error);
}

// Mesh files by path relative to the scene: the shipped TetGen beam.
TEST(SceneMesh, TetgenFileRelativeToScene) {
  const std::string text = R"(
bodies:
  - name: beam
    mesh: {file: beam_3x2x1_res0.1}
    material: {model: svk, E: 1.0e7, nu: 0.3}
    density: 1000
    clamp: [{plane: {point: [0, 0, 0], normal: [1, 0, 0]}}]
output: {enabled: false}
)";
  Scene s = scene::load_scene_text(text, "beam.yaml", TLFEA_TEST_DATA_DIR);
  EXPECT_EQ(s.bodies[0].element, ElementType::T10);
  EXPECT_GT(s.bodies[0].elements, 0);
  EXPECT_LT(s.unknowns(), 3 * s.model->num_coefficients());
}

}  // namespace
}  // namespace tlfea
