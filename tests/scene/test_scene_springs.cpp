// Scene springs[] (docs/scene.md): spring-dampers built from YAML, their
// defaults (rest length = the points' reference distance), and bad input
// refused at its node.
#include "scene_test_util.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea::scene_test {
namespace {

const char* kSpringScene = R"(time: {dt: 1.0e-3, steps: 2}
bodies:
  - name: ball
    type: rigid
    shape: {type: sphere, radius: 0.1}
    center: [0, 0, 1]
    density: 1000
springs:
  - {name: hang, body_i: ball, point_i: [0, 0, 1], point_j: [0, 0, 2], stiffness: 500, damping: 3}
  - {body_i: ground, point_i: [1, 0, 1], body_j: ball, point_j: [0.05, 0, 1], rest_length: 0.5,
     preload: 10, stiffness: 200}
  - {body_i: ball, point_i: [0, 0.05, 1], point_j: [0, 1.05, 1], table: [[-1, -50], [0, 0], [1, 80]]}
)";

TEST(SceneSprings, BuildsTheSpringDampersWithTheirDefaults) {
  const scene::Scene s = scene::load_scene_text(kSpringScene, "springs.yaml", ".");
  ASSERT_EQ(s.springs.size(), 3u);
  EXPECT_EQ(s.springs[0], "hang");
  EXPECT_EQ(s.springs[1], "spring1");
  const SpringDampers& sd = s.model->spring_dampers();
  ASSERT_EQ(sd.size(), 3);
  auto q0 = host(s.model->reference());
  // Default rest length: the reference distance (1 m), so no force at rest.
  const SpringDamperState a = sd.state(0, q0, CoefViewHost());
  EXPECT_NEAR(a.length, 1.0, 1e-15);
  EXPECT_NEAR(a.force, 0.0, 1e-12);
  // Given rest length 0.5 at distance 0.95: 200 * 0.45 + 10 = 100 N.
  const SpringDamperState b = sd.state(1, q0, CoefViewHost());
  EXPECT_NEAR(b.length, 0.95, 1e-14);
  EXPECT_NEAR(b.force, 100.0, 1e-10);
  // Table at the reference (delta = 0): F = 0, potential 0; the linear
  // springs' potential is 1/2 200 0.45^2 + 10 0.45 = 24.75 J.
  EXPECT_NEAR(s.model->force_element_energy(s.model->reference()), 24.75, 1e-10);
}

// type: rotational between a rigid body and the ground about z: theta of
// the body's x axis about z; turned by 0.3 rad about z, the potential is
// k 0.3^2 / 2 = 4.5 J at k = 100 (the rigid directors turned exactly).
TEST(SceneSprings, RotationalSpringBetweenARigidBodyAndTheGround) {
  const std::string text = R"(time: {dt: 1.0e-3, steps: 2}
bodies:
  - {name: disc, type: rigid, shape: {type: cylinder, radius: 0.2, length: 0.05}, center: [0, 0, 0], density: 1000}
springs:
  - {name: twist, type: rotational, body_i: ground, body_j: disc, axis: [0, 0, 2], stiffness: 100, damping: 1}
)";
  const scene::Scene s = scene::load_scene_text(text, "rot.yaml", ".");
  ASSERT_EQ(s.springs.size(), 1u);
  const RotationalSpringDampers& r = s.model->rotational_spring_dampers();
  ASSERT_EQ(r.size(), 1);
  CoefViewHost q = host(s.model->reference());
  EXPECT_NEAR(r.angle(0, q), 0.0, 1e-15);
  const double t = 0.3, c = std::cos(t), sn = std::sin(t);
  const Ordinal o = s.model->coefficient_offset(0);
  q(o + 1, 0) = c;  // r_1 = (cos t, sin t, 0), r_2 = (-sin t, cos t, 0)
  q(o + 1, 1) = sn;
  q(o + 2, 0) = -sn;
  q(o + 2, 1) = c;
  EXPECT_NEAR(r.angle(0, q), t, 1e-14);
  CoefView qd("q", q.extent(0));
  Kokkos::deep_copy(qd, q);
  EXPECT_NEAR(s.model->force_element_energy(qd), 4.5, 1e-12);
}

// type: rotational on an ANCF node's frame: an ANCF 3243 cantilever (L = 2,
// 0.1 x 0.1, E = 7e8, nu = 0, 16 elements) clamped at x = 0, a tip force P
// (P L^2 / (E I) = 0.01) and a rotational spring k = E I / L between the
// ground and the tip node's frame about y. Euler-Bernoulli with an end
// moment M = -k theta_L (superposition of the tip-force and tip-moment
// cantilevers, e.g. Roark's Formulas, 7th ed., Table 8.1 cases 1a and 3a):
//   theta_L = (P L^2 / (2 E I)) / (1 + k L / (E I)) = 0.0025,
//   w_L = P L^3 / (3 E I) - k theta_L L^2 / (2 E I) = 0.02 / 3 - 0.0025.
// Asserted within 1 % (the B2 cantilever's tolerance, test_static_scene.cpp:
// shear adds 0.16 % at nu = 0, the geometric nonlinearity less). Without
// the spring the slope would be twice as large.
TEST(SceneSprings, RotationalSpringOnAnAncfNodeFrame) {
  const Real L = 2.0, E = 7e8, I = 0.1 * 0.1 * 0.1 * 0.1 / 12.0, kk = 0.01;
  const Real P = kk * E * I / (L * L), k = E * I / L;
  const std::string text = R"(
analysis: static
time: {dt: 0.25, end_time: 1.0}
bodies:
  - name: beam
    element: ANCF3243
    mesh: {generator: beam, length: 2.0, width: 0.1, height: 0.1, elements: 16}
    material: {model: svk, E: 7.0e8, nu: 0.0}
    density: 2700
    clamp: [{set: end0}]
    loads:
      - {type: nodal_force, set: end1, force: [0, 0, )" +
                           std::to_string(P) + R"(], function: {type: ramp, t0: 0, t1: 1}}
springs:
  - {name: tip, type: rotational, body_i: ground, body_j: beam, node_j: 16, axis: [0, 1, 0],
     stiffness: )" + std::to_string(k) +
                           R"(}
output: {enabled: false}
)";
  scene::Scene s = scene::load_scene_text(text, "rot.yaml", ".");
  ASSERT_EQ(s.model->rotational_spring_dampers().size(), 1);
  TimeStepper st(*s.model, s.settings);
  s.apply_initial_state(st);
  for (long i = 0; i < s.steps; ++i) ASSERT_TRUE(st.step().converged);
  const CoefViewHost q = host(st.positions());
  const Ordinal tip = 16 * 4;  // node 16: position, then r_x, r_y, r_z
  // The spring's angle is that of the tip's section director r_z about y
  // (the scene takes the node's cross-section gradient as the frame
  // vector): the section rotation, negative (+z bends x towards z, a
  // rotation by -phi about y).
  const Real phi = -s.model->rotational_spring_dampers().angle(0, q);
  const Real slope = std::atan2(q(tip + 1, 2), q(tip + 1, 0));
  const Real w = q(tip, 2);
  const Real phi_ref = (P * L * L / (2 * E * I)) / (1 + k * L / (E * I));
  const Real w_ref = P * L * L * L / (3 * E * I) - k * phi_ref * L * L / (2 * E * I);
  std::printf("ANCF node spring: section rotation %.6e (EB %.6e), slope %.6e, w %.6e (EB %.6e)\n",
              phi, phi_ref, slope, w, w_ref);
  EXPECT_NEAR(phi, phi_ref, 0.01 * phi_ref);
  EXPECT_NEAR(w, w_ref, 0.01 * w_ref);
  // The centreline's slope exceeds the section rotation by the shear angle
  // V / (G A) (V = P; uniform shear over the section, which the element's
  // section field linear in (y, z) carries; measured 4.17e-6 against
  // 4.17e-6), so the frame is the section's, not the centreline's.
  const Real G = E / 2.0, A = 0.1 * 0.1;
  EXPECT_NEAR(slope - phi, P / (G * A), 0.05 * P / (G * A));
}

TEST(SceneSprings, BadSpringsAreRefusedAtTheirNode) {
  const std::string g = kGood;
  const std::string ball = R"(  - name: ball
    type: rigid
    shape: {type: sphere, radius: 0.1}
    center: [0, 0, 1]
    density: 1000
)";
  const std::string b = g + ball;  // 12 lines
  const std::vector<BadCase> cases = {
      {"springs not a list", b + "springs: {body_i: ball}\n",
       "bad.yaml:13:10:", "scene.springs: expected a list"},
      {"both ground",
       b + "springs:\n  - {body_i: ground, point_i: [0, 0, 0], point_j: [0, 0, 1], stiffness: 1}\n",
       "bad.yaml:14:5:", "body_i and body_j are both the ground"},
      {"stiffness and table",
       b + "springs:\n  - {body_i: ball, point_i: [0, 0, 1], point_j: [0, 0, 2], stiffness: 1, "
           "table: [[0, 0], [1, 1]]}\n",
       "bad.yaml:14:71:", "give stiffness or table"},
      {"table not increasing",
       b + "springs:\n  - {body_i: ball, point_i: [0, 0, 1], point_j: [0, 0, 2], "
           "table: [[0, 0], [0, 1]]}\n",
       "bad.yaml:14:76:", "deflections must increase strictly"},
      {"negative damping",
       b + "springs:\n  - {body_i: ball, point_i: [0, 0, 1], point_j: [0, 0, 2], damping: -1}\n",
       "bad.yaml:14:69:", "damping must be >= 0"},
      {"point outside the body",
       b + "springs:\n  - {body_i: ball, point_i: [5, 0, 1], point_j: [0, 0, 2], stiffness: 1}\n",
       "bad.yaml:14:29:", "is outside body 'ball'"},
      {"rotational on a deformable body",
       g + "springs:\n  - {type: rotational, body_i: cube, axis: [0, 0, 1], stiffness: 1}\n",
       "bad.yaml:9:5:", "a rotational spring-damper joins rigid bodies"},
      {"unknown key",
       b + "springs:\n  - {body_i: ball, point_i: [0, 0, 1], point_j: [0, 0, 2], stifness: 1}\n",
       "bad.yaml:14:60:", "unknown key 'stifness'"},
      {"node frame of a solid",
       g + "springs:\n  - {type: rotational, body_i: cube, node_i: 0, axis: [0, 0, 1]}\n",
       "bad.yaml:9:46:", "has no node frames (only ANCF nodes"},
      {"node frame of a rigid body",
       b + "springs:\n  - {type: rotational, body_i: ball, node_i: 0, axis: [0, 0, 1]}\n",
       "bad.yaml:14:46:", "(rigid) has no nodes"},
      {"node frame of the ground",
       b + "springs:\n  - {type: rotational, body_i: ground, body_j: ball, node_i: 0, axis: [0, "
           "0, 1]}\n",
       "bad.yaml:14:62:", "body ground has no nodes"},
  };
  expect_errors(cases);
  const std::string beam = R"(time: {dt: 1.0e-3, steps: 2}
bodies:
  - name: beam
    element: ANCF3243
    mesh: {generator: beam, length: 1.0, width: 0.05, height: 0.05, elements: 2}
    material: {model: svk, E: 1.0e8, nu: 0.3}
    density: 1000
springs:
)";  // 8 lines
  expect_errors({
      {"node out of range",
       beam + "  - {type: rotational, body_i: beam, node_i: 3, axis: [0, 0, 1]}\n",
       "bad.yaml:9:46:", "node 3 out of range (body 'beam' has 3 nodes)"},
      {"ANCF body without its node",
       beam + "  - {type: rotational, body_i: ground, body_j: beam, axis: [0, 0, 1]}\n",
       "bad.yaml:9:5:", "give node_j"},
  });
}

}  // namespace
}  // namespace tlfea::scene_test
