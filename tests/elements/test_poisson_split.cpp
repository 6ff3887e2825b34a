// ANCF 3243 and ANCF 3443 Poisson splits (elements/poisson_split.hpp): the
// split element against the continuum element where they must agree, its
// independence of the reference orientation, the uniaxial-stress closed form,
// and the usual tangent / energy consistency on a rotated reference at
// nu = 0.33 (beam) / 0.3 (shell), for SVK and (shell) the hyperelastic laws,
// whose uniaxial membrane tension is checked against the laws' own uniaxial
// stress state. The plate-bending effect of the shell split
// is checked against Kirchhoff plate theory in
// tests/validation/test_shell_plates.cpp.
#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

#include "kernel_test_utils.hpp"

namespace tlfea::test {
namespace {

constexpr Real kE = 7e8, kNu = 0.33;

CoefViewHost force_of(const System& s, const CoefViewHost& q, const CoefViewHost& v) {
  CoefView f("f", s.ncoef());
  s.block->internal_force(to_device(q), to_device(v), f);
  return to_host(f);
}

CoefViewHost perturbed(const CoefViewHost& x, Real scale, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  CoefViewHost h("p", x.extent(0));
  for (size_t k = 0; k < x.extent(0); ++k)
    for (int a = 0; a < 3; ++a) h(k, a) = x(k, a) + scale * u(rng);
  return h;
}

Real max_abs_diff(const CoefViewHost& a, const CoefViewHost& b) {
  Real m = 0.0;
  for (size_t k = 0; k < a.extent(0); ++k)
    for (int c = 0; c < 3; ++c) m = std::max(m, std::fabs(a(k, c) - b(k, c)));
  return m;
}

Mesh rotated_mesh(const Mesh& mesh, const Real R[3][3], const Real c[3]) {
  Mesh m = mesh;
  const auto r = rigid_motion(mesh, R, c);
  for (Ordinal k = 0; k < m.num_coefficients(); ++k)
    for (int a = 0; a < 3; ++a) m.coefficients[k][a] = r(k, a);
  return m;
}

// R x for positions (plus c), R x for gradient coefficients, of a state q.
CoefViewHost rotate_state(const Mesh& mesh, const CoefViewHost& q, const Real R[3][3],
                          const Real c[3]) {
  CoefViewHost h("rq", q.extent(0));
  const int cpn = mesh.coefficients_per_node();
  for (size_t k = 0; k < q.extent(0); ++k)
    for (int a = 0; a < 3; ++a) {
      Real x = (k % cpn) == 0 ? c[a] : 0.0;
      for (int b = 0; b < 3; ++b) x += R[a][b] * q(k, b);
      h(k, a) = x;
    }
  return h;
}

TEST(PoissonSplit, OnByDefaultForSvkOnAncf3243) {
  const Mesh beam = generate_beam_ancf3243(1.0, 0.1, 0.08, 2);
  const MaterialSpec svk = MaterialSpec::svk(kE, kNu);
  EXPECT_TRUE(make_system(beam, svk).block->poisson_split());
  EXPECT_TRUE(make_system(beam, svk.with_kelvin_voigt(1e5, 5e4)).block->poisson_split());
  EXPECT_FALSE(make_system(beam, svk.with_ancf3243_poisson_split(false)).block->poisson_split());
  const Real mu = kE / (2 * (1 + kNu)), K = kE / (3 * (1 - 2 * kNu));
  EXPECT_FALSE(make_system(beam, MaterialSpec::neo_hookean(mu, K)).block->poisson_split());
  EXPECT_FALSE(
      make_system(beam, MaterialSpec::mooney_rivlin(0.3 * mu, 0.2 * mu, K)).block->poisson_split());
  // The beam's flag is the beam's only (the shell has its own, below).
  EXPECT_TRUE(make_system(small_mesh(ElementType::ANCF3443), svk.with_ancf3243_poisson_split(false))
                  .block->poisson_split());
  EXPECT_FALSE(make_system(small_mesh(ElementType::Q27), svk).block->poisson_split());
}

// At nu = 0 (lambda = 0) and lambda_v = 0 the split is exact: c = E - 2 mu =
// 0, so D0 is the full law and Dv = 0. The split element's force, tangent and
// energy then equal the continuum element's (a different code path) to
// round-off, at a random deformed state with random velocities.
TEST(PoissonSplit, AtNuZeroEqualsContinuumElement) {
  const Mesh beam = generate_beam_ancf3243(1.0, 0.1, 0.08, 3);
  for (const MaterialSpec& base :
       {MaterialSpec::svk(kE, 0.0), MaterialSpec::svk(kE, 0.0).with_kelvin_voigt(1e5, 0.0)}) {
    System on = make_system(beam, base);
    System off = make_system(beam, base.with_ancf3243_poisson_split(false));
    ASSERT_TRUE(on.block->poisson_split());
    ASSERT_FALSE(off.block->poisson_split());
    const auto q = perturbed(to_host(on.q0), 0.005, 3);
    const auto v = perturbed(zeros_host(on.ncoef()), 0.5, 4);
    const auto f_on = force_of(on, q, v), f_off = force_of(off, q, v);
    EXPECT_LT(max_abs_diff(f_on, f_off), 1e-10 * max_abs(f_off)) << base.name();
    DeviceView<Real*> K_on("K", on.pattern.nnz()), K_off("K", off.pattern.nnz());
    on.block->tangent(to_device(q), to_device(v), 1.0, 0.3, K_on);
    off.block->tangent(to_device(q), to_device(v), 1.0, 0.3, K_off);
    const auto A = dense(on.pattern, K_on), B = dense(off.pattern, K_off);
    Real d = 0.0, m = 0.0;
    for (size_t r = 0; r < A.size(); ++r)
      for (size_t c = 0; c < A.size(); ++c) {
        d = std::max(d, std::fabs(A[r][c] - B[r][c]));
        m = std::max(m, std::fabs(B[r][c]));
      }
    EXPECT_LT(d, 1e-10 * m) << base.name();
    const Real e_on = on.block->strain_energy(to_device(q)),
               e_off = off.block->strain_energy(to_device(q));
    EXPECT_NEAR(e_on, e_off, 1e-10 * std::fabs(e_off)) << base.name();
  }
}

// The split uses the beam frame of the reference (Gram-Schmidt of J0), so
// rotating reference and deformed state together leaves the strain energy
// unchanged and rotates the forces. (A split in the global axes, as Chrono
// writes it, would fail this: at nu = 0.33 the D0 / Dv parts are not
// isotropic.) State: random perturbation of 2 % of the section size.
TEST(PoissonSplit, IndependentOfReferenceOrientation) {
  const Mesh beam = generate_beam_ancf3243(1.0, 0.1, 0.08, 2);
  const Real ax[3] = {0.3, -0.5, 0.8}, c[3] = {0.1, 0.2, -0.3};
  Real R[3][3];
  rotation(ax, 0.7, R);
  const Mesh rbeam = rotated_mesh(beam, R, c);
  const MaterialSpec mat = MaterialSpec::svk(kE, kNu);
  System s = make_system(beam, mat), rs = make_system(rbeam, mat);
  const auto q = perturbed(to_host(s.q0), 0.002, 5);
  const auto rq = rotate_state(beam, q, R, c);
  const Real e = s.block->strain_energy(to_device(q)), re = rs.block->strain_energy(to_device(rq));
  EXPECT_GT(e, 0.0);
  EXPECT_NEAR(re, e, 1e-10 * e);
  const auto f = force_of(s, q, q), rf = force_of(rs, rq, rq);
  const Real zero[3] = {0.0, 0.0, 0.0};
  const auto f_rotated = rotate_state(beam, f, R, zero);
  // rotate_state adds c to position rows only; with c = 0 it is R f for all.
  EXPECT_LT(max_abs_diff(rf, f_rotated), 1e-9 * max_abs(f));
}

// Uniaxial tension of a straight bar (1 and 3 elements), nu = 0.33, split on
// and off: axial stretch lambda1 imposed on every coefficient, the lateral
// stretch lambda2 of r_v, r_w found by bisection on the generalised force of
// the r_v coefficients (y components). Closed form, SVK uniaxial stress:
// S = lambda tr(E) I + 2 mu E with S_yy = S_zz = 0 and E_yy = E_zz = e2 gives
// lambda (e1 + 2 e2) + 2 mu e2 = 0, e2 = -lambda e1 / (2 (lambda + mu)) =
// -nu e1, so lambda2 = sqrt(1 - 2 nu e1); then S_xx = (lambda + 2 mu) e1 +
// 2 lambda e2 = E e1 and the end force is P_xx A = lambda1 E e1 A. Under a
// uniform strain both the full and the axis rule are exact (poisson_split.hpp),
// so the split must reproduce this; without its axis (Dv) part there would be
// no contraction (lambda2 = 1). Tolerances: bisection to 1e-15 and forces
// ~1e-16 E A relative round-off, so 1e-9 is loose.
TEST(PoissonSplit, UniaxialTensionKeepsPoissonContraction) {
  const Real L = 2.0, b = 0.1, h = 0.08, A = b * h, lambda1 = 1.05;
  const Real e1 = 0.5 * (lambda1 * lambda1 - 1.0);
  const Real lambda2_exact = std::sqrt(1.0 - 2.0 * kNu * e1);
  const Real Fx_exact = lambda1 * kE * e1 * A;
  for (int ne : {1, 3})
    for (bool split : {true, false}) {
      const Mesh beam = generate_beam_ancf3243(L, b, h, ne);
      System s = make_system(beam, MaterialSpec::svk(kE, kNu).with_ancf3243_poisson_split(split));
      ASSERT_EQ(s.block->poisson_split(), split);
      auto state = [&](Real lambda2) {
        const Real M[3][3] = {{lambda1, 0, 0}, {0, lambda2, 0}, {0, 0, lambda2}};
        const Real c[3] = {0, 0, 0};
        return rigid_motion(beam, M, c);
      };
      auto residual = [&](Real lambda2) {
        const auto q = state(lambda2);
        const auto f = force_of(s, q, q);
        Real g = 0.0;
        for (Ordinal n = 0; n < beam.num_nodes(); ++n) g += f(4 * n + 2, 1);
        return g;
      };
      Real lo = 0.9, hi = 1.0;
      ASSERT_LT(residual(lo), 0.0);
      ASSERT_GT(residual(hi), 0.0);  // S_yy > 0 without contraction
      for (int it = 0; it < 60; ++it) {
        const Real mid = 0.5 * (lo + hi);
        (residual(mid) > 0.0 ? hi : lo) = mid;
      }
      const Real lambda2 = 0.5 * (lo + hi);
      std::printf("[ PoissonSplit uniaxial ] %d el, split %d: lambda2 = %.12f (exact %.12f)\n", ne,
                  split ? 1 : 0, lambda2, lambda2_exact);
      EXPECT_NEAR(lambda2, lambda2_exact, 1e-9) << ne << " el, split " << split;
      const auto q = state(lambda2);
      const auto f = force_of(s, q, q);
      // End forces on the position coefficients; every other generalised force vanishes.
      const Ordinal last = beam.num_nodes() - 1;
      EXPECT_NEAR(f(4 * last, 0), Fx_exact, 1e-9 * Fx_exact) << ne << " el, split " << split;
      EXPECT_NEAR(f(0, 0), -Fx_exact, 1e-9 * Fx_exact) << ne << " el, split " << split;
      Real other = 0.0;
      for (Ordinal k = 0; k < s.ncoef(); ++k)
        for (int a = 0; a < 3; ++a) {
          // f_i = P int grad s_i dV with P = P_xx e_x (x) e_x: nonzero only for
          // the end position coefficients (+-A); the slope functions of r_u
          // vanish at both ends and those of r_v, r_w are odd over the section.
          const bool end_axial = a == 0 && (k == 0 || k == 4 * last);
          if (!end_axial) other = std::max(other, std::fabs(f(k, a)));
        }
      EXPECT_LT(other, 1e-8 * Fx_exact) << ne << " el, split " << split;
    }
}

// Split on, for SVK and Kelvin-Voigt<SVK> (or `materials`) at Poisson's ratio nu on `mesh`:
// K and D against central differences along a random direction, f = dPsi/dq
// (SVK), and zero force under a rigid motion with a rigid velocity. Random
// states from seeds seed, seed + 1, seed + 2. Tolerances as in
// test_kernels.cpp (h^2 truncation, 1e-16 / h round-off).
void check_split_tangents(const Mesh& mesh, Real nu, unsigned seed, Real element_volume,
                          std::vector<MaterialSpec> materials = {}) {
  if (materials.empty())
    materials = {MaterialSpec::svk(kE, nu), MaterialSpec::svk(kE, nu).with_kelvin_voigt(2e5, 1e5)};
  for (const MaterialSpec& mat : materials) {
    System s = make_system(mesh, mat);
    ASSERT_TRUE(s.block->poisson_split());
    const Ordinal n = s.ncoef();
    const auto q = perturbed(to_host(s.q0), 0.005, seed);
    const auto v = perturbed(zeros_host(n), 0.5, seed + 1);
    DeviceView<Real*> K("K", s.pattern.nnz()), D("D", s.pattern.nnz());
    s.block->tangent(to_device(q), to_device(v), 1.0, 0.0, K);
    s.block->tangent(to_device(q), to_device(v), 0.0, 1.0, D);
    const auto Kd = dense(s.pattern, K), Dd = dense(s.pattern, D);
    const auto dir = perturbed(zeros_host(n), 1.0, seed + 2);
    auto fd = [&](bool wrt_q, Real h) {
      CoefViewHost xp("xp", n), xm("xm", n);
      const CoefViewHost& x = wrt_q ? q : v;
      for (Ordinal k = 0; k < n; ++k)
        for (int a = 0; a < 3; ++a) {
          xp(k, a) = x(k, a) + h * dir(k, a);
          xm(k, a) = x(k, a) - h * dir(k, a);
        }
      const auto fp = wrt_q ? force_of(s, xp, v) : force_of(s, q, xp);
      const auto fm = wrt_q ? force_of(s, xm, v) : force_of(s, q, xm);
      CoefViewHost out("fd", n);
      for (Ordinal k = 0; k < n; ++k)
        for (int a = 0; a < 3; ++a) out(k, a) = (fp(k, a) - fm(k, a)) / (2 * h);
      return out;
    };
    auto rel = [&](const std::vector<std::vector<Real>>& M, const CoefViewHost& ref) {
      Real num = 0.0, den = 0.0;
      for (Ordinal r = 0; r < 3 * n; ++r) {
        Real y = 0.0;
        for (Ordinal cc = 0; cc < 3 * n; ++cc) y += M[r][cc] * dir(cc / 3, cc % 3);
        const Real d = y - ref(r / 3, r % 3);
        num += d * d;
        den += ref(r / 3, r % 3) * ref(r / 3, r % 3);
      }
      return std::sqrt(num / den);
    };
    const Real rel_K = rel(Kd, fd(true, 1e-7));
    std::printf("[ split tangent ] %s: |K d - FD| / |FD| = %.3g\n", mat.name().c_str(), rel_K);
    EXPECT_LT(rel_K, 1e-6) << mat.name();
    if (mat.kelvin_voigt) {
      EXPECT_LT(rel(Dd, fd(false, 1e-5)), 1e-6) << mat.name();
    } else {
      // f_int = dPsi/dq along dir.
      const auto f = force_of(s, q, v);
      Real proj = 0.0;
      CoefViewHost qp("qp", n), qm("qm", n);
      const Real h = 1e-6;
      for (Ordinal k = 0; k < n; ++k)
        for (int a = 0; a < 3; ++a) {
          proj += f(k, a) * dir(k, a);
          qp(k, a) = q(k, a) + h * dir(k, a);
          qm(k, a) = q(k, a) - h * dir(k, a);
        }
      const Real dE =
          (s.block->strain_energy(to_device(qp)) - s.block->strain_energy(to_device(qm))) / (2 * h);
      EXPECT_NEAR(dE, proj, 1e-6 * std::fabs(proj));
    }
    // Rigid motion of the reference with a rigid velocity: zero force.
    const Real ax2[3] = {0.7, 0.1, -0.3}, c2[3] = {1.0, 2.0, 3.0};
    Real R2[3][3];
    rotation(ax2, 2.3, R2);
    const auto qr = rigid_motion(mesh, R2, c2);
    CoefViewHost vr("vr", n);
    const Real w[3] = {0.3, -0.2, 0.5};
    for (Ordinal k = 0; k < n; ++k) {
      vr(k, 0) = w[1] * qr(k, 2) - w[2] * qr(k, 1);
      vr(k, 1) = w[2] * qr(k, 0) - w[0] * qr(k, 2);
      vr(k, 2) = w[0] * qr(k, 1) - w[1] * qr(k, 0);
    }
    // Scale: E times a unit strain times the element volume.
    EXPECT_LT(max_abs(force_of(s, qr, vr)), 1e-9 * kE * element_volume) << mat.name();
  }
}

// Tangents (K and D) against central differences and f = dPsi/dq on a
// rotated reference at nu = 0.33 (non-trivial beam frame), split on.
// Tolerances as in test_kernels.cpp (h^2 truncation, 1e-16 / h round-off).
TEST(PoissonSplit, TangentAndEnergyConsistentOnRotatedReference) {
  const Real ax[3] = {-0.4, 0.2, 0.9}, c[3] = {0.5, -0.1, 0.2};
  Real R[3][3];
  rotation(ax, 1.1, R);
  const Mesh beam = rotated_mesh(generate_beam_ancf3243(1.0, 0.1, 0.08, 2), R, c);
  // Element volume 0.5 x 0.1 x 0.08.
  check_split_tangents(beam, kNu, 7, 4e-3);
}

// ---------------------------------------------------------------------------
// ANCF 3443 shell split (D0 the plane-stress law of the tangent plane over the
// 4 x 4 x 2 rule, Dv = D - D0 on the 4 x 4 mid-surface points).

constexpr Real kShellNu = 0.3;

TEST(ShellPoissonSplit, OnByDefaultForSvkOnAncf3443Only) {
  const Mesh plate = generate_plate_ancf3443(1.0, 0.8, 0.05, {2, 2});
  const MaterialSpec svk = MaterialSpec::svk(kE, kShellNu);
  EXPECT_TRUE(make_system(plate, svk).block->poisson_split());
  EXPECT_TRUE(make_system(plate, svk.with_kelvin_voigt(1e5, 5e4)).block->poisson_split());
  EXPECT_FALSE(make_system(plate, svk.with_ancf3443_poisson_split(false)).block->poisson_split());
  EXPECT_FALSE(
      make_system(plate, svk.with_kelvin_voigt(1e5, 5e4).with_ancf3443_poisson_split(false))
          .block->poisson_split());
  // Mooney-Rivlin and Neo-Hookean (plain and Kelvin-Voigt) shells split too
  // (the law in full plus -Dv on the full rule, Dv on the mid-surface), with
  // the same switch.
  const Real mu = kE / (2 * (1 + kShellNu)), K = kE / (3 * (1 - 2 * kShellNu));
  for (const MaterialSpec& hyper :
       {MaterialSpec::neo_hookean(mu, K), MaterialSpec::mooney_rivlin(0.3 * mu, 0.2 * mu, K)}) {
    EXPECT_TRUE(make_system(plate, hyper).block->poisson_split()) << hyper.name();
    EXPECT_TRUE(make_system(plate, hyper.with_kelvin_voigt(1e5, 5e4)).block->poisson_split())
        << hyper.name();
    EXPECT_FALSE(
        make_system(plate, hyper.with_ancf3443_poisson_split(false)).block->poisson_split())
        << hyper.name();
    EXPECT_FALSE(
        make_system(plate, hyper.with_kelvin_voigt(1e5, 5e4).with_ancf3443_poisson_split(false))
            .block->poisson_split())
        << hyper.name();
  }
  // The shell's flag is the shell's only.
  const Mesh beam = generate_beam_ancf3243(1.0, 0.1, 0.08, 2);
  EXPECT_TRUE(make_system(beam, svk.with_ancf3443_poisson_split(false)).block->poisson_split());
}

// At nu = 0 (lambda = lambda* = 0) and lambda_v = 0 the shell split is exact:
// D0 = 2 mu E is the full law and Dv = 0, so force, tangent and energy equal
// the continuum element's (a different code path) to round-off.
TEST(ShellPoissonSplit, AtNuZeroEqualsContinuumElement) {
  const Mesh plate = generate_plate_ancf3443(1.0, 0.8, 0.05, {2, 2});
  // Hyperelastic at nu = 0: small-strain lambda = kappa - 2 mu / 3 = 0, so
  // Dv = 0 and the split element is the law on the full rule.
  const Real mu0 = kE / 2.0, K0 = kE / 3.0;
  for (const MaterialSpec& base :
       {MaterialSpec::svk(kE, 0.0), MaterialSpec::svk(kE, 0.0).with_kelvin_voigt(1e5, 0.0),
        MaterialSpec::neo_hookean(mu0, K0), MaterialSpec::mooney_rivlin(0.3 * mu0, 0.2 * mu0, K0),
        MaterialSpec::mooney_rivlin(0.3 * mu0, 0.2 * mu0, K0).with_kelvin_voigt(1e5, 0.0)}) {
    System on = make_system(plate, base);
    System off = make_system(plate, base.with_ancf3443_poisson_split(false));
    ASSERT_TRUE(on.block->poisson_split());
    ASSERT_FALSE(off.block->poisson_split());
    const auto q = perturbed(to_host(on.q0), 0.005, 13);
    const auto v = perturbed(zeros_host(on.ncoef()), 0.5, 14);
    const auto f_on = force_of(on, q, v), f_off = force_of(off, q, v);
    EXPECT_LT(max_abs_diff(f_on, f_off), 1e-10 * max_abs(f_off)) << base.name();
    DeviceView<Real*> K_on("K", on.pattern.nnz()), K_off("K", off.pattern.nnz());
    on.block->tangent(to_device(q), to_device(v), 1.0, 0.3, K_on);
    off.block->tangent(to_device(q), to_device(v), 1.0, 0.3, K_off);
    const auto A = dense(on.pattern, K_on), B = dense(off.pattern, K_off);
    Real d = 0.0, m = 0.0;
    for (size_t r = 0; r < A.size(); ++r)
      for (size_t c = 0; c < A.size(); ++c) {
        d = std::max(d, std::fabs(A[r][c] - B[r][c]));
        m = std::max(m, std::fabs(B[r][c]));
      }
    EXPECT_LT(d, 1e-10 * m) << base.name();
    const Real e_on = on.block->strain_energy(to_device(q)),
               e_off = off.block->strain_energy(to_device(q));
    EXPECT_NEAR(e_on, e_off, 1e-10 * std::fabs(e_off)) << base.name();
  }
}

// Uniaxial membrane tension of a plate (2 x 2 and 3 x 1 elements, L x W x h
// = 1 x 0.8 x 0.05), nu = 0.3, split on and off: the homogeneous state
// F = diag(lambda1, lambda2, lambda3) imposed on every coefficient. Closed
// form, SVK uniaxial stress (as for the beam above): S_yy = S_zz = 0 gives
// E_yy = E_zz = -nu E_xx, lambda2 = lambda3 = sqrt(1 - 2 nu e1), and the end
// force P_xx W h = lambda1 E e1 W h. lambda2 (= lambda3) is found by
// bisection on the lateral virtual work f . dq/dlambda2; then its in-plane
// (y) and thickness (z) parts must vanish separately, and every generalised
// force but the end reactions too. Under uniform strain
// both rules are exact (poisson_split.hpp), so the split keeps the in-plane
// and thickness Poisson contraction exactly. At e1 = 1e-4 (small strain) the
// lateral engineering strain is -nu times the axial one to O(e1). Tolerances
// as in the beam test (bisection to 1e-15, forces at round-off).
TEST(ShellPoissonSplit, UniaxialMembraneTensionKeepsPoissonContraction) {
  const Real L = 1.0, W = 0.8, h = 0.05;
  for (const Real lambda1 : {1.0001, 1.05})
    for (const std::array<int, 2> div : {std::array<int, 2>{2, 2}, std::array<int, 2>{3, 1}})
      for (bool split : {true, false}) {
        const Real e1 = 0.5 * (lambda1 * lambda1 - 1.0);
        const Real lambda2_exact = std::sqrt(1.0 - 2.0 * kShellNu * e1);
        const Real Fx_exact = lambda1 * kE * e1 * W * h;
        const Mesh plate = generate_plate_ancf3443(L, W, h, div);
        System s =
            make_system(plate, MaterialSpec::svk(kE, kShellNu).with_ancf3443_poisson_split(split));
        ASSERT_EQ(s.block->poisson_split(), split);
        auto state = [&](Real lambda2) {
          const Real M[3][3] = {{lambda1, 0, 0}, {0, lambda2, 0}, {0, 0, lambda2}};
          const Real c[3] = {0, 0, 0};
          return rigid_motion(plate, M, c);
        };
        // Lateral virtual work of f along dq/dlambda2 (the y and z components
        // of every reference coefficient): a = 1 in-plane, a = 2 thickness.
        auto work = [&](const CoefViewHost& f, int a) {
          Real g = 0.0;
          for (Ordinal k = 0; k < s.ncoef(); ++k) g += f(k, a) * plate.coefficients[k][a];
          return g;
        };
        auto residual = [&](Real lambda2) {
          const auto f = force_of(s, state(lambda2), state(lambda2));
          return work(f, 1) + work(f, 2);
        };
        Real lo = 0.9, hi = 1.0;
        ASSERT_LT(residual(lo), 0.0);
        ASSERT_GT(residual(hi), 0.0);
        for (int it = 0; it < 60; ++it) {
          const Real mid = 0.5 * (lo + hi);
          (residual(mid) > 0.0 ? hi : lo) = mid;
        }
        const Real lambda2 = 0.5 * (lo + hi);
        const Real ratio = (lambda2 - 1.0) / (lambda1 - 1.0);
        std::printf(
            "[ ShellPoissonSplit uniaxial ] lambda1 %.4f, %d x %d, split %d: lambda2 = %.12f "
            "(exact %.12f), (lambda2 - 1) / (lambda1 - 1) = %.6f (-nu = %.2f)\n",
            lambda1, div[0], div[1], split ? 1 : 0, lambda2, lambda2_exact, ratio, -kShellNu);
        EXPECT_NEAR(lambda2, lambda2_exact, 1e-9) << div[0] << " x " << div[1] << " " << split;
        if (lambda1 < 1.001) EXPECT_NEAR(ratio, -kShellNu, 1e-3);
        const auto f = force_of(s, state(lambda2), state(lambda2));
        const auto& xmax = plate.node_sets.at("xmax");
        const auto& xmin = plate.node_sets.at("xmin");
        Real Fmax = 0.0, Fmin = 0.0;
        for (Ordinal n : xmax) Fmax += f(4 * n, 0);
        for (Ordinal n : xmin) Fmin += f(4 * n, 0);
        EXPECT_NEAR(Fmax, Fx_exact, 1e-9 * Fx_exact) << split;
        EXPECT_NEAR(Fmin, -Fx_exact, 1e-9 * Fx_exact) << split;
        // In-plane and thickness parts separately (S_yy = S_zz = 0).
        EXPECT_LT(std::fabs(work(f, 1)), 1e-8 * Fx_exact * W) << split;
        EXPECT_LT(std::fabs(work(f, 2)), 1e-8 * Fx_exact * W) << split;
        // No generalised force but the x forces of the end nodes' positions
        // and, along the loaded edges, of their r_v (the x forces of an edge
        // are distributed by the Hermite edge functions of r and r_v).
        Real rest = 0.0;
        for (Ordinal n = 0; n < plate.num_nodes(); ++n)
          for (int k = 0; k < 4; ++k)
            for (int a = 0; a < 3; ++a) {
              const bool end = std::find(xmax.begin(), xmax.end(), n) != xmax.end() ||
                               std::find(xmin.begin(), xmin.end(), n) != xmin.end();
              if (end && a == 0 && (k == 0 || k == 2)) continue;
              rest = std::max(rest, std::fabs(f(4 * n + k, a)));
            }
        EXPECT_LT(rest, 1e-8 * Fx_exact) << split;
      }
}

// Tangents (K and D) against central differences and f = dPsi/dq on a
// rotated, randomly perturbed plate at nu = 0.3 (non-trivial shell frame),
// split on; rotating reference and state together leaves the energy
// unchanged and rotates the forces; rigid motion gives zero force.
// Tolerances as in the beam test.
TEST(ShellPoissonSplit, TangentEnergyAndOrientationConsistentOnRotatedReference) {
  const Real ax[3] = {-0.4, 0.2, 0.9}, c[3] = {0.5, -0.1, 0.2};
  Real R[3][3];
  rotation(ax, 1.1, R);
  const Mesh flat = generate_plate_ancf3443(1.0, 0.8, 0.05, {2, 2});
  const Mesh plate = rotated_mesh(flat, R, c);
  {
    const MaterialSpec mat = MaterialSpec::svk(kE, kShellNu);
    System s = make_system(flat, mat), rs = make_system(plate, mat);
    const auto q = perturbed(to_host(s.q0), 0.002, 15);
    const auto rq = rotate_state(flat, q, R, c);
    const Real e = s.block->strain_energy(to_device(q)),
               re = rs.block->strain_energy(to_device(rq));
    EXPECT_GT(e, 0.0);
    EXPECT_NEAR(re, e, 1e-10 * e);
    const Real zero[3] = {0.0, 0.0, 0.0};
    EXPECT_LT(max_abs_diff(force_of(rs, rq, rq), rotate_state(flat, force_of(s, q, q), R, zero)),
              1e-9 * max_abs(force_of(s, q, q)));
  }
  // Element volume 0.5 x 0.4 x 0.05.
  check_split_tangents(plate, kShellNu, 17, 1e-2);
  // The hyperelastic shells at the same small-strain (E, nu).
  const Real mu = kE / (2 * (1 + kShellNu)), K = kE / (3 * (1 - 2 * kShellNu));
  const MaterialSpec nh = MaterialSpec::neo_hookean(mu, K),
                     mr = MaterialSpec::mooney_rivlin(0.3 * mu, 0.2 * mu, K);
  check_split_tangents(plate, kShellNu, 21, 1e-2,
                       {nh, mr, nh.with_kelvin_voigt(2e5, 1e5), mr.with_kelvin_voigt(2e5, 1e5)});
  // Orientation independence of the hyperelastic split (as for SVK above).
  System s = make_system(flat, mr), rs = make_system(plate, mr);
  ASSERT_TRUE(s.block->poisson_split());
  const auto q = perturbed(to_host(s.q0), 0.002, 23);
  const auto rq = rotate_state(flat, q, R, c);
  const Real e = s.block->strain_energy(to_device(q)), re = rs.block->strain_energy(to_device(rq));
  EXPECT_GT(e, 0.0);
  EXPECT_NEAR(re, e, 1e-10 * e);
  const Real zero[3] = {0.0, 0.0, 0.0};
  EXPECT_LT(max_abs_diff(force_of(rs, rq, rq), rotate_state(flat, force_of(s, q, q), R, zero)),
            1e-9 * max_abs(force_of(s, q, q)));
}

// Uniaxial Cauchy stress sigma_aa of the Mooney-Rivlin law (Neo-Hookean:
// mu01 = 0) at F = diag(l1, l2, l2), written from the law's definition
// (materials/mooney_rivlin.hpp, docs/theory.md §2.3) with sigma = P F^T / J:
//   sigma = (2/J) [mu10 J^-2/3 (B - I1/3 I) + mu01 J^-4/3 (I1 B - B^2 - 2/3 I2 I)]
//           + kappa (J - 1) I,
// B = diag(b1, b2, b2), b_a = l_a^2, J = l1 l2^2, I1 = b1 + 2 b2,
// I2 = 2 b1 b2 + b2^2. a = 0 axial, a = 1 lateral.
Real mr_uniaxial_sigma(Real mu10, Real mu01, Real kappa, Real l1, Real l2, int a) {
  const Real b1 = l1 * l1, b2 = l2 * l2, J = l1 * l2 * l2;
  const Real I1 = b1 + 2.0 * b2, I2 = 2.0 * b1 * b2 + b2 * b2;
  const Real ba = a == 0 ? b1 : b2;
  return 2.0 / J *
             (mu10 * std::pow(J, -2.0 / 3.0) * (ba - I1 / 3.0) +
              mu01 * std::pow(J, -4.0 / 3.0) * (I1 * ba - ba * ba - 2.0 / 3.0 * I2)) +
         kappa * (J - 1.0);
}

// Uniaxial membrane tension of Mooney-Rivlin and Neo-Hookean plates (2 x 2 and
// 3 x 1 elements, 1 x 0.8 x 0.05), small-strain nu = 0.3, split on and off,
// at axial stretches 1.0001, 1.05 and 1.3: the homogeneous state
// F = diag(l1, l2, l2) with l2 found by bisection on the lateral virtual work
// (as for SVK above) must be the law's uniaxial stress state, sigma_22 = 0 of
// mr_uniaxial_sigma (solved here by bisection, independently of the element
// code), and the end force P_11 W h = J sigma_11 / l1 W h. Under a uniform
// deformation both rules integrate the Dv energy exactly and the two Dv terms
// cancel (poisson_split.hpp), so the split keeps the law's in-plane and
// thickness contraction at any stretch. At l1 = 1.0001 the contraction is
// -nu times the axial strain to O(strain). Tolerances as for SVK.
TEST(ShellPoissonSplit, HyperelasticUniaxialMembraneTensionKeepsTheLawsContraction) {
  const Real L = 1.0, W = 0.8, h = 0.05;
  const Real mu = kE / (2 * (1 + kShellNu)), K = kE / (3 * (1 - 2 * kShellNu));
  struct Law {
    MaterialSpec spec;
    Real mu10, mu01;
  };
  for (const Law& law :
       {Law{MaterialSpec::neo_hookean(mu, K), 0.5 * mu, 0.0},
        Law{MaterialSpec::mooney_rivlin(0.3 * mu, 0.2 * mu, K), 0.3 * mu, 0.2 * mu}})
    for (const Real lambda1 : {1.0001, 1.05, 1.3}) {
      auto lateral = [&](Real l2) {
        return mr_uniaxial_sigma(law.mu10, law.mu01, K, lambda1, l2, 1);
      };
      Real lo = 0.5, hi = 1.0;
      ASSERT_LT(lateral(lo), 0.0);
      ASSERT_GT(lateral(hi), 0.0);
      for (int it = 0; it < 80; ++it) {
        const Real mid = 0.5 * (lo + hi);
        (lateral(mid) > 0.0 ? hi : lo) = mid;
      }
      const Real lambda2_exact = 0.5 * (lo + hi);
      const Real J = lambda1 * lambda2_exact * lambda2_exact;
      const Real Fx_exact =
          J * mr_uniaxial_sigma(law.mu10, law.mu01, K, lambda1, lambda2_exact, 0) / lambda1 * W * h;
      for (const std::array<int, 2> div : {std::array<int, 2>{2, 2}, std::array<int, 2>{3, 1}})
        for (bool split : {true, false}) {
          const Mesh plate = generate_plate_ancf3443(L, W, h, div);
          System s = make_system(plate, law.spec.with_ancf3443_poisson_split(split));
          ASSERT_EQ(s.block->poisson_split(), split);
          auto state = [&](Real lambda2) {
            const Real M[3][3] = {{lambda1, 0, 0}, {0, lambda2, 0}, {0, 0, lambda2}};
            const Real c[3] = {0, 0, 0};
            return rigid_motion(plate, M, c);
          };
          auto work = [&](const CoefViewHost& f, int a) {
            Real g = 0.0;
            for (Ordinal k = 0; k < s.ncoef(); ++k) g += f(k, a) * plate.coefficients[k][a];
            return g;
          };
          auto residual = [&](Real lambda2) {
            const auto f = force_of(s, state(lambda2), state(lambda2));
            return work(f, 1) + work(f, 2);
          };
          Real a = 0.5, b = 1.0;
          ASSERT_LT(residual(a), 0.0);
          ASSERT_GT(residual(b), 0.0);
          for (int it = 0; it < 60; ++it) {
            const Real mid = 0.5 * (a + b);
            (residual(mid) > 0.0 ? b : a) = mid;
          }
          const Real lambda2 = 0.5 * (a + b);
          const Real ratio = (lambda2 - 1.0) / (lambda1 - 1.0);
          std::printf(
              "[ ShellPoissonSplit uniaxial ] %s lambda1 %.4f, %d x %d, split %d: lambda2 = "
              "%.12f (law %.12f), (lambda2 - 1) / (lambda1 - 1) = %.6f\n",
              law.spec.name().c_str(), lambda1, div[0], div[1], split ? 1 : 0, lambda2,
              lambda2_exact, ratio);
          EXPECT_NEAR(lambda2, lambda2_exact, 1e-9) << law.spec.name() << " " << split;
          if (lambda1 < 1.001) EXPECT_NEAR(ratio, -kShellNu, 1e-3);
          const auto f = force_of(s, state(lambda2), state(lambda2));
          Real Fmax = 0.0, Fmin = 0.0;
          for (Ordinal n : plate.node_sets.at("xmax")) Fmax += f(4 * n, 0);
          for (Ordinal n : plate.node_sets.at("xmin")) Fmin += f(4 * n, 0);
          EXPECT_NEAR(Fmax, Fx_exact, 1e-9 * Fx_exact) << law.spec.name() << " " << split;
          EXPECT_NEAR(Fmin, -Fx_exact, 1e-9 * Fx_exact) << law.spec.name() << " " << split;
          EXPECT_LT(std::fabs(work(f, 1)), 1e-8 * Fx_exact * W) << split;
          EXPECT_LT(std::fabs(work(f, 2)), 1e-8 * Fx_exact * W) << split;
        }
    }
}

}  // namespace
}  // namespace tlfea::test
