// Tests of the constitutive laws against numbers the laws do not produce:
// central finite differences of the laws' own energy and stress, closed-form
// small-strain (linear elasticity) and uniaxial-stretch results, and exact
// invariances (objectivity, Neo-Hookean = Mooney-Rivlin with mu01 = 0).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <random>
#include <string>
#include <tlfea/materials/materials.hpp>
#include <type_traits>

namespace {

using namespace tlfea;

// ---------------------------------------------------------------------------
// Materials under test. Moduli in Pa; the viscosities (Pa s) are chosen so the
// viscous stress at |Fdot| ~ 1/s is comparable to the elastic stress, so a
// wrong viscous tangent cannot hide under the elastic one.
template <class M>
M make_material();
template <>
StVenantKirchhoff make_material<StVenantKirchhoff>() {
  return StVenantKirchhoff::from_young_poisson(2.0e6, 0.3);
}
template <>
MooneyRivlin make_material<MooneyRivlin>() {
  return MooneyRivlin::from_moduli(3.0e5, 1.0e5, 4.0e6);
}
template <>
NeoHookean make_material<NeoHookean>() {
  return NeoHookean{3.0e5, 4.0e6};
}
template <>
KelvinVoigt<StVenantKirchhoff> make_material<KelvinVoigt<StVenantKirchhoff>>() {
  return make_kelvin_voigt(make_material<StVenantKirchhoff>(), 4.0e5, 2.0e5);
}
template <>
KelvinVoigt<MooneyRivlin> make_material<KelvinVoigt<MooneyRivlin>>() {
  return make_kelvin_voigt(make_material<MooneyRivlin>(), 4.0e5, 2.0e5);
}
template <>
KelvinVoigt<NeoHookean> make_material<KelvinVoigt<NeoHookean>>() {
  return make_kelvin_voigt(make_material<NeoHookean>(), 4.0e5, 2.0e5);
}

// Small-strain Lame constants of each elastic law: SVK holds them; for the
// Mooney-Rivlin family mu = 2 (mu10 + mu01), K = kappa, lambda = K - 2 mu / 3.
LameParameters small_strain_lame(const StVenantKirchhoff& m) { return {m.lambda, m.mu}; }
LameParameters small_strain_lame(const MooneyRivlin& m) {
  const Real mu = 2.0 * (m.mu10 + m.mu01);
  return {m.kappa - 2.0 * mu / 3.0, mu};
}
LameParameters small_strain_lame(const NeoHookean& m) {
  const Real mu = 2.0 * m.mu10;
  return {m.kappa - 2.0 * mu / 3.0, mu};
}

// ---------------------------------------------------------------------------
// Free functions through which the tests call the laws.
template <class M>
Mat3 stress(const M& m, const Mat3& F, const Mat3& Fdot) {
  if constexpr (M::is_viscous) {
    return m.first_piola(F, Fdot);
  } else {
    (void)Fdot;
    return m.first_piola(F);
  }
}
template <class M>
void stress_tangent(const M& m, const Mat3& F, const Mat3& Fdot, Tangent& A) {
  if constexpr (M::is_viscous) {
    m.tangent(F, Fdot, A);
  } else {
    (void)Fdot;
    m.tangent(F, A);
  }
}
template <class M>
Real energy(const M& m, const Mat3& F) {
  return m.energy(F);
}

// Finite-difference step on entries of F (and Fdot), which are O(1): central
// differences then carry truncation error ~h^2 ~ 1e-12 and round-off
// ~1e-16 / h ~ 1e-10 relative, far below the 1e-6 tolerance.
constexpr Real fd_step = 1.0e-6;
constexpr Real fd_tolerance = 1.0e-6;

// dPsi/dF_kL by central differences.
template <class M>
Mat3 finite_difference_stress(const M& m, const Mat3& F) {
  Mat3 P;
  for (int c = 0; c < 9; ++c) {
    Mat3 Fp = F, Fm = F;
    Fp.m[c] += fd_step;
    Fm.m[c] -= fd_step;
    P.m[c] = (energy(m, Fp) - energy(m, Fm)) / (2.0 * fd_step);
  }
  return P;
}

// dP_iJ/dF_kL (with_respect_to_rate = false) or dP_iJ/dFdot_kL by central differences.
template <class M>
Tangent finite_difference_tangent(const M& m, const Mat3& F, const Mat3& Fdot,
                                  bool with_respect_to_rate) {
  Tangent A;
  for (int c = 0; c < 9; ++c) {
    Mat3 Fp = F, Fm = F, Fdp = Fdot, Fdm = Fdot;
    if (with_respect_to_rate) {
      Fdp.m[c] += fd_step;
      Fdm.m[c] -= fd_step;
    } else {
      Fp.m[c] += fd_step;
      Fm.m[c] -= fd_step;
    }
    const Mat3 Pp = stress(m, Fp, Fdp), Pm = stress(m, Fm, Fdm);
    for (int r = 0; r < 9; ++r) A.a[r][c] = (Pp.m[r] - Pm.m[r]) / (2.0 * fd_step);
  }
  return A;
}

Real norm(const Mat3& A) { return std::sqrt(ddot(A, A)); }
Real norm(const Tangent& A) {
  Real s = 0.0;
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) s += A.a[r][c] * A.a[r][c];
  return std::sqrt(s);
}
// ||A - B|| / ||B|| (Frobenius).
Real relative_error(const Mat3& A, const Mat3& B) { return norm(A - B) / norm(B); }
Real relative_error(const Tangent& A, const Tangent& B) {
  Tangent D;
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) D.a[r][c] = A.a[r][c] - B.a[r][c];
  return norm(D) / norm(B);
}

Mat3 random_matrix(std::mt19937& rng, Real scale) {
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  Mat3 A;
  for (int c = 0; c < 9; ++c) A.m[c] = scale * u(rng);
  return A;
}
// F = I + 0.3 R, R uniform in [-1, 1]^9, kept well away from inversion (det F > 0.5).
Mat3 random_deformation_gradient(std::mt19937& rng) {
  for (;;) {
    const Mat3 F = identity3() + random_matrix(rng, 0.3);
    if (det(F) > 0.5) return F;
  }
}
// Rotation from a random unit quaternion (w, x, y, z).
Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<Real> n(0.0, 1.0);
  Real q[4] = {n(rng), n(rng), n(rng), n(rng)};
  const Real s = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (Real& x : q) x /= s;
  const Real w = q[0], x = q[1], y = q[2], z = q[3];
  return Mat3{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
               2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
               2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
}

// Linear elasticity sigma = lambda tr(e) I + 2 mu e, e = sym(G) (closed form).
Mat3 linear_elastic_stress(const LameParameters& lp, const Mat3& G) {
  const Mat3 e = 0.5 * (G + transpose(G));
  Mat3 s = (2.0 * lp.mu) * e;
  for (int i = 0; i < 3; ++i) s(i, i) += lp.lambda * trace(e);
  return s;
}
// Isotropic elasticity tensor lambda d_iJ d_kL + mu (d_ik d_JL + d_iL d_kJ) (closed form).
Tangent isotropic_elasticity_tensor(const LameParameters& lp) {
  Tangent A;
  for (int i = 0; i < 3; ++i)
    for (int J = 0; J < 3; ++J)
      for (int k = 0; k < 3; ++k)
        for (int L = 0; L < 3; ++L)
          A.a[3 * i + J][3 * k + L] =
              lp.lambda * (i == J) * (k == L) + lp.mu * ((i == k) * (J == L) + (i == L) * (J == k));
  return A;
}

constexpr int n_samples = 6;

// ---------------------------------------------------------------------------
// Properties common to every hyperelastic law.
template <class M>
class Hyperelastic : public ::testing::Test {};
using HyperelasticLaws = ::testing::Types<StVenantKirchhoff, MooneyRivlin, NeoHookean>;
struct LawName {
  template <class M>
  static std::string GetName(int) {
    if constexpr (M::is_viscous)
      return std::string(M::name) + "_" + decltype(M::elastic)::name;
    else
      return M::name;
  }
};
TYPED_TEST_SUITE(Hyperelastic, HyperelasticLaws, LawName);

TYPED_TEST(Hyperelastic, StressIsZeroAtReference) {
  const auto m = make_material<TypeParam>();
  // Near-reference form: H = 0, so every stress term is an exact zero.
  EXPECT_EQ(norm(m.first_piola(identity3())), 0.0);
  EXPECT_EQ(m.energy(identity3()), 0.0);
}

TYPED_TEST(Hyperelastic, StressMatchesFiniteDifferenceOfEnergy) {
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(11);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    EXPECT_LT(relative_error(m.first_piola(F), finite_difference_stress(m, F)), fd_tolerance);
  }
}

TYPED_TEST(Hyperelastic, TangentMatchesFiniteDifferenceOfStress) {
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(12);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    Tangent A;
    m.tangent(F, A);
    EXPECT_LT(relative_error(A, finite_difference_tangent(m, F, zero3(), false)), fd_tolerance);
  }
}

TYPED_TEST(Hyperelastic, TangentHasMajorSymmetry) {
  // A_iJkL = d^2 Psi / dF_iJ dF_kL is symmetric for a hyperelastic law.
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(13);
  const Mat3 F = random_deformation_gradient(rng);
  Tangent A, At;
  m.tangent(F, A);
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) At.a[r][c] = A.a[c][r];
  EXPECT_LT(relative_error(At, A), 1.0e-14);
}

TYPED_TEST(Hyperelastic, StressAndTangentAgreeWithSeparateCalls) {
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(14);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    Mat3 P;
    Tangent A, A_ref;
    m.stress_and_tangent(F, P, A);
    m.tangent(F, A_ref);
    EXPECT_LE(relative_error(P, m.first_piola(F)), 1.0e-15);
    EXPECT_LE(relative_error(A, A_ref), 1.0e-15);
  }
}

TYPED_TEST(Hyperelastic, SmallStrainLimitIsLinearElasticity) {
  // F = I + eps G: P = sigma(sym G) eps + O(eps^2). H = F - I is exact in
  // floating point (Sterbenz), so it is compared against, and the remaining
  // error is the O(eps) nonlinearity.
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(15);
  const Real eps = 1.0e-7;
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = identity3() + random_matrix(rng, eps);
    const Mat3 H = F - identity3();
    EXPECT_LT(relative_error(m.first_piola(F), linear_elastic_stress(small_strain_lame(m), H)),
              1.0e-6);
  }
}

TYPED_TEST(Hyperelastic, StressKeepsFullPrecisionAtTinyStrain) {
  // At eps = 1e-12 the nonlinearity is 1e-12 relative; a formula that forms
  // F^T F - I or J - 1 = det F - 1 directly would lose ~1e-16 / 1e-12 = 1e-4.
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(16);
  const Real eps = 1.0e-12;
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = identity3() + random_matrix(rng, eps);
    const Mat3 H = F - identity3();
    EXPECT_LT(relative_error(m.first_piola(F), linear_elastic_stress(small_strain_lame(m), H)),
              1.0e-9);
  }
}

TYPED_TEST(Hyperelastic, TangentAtReferenceIsIsotropicElasticityTensor) {
  const auto m = make_material<TypeParam>();
  Tangent A;
  m.tangent(identity3(), A);
  EXPECT_LT(relative_error(A, isotropic_elasticity_tensor(small_strain_lame(m))), 1.0e-14);
}

TYPED_TEST(Hyperelastic, StressIsObjective) {
  // P(Q F) = Q P(F) for a rotation Q (frame indifference).
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(17);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    const Mat3 Q = random_rotation(rng);
    EXPECT_LT(relative_error(m.first_piola(Q * F), Q * m.first_piola(F)), 1.0e-13);
    EXPECT_LT(std::abs(m.energy(Q * F) - m.energy(F)), 1.0e-13 * m.energy(F));
  }
}

// ---------------------------------------------------------------------------
// Kelvin-Voigt on top of each elastic law.
template <class M>
class KelvinVoigtLaw : public ::testing::Test {};
using KelvinVoigtLaws = ::testing::Types<KelvinVoigt<StVenantKirchhoff>, KelvinVoigt<MooneyRivlin>,
                                         KelvinVoigt<NeoHookean>>;
TYPED_TEST_SUITE(KelvinVoigtLaw, KelvinVoigtLaws, LawName);

TYPED_TEST(KelvinVoigtLaw, StressAtRestMatchesFiniteDifferenceOfEnergy) {
  const auto m = make_material<TypeParam>();
  EXPECT_EQ(norm(m.first_piola(identity3(), zero3())), 0.0);
  std::mt19937 rng(21);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    EXPECT_LT(relative_error(m.first_piola(F, zero3()), finite_difference_stress(m, F)),
              fd_tolerance);
  }
}

TYPED_TEST(KelvinVoigtLaw, TangentMatchesFiniteDifferenceOfStress) {
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(22);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    const Mat3 Fdot = random_matrix(rng, 1.0);
    Tangent A;
    m.tangent(F, Fdot, A);
    EXPECT_LT(relative_error(A, finite_difference_tangent(m, F, Fdot, false)), fd_tolerance);
    // The viscous part alone, so it is not judged relative to the elastic part.
    Tangent A_e, A_v, A_v_fd;
    m.elastic.tangent(F, A_e);
    const Tangent A_fd = finite_difference_tangent(m, F, Fdot, false);
    for (int r = 0; r < 9; ++r)
      for (int c = 0; c < 9; ++c) {
        A_v.a[r][c] = A.a[r][c] - A_e.a[r][c];
        A_v_fd.a[r][c] = A_fd.a[r][c] - A_e.a[r][c];
      }
    EXPECT_LT(relative_error(A_v, A_v_fd), fd_tolerance);
  }
}

TYPED_TEST(KelvinVoigtLaw, VelocityTangentMatchesFiniteDifferenceOfStress) {
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(23);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    const Mat3 Fdot = random_matrix(rng, 1.0);
    Tangent B;
    m.velocity_tangent(F, Fdot, B);
    EXPECT_LT(relative_error(B, finite_difference_tangent(m, F, Fdot, true)), fd_tolerance);
  }
}

TYPED_TEST(KelvinVoigtLaw, StressAndTangentsAgreeWithSeparateCalls) {
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(24);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    const Mat3 Fdot = random_matrix(rng, 1.0);
    Mat3 P;
    Tangent A, B, A_ref, B_ref;
    m.stress_and_tangents(F, Fdot, P, A, B);
    m.tangent(F, Fdot, A_ref);
    m.velocity_tangent(F, Fdot, B_ref);
    EXPECT_LE(relative_error(P, m.first_piola(F, Fdot)), 1.0e-15);
    EXPECT_LE(relative_error(A, A_ref), 1.0e-15);
    EXPECT_LE(relative_error(B, B_ref), 1.0e-15);
  }
}

TYPED_TEST(KelvinVoigtLaw, ViscousPowerEqualsDissipation) {
  // P_v : Fdot = S_v : Edot = 2 mu_v Edot:Edot + lambda_v tr(Edot)^2, with
  // Edot = sym(F^T Fdot) formed here (closed form of the viscous power).
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(25);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    const Mat3 Fdot = random_matrix(rng, 1.0);
    const Mat3 Edot = 0.5 * (mul_tn(Fdot, F) + mul_tn(F, Fdot));
    const Real dissipation =
        2.0 * m.mu_v * ddot(Edot, Edot) + m.lambda_v * trace(Edot) * trace(Edot);
    const Mat3 P_v = m.first_piola(F, Fdot) - m.first_piola(F, zero3());
    EXPECT_NEAR(ddot(P_v, Fdot), dissipation, 1.0e-12 * dissipation);
  }
}

TYPED_TEST(KelvinVoigtLaw, SmallStrainLimitIsLinearViscoelasticity) {
  // F = I + eps G, Fdot = eps Gdot: P / eps -> sigma_e(sym G) + sigma_v(sym Gdot),
  // sigma_v = lambda_v tr(edot) I + 2 mu_v edot.
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(26);
  const Real eps = 1.0e-7;
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = identity3() + random_matrix(rng, eps);
    const Mat3 H = F - identity3();
    const Mat3 Fdot = random_matrix(rng, eps);
    const Mat3 expected = linear_elastic_stress(small_strain_lame(m.elastic), H) +
                          linear_elastic_stress(LameParameters{m.lambda_v, m.mu_v}, Fdot);
    EXPECT_LT(relative_error(m.first_piola(F, Fdot), expected), 1.0e-6);
  }
  Tangent B;
  m.velocity_tangent(identity3(), zero3(), B);
  EXPECT_LT(relative_error(B, isotropic_elasticity_tensor(LameParameters{m.lambda_v, m.mu_v})),
            1.0e-14);
}

TYPED_TEST(KelvinVoigtLaw, StressIsObjective) {
  // For a fixed rotation Q, F -> Q F and Fdot -> Q Fdot; P must map to Q P.
  const auto m = make_material<TypeParam>();
  std::mt19937 rng(27);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    const Mat3 Fdot = random_matrix(rng, 1.0);
    const Mat3 Q = random_rotation(rng);
    EXPECT_LT(relative_error(m.first_piola(Q * F, Q * Fdot), Q * m.first_piola(F, Fdot)), 1.0e-13);
  }
}

// ---------------------------------------------------------------------------
// Law-specific closed forms.

TEST(StVenantKirchhoff, UniaxialStretchMatchesClosedForm) {
  // F = diag(s, 1, 1): E11 = (s^2 - 1)/2, S11 = (lambda + 2 mu) E11,
  // S22 = S33 = lambda E11; P = F S (docs/theory.md §2.2, by hand).
  const auto m = make_material<StVenantKirchhoff>();
  for (Real s : {0.7, 1.3, 2.0}) {
    Mat3 F = identity3();
    F(0, 0) = s;
    const Mat3 P = m.first_piola(F);
    const Real E11 = 0.5 * (s * s - 1.0);
    const Real scale = (m.lambda + 2.0 * m.mu) * std::abs(E11);
    EXPECT_NEAR(P(0, 0), s * (m.lambda + 2.0 * m.mu) * E11, 1.0e-14 * scale);
    EXPECT_NEAR(P(1, 1), m.lambda * E11, 1.0e-14 * scale);
    EXPECT_NEAR(P(2, 2), m.lambda * E11, 1.0e-14 * scale);
    EXPECT_EQ(P(0, 1), 0.0);
  }
}

TEST(MooneyRivlin, UniaxialStretchMatchesClosedForm) {
  // F = diag(s, 1, 1): J = s, I1 = s^2 + 2, I2 = 2 s^2 + 1, and by hand from
  // the P of docs/theory.md §2.3:
  // P11 = 2 (s^2 - 1)/(3 s) (2 mu10 s^-2/3 + 2 mu01 s^-4/3) + kappa (s - 1),
  // P22 = P33 = (1 - s^2)/3 (2 mu10 s^-2/3 + 2 mu01 s^-4/3) + kappa (s - 1) s.
  const auto m = make_material<MooneyRivlin>();
  for (Real s : {0.7, 1.3, 2.0}) {
    Mat3 F = identity3();
    F(0, 0) = s;
    const Mat3 P = m.first_piola(F);
    const Real iso =
        2.0 * m.mu10 * std::pow(s, -2.0 / 3.0) + 2.0 * m.mu01 * std::pow(s, -4.0 / 3.0);
    const Real P11 = 2.0 * (s * s - 1.0) / (3.0 * s) * iso + m.kappa * (s - 1.0);
    const Real P22 = (1.0 - s * s) / 3.0 * iso + m.kappa * (s - 1.0) * s;
    EXPECT_NEAR(P(0, 0), P11, 1.0e-13 * std::abs(P11));
    EXPECT_NEAR(P(1, 1), P22, 1.0e-13 * std::abs(P22));
    EXPECT_NEAR(P(2, 2), P22, 1.0e-13 * std::abs(P22));
  }
}

TEST(NeoHookean, EqualsMooneyRivlinWithoutSecondInvariant) {
  const NeoHookean nh{3.0e5, 4.0e6};
  const MooneyRivlin mr{3.0e5, 0.0, 4.0e6};
  std::mt19937 rng(31);
  for (int s = 0; s < n_samples; ++s) {
    const Mat3 F = random_deformation_gradient(rng);
    EXPECT_NEAR(nh.energy(F), mr.energy(F), 1.0e-14 * std::abs(mr.energy(F)));
    EXPECT_LT(relative_error(nh.first_piola(F), mr.first_piola(F)), 1.0e-14);
    Tangent A_nh, A_mr;
    nh.tangent(F, A_nh);
    mr.tangent(F, A_mr);
    EXPECT_LT(relative_error(A_nh, A_mr), 1.0e-14);
  }
}

TEST(NeoHookean, FromYoungPoissonHasThoseSmallStrainModuli) {
  // mu = E / (2 (1 + nu)) = 1e6 / 2.5, K = E / (3 (1 - 2 nu)) = 1e6 / 1.5.
  const NeoHookean nh = NeoHookean::from_young_poisson(1.0e6, 0.25);
  EXPECT_DOUBLE_EQ(2.0 * nh.mu10, 4.0e5);
  EXPECT_DOUBLE_EQ(nh.kappa, 1.0e6 / 1.5);
}

TEST(MaterialParameters, LameConstantsMatchClosedForm) {
  // E = 1, nu = 0.25: lambda = 0.25 / (1.25 * 0.5) = 0.4, mu = 1 / 2.5 = 0.4,
  // K = 1 / 1.5 = 2/3 = lambda + 2 mu / 3.
  const LameParameters lp = lame_from_young_poisson(1.0, 0.25);
  EXPECT_DOUBLE_EQ(lp.lambda, 0.4);
  EXPECT_DOUBLE_EQ(lp.mu, 0.4);
  EXPECT_DOUBLE_EQ(bulk_modulus(1.0, 0.25), 2.0 / 3.0);
  const StVenantKirchhoff svk = StVenantKirchhoff::from_young_poisson(1.0, 0.25);
  EXPECT_DOUBLE_EQ(svk.lambda, 0.4);
  EXPECT_DOUBLE_EQ(svk.mu, 0.4);
}

TEST(MaterialParameters, RejectsNonPhysicalConstants) {
  EXPECT_THROW(lame_from_young_poisson(1.0, 0.5), Error);
  EXPECT_THROW(lame_from_young_poisson(1.0, -1.0), Error);
  EXPECT_THROW(lame_from_young_poisson(0.0, 0.3), Error);
  EXPECT_THROW(MooneyRivlin::from_moduli(0.0, 0.0, 1.0), Error);
  EXPECT_THROW(MooneyRivlin::from_moduli(1.0, 0.0, 0.0), Error);
}

TEST(Materials, AreTriviallyCopyable) {
  EXPECT_TRUE(std::is_trivially_copyable<StVenantKirchhoff>::value);
  EXPECT_TRUE(std::is_trivially_copyable<MooneyRivlin>::value);
  EXPECT_TRUE(std::is_trivially_copyable<NeoHookean>::value);
  EXPECT_TRUE(std::is_trivially_copyable<KelvinVoigt<MooneyRivlin>>::value);
}

// ---------------------------------------------------------------------------
// The laws evaluated inside a kernel give the host's numbers.
template <class M>
struct EvaluateMaterial {
  M material;
  DeviceView<Real*[9]> F, Fdot, P;
  DeviceView<Real*[81]> A, B;
  KOKKOS_INLINE_FUNCTION void operator()(const int q) const {
    Mat3 Fq, Fdq, Pq;
    Tangent Aq, Bq;
    for (int c = 0; c < 9; ++c) {
      Fq.m[c] = F(q, c);
      Fdq.m[c] = Fdot(q, c);
    }
    if constexpr (M::is_viscous) {
      material.stress_and_tangents(Fq, Fdq, Pq, Aq, Bq);
    } else {
      material.stress_and_tangent(Fq, Pq, Aq);
      for (int r = 0; r < 9; ++r)
        for (int c = 0; c < 9; ++c) Bq.a[r][c] = 0.0;
    }
    for (int c = 0; c < 9; ++c) P(q, c) = Pq.m[c];
    for (int r = 0; r < 9; ++r)
      for (int c = 0; c < 9; ++c) {
        A(q, 9 * r + c) = Aq.a[r][c];
        B(q, 9 * r + c) = Bq.a[r][c];
      }
  }
};

template <class M>
void check_device_matches_host() {
  const M m = make_material<M>();
  const int n = 16;
  EvaluateMaterial<M> f{m,
                        DeviceView<Real* [9]>("F", n),
                        DeviceView<Real* [9]>("Fdot", n),
                        DeviceView<Real* [9]>("P", n),
                        DeviceView<Real* [81]>("A", n),
                        DeviceView<Real* [81]>("B", n)};
  auto F_h = Kokkos::create_mirror_view(f.F);
  auto Fdot_h = Kokkos::create_mirror_view(f.Fdot);
  std::mt19937 rng(41);
  for (int q = 0; q < n; ++q) {
    const Mat3 F = random_deformation_gradient(rng), Fdot = random_matrix(rng, 1.0);
    for (int c = 0; c < 9; ++c) {
      F_h(q, c) = F.m[c];
      Fdot_h(q, c) = Fdot.m[c];
    }
  }
  Kokkos::deep_copy(f.F, F_h);
  Kokkos::deep_copy(f.Fdot, Fdot_h);
  Kokkos::parallel_for("tlfea::tests::materials::evaluate", Kokkos::RangePolicy<ExecSpace>(0, n),
                       f);
  auto P_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.P);
  auto A_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.A);
  for (int q = 0; q < n; ++q) {
    Mat3 F, Fdot, P_dev;
    Tangent A_dev, A_host;
    for (int c = 0; c < 9; ++c) {
      F.m[c] = F_h(q, c);
      Fdot.m[c] = Fdot_h(q, c);
      P_dev.m[c] = P_h(q, c);
    }
    for (int r = 0; r < 81; ++r) A_dev.a[r / 9][r % 9] = A_h(q, r);
    stress_tangent(m, F, Fdot, A_host);
    // Device arithmetic may contract to FMA differently: allow a few ulps.
    EXPECT_LT(relative_error(P_dev, stress(m, F, Fdot)), 1.0e-13);
    EXPECT_LT(relative_error(A_dev, A_host), 1.0e-13);
  }
}

TEST(MaterialKernel, DeviceEvaluationMatchesHost) {
  check_device_matches_host<StVenantKirchhoff>();
  check_device_matches_host<NeoHookean>();
  check_device_matches_host<MooneyRivlin>();
  check_device_matches_host<KelvinVoigt<MooneyRivlin>>();
}

}  // namespace
