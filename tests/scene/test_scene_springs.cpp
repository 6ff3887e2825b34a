// Scene springs[] (docs/scene.md): spring-dampers built from YAML, their
// defaults (rest length = the points' reference distance), and bad input
// refused at its node.
#include "scene_test_util.hpp"

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
  };
  expect_errors(cases);
}

}  // namespace
}  // namespace tlfea::scene_test
