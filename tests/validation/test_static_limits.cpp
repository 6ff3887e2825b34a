// Static limits of the four element types against closed forms and published
// numbers (docs/theory.md §A.2, §A.3: B2, B3 static checks; Euler-Bernoulli /
// Timoshenko cantilevers for the solids). Static solves:
// tests/common/static_solve.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "static_solve.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/elements/element_block.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

using test::load_ramp;
using test::static_equilibrium;
using test::StaticSolution;

// Consistent nodal forces of a uniform dead traction t0 on a face set of a
// T10 / Q27 mesh (f_i = int s_i t0 dA0, the element library's face rule),
// on one coefficient per node.
std::vector<std::pair<Ordinal, Vec3>> consistent_face_forces(const Mesh& mesh,
                                                             const std::string& face_set,
                                                             const Vec3& t0) {
  auto block = make_element_block(mesh, 0, MaterialSpec::svk(1.0, 0.0), 1.0);
  CoefView q0("q0", mesh.num_coefficients()), f("f", mesh.num_coefficients());
  copy_reference_coefficients(mesh, 0, q0);
  block->dead_traction(q0, make_face_list(mesh.face_sets.at(face_set)), t0, f);
  auto fh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  std::vector<std::pair<Ordinal, Vec3>> out;
  for (Ordinal k = 0; k < mesh.num_coefficients(); ++k)
    if (fh(k, 0) != 0.0 || fh(k, 1) != 0.0 || fh(k, 2) != 0.0)
      out.push_back({k, Vec3{{fh(k, 0), fh(k, 1), fh(k, 2)}}});
  return out;
}

// Inextensible elastica of a cantilever under a dead tip force normal to its
// undeformed axis (Bisshopp and Drucker 1945), by shooting:
//   theta'' = -k cos(theta), theta(0) = 0, theta'(1) = 0, s in [0, 1],
//   x' = cos(theta), z' = sin(theta); k = P L^2 / (E I).
// Returns (-u/L, w/L) = (1 - x(1), z(1)). RK4 with 4000 steps (error << 1e-6)
// and bisection on theta'(0) in (0, k] (theta'(0) = k x(1) <= k).
struct Elastica {
  Real minus_u, w;
};
Elastica elastica_tip(Real k) {
  auto shoot = [k](Real a, Real out[4]) {
    Real y[4] = {0.0, a, 0.0, 0.0};  // theta, theta', x, z
    const int n = 4000;
    const Real ds = 1.0 / n;
    auto rhs = [k](const Real s[4], Real d[4]) {
      d[0] = s[1];
      d[1] = -k * std::cos(s[0]);
      d[2] = std::cos(s[0]);
      d[3] = std::sin(s[0]);
    };
    for (int i = 0; i < n; ++i) {
      Real k1[4], k2[4], k3[4], k4[4], t[4];
      rhs(y, k1);
      for (int j = 0; j < 4; ++j) t[j] = y[j] + 0.5 * ds * k1[j];
      rhs(t, k2);
      for (int j = 0; j < 4; ++j) t[j] = y[j] + 0.5 * ds * k2[j];
      rhs(t, k3);
      for (int j = 0; j < 4; ++j) t[j] = y[j] + ds * k3[j];
      rhs(t, k4);
      for (int j = 0; j < 4; ++j) y[j] += ds / 6.0 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    }
    for (int j = 0; j < 4; ++j) out[j] = y[j];
  };
  Real lo = 0.0, hi = k, y[4];
  for (int it = 0; it < 60; ++it) {
    const Real mid = 0.5 * (lo + hi);
    shoot(mid, y);
    (y[1] > 0.0 ? hi : lo) = mid;  // theta'(1) grows with theta'(0)
  }
  shoot(0.5 * (lo + hi), y);
  return {1.0 - y[2], y[3]};
}

// ---------------------------------------------------------------------------
// Solid cantilevers (T10, Q27).
//
// Bar L = 1 along x, square section b = h = 0.1, clamped face x = 0 (every
// node fixed), SVK E = 1e7, nu = 0.3, uniform dead shear traction on x = L of
// resultant P = 0.01 (+z): w_EB = P L^3 / (3 E I) = 4e-5 L, so the
// geometric nonlinearity of SVK is ~(w/L)^2 ~ 1e-9 relative: a linear problem.
// Reference: Timoshenko w = P L^3/(3 E I) + P L / (kappa G A) with Cowper's
// kappa = 10 (1 + nu) / (12 + 11 nu) for a rectangle (shear adds 0.78 %).
// What is measured: the work-conjugate tip deflection w = sum_i f_i . u_i / P
// over the loaded nodes (the compliance). For a conforming displacement
// element it increases monotonically under nested refinement (the discrete
// energy is a minimum over nested spaces; the Kuhn split and the Q27 grid
// are nested under halving) towards the 3D elasticity value. That value is
// not Timoshenko's: the fully clamped end face also restrains warping and the
// Poisson contraction. Richardson extrapolation (order 2, the observed ratio
// of successive T10 differences is 4.4) of the meshes below gives
// 0.9931 (T10) and 0.9927 (Q27) of Timoshenko, i.e. a model error of -0.7 %
// that two element families agree on to 0.04 %.
Real solid_tip_compliance(ElementType type, int nx, int nyz) {
  const Real L = 1.0, b = 0.1, P = 0.01, E = 1e7, nu = 0.3;
  const Mesh mesh = generate_box(type, {L, b, b}, {nx, nyz, nyz});
  Model model;
  const int body = model.add_body(mesh, MaterialSpec::svk(E, nu), 1000.0);
  model.clamp_node_set(body, "xmin");
  const Vec3 t0{{0.0, 0.0, P / (b * b)}};
  model.add_traction(body, "xmax", t0, load_ramp());
  // The same traction's nodal forces, as weights of the work-conjugate deflection.
  const auto forces = consistent_face_forces(mesh, "xmax", t0);
  Real total = 0.0;
  for (const auto& f : forces) total += f.second[2];
  EXPECT_NEAR(total, P, 1e-12 * P);  // the face rule integrates the traction exactly
  const StaticSolution sol = static_equilibrium(model, 1, "eigen-ldlt");
  Real work = 0.0;
  for (const auto& f : forces)
    for (int a = 0; a < 3; ++a)
      work += f.second[a] * (sol.q(f.first, a) - mesh.coefficients[f.first][a]);
  return work / P;
}

Real timoshenko_tip(Real P, Real L, Real b, Real E, Real nu) {
  const Real I = b * b * b * b / 12.0, A = b * b, G = E / (2.0 * (1.0 + nu));
  const Real kappa = 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu);
  return P * L * L * L / (3.0 * E * I) + P * L / (kappa * G * A);
}

// meshes: (nx, ny = nz) cells, each a refinement of the previous one.
// Asserts: w increases with every refinement; the finest mesh is within
// `tolerance` of Timoshenko; the order-2 Richardson extrapolation of the last
// two meshes is within 1 % of Timoshenko (the -0.7 % model error above).
void check_solid_cantilever(ElementType type, const std::vector<std::array<int, 2>>& meshes,
                            Real tolerance) {
  const Real w_ref = timoshenko_tip(0.01, 1.0, 0.1, 1e7, 0.3);
  const Real w_eb = 0.01 / (3.0 * 1e7 * 1e-4 / 12.0);
  std::vector<Real> w;
  for (const auto& m : meshes) {
    w.push_back(solid_tip_compliance(type, m[0], m[1]));
    std::printf(
        "[ %s cantilever ] %d x %d x %d: w = %.6e, w / w_Timoshenko = %.5f, "
        "w / w_EB = %.5f\n",
        to_string(type), m[0], m[1], m[1], w.back(), w.back() / w_ref, w.back() / w_eb);
  }
  for (size_t i = 1; i < w.size(); ++i) EXPECT_GT(w[i], w[i - 1]) << "refinement " << i;
  EXPECT_NEAR(w.back() / w_ref, 1.0, tolerance);
  const size_t n = w.size();
  const Real extrapolated = w[n - 1] + (w[n - 1] - w[n - 2]) / 3.0;
  std::printf("[ %s cantilever ] Richardson: w / w_Timoshenko = %.5f\n", to_string(type),
              extrapolated / w_ref);
  EXPECT_NEAR(extrapolated / w_ref, 1.0, 0.01);
}

// T10: 10 x 1 x 1, 20 x 2 x 2, 40 x 4 x 4 cells (6 tetrahedra each; the
// finest has 3840 elements, 19,683 unknowns): w / w_Timoshenko = 0.9758,
// 0.9890, 0.9921. Tolerance 1.5 %: the -0.7 % model error plus the -0.1 %
// discretisation error left at 40 x 4 x 4, with margin.
TEST(StaticLimits, T10CantileverTipDeflectionConvergesToTimoshenko) {
  check_solid_cantilever(ElementType::T10, {{10, 1}, {20, 2}, {40, 4}}, 0.015);
}

// Q27: 5 x 1 x 1 (x refined only, then all directions) 10 x 1 x 1,
// 20 x 2 x 2 elements: 0.9752, 0.9858, 0.9910. Tolerance 1.5 % as for T10
// (discretisation error left at 20 x 2 x 2: -0.2 %).
TEST(StaticLimits, Q27CantileverTipDeflectionConvergesToTimoshenko) {
  check_solid_cantilever(ElementType::Q27, {{5, 1}, {10, 1}, {20, 2}}, 0.015);
}

// ---------------------------------------------------------------------------
// ANCF 3243 cantilever (B2, docs/theory.md §A.2): L = 2, 0.1 x 0.1 section,
// node 0 clamped with all its coefficients, dead tip force P (+z) on the position
// coefficient of the last node. `split`: the element's Poisson split
// (MaterialSpec::ancf3243_poisson_split, on by default; off = the continuum
// element).
Vec3 ancf_beam_tip(int elements, Real nu, Real k, int increments, bool split = true) {
  const Real L = 2.0, b = 0.1, E = 7e8, I = b * b * b * b / 12.0;
  const Mesh mesh = generate_beam_ancf3243(L, b, b, elements);
  Model model;
  const int body =
      model.add_body(mesh, MaterialSpec::svk(E, nu).with_ancf3243_poisson_split(split), 2700.0);
  model.clamp_node_set(body, "end0");
  const Ordinal tip = mesh.node_sets.at("end1").at(0);
  model.add_nodal_force(body, tip, Vec3{{0.0, 0.0, k * E * I / (L * L)}}, load_ramp());
  const StaticSolution sol = static_equilibrium(model, increments);
  const Ordinal c = tip * mesh.coefficients_per_node();
  return Vec3{{sol.q(c, 0) - mesh.coefficients[c][0], sol.q(c, 1) - mesh.coefficients[c][1],
               sol.q(c, 2) - mesh.coefficients[c][2]}};
}

// B2 static check, k = P L^2 / EI = 0.01, 16 elements: Euler-Bernoulli
// w = P L^3 / (3 E I) = k L / 3. At k = 0.01 the elastica differs from it by
// 0.004 % and Timoshenko shear adds 3 E I / (kappa G A L^2) = 0.16 % at nu = 0
// (kappa = 5/6); the 1 % tolerance is the benchmark's.
TEST(StaticLimits, Ancf3243SmallTipLoadMatchesEulerBernoulliWithoutPoisson) {
  const Real L = 2.0, k = 0.01;
  const Vec3 u = ancf_beam_tip(16, 0.0, k, 1);
  const Real w_eb = k * L / 3.0;
  std::printf("[ ANCF3243 k = 0.01, nu = 0 ] 16 el: w = %.6e, w / w_EB = %.5f\n", u[2],
              u[2] / w_eb);
  EXPECT_NEAR(u[2] / w_eb, 1.0, 0.01);
}

// The B2 material, nu = 0.33. With the Poisson split (default) the element
// bends with E and the B2 1 % check holds. Euler-Bernoulli reference as
// above; Timoshenko shear with G = E / (2 (1 + nu)) adds 3 E I / (kappa G A
// L^2) = 0.2 % (kappa = 5/6), inside the benchmark's 1 %. Computed w / w_EB
// at 4, 8, 16, 32 elements: 0.98597, 0.99772, 1.00066, 1.00140 (the last
// two: the 0.2 % shear compliance).
TEST(StaticLimits, Ancf3243SmallTipLoadAtPoisson033MatchesEulerBernoulli) {
  const Real L = 2.0, k = 0.01, nu = 0.33;
  const Real w_eb = k * L / 3.0;
  for (int n : {4, 8, 16, 32}) {
    const Vec3 on = ancf_beam_tip(n, nu, k, 1, true);
    std::printf("[ ANCF3243 k = 0.01, nu = 0.33 ] %d el: w / w_EB = %.5f (split)\n", n,
                on[2] / w_eb);
    if (n == 16) EXPECT_NEAR(on[2] / w_eb, 1.0, 0.01) << n << " elements";
  }
}

// The continuum element (split switched off) keeps the Poisson locking of
// fully parameterised ANCF beams: r_v, r_w are constant over the section, so
// the transverse strains cannot vary through the depth as the Poisson effect
// of bending requires, the bending fibres are in lateral plane strain and the
// bending modulus is E (1 - nu) / ((1 + nu)(1 - 2 nu)): w / w_EB ->
// (1 + nu)(1 - 2 nu) / (1 - nu) = 0.6749 at nu = 0.33, independent of the
// mesh. Asserted within 1 % (shear and discretisation effects as above) at
// 16 elements: a check that the switch selects the continuum element.
// Computed at 4, 8, 16, 32 elements: 0.66599, 0.67392, 0.67591, 0.67641.
TEST(StaticLimits, Ancf3243WithoutPoissonSplitShowsPoissonLocking) {
  const Real L = 2.0, k = 0.01, nu = 0.33;
  const Real w_eb = k * L / 3.0;
  const Real locked = (1.0 + nu) * (1.0 - 2.0 * nu) / (1.0 - nu);
  for (int n : {4, 8, 16, 32}) {
    const Vec3 u = ancf_beam_tip(n, nu, k, 1, false);
    std::printf(
        "[ ANCF3243 k = 0.01, nu = 0.33 ] %d el: w / w_EB = %.5f (no split; locked limit %.5f)\n",
        n, u[2] / w_eb, locked);
    if (n == 16) EXPECT_NEAR(u[2] / w_eb / locked, 1.0, 0.01) << n << " elements";
  }
}

// B2 large deflection: k = 3, inextensible elastica -u/L = 0.25442,
// w/L = 0.60325 (Bisshopp and Drucker 1945; docs/theory.md §A.2; elastica_tip
// gives 0.254420, 0.603253), within 2 % at 32 elements (the benchmark's
// tolerance), 4 load increments.
// Computed at nu = 0: 0.25542 (+0.39 %), 0.60451 (+0.21 %), the beam's
// axial and shear compliance at L/h = 20.
TEST(StaticLimits, ElasticaReferenceReproducesPublishedTable) {
  const Elastica e = elastica_tip(3.0);
  EXPECT_NEAR(e.minus_u, 0.25442, 1e-5);
  EXPECT_NEAR(e.w, 0.60325, 1e-5);
}

TEST(StaticLimits, Ancf3243LargeTipLoadMatchesElastica) {
  const Real L = 2.0;
  const Vec3 u = ancf_beam_tip(32, 0.0, 3.0, 4);
  std::printf("[ ANCF3243 k = 3, nu = 0 ] 32 el: -u/L = %.5f (0.25442), w/L = %.5f (0.60325)\n",
              -u[0] / L, u[2] / L);
  EXPECT_NEAR(-u[0] / L / 0.25442, 1.0, 0.02);
  EXPECT_NEAR(u[2] / L / 0.60325, 1.0, 0.02);
}

// The B2 material (nu = 0.33) at k = 3 with the Poisson split (default):
// the B2 target within 2 % at 32 elements. Computed -u/L = 0.25521
// (+0.31 %), w/L = 0.60446 (+0.20 %), as close as the nu = 0 case above.
// Without the split the element
// followed the elastica at k_eff = k (1 + nu)(1 - 2 nu) / (1 - nu) = 2.0248
// (computed -u/L = 0.1639, w/L = 0.4984: -36 %, -17 % off the target).
TEST(StaticLimits, Ancf3243LargeTipLoadAtPoisson033MatchesElastica) {
  const Real L = 2.0, k = 3.0, nu = 0.33;
  const Vec3 u = ancf_beam_tip(32, nu, k, 4);
  std::printf("[ ANCF3243 k = 3, nu = 0.33 ] 32 el: -u/L = %.5f (0.25442), w/L = %.5f (0.60325)\n",
              -u[0] / L, u[2] / L);
  EXPECT_NEAR(-u[0] / L / 0.25442, 1.0, 0.02);
  EXPECT_NEAR(u[2] / L / 0.60325, 1.0, 0.02);
}

// ---------------------------------------------------------------------------
// B3 static check: ANCF 3443 cantilever plate strip L = 10, b = 1, h = 0.1,
// E = 1.2e6, nu = 0, end shear P = 4 (P L^2 / EI = 4), the x = 0 edge
// clamped with all coefficients, P split equally over the two x = L edge
// nodes (position coefficients), 8 load increments.
struct StripTip {
  Real minus_U, W;
};
StripTip plate_strip_tip(int nx) {
  const Real L = 10.0, b = 1.0, h = 0.1, E = 1.2e6, P = 4.0;
  const Mesh mesh = generate_plate_ancf3443(L, b, h, {nx, 1});
  Model model;
  const int body = model.add_body(mesh, MaterialSpec::svk(E, 0.0), 1000.0);
  model.clamp_node_set(body, "xmin");
  const auto& tip = mesh.node_sets.at("xmax");
  const int increments = 8;
  for (Ordinal n : tip)
    model.add_nodal_force(body, n, Vec3{{0.0, 0.0, P / static_cast<Real>(tip.size())}},
                          load_ramp());
  const StaticSolution sol = static_equilibrium(model, increments);
  Real U = 0.0, W = 0.0;
  for (Ordinal n : tip) {
    const Ordinal c = n * mesh.coefficients_per_node();
    U += (sol.q(c, 0) - mesh.coefficients[c][0]) / tip.size();
    W += (sol.q(c, 2) - mesh.coefficients[c][2]) / tip.size();
  }
  std::printf("[ ANCF3443 strip P = 4 ] %d x 1: -U = %.4f, W = %.4f (%d Newton iterations)\n", nx,
              -U, W, sol.newton_iterations);
  return {-U, W};
}

// Published tip -U = 3.286, W = 6.698 (the benchmark's reference) at 16 x 1
// elements, within 3 % (the benchmark's tolerance). Computed: 3.2167
// (-2.1 %), 6.6233 (-1.1 %); the gap is the 16 x 1 mesh's discretisation
// error (see the refinement test below), not a different limit.
TEST(StaticLimits, Ancf3443PlateStripEndShearMatchesPublishedReference) {
  const StripTip t = plate_strip_tip(16);
  EXPECT_NEAR(t.minus_U / 3.286, 1.0, 0.03);
  EXPECT_NEAR(t.W / 6.698, 1.0, 0.03);
}

// Under refinement the strip converges to the inextensible elastica at
// k = 4 (-U/L = 0.32894, W/L = 0.66996 by elastica_tip; at L/h = 100 the
// membrane and shear compliance are ~1e-4 of the bending one): errors at
// 16, 32, 64 elements -2.2/-1.1 %, -0.14/-0.07 %, +0.003/+0.0 %. Asserted:
// the error falls at every refinement and 64 x 1 is within 0.1 % of the
// elastica.
TEST(StaticLimits, Ancf3443PlateStripConvergesToElasticaUnderRefinement) {
  const Elastica e = elastica_tip(4.0);
  const Real L = 10.0;
  Real prev_u = 1.0, prev_w = 1.0;
  for (int nx : {16, 32, 64}) {
    const StripTip t = plate_strip_tip(nx);
    const Real eu = std::fabs(t.minus_U / (e.minus_u * L) - 1.0);
    const Real ew = std::fabs(t.W / (e.w * L) - 1.0);
    EXPECT_LT(eu, prev_u) << nx;
    EXPECT_LT(ew, prev_w) << nx;
    prev_u = eu;
    prev_w = ew;
  }
  EXPECT_LT(prev_u, 1e-3);
  EXPECT_LT(prev_w, 1e-3);
}

}  // namespace
}  // namespace tlfea
