// Scene couplings (joints of type coupling, docs/scene.md "Couplings"): the
// tire example's one coupling entry against the 32 spherical joints it
// replaces, and bad entries refused at their node.
#include "scene_test_util.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea::scene_test {
namespace {

// examples/rigid_wheel_tire.yaml holds the tire's 32 edge nodes on the rim
// by one kinematic coupling (3 CD rows per node); its former version,
// tests/scene/data/rigid_wheel_tire_joints.yaml, by 32 spherical joints at
// the same nodes (3 CD rows each, between the shell's material point at the
// node, whose weights are 1 on the node's position coefficient and 0 on the
// others to round-off, and the rim's point). The same rows: the same motion
// to the solver's tolerances (over the example's whole 0.3 s, the rim rolls
// 0.6023760989 m in both, 4e-12 apart). Here 40 steps (8 ms, rolling on the
// ground with contact): positions within 1e-9 m.
TEST(SceneCoupling, TireCouplingRunsAsItsThirtyTwoSphericalJoints) {
  const std::string data = TLFEA_TEST_DATA_DIR;
  scene::Scene a = scene::load_scene(data + "/../../examples/rigid_wheel_tire.yaml");
  scene::Scene b = scene::load_scene(data + "/../scene/data/rigid_wheel_tire_joints.yaml");
  ASSERT_EQ(a.joints.size(), 1u);
  ASSERT_EQ(b.joints.size(), 32u);
  EXPECT_EQ(a.constraint_rows(), b.constraint_rows());  // 96 + 6 rigidity
  TimeStepper sa(*a.model, a.settings), sb(*b.model, b.settings);
  a.attach_contact(sa);
  b.attach_contact(sb);
  a.apply_initial_state(sa);
  b.apply_initial_state(sb);
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(sa.step().converged);
    ASSERT_TRUE(sb.step().converged);
  }
  auto qa = host(sa.positions()), qb = host(sb.positions());
  Real d = 0.0;
  for (size_t k = 0; k < qa.extent(0); ++k)
    for (int c = 0; c < 3; ++c) d = std::max(d, std::fabs(qa(k, c) - qb(k, c)));
  EXPECT_LT(d, 1e-9);
  // And it rolled: the rim's centre moved about v t = 2 m/s * 8 ms.
  const Ordinal rim = a.model->coefficient_offset(1);
  EXPECT_NEAR(qa(rim, 0), 0.016, 0.002);
}

// A distributing position+rotation coupling from a scene: the Q27 bar's end
// face on a rigid ball, under gravity; the same model built in C++
// (Model::add_coupling) moves identically (the same rows: 3 position and 3
// rotation rows, docs/theory.md §5.7), to round-off over 5 steps.
TEST(SceneCoupling, DistributingRotationCouplingAsInCpp) {
  const std::string text = R"(
gravity: [0, 0, -9.81]
time: {dt: 1.0e-3, steps: 5}
bodies:
  - name: bar
    element: Q27
    mesh: {generator: box, lengths: [0.5, 0.05, 0.05], divisions: [4, 1, 1], origin: [0, -0.025, -0.025]}
    material: {model: svk, E: 1.0e8, nu: 0.3}
    density: 1000
    clamp: [{set: xmin}]
  - {name: ball, type: rigid, shape: {type: sphere, radius: 0.05}, center: [0.55, 0, 0], density: 1000}
joints:
  - {type: coupling, body_i: bar, set: xmax, body_j: ball, form: distributing, dofs: position+rotation}
output: {enabled: false}
)";
  scene::Scene s = scene::load_scene_text(text, "bar.yaml", ".");
  EXPECT_EQ(s.constraint_rows(), 6 + 6);  // coupling + the ball's rigidity rows
  TimeStepper a(*s.model, s.settings);
  for (int i = 0; i < s.steps; ++i) ASSERT_TRUE(a.step().converged);

  Model m;
  const Mesh mesh =
      generate_box(ElementType::Q27, {0.5, 0.05, 0.05}, {4, 1, 1}, {0, -0.025, -0.025});
  const int bar = m.add_body(mesh, MaterialSpec::svk(1e8, 0.3), 1000.0);
  const int ball = m.add_rigid_body(rigid_sphere(Vec3{{0.55, 0.0, 0.0}}, 0.05, 1000.0));
  m.set_gravity({{0, 0, -9.81}});
  m.clamp_node_set(bar, "xmin");
  Model::CouplingSpec spec;
  spec.form = Model::CouplingSpec::Form::distributing;
  spec.rotation = true;
  EXPECT_EQ(m.add_coupling(bar, mesh.node_sets.at("xmax"), ball, spec).count, 6);
  StepperSettings ss = s.settings;
  TimeStepper b(m, ss);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(b.step().converged);
  EXPECT_LT(relative_difference(a.positions(), b.positions()), 1e-12);
  // It moved: the ball fell and turned with the bar's end.
  const Model::RigidPose pose = m.rigid_pose(ball, host(b.positions()));
  EXPECT_LT(pose.center[2], -1e-6);
  EXPECT_GT(std::fabs(pose.rotation(0, 2)), 1e-6);
}

TEST(SceneCoupling, BadCouplingsAreRefusedAtTheirNode) {
  const std::string g = R"(time: {dt: 1.0e-3, steps: 2}
bodies:
  - name: beam
    element: ANCF3243
    mesh: {generator: beam, length: 1.0, width: 0.05, height: 0.05, elements: 2}
    material: {model: svk, E: 1.0e8, nu: 0.3}
    density: 1000
  - {name: ball, type: rigid, shape: {type: sphere, radius: 0.1}, center: [0, 0, 0], density: 1000}
joints:
)";  // 9 lines
  const std::vector<BadCase> cases = {
      {"unknown set", g + "  - {type: coupling, body_i: beam, set: [end0, rim], body_j: ball}\n",
       "bad.yaml:10:48:", "unknown node set 'rim' of body 'beam'"},
      {"rigid body_i", g + "  - {type: coupling, body_i: ball, set: end0, body_j: beam}\n",
       "bad.yaml:10:30:", "body_i 'ball' is rigid"},
      {"two selectors",
       g + "  - {type: coupling, body_i: beam, set: [end0], nodes: [1], body_j: ball}\n",
       "bad.yaml:10:5:", "give exactly one selector"},
      {"bad form", g + "  - {type: coupling, body_i: beam, set: end0, form: glue}\n",
       "bad.yaml:10:53:", "unknown name 'glue'"},
      {"distributing rotation of one node",
       g + "  - {type: coupling, body_i: beam, set: end0, form: distributing, dofs: "
           "position+rotation}\n",
       "bad.yaml:10:5:", "collinear or coincide"},
      {"distributing rotation of a collinear set",
       g + "  - {type: coupling, body_i: beam, set: [end0, end1], body_j: ball, form: "
           "distributing, dofs: position+rotation}\n",
       "bad.yaml:10:5:", "collinear or coincide"},
  };
  expect_errors(cases);
}

}  // namespace
}  // namespace tlfea::scene_test
