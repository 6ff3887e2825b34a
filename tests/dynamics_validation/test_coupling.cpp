// Node-set couplings (Model::add_coupling, docs/theory.md §5.7) against the
// clamp they replace and against closed forms of beam theory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

// A slender Q27 bar (L = 1 m, h = b = 0.025 m, L/h = 40) clamped at x = 0,
// under its weight, its end face x = L held by `end`: "clamp" (every node
// fixed), or a coupling to the ground. Returns the largest deflection |u_z|.
Real bar_max_deflection(const std::string& end, Real E, Real rho, Real g) {
  const Real L = 1.0, h = 0.025;
  const Mesh mesh = generate_box(ElementType::Q27, {L, h, h}, {40, 1, 1}, {0.0, -h / 2, -h / 2});
  Model model;
  const int b = model.add_body(mesh, MaterialSpec::svk(E, 0.0), rho);
  model.set_gravity(Vec3{{0.0, 0.0, -g}});
  model.clamp_node_set(b, "xmin");
  const std::vector<Ordinal>& tip = mesh.node_sets.at("xmax");
  if (end == "clamp") {
    model.clamp_nodes(b, tip);
  } else {
    Model::CouplingSpec s;
    s.form = end == "kinematic" ? Model::CouplingSpec::Form::kinematic
                                : Model::CouplingSpec::Form::distributing;
    const RowRange r = model.add_coupling(b, tip, -1, s);
    EXPECT_EQ(r.count, end == "kinematic" ? 3 * static_cast<Ordinal>(tip.size()) : 3);
  }
  const StaticSolution sol = solve_static(model, 1);
  Real w = 0.0;
  for (Ordinal n = 0; n < mesh.num_nodes(); ++n)
    w = std::max(w, std::fabs(sol.q(n, 2) - mesh.node_position(n)[2]));
  return w;
}

// Kinematic coupling of the end face to the ground = clamping it (the same
// nodes held, by constraint rows instead of elimination): the clamped-clamped
// beam. The distributing coupling holds only the face's mean position, so the
// face turns freely about it: the propped cantilever (clamped - pinned).
// Euler-Bernoulli closed forms under the uniform load q = rho g A
// (e.g. Roark's Formulas for Stress and Strain, 7th ed., Table 8.1, cases 2e
// and 2c with uniform load): w_max = q L^4 / (384 E I) clamped-clamped,
// q L^4 / (185 E I) propped (at x = 0.5785 L from the clamp). Shear
// deformation at L/h = 40 adds about 4 (E/G) (h/L)^2 / kappa ~ 0.8 % to the
// clamped-clamped deflection; asserted within 3 %. The two forms differ by
// a factor 2.08, so a distributing coupling that stiffened the face like a
// kinematic one would fail.
TEST(CouplingValidation, KinematicCouplingClampsAndDistributingCouplingPins) {
  const Real E = 2e9, rho = 1000.0, g = 9.81, L = 1.0, h = 0.025;
  const Real q = rho * g * h * h, I = h * h * h * h / 12.0;
  const Real clamped = bar_max_deflection("clamp", E, rho, g);
  const Real kinematic = bar_max_deflection("kinematic", E, rho, g);
  const Real distributing = bar_max_deflection("distributing", E, rho, g);
  std::printf("coupled bar: clamp %.6e, kinematic %.6e, distributing %.6e m\n", clamped, kinematic,
              distributing);
  // The rows hold the face to the outer loop's constraint tolerance (1e-8 m
  // weighted, StepperSettings::constraint_tolerance): the deflections agree
  // to a few times that (observed 7e-9 m of 2.5e-4 m).
  EXPECT_NEAR(kinematic, clamped, 5e-8);
  EXPECT_NEAR(clamped, q * L * L * L * L / (384.0 * E * I), 0.03 * clamped);
  EXPECT_NEAR(distributing, q * L * L * L * L / (185.0 * E * I), 0.03 * distributing);
}

// An ANCF 3243 cantilever under a tip load: its root node clamped (position
// and gradients eliminated) or coupled to the ground with dofs
// position+rotation (the gradients held by rows): the same tip deflection,
// and P L^3 / (3 E I) for the small load (Euler-Bernoulli).
TEST(CouplingValidation, AncfCantileverClampedByCouplingEqualsTheClampedOne) {
  const Real L = 1.0, b = 0.02, E = 2e9, P = 1.0;
  auto tip_deflection = [&](bool coupled, bool rotation) {
    const Mesh mesh = generate_beam_ancf3243(L, b, b, 8);
    Model model;
    const int body = model.add_body(mesh, MaterialSpec::svk(E, 0.0), 1000.0);
    if (coupled) {
      Model::CouplingSpec s;
      s.rotation = rotation;
      model.add_coupling(body, mesh.node_sets.at("end0"), -1, s);
    } else {
      model.clamp_node_set(body, "end0");
    }
    const Ordinal tip = mesh.node_sets.at("end1")[0];
    model.add_nodal_force(body, tip, Vec3{{0.0, 0.0, -P}});
    const StaticSolution sol = solve_static(model, 1);
    return -(sol.q(4 * tip, 2) - mesh.node_position(tip)[2]);
  };
  const Real clamped = tip_deflection(false, false), coupled = tip_deflection(true, true);
  const Real I = b * b * b * b / 12.0;
  std::printf("ANCF cantilever: clamped %.9e, coupled %.9e, EB %.9e m\n", clamped, coupled,
              P * L * L * L / (3 * E * I));
  EXPECT_NEAR(coupled, clamped, 1e-6 * clamped);
  EXPECT_NEAR(clamped, P * L * L * L / (3.0 * E * I), 0.01 * clamped);
}

TEST(Coupling, BadCouplingsAreRefused) {
  const Mesh mesh = generate_beam_ancf3243(1.0, 0.02, 0.02, 2);
  Model model;
  const int a = model.add_body(mesh, MaterialSpec::svk(2e9, 0.0), 1000.0);
  const int b = model.add_body(mesh, MaterialSpec::svk(2e9, 0.0), 1000.0);
  const int r = model.add_rigid_body(rigid_sphere(Vec3{{0.0, 0.0, 0.0}}, 0.1, 1000.0));
  Model::CouplingSpec s;
  EXPECT_THROW(model.add_coupling(a, {}, -1, s), Error);       // no nodes
  EXPECT_THROW(model.add_coupling(a, {0, 99}, -1, s), Error);  // out of range
  EXPECT_THROW(model.add_coupling(a, {0}, a, s), Error);       // itself
  EXPECT_THROW(model.add_coupling(r, {0}, -1, s), Error);      // rigid body_i
  s.rotation = true;
  EXPECT_THROW(model.add_coupling(a, {0}, b, s), Error);  // gradients to a deformable body
  s.form = Model::CouplingSpec::Form::distributing;
  EXPECT_THROW(model.add_coupling(a, {0, 1}, r, s), Error);  // distributing rotation
  s.rotation = false;
  s.weights = {1.0};
  EXPECT_THROW(model.add_coupling(a, {0, 1}, r, s), Error);  // weights per node
  s.weights = {1.0, -1.0};
  EXPECT_THROW(model.add_coupling(a, {0, 1}, r, s), Error);  // negative weight
  EXPECT_EQ(model.constraints().num_rows(), 0);              // nothing added
}

}  // namespace
}  // namespace tlfea
