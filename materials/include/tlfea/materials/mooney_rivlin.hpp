// TLFEA: compressible Mooney-Rivlin and Neo-Hookean hyperelastic laws
// (docs/theory.md §2.3, Neo-Hookean §2.4; Bonet & Wood 2008, sec. 6.6).
//   Psi = mu10 (I1bar - 3) + mu01 (I2bar - 3) + kappa/2 (J - 1)^2,
//   I1 = tr C, I2 = (I1^2 - tr C^2)/2, I1bar = J^-2/3 I1, I2bar = J^-4/3 I2,
//   P = 2 mu10 J^-2/3 (F - I1/3 F^-T) + 2 mu01 J^-4/3 (I1 F - F C - 2/3 I2 F^-T)
//       + kappa (J - 1) J F^-T.
// Neo-Hookean is the case mu01 = 0. Small-strain limit: shear modulus
// mu = 2 (mu10 + mu01), bulk modulus K = kappa.
//
// Near-reference form. With H = F - I and B - I = H + H^T + H H^T (B = F F^T,
// tr(B - I) = I1 - 3) the bracketed stresses are deviatoric Kirchhoff stresses
// pulled back by F^-T (use F = B F^-T, F C = B^2 F^-T):
//   F - I1/3 F^-T                 = dev(B - I) F^-T,
//   I1 F - F C - 2/3 I2 F^-T      = [(1 + tr(B - I)) dev(B - I) - dev((B - I)^2)] F^-T,
// and J - 1 = tr H + I2(H) + det H. These vanish exactly at F = I and lose no
// digits to cancellation for small strain. Requires J > 0 (no inverted elements).
#pragma once

#include <Kokkos_MathematicalFunctions.hpp>
#include <tlfea/core/error.hpp>
#include <tlfea/core/tensor.hpp>
#include <tlfea/core/types.hpp>
#include <tlfea/materials/parameters.hpp>
#include <type_traits>

namespace tlfea {
namespace detail {

// Kinematics shared by the Mooney-Rivlin family, in near-reference form.
struct InvariantKinematics {
  Mat3 Finv_T;  // F^-T = cof(F) / J
  Mat3 B_m_I;   // B - I = H + H^T + H H^T
  Mat3 dev_B;   // dev(B - I) = dev(B)
  Real J;       // det F
  Real J_m_1;   // J - 1 = tr H + I2(H) + det H
  Real I1_m_3;  // I1 - 3 = tr(B - I)
  Real J_m23;   // J^-2/3
};

KOKKOS_INLINE_FUNCTION InvariantKinematics invariant_kinematics(const Mat3& F) {
  InvariantKinematics k;
  Mat3 H = F;
  H.m[0] -= 1.0;
  H.m[4] -= 1.0;
  H.m[8] -= 1.0;
  const Mat3 HHt = mul_nt(H, H);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) k.B_m_I(i, j) = H(i, j) + H(j, i) + HHt(i, j);
  k.I1_m_3 = trace(k.B_m_I);
  k.dev_B = k.B_m_I;
  const Real third_tr = k.I1_m_3 / 3.0;
  k.dev_B.m[0] -= third_tr;
  k.dev_B.m[4] -= third_tr;
  k.dev_B.m[8] -= third_tr;
  // det(I + H) = 1 + tr H + I2(H) + det H, I2(H) = ((tr H)^2 - tr(H^2))/2
  const Real trH = trace(H);
  const Real trH2 = ddot(H, transpose(H));
  k.J_m_1 = trH + 0.5 * (trH * trH - trH2) + det(H);
  k.J = 1.0 + k.J_m_1;
  const Mat3 cof = cofactor(F);
  k.Finv_T = (1.0 / k.J) * cof;
  const Real cbrtJ = kmath::cbrt(k.J);
  k.J_m23 = 1.0 / (cbrtJ * cbrtJ);
  return k;
}

// J^p - 1 = expm1(p log1p(J - 1)), accurate for J near 1 (energies only).
KOKKOS_INLINE_FUNCTION Real power_minus_one(Real J_m_1, Real p) {
  return kmath::expm1(p * kmath::log1p(J_m_1));
}

// Volumetric part, Psi_vol = kappa/2 (J - 1)^2, P_vol = kappa (J - 1) J F^-T:
// dP_vol_iJ/dF_kL = kappa J [(2J - 1) G_iJ G_kL - (J - 1) G_iL G_kJ], G = F^-T
// (from dJ/dF = J G and dG_iJ/dF_kL = -G_iL G_kJ).
// Isochoric mu10 part, P_1 = 2 mu10 a T1, a = J^-2/3, T1 = F - I1/3 G:
// dP_1_iJ/dF_kL = 2 mu10 a [delta_ik delta_JL - 2/3 (G_kL T1_iJ + F_kL G_iJ)
//                           + I1/3 G_iL G_kJ]
// (from da/dF = -2/3 a G, dI1/dF = 2 F). Adds both to A.
KOKKOS_INLINE_FUNCTION void add_neo_hookean_tangent(Real mu10, Real kappa, const Mat3& F,
                                                    const InvariantKinematics& k, const Mat3& T1,
                                                    Tangent& A) {
  const Mat3& G = k.Finv_T;
  const Real c1 = 2.0 * mu10 * k.J_m23;
  const Real I1_third = (3.0 + k.I1_m_3) / 3.0;
  const Real cv1 = kappa * k.J * (2.0 * k.J - 1.0);
  const Real cv2 = kappa * k.J * k.J_m_1;
  for (int i = 0; i < 3; ++i)
    for (int J = 0; J < 3; ++J)
      for (int kk = 0; kk < 3; ++kk)
        for (int L = 0; L < 3; ++L) {
          Real a = c1 * (-2.0 / 3.0 * (G(kk, L) * T1(i, J) + F(kk, L) * G(i, J)) +
                         I1_third * G(i, L) * G(kk, J)) +
                   cv1 * G(i, J) * G(kk, L) - cv2 * G(i, L) * G(kk, J);
          if (i == kk && J == L) a += c1;
          A.a[3 * i + J][3 * kk + L] += a;
        }
}

}  // namespace detail

struct MooneyRivlin {
  Real mu10, mu01, kappa;

  static constexpr bool is_viscous = false;
  static constexpr const char* name = "mooney_rivlin";  // host only

  // Psi = mu10 (I1bar - 3) + mu01 (I2bar - 3) + kappa/2 (J - 1)^2, with
  // I1bar - 3 = a (I1 - 3) + 3 (a - 1), I2bar - 3 = b (I2 - 3) + 3 (b - 1),
  // a = J^-2/3, b = J^-4/3, I2 - 3 = 2 t + (t^2 - tr((B - I)^2))/2, t = I1 - 3.
  KOKKOS_INLINE_FUNCTION Real energy(const Mat3& F) const {
    const detail::InvariantKinematics k = detail::invariant_kinematics(F);
    const Real t = k.I1_m_3;
    const Real I2_m_3 = 2.0 * t + 0.5 * (t * t - ddot(k.B_m_I, k.B_m_I));
    const Real a_m_1 = detail::power_minus_one(k.J_m_1, -2.0 / 3.0);
    const Real b_m_1 = detail::power_minus_one(k.J_m_1, -4.0 / 3.0);
    const Real I1bar_m_3 = (1.0 + a_m_1) * t + 3.0 * a_m_1;
    const Real I2bar_m_3 = (1.0 + b_m_1) * I2_m_3 + 3.0 * b_m_1;
    return mu10 * I1bar_m_3 + mu01 * I2bar_m_3 + 0.5 * kappa * k.J_m_1 * k.J_m_1;
  }

  KOKKOS_INLINE_FUNCTION Mat3 first_piola(const Mat3& F) const {
    const detail::InvariantKinematics k = detail::invariant_kinematics(F);
    Mat3 T1, W;
    Real I2;
    isochoric_parts(k, T1, W, I2);
    return first_piola_from(k, T1, W);
  }

  KOKKOS_INLINE_FUNCTION void tangent(const Mat3& F, Tangent& A) const {
    const detail::InvariantKinematics k = detail::invariant_kinematics(F);
    Mat3 T1, W;
    Real I2;
    isochoric_parts(k, T1, W, I2);
    tangent_from(F, k, T1, W, I2, A);
  }

  KOKKOS_INLINE_FUNCTION void stress_and_tangent(const Mat3& F, Mat3& P, Tangent& A) const {
    const detail::InvariantKinematics k = detail::invariant_kinematics(F);
    Mat3 T1, W;
    Real I2;
    isochoric_parts(k, T1, W, I2);
    P = first_piola_from(k, T1, W);
    tangent_from(F, k, T1, W, I2, A);
  }

  // Host: checks the small-strain moduli mu = 2 (mu10 + mu01) > 0, kappa > 0.
  static MooneyRivlin from_moduli(Real mu10, Real mu01, Real kappa) {
    if (!(mu10 + mu01 > 0.0))
      throw_error("mooney_rivlin: shear modulus 2 (mu10 + mu01) = ", 2.0 * (mu10 + mu01),
                  " must be positive");
    if (!(kappa > 0.0))
      throw_error("mooney_rivlin: bulk modulus kappa = ", kappa, " must be positive");
    return MooneyRivlin{mu10, mu01, kappa};
  }

 private:
  // T1 = F - I1/3 F^-T = dev(B - I) F^-T,
  // W  = I1 F - F C - 2/3 I2 F^-T = [(1 + t) dev(B - I) - dev((B - I)^2)] F^-T.
  KOKKOS_INLINE_FUNCTION static void isochoric_parts(const detail::InvariantKinematics& k, Mat3& T1,
                                                     Mat3& W, Real& I2) {
    const Real t = k.I1_m_3;
    Mat3 dev_B2 = k.B_m_I * k.B_m_I;
    const Real tr_B2 = trace(dev_B2);
    const Real third_tr = tr_B2 / 3.0;
    dev_B2.m[0] -= third_tr;
    dev_B2.m[4] -= third_tr;
    dev_B2.m[8] -= third_tr;
    I2 = 3.0 + 2.0 * t + 0.5 * (t * t - tr_B2);
    T1 = k.dev_B * k.Finv_T;
    W = ((1.0 + t) * k.dev_B - dev_B2) * k.Finv_T;
  }

  KOKKOS_INLINE_FUNCTION Mat3 first_piola_from(const detail::InvariantKinematics& k, const Mat3& T1,
                                               const Mat3& W) const {
    const Real J_m43 = k.J_m23 * k.J_m23;
    return (2.0 * mu10 * k.J_m23) * T1 + (2.0 * mu01 * J_m43) * W +
           (kappa * k.J_m_1 * k.J) * k.Finv_T;
  }

  // mu01 part, P_2 = 2 mu01 b W, b = J^-4/3, V = I1 F - F C = W + 2/3 I2 G:
  // dP_2_iJ/dF_kL = 2 mu01 b [-4/3 (G_kL W_iJ + V_kL G_iJ) + 2 F_iJ F_kL
  //     + I1 delta_ik delta_JL - delta_ik C_LJ - F_iL F_kJ - B_ik delta_JL
  //     + 2/3 I2 G_iL G_kJ]
  // (from db/dF = -4/3 b G, dI2/dF = 2 V, d(F C)_iJ/dF_kL = delta_ik C_LJ
  //  + F_iL F_kJ + B_ik delta_JL).
  KOKKOS_INLINE_FUNCTION void tangent_from(const Mat3& F, const detail::InvariantKinematics& k,
                                           const Mat3& T1, const Mat3& W, Real I2,
                                           Tangent& A) const {
    const Mat3& G = k.Finv_T;
    const Mat3 C = mul_tn(F, F);
    const Mat3 B = mul_nt(F, F);
    const Mat3 V = W + (2.0 / 3.0 * I2) * G;
    const Real I1 = 3.0 + k.I1_m_3;
    const Real c2 = 2.0 * mu01 * k.J_m23 * k.J_m23;
    for (int i = 0; i < 3; ++i)
      for (int J = 0; J < 3; ++J)
        for (int kk = 0; kk < 3; ++kk)
          for (int L = 0; L < 3; ++L) {
            Real a = -4.0 / 3.0 * (G(kk, L) * W(i, J) + V(kk, L) * G(i, J)) +
                     2.0 * F(i, J) * F(kk, L) - F(i, L) * F(kk, J) +
                     2.0 / 3.0 * I2 * G(i, L) * G(kk, J);
            if (i == kk) a -= C(L, J);
            if (J == L) a -= B(i, kk);
            if (i == kk && J == L) a += I1;
            A.a[3 * i + J][3 * kk + L] = c2 * a;
          }
    detail::add_neo_hookean_tangent(mu10, kappa, F, k, T1, A);
  }
};

struct NeoHookean {
  Real mu10, kappa;

  static constexpr bool is_viscous = false;
  static constexpr const char* name = "neo_hookean";  // host only

  // Psi = mu10 (I1bar - 3) + kappa/2 (J - 1)^2 (Mooney-Rivlin with mu01 = 0).
  KOKKOS_INLINE_FUNCTION Real energy(const Mat3& F) const {
    const detail::InvariantKinematics k = detail::invariant_kinematics(F);
    const Real a_m_1 = detail::power_minus_one(k.J_m_1, -2.0 / 3.0);
    const Real I1bar_m_3 = (1.0 + a_m_1) * k.I1_m_3 + 3.0 * a_m_1;
    return mu10 * I1bar_m_3 + 0.5 * kappa * k.J_m_1 * k.J_m_1;
  }

  // P = 2 mu10 J^-2/3 dev(B - I) F^-T + kappa (J - 1) J F^-T
  KOKKOS_INLINE_FUNCTION Mat3 first_piola(const Mat3& F) const {
    const detail::InvariantKinematics k = detail::invariant_kinematics(F);
    return first_piola_from(k, k.dev_B * k.Finv_T);
  }

  KOKKOS_INLINE_FUNCTION void tangent(const Mat3& F, Tangent& A) const {
    const detail::InvariantKinematics k = detail::invariant_kinematics(F);
    tangent_from(F, k, k.dev_B * k.Finv_T, A);
  }

  KOKKOS_INLINE_FUNCTION void stress_and_tangent(const Mat3& F, Mat3& P, Tangent& A) const {
    const detail::InvariantKinematics k = detail::invariant_kinematics(F);
    const Mat3 T1 = k.dev_B * k.Finv_T;
    P = first_piola_from(k, T1);
    tangent_from(F, k, T1, A);
  }

  // Host: mu10 = mu/2, kappa = K from Young's modulus and Poisson ratio, so
  // the small-strain response is that of linear elasticity with (E, nu).
  static NeoHookean from_young_poisson(Real E, Real nu) {
    return NeoHookean{0.5 * shear_modulus(E, nu), bulk_modulus(E, nu)};
  }

 private:
  KOKKOS_INLINE_FUNCTION Mat3 first_piola_from(const detail::InvariantKinematics& k,
                                               const Mat3& T1) const {
    return (2.0 * mu10 * k.J_m23) * T1 + (kappa * k.J_m_1 * k.J) * k.Finv_T;
  }

  KOKKOS_INLINE_FUNCTION void tangent_from(const Mat3& F, const detail::InvariantKinematics& k,
                                           const Mat3& T1, Tangent& A) const {
    for (int r = 0; r < 9; ++r)
      for (int c = 0; c < 9; ++c) A.a[r][c] = 0.0;
    detail::add_neo_hookean_tangent(mu10, kappa, F, k, T1, A);
  }
};

static_assert(std::is_trivially_copyable<MooneyRivlin>::value,
              "materials are copied into kernels by value");
static_assert(std::is_trivially_copyable<NeoHookean>::value,
              "materials are copied into kernels by value");

}  // namespace tlfea
