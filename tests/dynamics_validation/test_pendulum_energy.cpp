// B5 validation: total energy of an undamped flexible pendulum does not grow
// under the backward-Euler step; Kelvin-Voigt damping removes more.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

// Total mechanical energy E = 1/2 v^T (M (x) I3) v + sum_b U_b(q) - f_ext^T q:
// kinetic energy from the consistent mass, elastic strain energy, and the
// potential of the constant load (gravity: -f_g^T q = -int rho g . r dV,
// since r = sum_i s_i e_i for every element type, ANCF gradients included).
struct EnergyMeter {
  explicit EnergyMeter(const Model& m) : model(m) {
    row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.pattern().row_map);
    entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.pattern().entries);
    mass = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.mass_values());
    load = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.constant_load());
  }
  struct Parts {
    Real kinetic, strain, potential;
    Real total() const { return kinetic + strain + potential; }
  };
  Parts operator()(const CoefView& q, const CoefView& v) const {
    auto qh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
    auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    Parts e{0.0, 0.0, 0.0};
    const Ordinal rows = static_cast<Ordinal>(row_map.extent(0)) - 1;
    for (Ordinal r = 0; r < rows; ++r)
      for (Offset k = row_map(r); k < row_map(r + 1); ++k) {
        const Ordinal c = entries(k);
        e.kinetic += 0.5 * vh(r / 3, r % 3) * mass(k) * vh(c / 3, c % 3);
      }
    for (int b = 0; b < model.num_bodies(); ++b) e.strain += model.block(b).strain_energy(q);
    for (size_t k = 0; k < qh.extent(0); ++k)
      for (int a = 0; a < 3; ++a) e.potential -= load(k, a) * qh(k, a);
    return e;
  }
  const Model& model;
  HostView<Offset*> row_map;
  HostView<Ordinal*> entries;
  HostView<Real*> mass;
  Kokkos::View<Real* [3], Kokkos::LayoutRight, Kokkos::HostSpace> load;
};

struct EnergyHistory {
  Real initial = 0, final = 0;
  Real largest_step_gain = -1e300;  // max_n E_n - E_{n-1}
  Real largest_gain = -1e300;       // max_n E_n - E_0
  Real worst_violation = 0;
  Real bending = 0;  // largest distance of the mid-span point from the chord pivot -> tip [m]
};

// ANCF 3243 beam, L = 1 m, 0.05 m x 0.05 m, 4 elements, E = 1e7 Pa,
// rho = 1000 kg/m^3, on a revolute joint about e_y at its x = 0 end, released
// horizontally from rest: it falls and bends (mid-span off the chord by ~2 cm).
EnergyHistory swing(const MaterialSpec& material, int steps, Real h,
                    TimeIntegrator integrator = TimeIntegrator::backward_euler) {
  const Real L = 1.0, w = 0.05;
  Model model;
  const int body = model.add_body(generate_beam_ancf3243(L, w, w, 4), material, 1000.0);
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  // Model::reference() is built by the first constraints() call (or finalize()).
  ConstraintSet& cs = model.constraints();
  auto q0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
  const Vec3 O{{0.0, 0.0, 0.0}}, ey{{0.0, 1.0, 0.0}};
  cs.add_revolute(ground_joint_frame(O, ey, 0.02),
                  body_joint_frame(model.block(body), q0, O, ey, 0.02));
  const MaterialPoint tip = find_material_point(model.block(body), q0, Vec3{{L, 0.0, 0.0}});
  const MaterialPoint mid = find_material_point(model.block(body), q0, Vec3{{L / 2, 0.0, 0.0}});
  StepperSettings s;
  s.dt = h;
  s.integrator = integrator;
  TimeStepper stepper(model, s);
  const EnergyMeter energy(model);
  EnergyHistory out;
  out.initial = energy(stepper.positions(), stepper.velocities()).total();
  Real prev = out.initial;
  for (int n = 0; n < steps; ++n) {
    const StepReport r = stepper.step();
    out.worst_violation = std::max(out.worst_violation, r.constraint_violation);
    const Real e = energy(stepper.positions(), stepper.velocities()).total();
    out.largest_step_gain = std::max(out.largest_step_gain, e - prev);
    out.largest_gain = std::max(out.largest_gain, e - out.initial);
    prev = e;
    auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
    const Vec3 t = point_position(tip, q), m = point_position(mid, q);  // pivot at the origin
    const Vec3 mxt = cross(m, t);
    out.bending = std::max(out.bending, std::sqrt(dot(mxt, mxt) / dot(t, t)));
  }
  out.final = prev;
  return out;
}

// Backward Euler on M (v1 - v0) / h = -grad V(q1) - C^T lambda with
// q1 - q0 = h v1 gives E1 - E0 = -1/2 |v1 - v0|_M^2 - [V(q0) - V(q1) -
// grad V(q1) (q0 - q1)] + O(constraint curvature): never positive for a
// convex potential. SVK is not convex in compression and DP1 rows are
// bilinear, so a per-step gain is allowed at 1e-7 of the energy scale
// m g L / 2 (= 12.3 J here): far above round-off of the sums (1e-13 relative),
// far below any physical drift.
TEST(PendulumValidation, FlexibleAncfPendulumNeverGainsEnergy) {
  const int steps = 300;
  const Real h = 1e-3;
  const Real scale = 1000.0 * 0.05 * 0.05 * 1.0 * 9.81 * 0.5;  // m g L / 2
  const EnergyHistory elastic = swing(MaterialSpec::svk(1e7, 0.3), steps, h);
  // Kelvin-Voigt: mu_v = 1e5 Pa s, a retardation time mu_v / mu = 0.026 s,
  // comparable with the period of the first bending mode.
  const EnergyHistory damped =
      swing(MaterialSpec::svk(1e7, 0.3).with_kelvin_voigt(1e5, 0.0), steps, h);
  const Real loss_elastic = elastic.initial - elastic.final;
  const Real loss_damped = damped.initial - damped.final;
  std::printf(
      "[energy] elastic: E0 = %.9g J, E_N = %.9g J, loss %.4e J (%.3e of m g L/2), "
      "largest step gain %.3e J, largest gain over E0 %.3e J, bending %.3e m, "
      "max violation %.2e\n",
      elastic.initial, elastic.final, loss_elastic, loss_elastic / scale, elastic.largest_step_gain,
      elastic.largest_gain, elastic.bending, elastic.worst_violation);
  std::printf(
      "[energy] Kelvin-Voigt: E0 = %.9g J, E_N = %.9g J, loss %.4e J (%.3e of m g L/2), "
      "largest step gain %.3e J, bending %.3e m\n",
      damped.initial, damped.final, loss_damped, loss_damped / scale, damped.largest_step_gain,
      damped.bending);
  const Real tol = 1e-7 * scale;
  EXPECT_LE(elastic.largest_step_gain, tol);
  EXPECT_LE(elastic.largest_gain, tol);
  EXPECT_LE(damped.largest_step_gain, tol);
  EXPECT_GT(loss_elastic, 0.0);
  // The beam really bends (the test is about a flexible pendulum).
  EXPECT_GT(elastic.bending, 1e-2);
  // Kelvin-Voigt dissipates strain rate on top of the integrator's damping.
  // Most of backward Euler's loss, 1/2 |v1 - v0|_M^2 per step, comes from the
  // swing itself and is the same for both; the viscous part adds ~40% here
  // (asserted: 20%). Too stiff a viscosity would instead suppress the bending
  // and with it part of the integrator's loss.
  EXPECT_GT(loss_damped, loss_elastic * 1.2);
}

// The same elastic ANCF pendulum under generalized alpha (rho_inf = 0.9,
// docs/theory.md §6.12): not monotone step by step (the scheme is not
// energy-decaying per step), but without growth: the largest E_n - E_0
// stays below 1e-4 of m g L / 2 over the swing, and the total loss is a
// fraction of backward Euler's (its 1/2 |v1 - v0|_M^2 per step). The
// reference is the exact motion's E_n = E_0.
TEST(PendulumValidation, FlexibleAncfPendulumUnderGeneralizedAlphaKeepsItsEnergy) {
  const int steps = 300;
  const Real h = 1e-3;
  const Real scale = 1000.0 * 0.05 * 0.05 * 1.0 * 9.81 * 0.5;  // m g L / 2
  const EnergyHistory ga =
      swing(MaterialSpec::svk(1e7, 0.3), steps, h, TimeIntegrator::generalized_alpha);
  const EnergyHistory be = swing(MaterialSpec::svk(1e7, 0.3), steps, h);
  const Real loss_ga = ga.initial - ga.final, loss_be = be.initial - be.final;
  std::printf(
      "[energy] generalized alpha: loss %.4e J (%.3e of m g L/2), largest gain over E0 %.3e J, "
      "bending %.3e m, max violation %.2e; backward Euler loss %.4e J\n",
      loss_ga, loss_ga / scale, ga.largest_gain, ga.bending, ga.worst_violation, loss_be);
  EXPECT_LE(ga.largest_gain, 1e-4 * scale);
  EXPECT_LT(std::fabs(loss_ga), 0.2 * loss_be);
  EXPECT_GT(ga.bending, 1e-2);
}

}  // namespace
}  // namespace tlfea
