// Scene files: a parsed scene gives the same state after N steps as the same
// model built in C++; time functions, joint drives and gravity functions
// match their closed forms.
#include "scene_test_util.hpp"

namespace tlfea {
namespace {

using namespace scene_test;
using scene::Scene;
using scene::TimeFunctionSpec;

// ---------------------------------------------------------------- time functions
// Closed forms evaluated by hand.
TEST(SceneTimeFunction, ClosedForms) {
  TimeFunctionSpec c;
  c.kind = TimeFunctionSpec::Kind::Constant;
  c.value = 2.5;
  EXPECT_EQ(c(0.0), 2.5);
  EXPECT_EQ(c(7.0), 2.5);

  TimeFunctionSpec r;
  r.kind = TimeFunctionSpec::Kind::Ramp;
  r.t0 = 1.0;
  r.t1 = 3.0;
  r.from = -1.0;
  r.to = 3.0;
  EXPECT_EQ(r(0.0), -1.0);  // before t0: from
  EXPECT_EQ(r(2.0), 1.0);   // midway: (from + to) / 2
  EXPECT_EQ(r(2.5), 2.0);   // -1 + 4 * 0.75
  EXPECT_EQ(r(9.0), 3.0);   // after t1: to

  TimeFunctionSpec s;
  s.kind = TimeFunctionSpec::Kind::Sine;
  s.amplitude = 2.0;
  s.frequency = 1.0;
  s.offset = 0.5;
  s.phase = 0.0;
  // 0.5 + 2 sin(2 pi * 0.125) = 0.5 + 2 sin(pi / 4) = 0.5 + sqrt(2) = 1.9142135623730951
  EXPECT_NEAR(s(0.125), 1.9142135623730951, 1e-15);
  EXPECT_NEAR(s(0.25), 2.5, 1e-15);  // sin(pi / 2) = 1

  TimeFunctionSpec t;
  t.kind = TimeFunctionSpec::Kind::Table;
  t.table = {{0.0, 0.0}, {1.0, 10.0}, {3.0, 6.0}};
  EXPECT_EQ(t(-1.0), 0.0);  // held before the first point
  EXPECT_EQ(t(0.5), 5.0);   // linear on [0, 1]
  EXPECT_EQ(t(2.0), 8.0);   // 10 + (6 - 10) * 0.5
  EXPECT_EQ(t(4.0), 6.0);   // held after the last point
}

// The YAML forms of the time functions reach the model: a node prescribed
// to X + d f(t) sits exactly there after each step (ramp from 0 to 1 over
// [0, 0.01] s, d = 1 mm along x; sine 1 mm at 25 Hz along y).
TEST(SceneTimeFunction, PrescribedMotionFollowsTheFunction) {
  const std::string text = R"(
time: {dt: 1.0e-3, steps: 4}
bodies:
  - name: cube
    element: T10
    mesh: {generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1]}
    material: {model: svk, E: 1.0e6, nu: 0.3}
    density: 1000
    clamp: [{set: xmin}]
    prescribe:
      - {set: xmax, displacement: [1.0e-3, 0, 0], function: {type: ramp, t0: 0, t1: 0.01, from: 0, to: 1}}
      - {box: {min: [0.01, 0.09, -1], max: [0.09, 1, 1]}, displacement: [0, 1.0e-3, 0], function: {type: sine, amplitude: 1, frequency: 25}}
output: {enabled: false}
)";
  Scene s = scene::load_scene_text(text, "motion.yaml", ".");
  TimeStepper st(*s.model, s.settings);
  const Mesh& mesh = s.model->mesh(0);
  for (int k = 1; k <= 4; ++k) {
    st.step();
    auto q = host(st.positions());
    const Real t = k * 1e-3;
    // A node only on xmax (not on ymax): X + 1e-3 * t / 0.01 in x.
    for (Ordinal n : mesh.node_sets.at("xmax")) {
      const auto& X = mesh.node_position(n);
      if (std::fabs(X[1] - 0.1) < 1e-12) continue;
      EXPECT_NEAR(q(n, 0), X[0] + 1e-3 * t / 0.01, 1e-15);
      EXPECT_NEAR(q(n, 1), X[1], 1e-15);
    }
    for (Ordinal n : mesh.node_sets.at("ymax")) {
      const auto& X = mesh.node_position(n);
      if (X[0] < 0.01 || X[0] > 0.09) continue;  // outside the selector box
      EXPECT_NEAR(q(n, 1), X[1] + 1e-3 * std::sin(2 * M_PI * 25 * t), 1e-15);
    }
  }
}

// ---------------------------------------------------------------- scene == C++
// ANCF 3243 pendulum on a revolute joint to the ground, released horizontal,
// with an initial velocity: 20 steps from the scene and from the same calls
// in C++ agree to round-off (the scene's placement adds the translation to
// the generator's coordinates, the C++ model does the same). Both run full
// Newton: with Jacobian reuse the refactor decision is a ratio test that
// round-off can flip where the assembly's atomic sums vary (OpenMP threads),
// and the two runs then stop on different iterates within the 1e-8 N
// tolerance (seen: 1.8e-10 in velocity in 3 of 300 two-thread runs; 1e-12
// at most in 300 with full Newton; bit-identical with one thread).
TEST(SceneEquivalence, AncfPendulumOnRevoluteJoint) {
  const std::string text = R"(
gravity: [0, 0, -9.81]
time: {dt: 1.0e-3, steps: 20}
bodies:
  - name: beam
    element: ANCF3243
    mesh: {generator: beam, length: 1.0, width: 0.05, height: 0.05, elements: 4}
    placement: {translation: [0, 0, 1]}
    material: {model: svk, E: 1.0e8, nu: 0.3}
    density: 1000
    velocity: [0, 0, 0.5]
joints:
  - {name: hinge, type: revolute, body_i: beam, body_j: ground, point: [0, 0, 1], axis: [0, 1, 0], fiber: 0.01}
solver: {reuse_jacobian: false}
output: {enabled: false}
)";
  Scene s = scene::load_scene_text(text, "pendulum.yaml", ".");
  ASSERT_EQ(s.joints.size(), 1u);
  EXPECT_EQ(s.joints[0].second.count, 5);  // revolute: 5 rows
  TimeStepper a(*s.model, s.settings);
  s.apply_initial_state(a);
  for (int i = 0; i < s.steps; ++i) a.step();

  Model m;
  Mesh mesh = generate_beam_ancf3243(1.0, 0.05, 0.05, 4);
  for (size_t k = 0; k < mesh.coefficients.size(); k += 4) mesh.coefficients[k][2] += 1.0;
  m.add_body(mesh, MaterialSpec::svk(1e8, 0.3), 1000.0);
  m.set_gravity({{0, 0, -9.81}});
  auto q0 = host(m.reference());
  const Vec3 X{{0, 0, 1}}, axis{{0, 1, 0}};
  m.constraints().add_revolute(body_joint_frame(m.block(0), q0, X, axis, 0.01),
                               ground_joint_frame(X, axis, 0.01));
  StepperSettings ss;
  ss.dt = 1e-3;
  ss.reuse_jacobian = false;
  TimeStepper b(m, ss);
  CoefView v("v", m.num_coefficients());
  auto vh = Kokkos::create_mirror_view(v);
  for (Ordinal k = 0; k < m.num_coefficients(); k += 4) vh(k, 2) = 0.5;  // positions only
  Kokkos::deep_copy(v, vh);
  b.set_velocities(v);
  for (int i = 0; i < 20; ++i) b.step();
  // Round-off: the two models make the same calls; 1e-12 of the largest
  // coordinate (1 m) leaves room for the order of the placement additions.
  EXPECT_LT(relative_difference(a.positions(), b.positions()), 1e-12);
  EXPECT_LT(relative_difference(a.velocities(), b.velocities()), 1e-10);
  // And it moved: the tip fell below its start (free fall g t^2/2 ~ 2 mm scale).
  auto q = host(a.positions());
  EXPECT_GT(std::fabs(q(16, 2) - 1.0), 1e-4);
}

// T10 bar clamped at x = 0 (set) under gravity, a ramped dead traction on
// xmax and a point force at a reference position: scene vs C++.
TEST(SceneEquivalence, ClampedT10BarWithLoads) {
  const std::string text = R"(
gravity: [0, 0, -9.81]
time: {dt: 2.0e-3, steps: 10}
bodies:
  - name: bar
    element: T10
    mesh: {generator: box, lengths: [1.0, 0.1, 0.1], divisions: [5, 1, 1], origin: [0, -0.05, -0.05]}
    material: {model: neo_hookean, mu: 4.0e6, kappa: 2.0e7}
    density: 1200
    clamp: [{plane: {point: [0, 0, 0], normal: [1, 0, 0]}}]
    loads:
      - {type: traction, faces: xmax, traction: [0, 0, -1.0e4], function: {type: ramp, t0: 0, t1: 0.02}}
      - {type: point_force, position: [0.5, 0.0, 0.05], force: [0, 5, 0], function: 2.0}
output: {enabled: false}
)";
  Scene s = scene::load_scene_text(text, "bar.yaml", ".");
  TimeStepper a(*s.model, s.settings);
  for (int i = 0; i < s.steps; ++i) a.step();

  Model m;
  Mesh mesh = generate_box(ElementType::T10, {1.0, 0.1, 0.1}, {5, 1, 1}, {0, -0.05, -0.05});
  m.add_body(mesh, MaterialSpec::neo_hookean(4e6, 2e7), 1200.0);
  m.set_gravity({{0, 0, -9.81}});
  m.clamp_node_set(0, "xmin");
  m.add_traction(0, "xmax", {{0, 0, -1e4}}, [](Real t) { return t >= 0.02 ? 1.0 : t / 0.02; });
  // The point (0.5, 0, 0.05) by the library's own search, then its (element, xi).
  auto q0 = host(m.reference());
  const MaterialPoint p = find_material_point(m.block(0), q0, {{0.5, 0.0, 0.05}});
  ASSERT_GT(p.num, 0);
  // Equivalent nodal forces s_l F on the point's coefficients.
  for (int l = 0; l < p.num; ++l)
    m.add_nodal_force(0, p.id[l], {{0, 5 * p.weight[l], 0}}, [](Real) { return 2.0; });
  StepperSettings ss;
  ss.dt = 2e-3;
  TimeStepper b(m, ss);
  for (int i = 0; i < 10; ++i) b.step();
  // Newton converges to 1e-8 N in |g| from each side; the point-force paths
  // differ (element quadrature vs nodal sums), so compare to 1e-9 of 1 m.
  EXPECT_LT(relative_difference(a.positions(), b.positions()), 1e-9);
  auto q = host(a.positions());
  const Ordinal tip = mesh.node_sets.at("xmax").front();
  EXPECT_LT(q(tip, 2) - mesh.node_position(tip)[2], -1e-6);  // it sagged
}

// ---------------------------------------------------------------- joint drives
// A stiff steel ANCF beam on a revolute joint about z at the origin, driven
// to theta = 0.2 rad by a ramp over 0.02 s and held; no gravity. The tip
// must sit at angle 0.2 (closed form of the drive); 2e-3 rad allows the
// elastic bending of the 0.2 m, 2 cm steel beam after the spin-up.
TEST(SceneJointDrive, RevoluteAngleFollowsTheDrive) {
  const std::string text = R"(
time: {dt: 1.0e-3, steps: 60}
bodies:
  - name: arm
    element: ANCF3243
    mesh: {generator: beam, length: 0.2, width: 0.02, height: 0.02, elements: 2}
    material: {model: svk, E: 2.0e11, nu: 0.3, damping: {mu_v: 1.0e6}}
    density: 7850
joints:
  - {name: motor, type: revolute, body_i: ground, body_j: arm, point: [0, 0, 0], axis: [0, 0, 1],
     drive: {type: ramp, t0: 0, t1: 0.02, from: 0, to: 0.2}}
output: {enabled: false}
)";
  Scene s = scene::load_scene_text(text, "drive.yaml", ".");
  EXPECT_EQ(s.joints[0].second.count, 7);  // 5 revolute rows + 2 rotation-driver rows (cos, sin)
  TimeStepper st(*s.model, s.settings);
  for (int i = 0; i < s.steps; ++i) st.step();
  auto q = host(st.positions());
  const Ordinal tip = 4 * 2;  // node 2 (end1) position coefficient
  EXPECT_NEAR(std::atan2(q(tip, 1), q(tip, 0)), 0.2, 2e-3);
  EXPECT_NEAR(std::hypot(q(tip, 0), q(tip, 1)), 0.2, 1e-4);  // length kept (rigid-like)
}

// A Q27 block on a prismatic joint along x at its centre, driven by
// s(t) = 0.5 t (table), no gravity: the centre moves by s(t) = 0.01 m after
// 0.02 s (closed form); 1e-6 m: the joint point is the centre, held to the
// constraint tolerance.
TEST(SceneJointDrive, PrismaticDisplacementFollowsTheDrive) {
  const std::string text = R"(
time: {dt: 1.0e-3, steps: 20}
bodies:
  - name: slider
    element: Q27
    mesh: {generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1], origin: [-0.05, -0.05, -0.05]}
    material: {model: svk, E: 1.0e7, nu: 0.3}
    density: 1000
joints:
  - {name: rail, type: prismatic, body_i: ground, body_j: slider, point: [0, 0, 0], axis: [1, 0, 0],
     drive: {type: table, points: [[0, 0], [1, 0.5]]}}
output: {enabled: false}
)";
  Scene s = scene::load_scene_text(text, "rail.yaml", ".");
  TimeStepper st(*s.model, s.settings);
  for (int i = 0; i < s.steps; ++i) st.step();
  auto q = host(st.positions());
  const Ordinal centre = 13;  // node (1, 1, 1) of the 3 x 3 x 3 grid
  EXPECT_NEAR(q(centre, 0), 0.01, 1e-6);
  EXPECT_NEAR(q(centre, 1), 0.0, 1e-6);
  EXPECT_NEAR(q(centre, 2), 0.0, 1e-6);
}

// Gravity with a time function: the plain list and {vector} give f = 1, a
// ramp gives g t / T_r. A T10 cube in free fall (no supports) moves as a
// rigid body with the acceleration g f(t); the velocity-level backward
// Euler (docs/theory.md §6.1: v_n = v_{n-1} + h g f(t_n), q_n = q_{n-1} +
// h v_n) gives in closed form, for f = t / T_r and n h <= T_r,
//   v_n = g h^2 n (n + 1) / (2 T_r),  q_n - q_0 = g h^3 n (n + 1) (n + 2) / (6 T_r),
// and for f = 1: v_n = g h n, q_n - q_0 = g h^2 n (n + 1) / 2.
TEST(SceneGravity, TimeFunctionScalesGravity) {
  const std::string base = R"(time: {dt: 1.0e-3, steps: 10}
bodies:
  - name: cube
    element: T10
    mesh: {generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1]}
    material: {model: svk, E: 1.0e6, nu: 0.3}
    density: 1000
solver: {residual_abs_tol: 1.0e-13}
output: {enabled: false}
)";
  const Real h = 1e-3, Tr = 0.02, g = -9.81;
  const int n = 10;
  struct Case {
    const char* gravity;
    bool ramp;
  };
  for (const Case& c :
       {Case{"gravity: [0, 0, -9.81]\n", false}, Case{"gravity: {vector: [0, 0, -9.81]}\n", false},
        Case{"gravity: {vector: [0, 0, -9.81], function: {type: ramp, t0: 0, "
             "t1: 0.02}}\n",
             true}}) {
    Scene s = scene::load_scene_text(base + c.gravity, "gravity.yaml", ".");
    EXPECT_EQ(s.model->gravity()[2], g);
    EXPECT_EQ(s.model->gravity_factor(0.01), c.ramp ? 0.5 : 1.0) << c.gravity;
    TimeStepper st(*s.model, s.settings);
    for (int k = 0; k < n; ++k) st.step();
    const Real dz = c.ramp ? g * h * h * h * n * (n + 1.0) * (n + 2.0) / (6.0 * Tr)
                           : g * h * h * n * (n + 1.0) / 2.0;
    const Real vz = c.ramp ? g * h * h * n * (n + 1.0) / (2.0 * Tr) : g * h * n;
    auto q = host(st.positions()), v = host(st.velocities());
    const Mesh& mesh = s.model->mesh(0);
    Real err_q = 0.0, err_v = 0.0;
    for (Ordinal k = 0; k < mesh.num_nodes(); ++k) {
      const auto& X = mesh.node_position(k);
      err_q = std::max(err_q, std::fabs(q(k, 2) - (X[2] + dz)) + std::fabs(q(k, 0) - X[0]));
      err_v = std::max(err_v, std::fabs(v(k, 2) - vz) + std::fabs(v(k, 0)));
    }
    EXPECT_LT(err_q, 1e-13) << c.gravity;
    EXPECT_LT(err_v, 1e-10) << c.gravity;
    std::printf("%s  free fall: |q - q_BE| %.3g m, |v - v_BE| %.3g m/s\n", c.gravity, err_q, err_v);
  }
}

}  // namespace
}  // namespace tlfea
