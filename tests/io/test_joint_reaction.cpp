// Joint reactions as the output writes them (integrators/diagnostics.hpp,
// joint_reaction): the location is the joint's first material point, the
// body it is reported on is that point's body (or, for a point on the
// ground, the body the joint pushes hardest), and the per-body forces are
// those of io::joint_reaction_per_body.
#include <gtest/gtest.h>

#include <cmath>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/diagnostics.hpp"
#include "tlfea/io/output.hpp"

namespace tlfea {
namespace {

// A 10 kg T10 bar (1 x 0.1 x 0.1 m, 1000 kg/m^3) pinned at its end X =
// (1, 2, 3) by a spherical joint, and a second bar, free, 5 m away; gravity
// -9.81 z. With
// the bar's frame first, the first material point is on bar 0 and is held
// at X to the constraint tolerance after the step (1e-8 weighted; 1e-7 m
// allows the row weights); with the ground's frame first, it is the ground
// point X itself (a fixed offset, exact).
constexpr Vec3 kPin{{1.0, 2.0, 3.0}};

struct PinnedBar {
  Model model;
  RowRange rows;
  std::unique_ptr<TimeStepper> stepper;
  explicit PinnedBar(bool ground_first) {
    const Mesh bar = generate_box(ElementType::T10, {1.0, 0.1, 0.1}, {4, 1, 1}, {1.0, 1.95, 2.95});
    const int b = model.add_body(bar, MaterialSpec::svk(1e8, 0.3), 1000.0);
    model.add_body(generate_box(ElementType::T10, {1.0, 0.1, 0.1}, {4, 1, 1}, {1.0, 7.0, 2.95}),
                   MaterialSpec::svk(1e8, 0.3), 1000.0);
    model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
    model.constraints();
    auto q0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
    const Vec3 X = kPin, axis{{0.0, 1.0, 0.0}};
    const JointFrame on_bar = body_joint_frame(model.block(b), q0, X, axis, 0.05);
    const JointFrame on_ground = ground_joint_frame(X, axis, 0.05);
    rows = ground_first ? model.constraints().add_spherical(on_ground, on_bar)
                        : model.constraints().add_spherical(on_bar, on_ground);
    StepperSettings s;
    s.dt = 1e-3;
    stepper = std::make_unique<TimeStepper>(model, s);
    stepper->step();
  }
};

TEST(JointReaction, LocationAndBodyOfAPointOnTheBody) {
  PinnedBar p(false);
  const JointReaction r = joint_reaction(p.model, *p.stepper, p.rows);
  EXPECT_EQ(r.body, 0);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(r.location[a], kPin[a], 1e-7) << "component " << a;
  const std::vector<Vec3> F = io::joint_reaction_per_body(p.model, *p.stepper, p.rows);
  ASSERT_EQ(r.per_body.size(), 2u);
  for (int b = 0; b < 2; ++b)
    for (int a = 0; a < 3; ++a) EXPECT_EQ(r.per_body[b][a], F[b][a]) << b << ", " << a;
  // The pin holds bar 0 up (about m g = 98.1 N); the free bar feels nothing.
  EXPECT_GT(r.per_body[0][2], 0.01 * 98.1);
  for (int a = 0; a < 3; ++a) EXPECT_EQ(r.per_body[1][a], 0.0);
}

TEST(JointReaction, APointOnTheGroundIsReportedOnTheBodyPushedHardest) {
  PinnedBar p(true);
  const JointReaction r = joint_reaction(p.model, *p.stepper, p.rows);
  EXPECT_EQ(r.body, 0);
  for (int a = 0; a < 3; ++a) EXPECT_EQ(r.location[a], kPin[a]) << "component " << a;
  EXPECT_GT(r.per_body[0][2], 0.01 * 98.1);
}

TEST(JointReaction, RowsOutsideTheConstraintsAreRefused) {
  PinnedBar p(false);
  EXPECT_THROW(joint_reaction(p.model, *p.stepper, RowRange{0, p.rows.count + 1}), Error);
}

}  // namespace
}  // namespace tlfea
