// A few backward-Euler steps with the team-per-element force and tangent
// loops (team_kernels.hpp, docs/theory.md §3.12) forced on the host against
// the same steps with the host's default range loops: same Newton iteration
// counts and the same trajectory to round-off, on a clamped T10 bar (SVK), a
// Q27 bar (Kelvin-Voigt Neo-Hookean), an ANCF 3243 beam and an ANCF 3443
// plate (SVK, Poisson split on: the default) sagging under gravity.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

struct StepperRun {
  std::vector<int> newton;
  std::vector<Real> q;  // final positions, flattened
  Real sag = 0.0;       // largest displacement
};

StepperRun run(ElementType t, KernelShape shape) {
  Model model;
  Mesh mesh;
  MaterialSpec mat = MaterialSpec::svk(1e7, 0.3);
  std::string clamp = "xmin";
  switch (t) {
    case ElementType::T10:
      mesh = generate_box(t, {1.0, 0.2, 0.2}, {4, 1, 1});
      break;
    case ElementType::Q27:
      mesh = generate_box(t, {1.0, 0.2, 0.2}, {3, 1, 1});
      mat = MaterialSpec::neo_hookean(3e6, 8e6).with_kelvin_voigt(2e3, 1e3);
      break;
    case ElementType::ANCF3243:
      mesh = generate_beam_ancf3243(1.0, 0.05, 0.05, 4);
      clamp = "end0";
      break;
    case ElementType::ANCF3443:
      mesh = generate_plate_ancf3443(1.0, 0.5, 0.02, {3, 2});
      break;
  }
  const int body = model.add_body(mesh, mat, 1000.0);
  model.clamp_node_set(body, clamp);
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  model.block(body).set_kernel_shapes(KernelShapes::all(shape));
  EXPECT_TRUE(model.block(body).kernel_shapes() == KernelShapes::all(shape));
  StepperSettings s;
  s.dt = 2e-3;
  TimeStepper stepper(model, s);
  StepperRun r;
  for (int i = 0; i < 5; ++i) r.newton.push_back(stepper.step().newton_iterations);
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  for (Ordinal k = 0; k < mesh.num_coefficients(); ++k)
    for (int a = 0; a < 3; ++a) {
      r.q.push_back(q(k, a));
      r.sag = std::max(r.sag, std::fabs(q(k, a) - mesh.coefficients[k][a]));
    }
  return r;
}

TEST(TeamKernels, StepperRunMatchesRangeLoops) {
  for (ElementType t :
       {ElementType::T10, ElementType::Q27, ElementType::ANCF3243, ElementType::ANCF3443}) {
    const StepperRun range = run(t, KernelShape::Range), team = run(t, KernelShape::Team);
    EXPECT_EQ(range.newton, team.newton) << to_string(t);
    ASSERT_EQ(range.q.size(), team.q.size());
    Real diff = 0.0;
    for (size_t k = 0; k < range.q.size(); ++k)
      diff = std::max(diff, std::fabs(range.q[k] - team.q[k]));
    EXPECT_GT(range.sag, 1e-6) << to_string(t);  // the body moved
    // Round-off of the converged Newton iterates, far below the motion.
    EXPECT_LE(diff, 1e-9 * range.sag) << to_string(t);
    std::printf("[team kernels stepper] %s: max |team - range| %.3g (motion %.3g)\n", to_string(t),
                diff, range.sag);
  }
}

}  // namespace
}  // namespace tlfea
