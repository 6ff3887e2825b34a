// The backward-Euler augmented-Lagrangian step.
#include <gtest/gtest.h>

#include <cmath>

#include "tlfea/core/generators.hpp"
#include "tlfea/solvers/time_stepper.hpp"

namespace tlfea {
namespace {

// Free flight: an unconstrained body under gravity with a uniform initial
// velocity v0 follows the discrete backward-Euler solution exactly (f_int = 0
// for a rigid translation): v_n = v0 + n h g, x_n = X + n h v0 + h^2 g n(n+1)/2.
TEST(TimeStepper, FreeFlightFollowsDiscreteBackwardEulerExactly) {
  for (ElementType t : {ElementType::T10, ElementType::Q27, ElementType::ANCF3243}) {
    Model model;
    const Mesh mesh = t == ElementType::ANCF3243 ? generate_beam_ancf3243(1.0, 0.1, 0.1, 4)
                                                 : generate_box(t, {1.0, 0.5, 0.4}, {2, 1, 1});
    model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
    const Vec3 g{{0.0, 0.0, -9.81}};
    model.set_gravity(g);
    StepperSettings s;
    s.dt = 1e-2;
    TimeStepper stepper(model, s);
    const Real v0[3] = {1.0, -0.5, 2.0};
    CoefView v("v", model.num_coefficients());
    auto vh = Kokkos::create_mirror_view(v);
    const int cpn = mesh.coefficients_per_node();
    for (Ordinal k = 0; k < mesh.num_coefficients(); ++k)
      for (int a = 0; a < 3; ++a) vh(k, a) = (k % cpn == 0) ? v0[a] : 0.0;
    Kokkos::deep_copy(v, vh);
    stepper.set_velocities(v);
    const int n = 20;
    for (int i = 0; i < n; ++i) stepper.step();
    auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
    auto vv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.velocities());
    const Real h = s.dt;
    Real err = 0.0;
    for (Ordinal k = 0; k < mesh.num_coefficients(); k += cpn)
      for (int a = 0; a < 3; ++a) {
        const Real x = mesh.coefficients[k][a] + n * h * v0[a] + h * h * g[a] * n * (n + 1) / 2;
        err = std::max(err, std::fabs(q(k, a) - x));
        err = std::max(err, std::fabs(vv(k, a) - (v0[a] + n * h * g[a])));
      }
    EXPECT_LT(err, 1e-10) << to_string(t);
  }
}

// A clamped coefficient stays exactly at its reference value and has zero
// velocity: it is eliminated, not penalised.
TEST(TimeStepper, ClampedCoefficientsDoNotMove) {
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {1.0, 0.2, 0.2}, {4, 1, 1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.clamp_node_set(body, "xmin");
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  StepperSettings s;
  s.dt = 1e-3;
  TimeStepper stepper(model, s);
  for (int i = 0; i < 10; ++i) stepper.step();
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  Real moved = 0.0, tip = 0.0;
  for (Ordinal k : mesh.node_sets.at("xmin"))
    for (int a = 0; a < 3; ++a) moved = std::max(moved, std::fabs(q(k, a) - mesh.coefficients[k][a]));
  for (Ordinal k : mesh.node_sets.at("xmax")) tip = std::min(tip, q(k, 2) - mesh.coefficients[k][2]);
  EXPECT_EQ(moved, 0.0);
  EXPECT_LT(tip, -1e-7);  // the free end sags
}

// A point on a stiff body held at fixed distance L from a ground point by a
// DIST constraint: over 200 steps the weighted violation stays below the
// outer-loop tolerance and the point keeps its distance while it swings down.
TEST(TimeStepper, DistanceConstraintHoldsWhileTheBodySwings) {
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {0.2, 0.2, 0.2}, {1, 1, 1}, {1.0, -0.1, -0.1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e8, 0.3), 1000.0);
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  const Real xi[3] = {0.25, 0.25, 0.25};
  MaterialPoint P = make_material_point(model.block(body), 0, xi);
  MaterialPoint O = ground_point(Vec3{{0.0, 0.0, 0.0}});
  ConstraintSet& cs = model.constraints();
  auto q0h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
  const Vec3 X = point_position(P, q0h);
  const Real L = std::sqrt(X[0] * X[0] + X[1] * X[1] + X[2] * X[2]);
  cs.add_dist(O, P, DrivingFunction::constant(L));
  StepperSettings s;
  s.dt = 1e-3;
  s.constraint_tolerance = 1e-9;
  TimeStepper stepper(model, s);
  Real worst = 0.0;
  for (int i = 0; i < 200; ++i) {
    const StepReport r = stepper.step();
    worst = std::max(worst, r.constraint_violation);
  }
  EXPECT_LT(worst, 1e-9);
  auto qh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  const Vec3 x = point_position(P, qh);
  EXPECT_NEAR(std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), L, 1e-6 * L);
  // The body swung down: its point is below the start height.
  EXPECT_LT(x[2], X[2] - 1e-3);
}

}  // namespace
}  // namespace tlfea
