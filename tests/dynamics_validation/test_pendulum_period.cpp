// B5 validation: a stiff T10 bar on a revolute joint to ground, released from
// horizontal under gravity, swings with the period of the rigid compound
// pendulum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

// Complete elliptic integral of the first kind K(k) = pi / (2 AGM(1, sqrt(1 - k^2)))
// (Abramowitz & Stegun 17.6), by the arithmetic-geometric mean: independent of
// anything in TLFEA.
double elliptic_k(double k) {
  double a = 1.0, b = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 60 && std::fabs(a - b) > 1e-16 * a; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return M_PI / (2.0 * a);
}

// Rigid compound pendulum released from rest at angle theta0 from the
// downward vertical (Landau & Lifshitz, Mechanics, section 11, problem 1):
// T = 4 sqrt(I_O / (m g d)) K(sin(theta0 / 2)).
double compound_pendulum_period(double I_over_m, double g, double d, double theta0) {
  return 4.0 * std::sqrt(I_over_m / (g * d)) * elliptic_k(std::sin(0.5 * theta0));
}

TEST(PendulumValidation, EllipticIntegralMatchesTabulatedValues) {
  // A&S table 17.1: K(m = 1/2) = 1.85407 46773 01372; K(0) = pi/2.
  EXPECT_NEAR(elliptic_k(std::sqrt(0.5)), 1.8540746773013719, 1e-14);
  EXPECT_NEAR(elliptic_k(0.0), M_PI / 2, 1e-15);
}

// Bar [0, L] x [-b/2, b/2]^2, pivot: a revolute joint about e_y at the centre
// of the x = 0 face, released horizontally from rest (theta0 = 90 deg).
// About the pivot I_O = m (L^2 / 3 + b^2 / 12) (bar rotating about y through
// the end of its axis: x and z extents count), d = L / 2.
// E = 1e9 Pa with rho = 1000 kg/m^3: the centrifugal and gravity stretch is
// O(rho g L / E) = 1e-5, far below the tolerance. h = 5e-4 s.
// Tolerance 1%, from the integrator: backward Euler damps the swing (the
// turning point after the first crossing is about 1% below 90 deg at this h,
// printed below), and a smaller amplitude shortens the period by
// dT/T = 0.23 dtheta0 (d ln K / d theta0 at 90 deg), ~0.3%; backward Euler's
// phase error (omega h)^2 / 3 ~ 1e-6 (omega^2 = m g d / I_O = 14.7 s^-2) and
// the linear interpolation of the crossings are much smaller.
TEST(PendulumValidation, StiffT10BarPeriodMatchesRigidCompoundPendulum) {
  const Real L = 1.0, b = 0.1, rho = 1000.0, g = 9.81;
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {L, b, b}, {4, 1, 1}, {0.0, -b / 2, -b / 2});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e9, 0.3), rho);
  model.set_gravity(Vec3{{0.0, 0.0, -g}});
  // Model::reference() is built by the first constraints() call (or finalize()).
  ConstraintSet& cs = model.constraints();
  auto q0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
  const Vec3 O{{0.0, 0.0, 0.0}}, ey{{0.0, 1.0, 0.0}};
  const Real fiber = 0.05;
  cs.add_revolute(ground_joint_frame(O, ey, fiber),
                  body_joint_frame(model.block(body), q0, O, ey, fiber));
  // Tip: the centre of the x = L face; pivot -> tip passes through the centre of mass.
  const MaterialPoint tip = find_material_point(model.block(body), q0, Vec3{{L, 0.0, 0.0}});

  StepperSettings s;
  s.dt = 5e-4;
  TimeStepper stepper(model, s);
  const Real T = compound_pendulum_period(L * L / 3 + b * b / 12, g, L / 2, M_PI / 2);

  // theta = atan2(x_tip, -z_tip) from the downward vertical; its zero
  // crossings are the sign changes of x_tip, located by linear interpolation.
  std::vector<Real> crossings;
  std::vector<Real> samples;  // theta every 0.1 s, for the OpenMP vs Serial comparison
  Real x_prev = L, t_prev = 0.0, worst_violation = 0.0, turning = 0.0;
  for (int n = 1; crossings.size() < 2 && stepper.time() < 1.2 * T; ++n) {
    const StepReport r = stepper.step();
    worst_violation = std::max(worst_violation, r.constraint_violation);
    auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
    const Vec3 x = point_position(tip, q);
    const Real t = stepper.time();
    if ((x_prev > 0) != (x[0] > 0))
      crossings.push_back(t_prev + (t - t_prev) * x_prev / (x_prev - x[0]));
    const Real theta = std::atan2(x[0], -x[2]);
    if (n % 200 == 0) samples.push_back(theta);
    if (crossings.size() == 1) turning = std::max(turning, -theta);
    x_prev = x[0];
    t_prev = t;
  }
  ASSERT_EQ(crossings.size(), 2u) << "the pendulum did not swing back through the vertical";
  const Real T_measured = 2.0 * (crossings[1] - crossings[0]);
  std::printf(
      "[pendulum] closed-form T = %.6f s, measured T = %.6f s (rel. err %.3e); "
      "quarter-period check 4 t1 = %.6f s; turning point %.4f rad (pi/2 = %.4f); steps %ld; "
      "max violation %.2e\n",
      T, T_measured, (T_measured - T) / T, 4 * crossings[0], turning, M_PI / 2,
      stepper.steps_taken(), worst_violation);
  std::printf("[pendulum] trajectory theta(t = 0.1 k s), k = 1..%zu:", samples.size());
  for (Real th : samples) std::printf(" %.17g", th);
  std::printf("\n");
  EXPECT_NEAR(T_measured, T, 0.01 * T);
  // The first crossing alone (a quarter period from release) also agrees.
  EXPECT_NEAR(4 * crossings[0], T, 0.01 * T);
  EXPECT_LE(worst_violation, s.constraint_tolerance);
}

}  // namespace
}  // namespace tlfea
