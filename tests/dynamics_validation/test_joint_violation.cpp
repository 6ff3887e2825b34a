// B5 validation (docs/theory.md §A.5): each of the six joints of
// docs/theory.md §5.5, between two flexible bodies swinging under gravity,
// holds to the outer-loop tolerance for 1000 steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

enum class Joint { Spherical, Universal, Revolute, Fixed, Cylindrical, Prismatic };
const char* name(Joint j) {
  switch (j) {
    case Joint::Spherical:
      return "spherical";
    case Joint::Universal:
      return "universal";
    case Joint::Revolute:
      return "revolute";
    case Joint::Fixed:
      return "fixed";
    case Joint::Cylindrical:
      return "cylindrical";
    case Joint::Prismatic:
      return "prismatic";
  }
  return "?";
}

Vec3 sub(const Vec3& a, const Vec3& b) { return Vec3{{a[0] - b[0], a[1] - b[1], a[2] - b[2]}}; }
Real length(const Vec3& a) { return std::sqrt(dot(a, a)); }

// An ANCF 3243 beam [x0, x0 + 1] x [-0.05, 0.05]^2 of 2 elements.
Mesh beam_from(Real x0) {
  Mesh m = generate_beam_ancf3243(1.0, 0.1, 0.1, 2);
  for (Ordinal k = 0; k < m.num_coefficients(); k += m.coefficients_per_node())
    m.coefficients[k][0] += x0;
  return m;
}

struct JointResult {
  Real weighted = 0;   // max over steps and the joint's rows of |c_i| (weighted rows)
  Real geometric = 0;  // max over steps of the joint point's positional mismatch [m]
  Real moved = 0;      // displacement of body B's free end at the end [m]
  Real seconds = 0;
  int newton = 0;
};

// Body A: beam on [0, 1], revolute about e_y to ground at the origin.
// Body B: beam on [1, 2], joined to A at X = (1, 0, 0) by the joint under
// test. Both released horizontally from rest. Axes: e_y for
// spherical / revolute / fixed (A's and B's frames alike), e_y on A and e_z on
// B for the universal's cross pin, e_x (along the beams, so B slides and
// turns on A) for cylindrical and prismatic.
JointResult run_joint(Joint joint, int steps, Real h) {
  Model model;
  const int a = model.add_body(beam_from(0.0), MaterialSpec::svk(1e9, 0.3), 1000.0);
  const int b = model.add_body(beam_from(1.0), MaterialSpec::svk(1e9, 0.3), 1000.0);
  // Gravity tilted out of the x-z plane, so that joints that allow out-of-plane
  // motion (spherical, universal) do not reduce to the planar double pendulum.
  model.set_gravity(Vec3{{0.0, 3.0, -9.3}});
  // Model::reference() is built by the first constraints() call (or finalize()).
  ConstraintSet& cs = model.constraints();
  auto q0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
  const Vec3 O{{0.0, 0.0, 0.0}}, X{{1.0, 0.0, 0.0}};
  const Vec3 ex{{1.0, 0.0, 0.0}}, ey{{0.0, 1.0, 0.0}}, ez{{0.0, 0.0, 1.0}};
  const Real fiber = 0.02;
  cs.add_revolute(ground_joint_frame(O, ey, fiber),
                  body_joint_frame(model.block(a), q0, O, ey, fiber));
  const Vec3 axis_a = (joint == Joint::Cylindrical || joint == Joint::Prismatic) ? ex : ey;
  const Vec3 axis_b = joint == Joint::Universal ? ez : axis_a;
  const JointFrame fa = body_joint_frame(model.block(a), q0, X, axis_a, fiber);
  const JointFrame fb = body_joint_frame(model.block(b), q0, X, axis_b, fiber);
  RowRange rows;
  switch (joint) {
    case Joint::Spherical:
      rows = cs.add_spherical(fa, fb);
      break;
    case Joint::Universal:
      rows = cs.add_universal(fa, fb);
      break;
    case Joint::Revolute:
      rows = cs.add_revolute(fa, fb);
      break;
    case Joint::Fixed:
      rows = cs.add_fixed(fa, fb);
      break;
    case Joint::Cylindrical:
      rows = cs.add_cylindrical(fa, fb);
      break;
    case Joint::Prismatic:
      rows = cs.add_prismatic(fa, fb);
      break;
  }
  const MaterialPoint end_b = find_material_point(model.block(b), q0, Vec3{{2.0, 0.0, 0.0}});
  const Vec3 end_b0 = point_position(end_b, q0);

  StepperSettings s;
  s.dt = h;
  TimeStepper stepper(model, s);
  DeviceView<Real*> c("c", cs.num_rows());
  JointResult out;
  const auto t0 = std::chrono::steady_clock::now();
  for (int n = 0; n < steps; ++n) {
    out.newton += stepper.step().newton_iterations;
    // The joint's own rows, evaluated afresh at the committed state.
    cs.evaluate(stepper.positions(), stepper.time(), c);
    auto ch = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    for (Ordinal i = rows.first; i < rows.first + rows.count; ++i)
      out.weighted = std::max(out.weighted, std::fabs(ch(i)));
    // Positional part in plain geometry: the distance between the joint
    // points, or for cylindrical / prismatic the offset of B's point from A's
    // across A's cross fibers (B's point stays on A's axis line).
    auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
    const Vec3 d = sub(point_position(fb.origin, q), point_position(fa.origin, q));
    Real mismatch = length(d);
    if (joint == Joint::Cylindrical || joint == Joint::Prismatic) {
      // Components of the offset along A's two (current, unit) cross fibers.
      mismatch = 0;
      for (const MaterialPoint* m : {&fa.cross1, &fa.cross2}) {
        const Vec3 u = sub(point_position(*m, q), point_position(fa.origin, q));
        mismatch = std::max(mismatch, std::fabs(dot(d, u)) / length(u));
      }
    }
    out.geometric = std::max(out.geometric, mismatch);
    if (n + 1 == steps) out.moved = length(sub(point_position(end_b, q), end_b0));
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

// Tolerance: the outer loop stops when the weighted max |c_i| of the whole set
// is <= constraint_tolerance (1e-8), so each joint's rows must be too. CD
// rows have weight 1 and DP2 rows 1/|a0| (c = an offset along a unit cross
// direction), so the positional mismatch is at most sqrt(3) (points) or
// 2 (line: DP2 rows hold the offset along the reference-length cross fibers,
// which stretch little) times the tolerance: asserted at 2e-8 m.
TEST(JointValidation, SixJointsHoldToleranceForThousandStepsOfADoublePendulum) {
  const int steps = 1000;
  const Real h = 1e-3;
  StepperSettings defaults;
  for (Joint j : {Joint::Spherical, Joint::Universal, Joint::Revolute, Joint::Fixed,
                  Joint::Cylindrical, Joint::Prismatic}) {
    const JointResult r = run_joint(j, steps, h);
    std::printf(
        "[joints] %-11s weighted max |c| %.3e, positional mismatch %.3e m, "
        "B end moved %.4f m, Newton iterations %d, %.2f s\n",
        name(j), r.weighted, r.geometric, r.moved, r.newton, r.seconds);
    EXPECT_LE(r.weighted, defaults.constraint_tolerance) << name(j);
    EXPECT_LE(r.geometric, 2.0 * defaults.constraint_tolerance) << name(j);
    EXPECT_GT(r.moved, 0.1) << name(j) << ": the second body hardly moved";
  }
}

}  // namespace
}  // namespace tlfea
