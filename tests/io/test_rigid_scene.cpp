// Rigid bodies in scenes (docs/scene.md, "Rigid bodies"):
// the three ways to give mass properties, checkpoint / restart of a
// mechanism of rigid and flexible parts, the output writer, and the input
// errors. Reference for the restart: the uninterrupted run itself.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>

#include "tlfea/core/error.hpp"
#include "tlfea/io/output.hpp"
#include "tlfea/scene/scene.hpp"

namespace tlfea {
namespace {

constexpr bool kSerial = std::is_same<ExecSpace, Kokkos::Serial>::value;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "tlfea_rigid_" + std::to_string(getpid()) + "_" + name;
}

// examples/rigid_crank_flexible_rod.yaml, plus a rigid T10 ball on a
// spherical joint carrying a torque, and a rigid cylinder spinning freely.
const char* kScene = R"(
name: rigid_mechanism
time: {dt: 1.0e-3, steps: 20}
gravity: [0, -9.81, 0]
bodies:
  - name: crank
    type: rigid
    shape: {type: box, size: [0.1, 0.02, 0.02]}
    center: [0.05, 0, 0]
    density: 7850
  - name: rod
    element: ANCF3243
    mesh: {generator: beam, length: 0.3, width: 0.01, height: 0.01, elements: 4}
    placement: {translation: [0.1, 0, 0]}
    material: {model: svk, E: 2.0e8, nu: 0.3}
    density: 7850
  - name: slider
    type: rigid
    mass: 0.5024
    inertia: [[1.3397e-4, 0, 0], [0, 1.3397e-4, 0], [0, 0, 1.3397e-4]]
    center: [0.42, 0, 0]
    extent: [0.02, 0.02, 0.02]
  - name: ball
    type: rigid
    element: T10
    mesh: {generator: ball, radius: 0.05, divisions: 2, center: [0, 0.5, 0]}
    density: 1000
    angular_velocity: [0, 3, 0]
    loads:
      - {type: torque, torque: [0, 0, 0.01], function: {type: ramp, t0: 0, t1: 0.01}}
  - name: wheel
    type: rigid
    shape: {type: cylinder, radius: 0.1, length: 0.02}
    center: [1, 0, 0]
    density: 1000
    velocity: [0, 1, 0]
    angular_velocity: [0.2, 0, 10]
    loads:
      - {type: point_force, position: [1.1, 0, 0], force: [0, 0, 1]}
      - {type: nodal_force, set: all, force: [0, 0, -1]}
joints:
  - name: crank_bearing
    type: revolute
    body_i: ground
    body_j: crank
    point: [0, 0, 0]
    axis: [0, 0, 1]
    drive: {type: table, points: [[0, 0], [0.2, 0.25], [1.0, 6.283185307179586]]}
  - {name: crank_pin, type: revolute, body_i: rod, body_j: crank, point: [0.1, 0, 0], axis: [0, 0, 1]}
  - {name: wrist_pin, type: revolute, body_i: rod, body_j: slider, point: [0.4, 0, 0], axis: [0, 0, 1]}
  - {name: guide, type: prismatic, body_i: slider, body_j: ground, point: [0.42, 0, 0], axis: [1, 0, 0]}
  - {name: ball_joint, type: spherical, body_i: ball, body_j: ground, point: [0, 0.55, 0]}
)";

scene::Scene load(const std::string& text = kScene) {
  return scene::load_scene_text(text, "rigid.yaml", ".");
}

TEST(RigidScene, MassPropertiesAndListing) {
  const scene::Scene s = load();
  ASSERT_EQ(s.bodies.size(), 5u);
  const Real rho = 7850.0;
  EXPECT_TRUE(s.bodies[0].rigid);
  EXPECT_FALSE(s.bodies[1].rigid);
  EXPECT_NEAR(s.bodies[0].mass, rho * 0.1 * 0.02 * 0.02, 1e-12);
  EXPECT_NEAR(s.bodies[2].mass, 0.5024, 1e-15);
  const Model& m = *s.model;
  // Box: I_zz = m (a^2 + b^2) / 12 about the centre.
  const RigidBodySpec& crank = m.rigid_spec(0);
  EXPECT_NEAR(crank.inertia(2, 2), crank.mass * (0.01 + 0.0004) / 12, 1e-15);
  // Cylinder (axis z): I_zz = m r^2 / 2, I_xx = m (3 r^2 + l^2) / 12.
  const RigidBodySpec& wheel = m.rigid_spec(4);
  EXPECT_NEAR(wheel.mass, 1000.0 * M_PI * 0.01 * 0.02, 1e-12);
  EXPECT_NEAR(wheel.inertia(2, 2), 0.5 * wheel.mass * 0.01, 1e-15);
  EXPECT_NEAR(wheel.inertia(0, 0), wheel.mass * (0.03 + 0.0004) / 12, 1e-15);
  // The T10 ball: the mesh's own mass (polyhedral, below 4/3 pi r^3 rho),
  // centre at the ball's centre, I_c isotropic: I ~ 2/5 m r^2 within the
  // faceting (a few %).
  const RigidBodySpec& ball = m.rigid_spec(3);
  EXPECT_NEAR(ball.center[1], 0.5, 1e-12);
  EXPECT_NEAR(ball.inertia(0, 0) / (0.4 * ball.mass * 0.0025), 1.0, 0.1);
  EXPECT_NEAR(ball.inertia(0, 0), ball.inertia(2, 2), 1e-9 * ball.inertia(0, 0));
  EXPECT_EQ(s.bodies[3].mass, ball.mass);
  // Rows: 7 + 5 + 5 + 5 + 3 joint rows, 6 rigidity rows per rigid body.
  EXPECT_EQ(s.constraint_rows(), 25 + 4 * 6);
  EXPECT_EQ(m.rigidity_rows(4).count, 6);
}

TEST(RigidScene, InitialVelocityIsTheRigidMotionAboutTheCentre) {
  scene::Scene s = load();
  TimeStepper st(*s.model, s.settings);
  s.apply_initial_state(st);
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), st.positions());
  auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), st.velocities());
  const Model::RigidPose p = s.model->rigid_pose(4, q, v);
  const Real want_v[3] = {0, 1, 0}, want_w[3] = {0.2, 0, 10};
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(p.velocity[a], want_v[a], 1e-15);
    EXPECT_NEAR(p.angular_velocity[a], want_w[a], 1e-14);
    EXPECT_NEAR(p.center[a], a == 0 ? 1.0 : 0.0, 1e-15);
  }
}

void expect_same(const CoefView& a, const CoefView& b, const char* what) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  ASSERT_EQ(ha.extent(0), hb.extent(0));
  for (size_t k = 0; k < ha.extent(0); ++k)
    for (int c = 0; c < 3; ++c) {
      if (kSerial)
        ASSERT_EQ(ha(k, c), hb(k, c)) << what << "(" << k << ", " << c << ")";
      else
        ASSERT_NEAR(ha(k, c), hb(k, c), 1e-9) << what << "(" << k << ", " << c << ")";
    }
}

// Checkpoint at step 10 of 20, restart on a freshly loaded scene: the
// rigid state (four coefficients per body, their multipliers) continues
// bit-identically in Serial. The output writer runs alongside (rigid shapes
// written moved rigidly, pose datasets, per-body history columns).
TEST(RigidScene, CheckpointRestartIsBitIdenticalAndOutputWrites) {
  scene::Scene full = load();
  TimeStepper a(*full.model, full.settings);
  full.apply_initial_state(a);
  io::OutputSettings os;
  os.directory = temp_path("out");
  for (const auto& b : full.bodies) os.body_names.push_back(b.name);
  {
    io::OutputWriter w(*full.model, a, os);
    for (const auto& j : full.joints) w.add_joint(j.first, j.second);
    for (int i = 0; i < 20; ++i) {
      const StepReport r = a.step();
      ASSERT_TRUE(r.converged);
      w.record(r);
    }
    w.finish();
  }
  {
    // A primitive is drawn as its contact triangulation (docs/scene.md,
    // "Rigid bodies"): body 0, the crank box at the default divisions 4, is
    // 6 faces x 4 x 4 squares x 2 = 192 triangles.
    std::ifstream in(os.directory + "/output.xdmf");
    std::stringstream text;
    text << in.rdbuf();
    const std::string body0 =
        "<Grid Name=\"body0\" GridType=\"Uniform\">\n"
        "     <Topology TopologyType=\"Triangle\" NumberOfElements=\"192\">";
    EXPECT_NE(text.str().find(body0), std::string::npos) << text.str().substr(0, 2000);
  }
  const std::string ck = temp_path("ck.h5");
  {
    scene::Scene first = load();
    TimeStepper b(*first.model, first.settings);
    first.apply_initial_state(b);
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(b.step().converged);
    io::save_checkpoint(ck, b);
  }
  scene::Scene second = load();
  TimeStepper c(*second.model, second.settings);
  io::load_checkpoint(ck, c);
  for (int i = 10; i < 20; ++i) ASSERT_TRUE(c.step().converged);
  expect_same(c.positions(), a.positions(), "q");
  expect_same(c.velocities(), a.velocities(), "v");
  // The rigid bodies stay rigid: |R^T R - 1| within the constraint tolerance.
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.positions());
  for (int b : {0, 2, 3, 4}) {
    const Model::RigidPose p = second.model->rigid_pose(b, q);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        Real s = 0;
        for (int k = 0; k < 3; ++k) s += p.rotation(k, i) * p.rotation(k, j);
        EXPECT_NEAR(s, i == j ? 1.0 : 0.0, 1e-7);
      }
  }
  std::remove(ck.c_str());
}

// A driven rigid body: `prescribe` with `rotation` on its node set `all`
// moves the centre and the three axes with R(angle(t)) (docs/scene.md,
// "Rigid bodies"); a flexible ANCF rod hangs from it on a revolute joint.
// Closed form: centre p + R (c - p), R = [r_1 r_2 r_3] = R(angle(t)).
TEST(RigidScene, PrescribedRotationDrivesTheRigidBody) {
  const std::string text = R"(
time: {dt: 1.0e-3, steps: 50}
gravity: [0, -9.81, 0]
bodies:
  - name: disk
    type: rigid
    shape: {type: cylinder, radius: 0.1, length: 0.02}
    center: [0.05, 0, 0]
    density: 7850
    prescribe:
      - set: all
        rotation: {axis: [0, 0, 1], point: [0, 0, 0], angle: {type: ramp, t0: 0, t1: 0.05, from: 0, to: 0.5}}
  - name: rod
    element: ANCF3243
    mesh: {generator: beam, length: 0.3, width: 0.01, height: 0.01, elements: 2}
    placement: {translation: [0.1, 0, 0]}
    material: {model: svk, E: 2.0e9, nu: 0.3}
    density: 7850
joints:
  - {name: pin, type: revolute, body_i: rod, body_j: disk, point: [0.1, 0, 0], axis: [0, 0, 1]}
)";
  scene::Scene s = load(text);
  TimeStepper st(*s.model, s.settings);
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(st.step().converged);
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), st.positions());
  const Model::RigidPose p = s.model->rigid_pose(0, q);
  const Real a = 0.5, c = std::cos(a), sn = std::sin(a);
  const Real R[3][3] = {{c, -sn, 0}, {sn, c, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(p.center[i], R[i][0] * 0.05, 1e-14);
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(p.rotation(i, j), R[i][j], 1e-14);
  }
  // The rod's pinned end follows the disk's point (0.1, 0, 0).
  EXPECT_NEAR(q(s.model->coefficient_offset(1), 0), 0.1 * c, 1e-7);
  EXPECT_NEAR(q(s.model->coefficient_offset(1), 1), 0.1 * sn, 1e-7);
}

// Contact of rigid bodies from a scene (docs/scene.md, "Rigid bodies"): a
// rigid sphere (R = 0.05 m, 1000 kg/m^3, contact_material E = 1e7 Pa,
// nu = 0.3) resting on a rigid box (0.2 x 0.2 x 0.1 m, same contact
// material) resting on the ground plane, gravity ramped in over 0.05 s,
// point law with R* = 0.05 m. The ball stands at (0.0125, 0.0125), halfway
// between the box's top-face grid vertices (0.05 m apart), so that only its
// pole vertex touches (the nearest box vertex is 1.6 mm below the sphere,
// the ball's next latitude ring 1.7 mm above the face): one Hertz spring of
// two compliant partners, E* = E / (2 (1 - nu^2)) (docs/theory.md §7.4):
//   m g = (4/3) E* sqrt(R*) delta^{3/2},  m = (4/3) pi R^3 rho   (by hand),
// delta measured in the box's frame (the pole's depth below its top face).
// The off-centre load tilts the box on its 25 ground springs by about
// m g 0.0125 / (sum_i k_i x_i^2) = 1.3e-5 rad (k_i = 1.5 F_i / delta_i,
// by hand), and the ball rolls down that slope by (5/7) g theta t^2 / 2 =
// 6e-6 m: the box's axes within 1e-4 and the ball within 1e-4 m of where
// it was set.
TEST(RigidScene, RigidBallRestsOnARigidBoxOnTheGround) {
  const std::string text = R"(
time: {dt: 1.0e-4, steps: 4000}
gravity: {vector: [0, 0, -9.81], function: {type: ramp, t0: 0, t1: 0.05}}
bodies:
  - name: box
    type: rigid
    shape: {type: box, size: [0.2, 0.2, 0.1]}
    center: [0, 0, 0.05]
    density: 1000
    contact_material: {E: 1.0e7, nu: 0.3}
  - name: ball
    type: rigid
    shape: {type: sphere, radius: 0.05}
    center: [0.0125, 0.0125, 0.15]
    density: 1000
    contact_material: {E: 1.0e7, nu: 0.3}
contact:
  bodies: [box, ball]
  restitution: 0.5
  radius: 0.05
  obstacles: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
)";
  scene::Scene s = load(text);
  TimeStepper st(*s.model, s.settings);
  s.attach_contact(st);
  for (int i = 0; i < 4000; ++i) ASSERT_TRUE(st.step().converged);
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), st.positions());
  const Model::RigidPose box = s.model->rigid_pose(0, q), ball = s.model->rigid_pose(1, q);
  const Real R = 0.05, m = 4.0 / 3.0 * 3.14159265358979323846 * R * R * R * 1000.0;
  const Real Es = 1e7 / (2.0 * (1.0 - 0.09));
  const Real ds = std::pow(3.0 * m * 9.81 / (4.0 * Es * std::sqrt(R)), 2.0 / 3.0);
  // The pole (ball centre - R e_3 of the ball's axes) in the box's frame.
  Real X3 = 0.0;
  for (int a = 0; a < 3; ++a)
    X3 += box.rotation(a, 2) * (ball.center[a] - R * ball.rotation(a, 2) - box.center[a]);
  const Real delta = 0.05 - X3;
  std::printf("ball on box: delta = %.6g m, closed form %.6g m (%.3g%%), ball at (%.3g, %.3g)\n",
              delta, ds, 100.0 * (delta - ds) / ds, ball.center[0], ball.center[1]);
  EXPECT_NEAR(delta, ds, 0.01 * ds);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(box.rotation(i, j), i == j ? 1.0 : 0.0, 1e-4);
  EXPECT_NEAR(ball.center[0], 0.0125, 1e-4);
  EXPECT_NEAR(ball.center[1], 0.0125, 1e-4);
}

void expect_error(const std::string& text, const std::string& part) {
  try {
    load(text);
    ADD_FAILURE() << "no error; expected one containing '" << part << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(RigidScene, InputErrorsNameTheProblem) {
  const std::string head = "time: {dt: 1.0e-3, steps: 1}\nbodies:\n";
  expect_error(
      head + "  - {name: a, type: rigid, mass: 1, inertia: [1, 1, 1], material: {model: svk}}\n",
      "unknown key 'material'");
  expect_error(head + "  - {name: a, type: rigid, mass: 1}\n", "missing required key 'inertia'");
  expect_error(head + "  - {name: a, type: rigid, mass: 1, inertia: [1, 1, 3]}\n",
               "I_aa <= I_bb + I_cc");
  expect_error(head + "  - {name: a, type: rigid, inertia: [1, 1, 1]}\n", "exactly one of");
  expect_error(
      head + "  - {name: a, type: rigid, mass: 1, inertia: [[1, 0.1, 0], [0, 1, 0], [0, 0, 1]]}\n",
      "symmetric");
  expect_error(head +
                   "  - {name: a, type: rigid, shape: {type: box, size: [1, 1, 1]}, density: 1000, "
                   "loads: [{type: traction, faces: top, traction: [0, 0, 1]}]}\n",
               "unknown face set");
  expect_error(head +
                   "  - {name: a, element: Q27, mesh: {generator: box, lengths: [1, 1, 1], "
                   "divisions: [1, 1, 1]}, "
                   "material: {model: svk, E: 1e6, nu: 0.3}, density: 1000, loads: [{type: torque, "
                   "torque: [0, 0, 1]}]}\n",
               "rigid bodies only");
  expect_error(head +
                   "  - {name: a, type: rigid, shape: {type: sphere, radius: 0.1}, density: 1000}\n"
                   "contact: {bodies: [a]}\n",
               "needs contact_material.E");
  expect_error(head +
                   "  - {name: a, type: rigid, mass: 1, inertia: [1, 1, 1]}\n"
                   "contact: {bodies: [a]}\n",
               "has no surface");
  expect_error(head +
                   "  - {name: a, type: rigid, shape: {type: sphere, radius: 0.1, divisions: 0}, "
                   "density: 1000}\n",
               "divisions must be in [1, 256]");
  expect_error(
      head +
          "  - {name: a, type: rigid, mass: 1, inertia: [1, 1, 1], extent: [0.1, 0.1, 0.1]}\n"
          "joints: [{type: spherical, body_i: a, body_j: ground, point: [1, 0, 0]}]\n",
      "outside body 'a'");
}

}  // namespace
}  // namespace tlfea
