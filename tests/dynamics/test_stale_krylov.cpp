// The GMRES correction of stalled Jacobian reuse (StepperSettings::
// krylov_iterations, integrators/src/stale_krylov.cpp, docs/theory.md §6.6):
// on the B3 plate (ANCF 3443, 8 x 8, a/h = 100, clamped edge, swinging under
// gravity), where factors kept from the previous step stall Newton once the
// plate has rotated, the correction must (1) run, (2) save factorizations,
// and (3) reach the same states as full Newton (a fresh factorization at
// every iteration: no reuse, no Krylov), the independent reference, to the
// Newton tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

struct PlateRun {
  int factorizations = 0, krylov = 0, newton = 0;
  Real z = 0.0;  // free corner (1, 1, 0): z after the run [m]
};

PlateRun plate(bool reuse, int krylov_iterations) {
  const Mesh mesh = generate_plate_ancf3443(1.0, 1.0, 0.01, {8, 8});
  Model model;
  const int body = model.add_body(mesh, MaterialSpec::svk(7e8, 0.33), 2700.0);
  model.clamp_node_set(body, "xmin");
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  StepperSettings s;
  s.dt = 1e-3;
  s.reuse_jacobian = reuse;
  s.krylov_iterations = krylov_iterations;
  TimeStepper stepper(model, s);
  PlateRun r;
  for (int i = 0; i < 150; ++i) {
    const StepReport rep = stepper.step();
    r.factorizations += rep.factorizations;
    r.krylov += rep.krylov_iterations;
    r.newton += rep.newton_iterations;
  }
  // The corner node (1, 1, 0): its position coefficient.
  Ordinal corner = -1;
  for (Ordinal k = 0; k < mesh.num_coefficients(); ++k) {
    const auto& x = mesh.coefficients[k];
    if (std::abs(x[0] - 1.0) < 1e-12 && std::abs(x[1] - 1.0) < 1e-12 && x[2] == 0.0) corner = k;
  }
  EXPECT_GE(corner, 0);
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  r.z = q(corner, 2);
  return r;
}

TEST(StaleKrylov, RescuesStalledReuseWithFullNewtonStates) {
  const PlateRun full = plate(false, 0), chord = plate(true, 0), krylov = plate(true, 10);
  std::printf(
      "[ stale Krylov ] B3 8x8, 150 steps: corner z %.9f m (full Newton: %d factorizations), "
      "%.9f (reuse: %d), %.9f (reuse + GMRES: %d factorizations, %d GMRES iterations)\n",
      full.z, full.factorizations, chord.z, chord.factorizations, krylov.z, krylov.factorizations,
      krylov.krylov);
  EXPECT_EQ(chord.krylov, 0);
  EXPECT_EQ(full.krylov, 0);
  EXPECT_GT(krylov.krylov, 0);  // the path ran
  EXPECT_LT(krylov.factorizations, chord.factorizations / 2);
  // The plate has swung well away from flat (0.1 m and more at the corner).
  EXPECT_LT(full.z, -0.05);
  // Every run stops at |g| <= 1e-8 of the step's force level
  // (residual_force_tol); over 150 steps the states agree to ~1e-9 m. Bound:
  // 1e-6 of the deflection.
  EXPECT_NEAR(krylov.z, full.z, 1e-6 * std::abs(full.z));
  EXPECT_NEAR(chord.z, full.z, 1e-6 * std::abs(full.z));
}

TEST(StaleKrylov, SettingsAreChecked) {
  const Mesh mesh = generate_plate_ancf3443(1.0, 1.0, 0.01, {2, 2});
  Model model;
  model.add_body(mesh, MaterialSpec::svk(7e8, 0.33), 2700.0);
  StepperSettings s;
  s.krylov_iterations = 51;
  EXPECT_THROW(TimeStepper(model, s), Error);
  s.krylov_iterations = -1;
  EXPECT_THROW(TimeStepper(model, s), Error);
  s.krylov_iterations = 10;
  s.krylov_factor_age = 0;
  EXPECT_THROW(TimeStepper(model, s), Error);
}

}  // namespace
}  // namespace tlfea
