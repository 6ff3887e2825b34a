// TLFEA: St. Venant-Kirchhoff hyperelastic law (docs/theory.md §2.2;
// Bonet & Wood 2008, sec. 6.4.1). With C = F^T F and E = (C - I)/2:
//   Psi = lambda/2 tr(E)^2 + mu E:E,
//   S   = lambda tr(E) I + 2 mu E,        P = F S.
#pragma once

#include <tlfea/core/tensor.hpp>
#include <tlfea/core/types.hpp>
#include <tlfea/materials/parameters.hpp>
#include <type_traits>

namespace tlfea {

namespace detail {

// A_iJkL (=, or += when `add`) lambda F_iJ G_kL + mu F_iL G_kJ
//                              + delta_ik S_LJ + mu (F G^T)_ik delta_JL:
// the SVK tangent dP/dF for G = F and S the stress (docs/theory.md §2.2), and
// the Kelvin-Voigt viscous tangents (§2.5) for G = Fdot with S the viscous
// stress (dP_v/dF) and for G = F with S = 0 (dP_v/dFdot).
template <bool add>
KOKKOS_INLINE_FUNCTION void lame_form_tangent(Real lambda, Real mu, const Mat3& F, const Mat3& G,
                                              const Mat3& S, Tangent& A) {
  const Mat3 b = mul_nt(F, G);
  for (int i = 0; i < 3; ++i)
    for (int J = 0; J < 3; ++J)
      for (int k = 0; k < 3; ++k)
        for (int L = 0; L < 3; ++L) {
          Real a = lambda * F(i, J) * G(k, L) + mu * F(i, L) * G(k, J);
          if (i == k) a += S(L, J);
          if (J == L) a += mu * b(i, k);
          if constexpr (add)
            A.a[3 * i + J][3 * k + L] += a;
          else
            A.a[3 * i + J][3 * k + L] = a;
        }
}

}  // namespace detail

struct StVenantKirchhoff {
  Real lambda, mu;  // Lame constants

  static constexpr bool is_viscous = false;
  static constexpr const char* name = "svk";  // host only

  // Green-Lagrange strain in near-reference form: with the displacement
  // gradient H = F - I, E = (H + H^T + H^T H)/2, so near F = I no O(1) terms
  // cancel as they would in (F^T F - I)/2.
  KOKKOS_INLINE_FUNCTION static Mat3 green_lagrange_strain(const Mat3& F) {
    Mat3 H = F;
    H.m[0] -= 1.0;
    H.m[4] -= 1.0;
    H.m[8] -= 1.0;
    const Mat3 HtH = mul_tn(H, H);
    Mat3 E;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) E(i, j) = 0.5 * (H(i, j) + H(j, i) + HtH(i, j));
    return E;
  }

  // S = lambda tr(E) I + 2 mu E
  KOKKOS_INLINE_FUNCTION Mat3 second_piola(const Mat3& F) const {
    const Mat3 E = green_lagrange_strain(F);
    Mat3 S = (2.0 * mu) * E;
    const Real lt = lambda * trace(E);
    S.m[0] += lt;
    S.m[4] += lt;
    S.m[8] += lt;
    return S;
  }

  // Psi = lambda/2 tr(E)^2 + mu E:E
  KOKKOS_INLINE_FUNCTION Real energy(const Mat3& F) const {
    const Mat3 E = green_lagrange_strain(F);
    const Real trE = trace(E);
    return 0.5 * lambda * trE * trE + mu * ddot(E, E);
  }

  // P = F S
  KOKKOS_INLINE_FUNCTION Mat3 first_piola(const Mat3& F) const { return F * second_piola(F); }

  // dP_iJ/dF_kL = delta_ik S_LJ                       (geometric part)
  //             + lambda F_iJ F_kL + mu F_iL F_kJ + mu (F F^T)_ik delta_JL
  // from dS_MJ/dF_kL = lambda delta_MJ F_kL + mu (delta_ML F_kJ + F_kM delta_JL).
  KOKKOS_INLINE_FUNCTION void tangent(const Mat3& F, Tangent& A) const {
    tangent_given_stress(F, second_piola(F), A);
  }

  KOKKOS_INLINE_FUNCTION void stress_and_tangent(const Mat3& F, Mat3& P, Tangent& A) const {
    const Mat3 S = second_piola(F);
    P = F * S;
    tangent_given_stress(F, S, A);
  }

  // Host: Lame constants from Young's modulus and Poisson ratio.
  static StVenantKirchhoff from_young_poisson(Real E, Real nu) {
    const LameParameters lp = lame_from_young_poisson(E, nu);
    return StVenantKirchhoff{lp.lambda, lp.mu};
  }

 private:
  KOKKOS_INLINE_FUNCTION void tangent_given_stress(const Mat3& F, const Mat3& S, Tangent& A) const {
    detail::lame_form_tangent<false>(lambda, mu, F, F, S, A);
  }
};

static_assert(std::is_trivially_copyable<StVenantKirchhoff>::value,
              "materials are copied into kernels by value");

}  // namespace tlfea
