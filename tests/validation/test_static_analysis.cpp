// The static analysis (analysis = Analysis::static_equilibrium, tlfea::solve_static,
// docs/theory.md §6.10) against closed forms and published values:
// prescribed large stretch (exact homogeneous solution), increment cutting
// on the large-deflection elastica, a Kelvin-Voigt material (its viscous
// stress is absent at equilibrium) against Euler-Bernoulli. The elastica,
// plate-strip and plate references of test_static_limits.cpp and
// test_shell_plates.cpp run through the same solver.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>

#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

TimeFunction pseudo_time_ramp() {
  return [](Real t) { return std::min(1.0, t); };
}

// A Q27 bar [0, L] x [0, b] x [0, b], SVK with nu = 0, the x = 0 face clamped
// and the x = L face moved to x = L + d f(t) (lateral coordinates held): with
// nu = 0 the homogeneous stretch F = diag(lambda, 1, 1), lambda = 1 + d / L,
// gives S = E E_green = diag(E (lambda^2 - 1) / 2, 0, 0), whose first
// Piola stress F S has zero divergence and zero lateral tractions, and meets
// both end conditions: it is the equilibrium, at any stretch, and its
// displacement u_x = d X / L is in the Q27 space, so every node must carry
// it to the solver's tolerance. d = 0.3 L (30 % stretch, far from linear),
// reached in 3 increments.
TEST(StaticAnalysis, LargeStretchOfABarIsTheExactHomogeneousSolution) {
  const Real L = 1.0, b = 0.2, d = 0.3;
  const Mesh mesh = generate_box(ElementType::Q27, {L, b, b}, {4, 1, 1});
  Model model;
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.0), 1000.0);
  model.clamp_node_set(body, "xmin");
  model.prescribe_nodes(body, mesh.node_sets.at("xmax"), [d](Real t, const Vec3& X) {
    return Vec3{{X[0] + d * std::min(1.0, t), X[1], X[2]}};
  });
  const StaticSolution sol = solve_static(model, 3);
  Real worst = 0.0;
  for (Ordinal n = 0; n < mesh.num_nodes(); ++n) {
    const auto X = mesh.node_position(n);
    worst = std::max(worst, std::abs(sol.q(n, 0) - (X[0] + d * X[0] / L)));
    worst = std::max(worst, std::abs(sol.q(n, 1) - X[1]));
    worst = std::max(worst, std::abs(sol.q(n, 2) - X[2]));
  }
  std::printf(
      "[ static Q27 bar, 30 %% stretch ] max |x - x_exact| = %.3e m, %d Newton iterations\n", worst,
      sol.newton_iterations);
  EXPECT_LT(worst, 1e-9 * L);
}

// Inextensible elastica under a tip load k = P L^2 / EI = 3 (Bisshopp and
// Drucker 1945; docs/theory.md §A.2): -u/L = 0.25442, w/L = 0.60325, within
// the benchmark's 2 % at 32 ANCF 3243 elements. Asked in ONE increment with
// at most 8 Newton iterations per solve, which cannot converge from the
// straight beam (one increment takes 25): the increment must be cut
// (halved) until each piece converges, and the pieces must still end at the
// full load.
TEST(StaticAnalysis, FailedIncrementIsCutAndStillReachesTheElastica) {
  const Real L = 2.0, b = 0.1, E = 7e8, I = b * b * b * b / 12.0, k = 3.0;
  const Mesh mesh = generate_beam_ancf3243(L, b, b, 32);
  Model model;
  const int body = model.add_body(mesh, MaterialSpec::svk(E, 0.0), 2700.0);
  model.clamp_node_set(body, "end0");
  const Ordinal tip = mesh.node_sets.at("end1").at(0);
  model.add_nodal_force(body, tip, Vec3{{0.0, 0.0, k * E * I / (L * L)}}, pseudo_time_ramp());
  StepperSettings s;
  s.max_newton = 8;
  s.max_retries = 6;
  const StaticSolution sol = solve_static(model, 1, s);
  const Ordinal c = tip * mesh.coefficients_per_node();
  const Real mu = -(sol.q(c, 0) - mesh.coefficients[c][0]) / L;
  const Real w = (sol.q(c, 2) - mesh.coefficients[c][2]) / L;
  std::printf(
      "[ static elastica k = 3, 1 increment ] -u/L = %.5f, w/L = %.5f, %d cuts, %d Newton\n", mu, w,
      sol.cuts, sol.newton_iterations);
  EXPECT_GE(sol.cuts, 1);
  EXPECT_NEAR(mu / 0.25442, 1.0, 0.02);
  EXPECT_NEAR(w / 0.60325, 1.0, 0.02);
}

// The same load with max_newton = 1 and no cutting allowed fails, and says
// which increment and why, leaving no half-updated state.
TEST(StaticAnalysis, IncrementThatCannotConvergeIsReported) {
  const Mesh mesh = generate_beam_ancf3243(2.0, 0.1, 0.1, 8);
  Model model;
  const int body = model.add_body(mesh, MaterialSpec::svk(7e8, 0.0), 2700.0);
  model.clamp_node_set(body, "end0");
  model.add_nodal_force(body, mesh.node_sets.at("end1").at(0), Vec3{{0.0, 0.0, 1.75e5}},
                        pseudo_time_ramp());
  StepperSettings s;
  s.max_newton = 1;
  s.max_retries = 0;
  try {
    solve_static(model, 2, s);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("load increment 1 (pseudo-time 0 to 0.5)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("did not converge"), std::string::npos) << msg;
  }
}

// Kelvin-Voigt damping has no stress at rest: a damped ANCF 3243 cantilever
// under a small tip load (k = 0.01) deflects P L^3 / (3 E I) (Euler-Bernoulli;
// the elastica differs by 0.004 %, shear adds 0.16 % at nu = 0), within the
// B2 benchmark's 1 %, however large the damping coefficients.
TEST(StaticAnalysis, ViscousMaterialHasItsElasticEquilibrium) {
  const Real L = 2.0, b = 0.1, E = 7e8, I = b * b * b * b / 12.0, k = 0.01;
  const Mesh mesh = generate_beam_ancf3243(L, b, b, 16);
  Model model;
  const int body =
      model.add_body(mesh, MaterialSpec::svk(E, 0.0).with_kelvin_voigt(1e9, 1e9), 2700.0);
  model.clamp_node_set(body, "end0");
  const Ordinal tip = mesh.node_sets.at("end1").at(0);
  model.add_nodal_force(body, tip, Vec3{{0.0, 0.0, k * E * I / (L * L)}}, pseudo_time_ramp());
  const StaticSolution sol = solve_static(model, 1);
  const Ordinal c = tip * mesh.coefficients_per_node();
  const Real w = sol.q(c, 2) - mesh.coefficients[c][2];
  std::printf("[ static Kelvin-Voigt cantilever ] w / w_EB = %.5f\n", w / (k * L / 3.0));
  EXPECT_NEAR(w / (k * L / 3.0), 1.0, 0.01);
}

// Single fixed components (Model::fix_components): a Q27 bar [0, L] x
// [0, b] x [0, b], SVK with nu = 0.3, on rollers (x held on the face
// x = 0, y on y = 0, z on z = 0; the other two components of those nodes
// free) and pulled by a dead traction sigma e_x on x = L. The rollers allow
// the uniaxial stress state, whose small-strain displacement
//   u = (sigma / E) (X, -nu Y, -nu Z)
// is in the Q27 space (linear elasticity; Timoshenko and Goodier). At
// sigma / E = 1e-4 the SVK response departs from it by relative order 1e-4
// (finite strain), so 1e-3 bounds it. The held components stay at their
// reference values to round-off; the free ones must contract by the Poisson
// ratio (a whole-node clamp would stop them).
TEST(StaticAnalysis, FixedComponentsActAsRollers) {
  const Real L = 1.0, b = 0.2, E = 1e7, nu = 0.3, sigma = 1e-4 * E;
  const Mesh mesh = generate_box(ElementType::Q27, {L, b, b}, {2, 1, 1});
  Model model;
  const int body = model.add_body(mesh, MaterialSpec::svk(E, nu), 1000.0);
  const char* planes[3] = {"xmin", "ymin", "zmin"};
  for (int a = 0; a < 3; ++a)
    for (Ordinal nd : mesh.node_sets.at(planes[a])) {
      std::array<bool, 3> axes{{false, false, false}};
      axes[a] = true;
      model.fix_components(body, nd, 0, axes);
    }
  EXPECT_THROW(model.fix_components(body, mesh.num_nodes(), 0, {{true, false, false}}), Error);
  EXPECT_THROW(model.fix_components(body, 0, 1, {{true, false, false}}), Error);  // Q27: r only
  model.add_traction(body, "xmax", Vec3{{sigma, 0.0, 0.0}}, pseudo_time_ramp());
  EXPECT_EQ(model.fixed_components().size(), mesh.node_sets.at("xmin").size() +
                                                 mesh.node_sets.at("ymin").size() +
                                                 mesh.node_sets.at("zmin").size());
  const StaticSolution sol = solve_static(model, 1);
  const Real eps = sigma / E;
  Real worst = 0.0, held = 0.0;
  for (Ordinal n = 0; n < mesh.num_nodes(); ++n) {
    const auto X = mesh.node_position(n);
    const Real exact[3] = {eps * X[0], -nu * eps * X[1], -nu * eps * X[2]};
    for (int a = 0; a < 3; ++a) {
      const Real u = sol.q(n, a) - X[a];
      worst = std::max(worst, std::abs(u - exact[a]));
      if (X[a] == 0.0) held = std::max(held, std::abs(u));
    }
  }
  std::printf("[ static Q27 bar on rollers ] max |u - u_exact| / (eps L) = %.2e, held |u| = %.1e\n",
              worst / (eps * L), held);
  EXPECT_LT(worst, 1e-3 * eps * L);
  EXPECT_LT(held, 1e-12 * L);
  const Ordinal corner = mesh.node_sets.at("xmax").back();  // a node off the rollers' planes
  EXPECT_NEAR(sol.q(corner, 1) - mesh.node_position(corner)[1],
              -nu * eps * mesh.node_position(corner)[1], 1e-3 * eps * L);
}

TEST(StaticAnalysis, BadSettingsAreRefused) {
  const Mesh mesh = generate_beam_ancf3243(1.0, 0.1, 0.1, 2);
  Model model;
  const int body = model.add_body(mesh, MaterialSpec::svk(7e8, 0.0), 2700.0);
  model.clamp_node_set(body, "end0");
  EXPECT_THROW(solve_static(model, 0), Error);
  StepperSettings s;
  EXPECT_THROW(parse_analysis("quasistatic"), Error);
  s.analysis = Analysis::static_equilibrium;
  s.inner_solver = InnerSolver::adamw;
  EXPECT_THROW(TimeStepper(model, s), Error);
}

}  // namespace
}  // namespace tlfea
