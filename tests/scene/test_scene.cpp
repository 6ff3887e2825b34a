// Scene files: a parsed scene gives the same state after N steps as the same
// model built in C++; time functions match their closed forms; every kind of
// bad input gives one "FILE:LINE:COLUMN: message" error.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <string>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/scene/scene.hpp"

namespace tlfea {
namespace {

using scene::Scene;
using scene::TimeFunctionSpec;

CoefViewHost host(const CoefView& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

// Largest |a - b| over all coefficients, relative to the largest |b|.
Real relative_difference(const CoefView& a, const CoefView& b) {
  auto ha = host(a), hb = host(b);
  EXPECT_EQ(ha.extent(0), hb.extent(0));
  Real d = 0.0, m = 0.0;
  for (size_t k = 0; k < ha.extent(0) && k < hb.extent(0); ++k)
    for (int c = 0; c < 3; ++c) {
      d = std::max(d, std::fabs(ha(k, c) - hb(k, c)));
      m = std::max(m, std::fabs(hb(k, c)));
    }
  return d / m;
}

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
  EXPECT_EQ(t(-1.0), 0.0);   // held before the first point
  EXPECT_EQ(t(0.5), 5.0);    // linear on [0, 1]
  EXPECT_EQ(t(2.0), 8.0);    // 10 + (6 - 10) * 0.5
  EXPECT_EQ(t(4.0), 6.0);    // held after the last point
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

// ---------------------------------------------------------------- bad input
// Each case: the exact "FILE:LINE:COLUMN:" prefix of the offending node (line
// and column 1-based, counted in the text below: column = Python's
// line.index(token) + 1) and a word of the message.
struct BadCase {
  const char* name;
  std::string text;
  const char* where;
  const char* says;
};

const char* kGood = R"(time: {dt: 1.0e-3, steps: 2}
bodies:
  - name: cube
    element: T10
    mesh: {generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1]}
    material: {model: svk, E: 1.0e6, nu: 0.3}
    density: 1000
)";

std::string replace(std::string s, const std::string& a, const std::string& b) {
  const size_t p = s.find(a);
  EXPECT_NE(p, std::string::npos) << a;
  if (p != std::string::npos) s.replace(p, a.size(), b);
  return s;
}

void expect_errors(const std::vector<BadCase>& cases) {
  for (const auto& c : cases) {
    try {
      scene::load_scene_text(c.text, "bad.yaml", ".");
      ADD_FAILURE() << c.name << ": no error";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(c.where, 0), 0u) << c.name << ": " << msg;
      EXPECT_NE(msg.find(c.says), std::string::npos) << c.name << ": " << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << c.name << ": one line: " << msg;
    }
  }
}

TEST(SceneErrors, GoodBaseParses) {
  Scene s = scene::load_scene_text(kGood, "good.yaml", ".");
  EXPECT_EQ(s.bodies.size(), 1u);
  EXPECT_EQ(s.steps, 2);
  // 1 cell, 6 tetrahedra: 3 x 3 x 3 = 27 nodes, all free.
  EXPECT_EQ(s.unknowns(), 81);
}

TEST(SceneErrors, EachCaseNamesFileLineColumn) {
  const std::string g = kGood;
  const std::vector<BadCase> cases = {
      {"unknown key", replace(g, "    density: 1000\n", "    density: 1000\n    colour: red\n"),
       "bad.yaml:8:5:", "unknown key 'colour'"},
      {"unknown top key", g + "solver_settings: {}\n", "bad.yaml:8:1:", "unknown key"},
      {"missing required", replace(g, "    density: 1000\n", ""), "bad.yaml:3:5:",
       "missing required key 'density'"},
      // A misspelt required key is reported as the unknown key it is, at its
      // own position (kGood's line 7: "    density: 1000").
      {"misspelt required", replace(g, "    density: 1000\n", "    densty: 1000\n"),
       "bad.yaml:7:5:", "unknown key 'densty' in "},
      {"misspelt required, suggestion", replace(g, "    density: 1000\n", "    densty: 1000\n"),
       "bad.yaml:7:5:", "(did you mean 'density'?)"},
      {"wrong type", replace(g, "dt: 1.0e-3", "dt: fast"), "bad.yaml:1:12:", "expected a number"},
      {"wrong type vector", replace(g, "lengths: [0.1, 0.1, 0.1]", "lengths: 0.1"),
       "bad.yaml:5:37:", "list of 3 numbers"},
      {"unknown material", replace(g, "model: svk", "model: rubber"), "bad.yaml:6:23:",
       "unknown name 'rubber'"},
      {"unknown element", replace(g, "element: T10", "element: T4"), "bad.yaml:4:14:",
       "unknown name 'T4'"},
      {"unknown inner solver", g + "solver: {inner: lbfgs}\n", "bad.yaml:8:17:",
       "unknown name 'lbfgs'"},
      {"unknown linear solver", g + "solver: {linear_solver: mumps}\n", "bad.yaml:8:25:",
       "unknown name 'mumps'"},
      {"unknown joint type",
       g + "joints: [{type: hinge, body_i: cube, point: [0, 0, 0], axis: [0, 1, 0]}]\n",
       "bad.yaml:8:17:", "unknown name 'hinge'"},
      {"unknown body in joint",
       g + "joints: [{type: spherical, body_i: box, point: [0, 0, 0]}]\n", "bad.yaml:8:36:",
       "unknown body 'box'"},
      {"missing mesh file",
       replace(g, "{generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1]}",
               "{file: no_such_mesh.msh}"),
       "bad.yaml:5:18:", "not found"},
      {"joint point outside",
       g + "joints: [{type: spherical, body_i: cube, point: [0.5, 0.05, 0.05]}]\n",
       "bad.yaml:8:49:", "outside body 'cube'"},
      {"zero dt", replace(g, "dt: 1.0e-3", "dt: 0"), "bad.yaml:1:12:", "time.dt must be positive"},
      {"negative dt", replace(g, "dt: 1.0e-3", "dt: -1.0e-3"), "bad.yaml:1:12:",
       "time.dt must be positive"},
      {"unknown node set", replace(g, "    density: 1000\n", "    density: 1000\n    clamp: [{set: left}]\n"),
       "bad.yaml:8:19:", "unknown node set 'left'"},
      {"yaml syntax", replace(g, "steps: 2}", "steps: 2"), "bad.yaml:", "YAML syntax error"},
      {"unknown contact law", g + "contact: {law: hertz}\n", "bad.yaml:8:16:",
       "unknown name 'hertz'"},
      {"negative self-contact radius", g + "contact: {self_contact_radius: -1}\n", "bad.yaml:8:32:",
       "self_contact_radius must be >= 0"},
      // Control bytes from the input (YAML escapes \a and \r) are echoed
      // escaped, so the message stays one line.
      {"control bytes in a key", g + "\"col\\aou\\rr\": red\n", "bad.yaml:8:1:",
       "unknown key 'col\\x07ou\\x0dr'"},
      {"control bytes in a value", replace(g, "model: svk", "model: \"s\\x1bvk\""), "bad.yaml:6:23:",
       "unknown name 's\\x1bvk'"},
  };
  expect_errors(cases);
}

// gravity as {vector, function} and body names (they head the history
// columns): bad forms are refused at their key.
TEST(SceneErrors, GravityFormsAndBodyNames) {
  const std::string g = kGood;
  const std::vector<BadCase> cases = {
      {"gravity scalar", g + "gravity: 9.81\n", "bad.yaml:8:10:",
       "gravity: expected a list of 3 numbers [x, y, z] or a mapping"},
      {"gravity vector of 2", g + "gravity: {vector: [0, -9.81]}\n", "bad.yaml:8:19:",
       "gravity.vector: expected a list of 3 numbers"},
      {"gravity without vector", g + "gravity: {function: {type: ramp}}\n", "bad.yaml:8:10:",
       "gravity: missing required key 'vector'"},
      {"gravity unknown key", g + "gravity: {vector: [0, 0, -9.81], ramp: 1}\n", "bad.yaml:8:34:",
       "unknown key 'ramp' in gravity"},
      {"gravity bad function", g + "gravity: {vector: [0, 0, -9.81], function: {type: cosine}}\n",
       "bad.yaml:8:51:", "unknown name 'cosine'"},
      {"gravity ramp t1 <= t0",
       g + "gravity: {vector: [0, 0, -9.81], function: {type: ramp, t0: 1, t1: 1}}\n",
       "bad.yaml:8:44:", "ramp needs t1 > t0"},
      {"body name with a comma", replace(g, "name: cube", "name: \"cu,be\""), "bad.yaml:3:11:",
       "body name 'cu,be': use letters, digits, '_' and '-' only"},
      {"body name with a slash", replace(g, "name: cube", "name: a/b"), "bad.yaml:3:11:",
       "body name 'a/b'"},
  };
  expect_errors(cases);
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
  for (const Case& c : {Case{"gravity: [0, 0, -9.81]\n", false},
                        Case{"gravity: {vector: [0, 0, -9.81]}\n", false},
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

// A repeated key in a mapping (yaml-cpp keeps both, lookups return the
// first) is refused at the second, naming the line of the first (issue 12).
TEST(SceneErrors, DuplicateKeysAtAnyLevelAreRefusedAtTheSecond) {
  const std::string g = kGood;
  const std::vector<BadCase> cases = {
      {"top level", g + "time: {dt: 1.0}\n", "bad.yaml:8:1:",
       "duplicate key 'time' (first at line 1)"},
      // "time: {dt: 1.0e-3, dt: 2, steps: 2}": the second dt at column 20.
      {"flow mapping", replace(g, "dt: 1.0e-3,", "dt: 1.0e-3, dt: 2,"), "bad.yaml:1:20:",
       "duplicate key 'dt' (first at line 1)"},
      {"body in a list", replace(g, "    density: 1000\n", "    density: 1000\n    density: 2000\n"),
       "bad.yaml:8:5:", "duplicate key 'density' (first at line 7)"},
      // A quoted key is the same key.
      {"quoted", replace(g, "    density: 1000\n", "    density: 1000\n    \"density\": 2000\n"),
       "bad.yaml:8:5:", "duplicate key 'density' (first at line 7)"},
      // "    material: {model: svk, E: 1.0e6, nu: 0.3, E: 2.0e6}": the second E at column 47.
      {"nested flow mapping", replace(g, "nu: 0.3}", "nu: 0.3, E: 2.0e6}"), "bad.yaml:6:47:",
       "duplicate key 'E' (first at line 6)"},
      {"mapping inside a list inside a mapping",
       g + "joints: [{type: spherical, body_i: cube, point: [0, 0, 0], type: revolute}]\n",
       "bad.yaml:8:60:", "duplicate key 'type' (first at line 8)"},
  };
  expect_errors(cases);
}

// Sizes checked up front, in arithmetic that cannot overflow, against the
// machine's memory (docs/scene.md, "Limits"); never attempted (issue 12).
TEST(SceneErrors, SizesBeyondMemoryOrIndexRangeAreRefusedUpFront) {
  const std::string g = kGood;
  const std::string plate =
      replace(replace(g, "element: T10", "element: ANCF3443"),
              "{generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1]}",
              "{generator: plate, lx: 1, ly: 1, thickness: 0.01, divisions: [20000, 20000]}");
  const std::vector<BadCase> cases = {
      // Q27 pairs per axis 8 n + 1 (scene.cpp): 9 (8 2147460480 + 1)(8 1431671210 + 1) 9 =
      // 1.59e22 entries of 12 bytes.
      {"box divisions overflowing 64 bits",
       replace(g, "divisions: [1, 1, 1]", "divisions: [2147460480, 1431671210, 1]"),
       "bad.yaml:5:65:", "divisions needs at least 1"},
      {"box divisions: the count in the message",
       replace(g, "divisions: [1, 1, 1]", "divisions: [2147460480, 1431671210, 1]"),
       "bad.yaml:5:65:", "(matrix entries: 1.59e+22 x 12 bytes)"},
      // ANCF pairs per axis 3 n + 1: 9 16 60001^2 = 5.18e11 entries, 6221.0 GB.
      {"20000 x 20000 plate", plate, "bad.yaml:5:72:",
       "needs at least 6221.0 GB (matrix entries: 5.18e+11 x 12 bytes)"},
      {"box divisions beyond 32 bits",
       replace(g, "divisions: [1, 1, 1]", "divisions: [1, 4294967297, 1]"), "bad.yaml:5:69:",
       "4294967297 is out of range (at most 2147483647"},
      // 1e9 contact points of 768 bytes (contact_points.hpp: 9 + 3 reals, 4 ints,
      // 2 x 27 ids of 4 and weights of 8 bytes, an 8-byte key).
      {"contact capacity", g + "contact: {capacity: 1e9}\n", "bad.yaml:8:21:",
       "contact.capacity needs at least 768.0 GB (contact points: 1e+09 x 768 bytes)"},
      {"negative contact capacity", g + "contact: {capacity: -5}\n", "bad.yaml:8:21:",
       "contact.capacity must be >= 0 (0: automatic), got -5"},
      {"samples wrapping at 32 bits", g + "output: {samples: 4294967298}\n", "bad.yaml:8:19:",
       "out of range"},
  };
  expect_errors(cases);
}

// Setup grows like n log n at most (issue 12: a prescribed rotation of
// `set: all` scanned the list of prescribed coefficients once per
// coefficient, 199 s for 100,000 beam elements). Building 8 times the model
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
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
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

// Nonsense that used to be accepted silently (issue 12) is an error at its
// key; the bounds are documented in docs/scene.md.
TEST(SceneErrors, ValuesOutOfTheirPhysicalRangeAreRefused) {
  const std::string g = kGood;
  const std::string svk = "{model: svk, E: 1.0e6, nu: 0.3}";
  const std::vector<BadCase> cases = {
      {"mu_k above mu_s", g + "contact: {mu_s: 0.2, mu_k: 0.3}\n", "bad.yaml:8:28:",
       "mu_k = 0.3 exceeds mu_s = 0.2"},
      {"mu_k above the default mu_s", g + "contact: {mu_k: 0.3}\n", "bad.yaml:8:17:",
       "mu_k = 0.3 exceeds mu_s = 0.25"},
      {"friction 1e6", g + "contact: {mu_s: 1e6, mu_k: 0.3}\n", "bad.yaml:8:17:",
       "contact.mu_s must be in [0, 10], got 1e+06"},
      {"negative slip distance", g + "contact: {slip_distance: -1.0e-4}\n", "bad.yaml:8:26:",
       "contact.slip_distance must be finite and >= 0"},
      {"obstacle nu 2", g + "contact: {obstacles: [{type: plane, nu: 2}]}\n", "bad.yaml:8:41:",
       "contact.obstacles[0].nu must be in (-1, 0.5), got 2"},
      {"obstacle E 0", g + "contact: {obstacles: [{type: plane, E: 0}]}\n", "bad.yaml:8:40:",
       "contact.obstacles[0].E must be positive"},
      {"obstacle E negative", g + "contact: {obstacles: [{type: plane, E: -1e7}]}\n",
       "bad.yaml:8:40:", "contact.obstacles[0].E must be positive"},
      {"negative radius", g + "contact: {radius: -1}\n", "bad.yaml:8:19:",
       "contact.radius must be >= 0"},
      {"negative max_depth", g + "contact: {max_depth: -1}\n", "bad.yaml:8:22:",
       "contact.max_depth must be >= 0"},
      {"negative contact_radius", g + "contact: {contact_radius: -1}\n", "bad.yaml:8:27:",
       "contact.contact_radius must be >= 0"},
      {"Mooney-Rivlin mu10 < 0",
       replace(g, svk, "{model: mooney_rivlin, mu10: -1.0e5, mu01: 3.0e5, kappa: 1.0e7}"),
       "bad.yaml:6:44:", "mu10 must be >= 0"},
      // nu = (3 kappa - 2 mu) / (2 (3 kappa + mu)) = -1 in floating point.
      {"kappa 1e-300", replace(g, svk, "{model: neo_hookean, mu: 1.0e6, kappa: 1e-300}"),
       "bad.yaml:6:54:", "the implied Poisson's ratio -1 is not in (-1, 0.5)"},
      {"density 1e-9", replace(g, "density: 1000", "density: 1e-9"), "bad.yaml:7:14:",
       "density 1e-09 kg/m^3 is outside [0.001, 100000] kg/m^3"},
      {"dt 1e-30 to 0.2 s", replace(g, "time: {dt: 1.0e-3, steps: 2}", "time: {dt: 1.0e-30, end_time: 0.2}"),
       "bad.yaml:1:31:", "is 2e+29 steps, more than 1e+09"},
      {"end_time 1e300", replace(g, "time: {dt: 1.0e-3, steps: 2}", "time: {dt: 1.0e-3, end_time: 1e300}"),
       "bad.yaml:1:30:", "is 1e+303 steps, more than 1e+09"},
      {"steps 1e12", replace(g, "steps: 2", "steps: 1e12"), "bad.yaml:1:27:",
       "time.steps: 1e+12 steps is more than 1e+09"},
  };
  expect_errors(cases);
  // Values at and inside the bounds still parse.
  const std::string ok =
      replace(replace(g, svk, "{model: mooney_rivlin, mu10: 0, mu01: 3.0e5, kappa: 1.0e7}"),
              "density: 1000", "density: 22590") +
      "contact: {mu_s: 10, mu_k: 10, radius: 0, max_depth: 0.001, contact_radius: 0.01,\n"
      "  obstacles: [{type: plane, E: 2.0e11, nu: 0.49}]}\n";
  Scene s = scene::load_scene_text(ok, "good.yaml", ".");
  EXPECT_EQ(s.bodies.size(), 1u);
}

// What `run` would refuse, `check` (the scene reader) refuses at the key
// (issue 12), and errors the model or the contact detection raised without a
// position now point at the offending entry.
TEST(SceneErrors, SettingsRunWouldRefuseAndDuplicatesPointAtTheKey) {
  const std::string g = kGood;
  const std::string beam =
      "time: {dt: 1.0e-3, steps: 2}\n"
      "bodies:\n"
      "  - name: beam\n"
      "    mesh: {generator: beam, length: 1.0, width: 0.02, height: 0.02, elements: 4}\n"
      "    material: {model: svk, E: 7.0e9, nu: 0.33}\n"
      "    density: 2700\n";
  const std::vector<BadCase> cases = {
      {"ilu_level -5", g + "solver: {ilu_level: -5}\n", "bad.yaml:8:21:",
       "solver.ilu_level must be >= 0, got -5"},
      // eigen-ldlt is built everywhere (linear_solver.cpp).
      {"LDL^T without symmetry", g + "solver: {linear_solver: eigen-ldlt, symmetric: false}\n",
       "bad.yaml:8:48:", "solver.symmetric: eigen-ldlt needs a symmetric matrix"},
      {"output.every 2^32", g + "output: {every: 4294967296}\n", "bad.yaml:8:17:",
       "4294967296 is out of range"},
      {"prescribed twice by two entries",
       beam + "    prescribe: [{set: end1}, {nodes: [1, 4]}]\n", "bad.yaml:7:30:",
       "body 'beam'.prescribe[1]: node 4 is already prescribed by body 'beam'.prescribe[0]"},
      {"prescribed twice by one entry", beam + "    prescribe: [{nodes: [1, 1]}]\n",
       "bad.yaml:7:17:", "body 'beam'.prescribe[0]: selects node 1 twice"},
      {"contact body twice", g + "contact: {bodies: [cube, cube]}\n", "bad.yaml:8:26:",
       "contact.bodies: body 'cube' listed twice"},
      // A beam of 4 elements at 2^30 samples: 4 x 4 x 2^30 = 17179869184 points,
      // 72 bytes each (x, displacement, velocity) = 1237.0 GB per step.
      {"output samples beyond the index type", beam + "output: {samples: 1073741824}\n",
       "bad.yaml:7:19:",
       "output.samples: 17179869184 visualisation points per output step, more than the limit "
       "of 1e8 (1237.0 GB per step file); refused"},
      // The limit, 1e8 points per output step (issue 12: samples 100000 wrote
      // 538 MB for two steps): 4 x 4 x 6250001 = 100000016 points, 7.2 GB.
      {"output samples beyond 1e8 points", beam + "output: {samples: 6250001}\n",
       "bad.yaml:7:19:",
       "output.samples: 100000016 visualisation points per output step, more than the limit "
       "of 1e8 (7.2 GB per step file)"},
      // A plate of 1 element: 2 x 7072^2 = 100026368 points.
      {"plate samples beyond 1e8 points",
       replace(replace(g, "element: T10", "element: ANCF3443"),
               "{generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1]}",
               "{generator: plate, lx: 1, ly: 1, thickness: 0.01, divisions: [1, 1]}") +
           "output: {samples: 7072}\n",
       "bad.yaml:8:19:", "output.samples: 100026368 visualisation points per output step"},
  };
  expect_errors(cases);
  // One step's fields estimated for the size warning of `tlfea run`:
  // 4 x 4 x 1000 points x 72 bytes (x, displacement, velocity) = 1152000.
  {
    Scene at = scene::load_scene_text(beam + "output: {samples: 1000}\n", "good.yaml", ".");
    EXPECT_EQ(at.output.step_bytes, 1152000.0);
  }
  // A clamped node may be prescribed (the prescribed motion wins).
  Scene s = scene::load_scene_text(
      beam + "    clamp: [{set: end0}]\n    prescribe: [{set: end0}]\n", "good.yaml", ".");
  EXPECT_EQ(s.model->prescribed().size(), 4u);
  EXPECT_TRUE(s.model->clamped_coefficients().empty());
}

// Joints on finely divided ANCF beams (issue 12: ancf_pendulum failed from
// 150 elements, universal_joint_shaft from 48, "outside body"): the shipped
// examples with 300 and 100 elements per beam build, with as many constraint
// rows as with 4, and the reference configuration satisfies every joint.
TEST(SceneJoints, ExamplesWithFinelyDividedBeamsBuild) {
  const std::string dir = std::string(TLFEA_TEST_DATA_DIR) + "/../../examples/";
  struct Case {
    const char* file;
    std::vector<std::string> fine;
  };
  for (const Case& c :
       {Case{"ancf_pendulum.yaml", {"bodies.0.mesh.elements=300"}},
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

// contact.law: patch with damping_mass: body: the cube (1 kg: 1000 kg/m^3 x
// 1e-3 m^3) pressed 1 mm into a plane gets m* = its mass against the rigid
// plane on every contact, and the patch's normal forces sum to the Hertz law
// (4/3) E* sqrt(R*) delta^(3/2) of the deepest vertex (E* = E / (1 - nu^2)
// against the rigid plane, R* = contact_radius 0.05 m; round-off).
TEST(SceneContact, PatchLawWithBodyDampingMass) {
  const std::string text = std::string(kGood) +
                           "contact:\n  law: patch\n  damping_mass: body\n  contact_radius: 0.05\n"
                           "  obstacles: [{type: plane, point: [0, 0, 0.001]}]\n";
  Scene s = scene::load_scene_text(text, "good.yaml", ".");
  ASSERT_TRUE(s.detection && s.contact);
  const Ordinal n = s.detection->detect(s.model->reference(), 0.0);
  ASSERT_GT(n, 1);
  CoefView v("v", s.model->num_coefficients()), f("f", s.model->num_coefficients());
  s.contact->compute(s.detection->points(), s.model->reference(), v, 1e-3, f);
  auto ms = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.contact->effective_mass());
  auto fn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.contact->normal_force());
  auto dl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.detection->points().delta);
  Real total = 0.0, dmax = 0.0;
  for (Ordinal k = 0; k < n; ++k) {
    EXPECT_NEAR(ms(k), 1.0, 1e-12);
    total += fn(k);
    dmax = std::max(dmax, dl(k));
  }
  EXPECT_NEAR(dmax, 1e-3, 1e-12);
  const Real Es = 1e6 / (1 - 0.09);
  const Real hertz = 4.0 / 3.0 * Es * std::sqrt(0.05) * std::pow(1e-3, 1.5);
  EXPECT_NEAR(total, hertz, 1e-12 * hertz);
}

// Contact material separate from the bulk (issue 11, item 3): the cube's
// bulk E = 1e6 Pa, its contact_material E = 2e8 Pa, nu = 0.25, pressed 1 mm
// into a rigid plane by the plane's position (patch law, R = 0.05 m): the
// total force is Hertz's (4/3) E* sqrt(R) d^(3/2) with E* = 2e8 / (1 - 0.25^2)
// from the contact E, nu (closed form here), not the bulk's 1e6 / (1 - 0.09).
TEST(SceneContact, ContactMaterialSetsTheHertzModulus) {
  const std::string text =
      replace(std::string(kGood), "    density: 1000\n",
              "    density: 1000\n    contact_material: {E: 2.0e8, nu: 0.25, restitution: 0.8}\n") +
      "contact:\n  law: patch\n  contact_radius: 0.05\n"
      "  obstacles: [{type: plane, point: [0, 0, 0.001]}]\n";
  Scene s = scene::load_scene_text(text, "good.yaml", ".");
  ASSERT_TRUE(s.detection && s.contact);
  const Ordinal n = s.detection->detect(s.model->reference(), 0.0);
  ASSERT_GT(n, 1);
  CoefView v("v", s.model->num_coefficients()), f("f", s.model->num_coefficients());
  s.contact->compute(s.detection->points(), s.model->reference(), v, 1e-3, f);
  auto fn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.contact->normal_force());
  Real total = 0.0;
  for (Ordinal k = 0; k < n; ++k) total += fn(k);
  const Real Es = 2e8 / (1 - 0.0625);
  const Real hertz = 4.0 / 3.0 * Es * std::sqrt(0.05) * std::pow(1e-3, 1.5);
  EXPECT_NEAR(total, hertz, 1e-12 * hertz);
  // restitution 0.8 from the body (the section's default is 0.5):
  // beta = -ln e / sqrt(ln^2 e + pi^2).
  const Real le = std::log(0.8), beta = -le / std::sqrt(le * le + M_PI * M_PI);
  EXPECT_NEAR(s.contact->pair_law(0, -1).beta, beta, 1e-15);
  // Without contact_material: the bulk E, nu (today's behaviour).
  Scene b = scene::load_scene_text(std::string(kGood) + "contact: {obstacles: [{type: plane}]}\n",
                                   "good.yaml", ".");
  EXPECT_NEAR(b.contact->pair_law(0, -1).E_star, 1e6 / (1 - 0.09), 1e-6);
}

// contact.pairs overrides a subset of a pair's constants; the rest is what
// the pair had (section defaults combined with the partners' properties).
TEST(SceneContact, PairOverridesKeepTheRestInherited) {
  const std::string text =
      replace(std::string(kGood), "    density: 1000\n",
              "    density: 1000\n    contact_material: {mu_s: 0.6, mu_k: 0.5}\n") +
      "contact:\n  restitution: 0.4\n  slip_distance: 2.0e-5\n"
      "  obstacles: [{type: plane, name: floor}, {type: sphere, center: [0, 0, -1], radius: 0.5,\n"
      "               restitution: 0.9, mu_s: 0.3}]\n"
      "  pairs:\n"
      "    - {body: cube, obstacle: floor, mu_k: 0.1, E_star: 3.0e8}\n"
      "    - {body: cube, obstacle: 1, G_star: 1.0e7, slip_distance: 0}\n";
  Scene s = scene::load_scene_text(text, "good.yaml", ".");
  const ContactLawParams& floor = s.contact->pair_law(0, -1);
  EXPECT_EQ(floor.mu_s, 0.6);    // the body's
  EXPECT_EQ(floor.mu_k, 0.1);    // the pair's
  EXPECT_EQ(floor.E_star, 3e8);  // the pair's
  EXPECT_EQ(floor.slip_distance, 2e-5);  // the section's
  // G* = E_star (1 - nu) / (2 (2 - nu)) for nu = 0.3 against a rigid plane.
  EXPECT_NEAR(floor.G_star, 3e8 * 0.7 / 3.4, 1e-6);
  const Real le = std::log(0.4);
  EXPECT_NEAR(floor.beta, -le / std::sqrt(le * le + M_PI * M_PI), 1e-15);
  const ContactLawParams& ball = s.contact->pair_law(0, -2);
  // e: the sphere's 0.9; mu_s = min(0.6, 0.3); mu_k = the body's 0.5 capped at 0.3.
  const Real l9 = std::log(0.9);
  EXPECT_NEAR(ball.beta, -l9 / std::sqrt(l9 * l9 + M_PI * M_PI), 1e-15);
  EXPECT_EQ(ball.mu_s, 0.3);
  EXPECT_EQ(ball.mu_k, 0.3);
  EXPECT_NEAR(ball.E_star, 1e6 / (1 - 0.09), 1e-6);
  EXPECT_EQ(ball.G_star, 1e7);
  EXPECT_EQ(ball.slip_distance, 0.0);  // the pair's: mu_k as soon as it slips
}

// Obstacle motions from the scene (issue 11, item 6). A plane turning about
// the vertical axis through (0.05, 0.05, 0) at w = 2 rad/s, 1 mm into the
// cube's bottom face: every contact carries omega x (x_c - c) = w (-(y -
// 0.05), x - 0.05, 0). A plane moved by a table z(t) = -0.01 + 0.02 t (rows at
// 0 and 1 s, inline and as a CSV file) is 1 mm into the cube at t = 0.55 s
// with velocity 0.02 m/s (closed form of the linear motion).
TEST(SceneContact, RotatingAndTabulatedObstacles) {
  {
    const std::string text =
        std::string(kGood) +
        "contact:\n  obstacles: [{type: plane, point: [0, 0, 0.001],\n"
        "    angular_velocity: [0, 0, 2], rotation_center: [0.05, 0.05, 0]}]\n";
    Scene s = scene::load_scene_text(text, "good.yaml", ".");
    const Ordinal n = s.detection->detect(s.model->reference(), 0.3);
    ASSERT_GT(n, 0);
    auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.detection->points().x);
    auto vb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                  s.detection->points().obstacle_velocity);
    auto dl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.detection->points().delta);
    for (Ordinal k = 0; k < n; ++k) {
      EXPECT_NEAR(dl(k), 1e-3, 1e-12);
      EXPECT_NEAR(vb(k, 0), -2.0 * (x(k, 1) - 0.05), 1e-12);
      EXPECT_NEAR(vb(k, 1), 2.0 * (x(k, 0) - 0.05), 1e-12);
      EXPECT_NEAR(vb(k, 2), 0.0, 1e-12);
    }
  }
  const std::string dir = ::testing::TempDir();
  {
    std::FILE* fp = std::fopen((dir + "/lift.csv").c_str(), "w");
    ASSERT_NE(fp, nullptr);
    std::fputs("# time, ux, uy, uz\nt,ux,uy,uz\n0, 0, 0, -0.01\n1.0, 0, 0, 0.01\n", fp);
    std::fclose(fp);
  }
  for (const char* motion :
       {"{table: [[0, 0, 0, -0.01], [1.0, 0, 0, 0.01]]}", "{file: lift.csv}"}) {
    const std::string text =
        std::string(kGood) + "contact:\n  obstacles: [{type: plane, motion: " + motion + "}]\n";
    Scene s = scene::load_scene_text(text, "good.yaml", dir);
    EXPECT_EQ(s.detection->detect(s.model->reference(), 0.0), 0) << motion;
    const Ordinal n = s.detection->detect(s.model->reference(), 0.55);
    ASSERT_GT(n, 0) << motion;
    auto vb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                  s.detection->points().obstacle_velocity);
    auto dl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.detection->points().delta);
    for (Ordinal k = 0; k < n; ++k) {
      EXPECT_NEAR(dl(k), 1e-3, 1e-12) << motion;
      EXPECT_NEAR(vb(k, 2), 0.02, 1e-15) << motion;
    }
  }
}

TEST(SceneErrors, ContactMaterialPairsAndMotionsAreValidated) {
  const std::string g = kGood;
  auto cm = [&](const std::string& v) {
    return replace(g, "    density: 1000\n",
                   "    density: 1000\n    contact_material: " + v + "\n");
  };
  const std::string ob = "contact:\n  obstacles: [{type: plane, name: floor}]\n";
  const std::vector<BadCase> cases = {
      {"contact E 0", cm("{E: 0}"), "bad.yaml:8:27:", "contact_material.E must be positive"},
      {"contact nu 0.5", cm("{nu: 0.5}"),
       "bad.yaml:8:28:", "contact_material.nu must be in (-1, 0.5)"},
      {"contact restitution 1.5", cm("{restitution: 1.5}"),
       "bad.yaml:8:37:", "contact_material.restitution must be in (0, 1]"},
      {"contact mu_k above mu_s", cm("{mu_s: 0.2, mu_k: 0.3}"),
       "bad.yaml:8:41:", "mu_k = 0.3 exceeds mu_s = 0.2"},
      {"contact mu negative", cm("{mu_s: -0.1}"), "bad.yaml:8:30:", "must be in [0, 10]"},
      {"contact unknown key", cm("{G: 1}"), "bad.yaml:8:24:", "unknown key 'G'"},
      {"pair unknown body", g + ob + "  pairs: [{body: cub, obstacle: floor}]\n",
       "bad.yaml:10:18:", "unknown body 'cub'"},
      {"pair unknown obstacle", g + ob + "  pairs: [{body: cube, obstacle: flor}]\n",
       "bad.yaml:10:34:", "no obstacle 'flor'"},
      {"pair obstacle index", g + ob + "  pairs: [{body: cube, obstacle: 1}]\n",
       "bad.yaml:10:34:", "no obstacle '1'"},
      {"pair twice",
       g + ob + "  pairs: [{body: cube, obstacle: floor}, {body: cube, obstacle: 0}]\n",
       "bad.yaml:10:42:", "listed twice"},
      {"pair mu_k above inherited mu_s",
       g + ob + "  pairs: [{body: cube, obstacle: floor, mu_k: 0.3}]\n",
       "bad.yaml:10:47:", "mu_k = 0.3 exceeds mu_s = 0.25"},
      {"pair E_star negative", g + ob + "  pairs: [{body: cube, obstacle: floor, E_star: -1}]\n",
       "bad.yaml:10:49:", "E_star must be positive"},
      {"pair three bodies", g + "contact:\n  pairs: [{bodies: [cube, cube, cube]}]\n",
       "bad.yaml:9:20:", "a list of two body names"},
      {"pair without partner", g + "contact:\n  pairs: [{body: cube}]\n",
       "bad.yaml:9:11:", "give bodies: [a, b], or body and obstacle"},
      {"motion times",
       g + "contact:\n  obstacles: [{type: plane, motion: {table: [[0, 0, 0, 0], [0, 0, 0, "
           "1]]}}]\n",
       "bad.yaml:9:60:", "times must increase"},
      {"motion row length",
       g + "contact:\n  obstacles: [{type: plane, motion: {table: [[0, 0, 0]]}}]\n",
       "bad.yaml:9:46:", "got 3 values"},
      {"motion angle without axis",
       g + "contact:\n  obstacles: [{type: plane, motion: {table: [[0, 0, 0, 0, 1]]}}]\n",
       "bad.yaml:9:37:", "need the rotation axis"},
      {"motion non-finite",
       g + "contact:\n  obstacles: [{type: plane, motion: {table: [[0, nan, 0, 0]]}}]\n",
       "bad.yaml:9:50:", "expected a finite number"},
      {"motion and velocity",
       g + "contact:\n  obstacles: [{type: plane, velocity: [1, 0, 0], motion: {table: [[0, 0, 0, "
           "0]]}}]\n",
       "bad.yaml:9:58:", "give either motion or velocity"},
      {"rotation_center alone",
       g + "contact:\n  obstacles: [{type: plane, rotation_center: [0, 0, 0]}]\n",
       "bad.yaml:9:46:", "rotation_center needs angular_velocity"},
      {"motion file missing",
       g + "contact:\n  obstacles: [{type: plane, motion: {file: none.csv}}]\n",
       "bad.yaml:9:44:", "not found"},
  };
  expect_errors(cases);
  // CSV errors name the CSV file's line and column.
  const std::string dir = ::testing::TempDir();
  std::FILE* fp = std::fopen((dir + "/bad_motion.csv").c_str(), "w");
  ASSERT_NE(fp, nullptr);
  std::fputs("t,ux,uy,uz\n0, 0, 0, 0\n1, 0, x1, 0\n", fp);
  std::fclose(fp);
  try {
    scene::load_scene_text(
        g + "contact:\n  obstacles: [{type: plane, motion: {file: bad_motion.csv}}]\n", "bad.yaml",
        dir);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad_motion.csv:3:7: "), std::string::npos) << msg;
    EXPECT_NE(msg.find("expected a number, got 'x1'"), std::string::npos) << msg;
  }
  fp = std::fopen((dir + "/bad_motion.csv").c_str(), "w");
  std::fputs("0, 0, 0, 0\n0, 0, 0, 1\n", fp);
  std::fclose(fp);
  try {
    scene::load_scene_text(
        g + "contact:\n  obstacles: [{type: plane, motion: {file: bad_motion.csv}}]\n", "bad.yaml",
        dir);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad_motion.csv:2:1: "), std::string::npos) << msg;
    EXPECT_NE(msg.find("times must increase"), std::string::npos) << msg;
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
