// TLFEA: Kelvin-Voigt viscoelasticity, a viscous stress added to any elastic
// law (docs/theory.md §2.5):
//   Edot = (Fdot^T F + F^T Fdot)/2,
//   S_v  = 2 mu_v Edot + lambda_v tr(Edot) I,     P_v = F S_v,
//   P    = P_e(F) + P_v(F, Fdot).
// Viscous dissipation P_v : Fdot = S_v : Edot = 2 mu_v Edot:Edot + lambda_v tr(Edot)^2.
#pragma once

#include <tlfea/core/tensor.hpp>
#include <tlfea/core/types.hpp>
#include <tlfea/materials/st_venant_kirchhoff.hpp>
#include <type_traits>

namespace tlfea {

template <class Elastic>
struct KelvinVoigt {
  static_assert(!Elastic::is_viscous, "KelvinVoigt wraps an elastic law");

  Elastic elastic;
  Real mu_v, lambda_v;  // shear and volumetric viscosities (stress x time)

  static constexpr bool is_viscous = true;
  static constexpr const char* name = "kelvin_voigt";  // host only; elastic.name names the rest

  // Rate of Green-Lagrange strain Edot = sym(F^T Fdot); S_v = 2 mu_v Edot + lambda_v tr(Edot) I.
  KOKKOS_INLINE_FUNCTION Mat3 viscous_second_piola(const Mat3& F, const Mat3& Fdot) const {
    const Mat3 FtFdot = mul_tn(F, Fdot);
    Mat3 S;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) S(i, j) = mu_v * (FtFdot(i, j) + FtFdot(j, i));
    const Real lt = lambda_v * trace(FtFdot);
    S.m[0] += lt;
    S.m[4] += lt;
    S.m[8] += lt;
    return S;
  }

  // Stored energy of the elastic part (the viscous part stores none).
  KOKKOS_INLINE_FUNCTION Real energy(const Mat3& F) const { return elastic.energy(F); }

  // P = P_e(F) + F S_v
  KOKKOS_INLINE_FUNCTION Mat3 first_piola(const Mat3& F, const Mat3& Fdot) const {
    return elastic.first_piola(F) + F * viscous_second_piola(F, Fdot);
  }

  // dP/dF = dP_e/dF + dP_v/dF,
  // dP_v_iJ/dF_kL = delta_ik S_v_LJ + mu_v (F Fdot^T)_ik delta_JL
  //               + mu_v F_iL Fdot_kJ + lambda_v F_iJ Fdot_kL
  // (from dEdot_MN/dF_kL = (Fdot_kM delta_NL + delta_ML Fdot_kN)/2, d tr(Edot)/dF = Fdot).
  KOKKOS_INLINE_FUNCTION void tangent(const Mat3& F, const Mat3& Fdot, Tangent& A) const {
    elastic.tangent(F, A);
    add_viscous_tangent(F, Fdot, viscous_second_piola(F, Fdot), A);
  }

  // dP_v_iJ/dFdot_kL = mu_v (F_iL F_kJ + (F F^T)_ik delta_JL) + lambda_v F_iJ F_kL
  // (from dEdot_MN/dFdot_kL = (delta_ML F_kN + F_kM delta_NL)/2, d tr(Edot)/dFdot = F).
  KOKKOS_INLINE_FUNCTION void velocity_tangent(const Mat3& F, const Mat3& /*Fdot*/,
                                               Tangent& B) const {
    detail::lame_form_tangent<false>(lambda_v, mu_v, F, F, zero3(), B);
  }

  KOKKOS_INLINE_FUNCTION void stress_and_tangents(const Mat3& F, const Mat3& Fdot, Mat3& P,
                                                  Tangent& A, Tangent& B) const {
    elastic.stress_and_tangent(F, P, A);
    const Mat3 S_v = viscous_second_piola(F, Fdot);
    P = P + F * S_v;
    add_viscous_tangent(F, Fdot, S_v, A);
    velocity_tangent(F, Fdot, B);
  }

 private:
  KOKKOS_INLINE_FUNCTION void add_viscous_tangent(const Mat3& F, const Mat3& Fdot, const Mat3& S_v,
                                                  Tangent& A) const {
    detail::lame_form_tangent<true>(lambda_v, mu_v, F, Fdot, S_v, A);
  }
};

// Host: wraps an elastic law with viscosities mu_v, lambda_v.
template <class Elastic>
KelvinVoigt<Elastic> make_kelvin_voigt(const Elastic& elastic, Real mu_v, Real lambda_v) {
  return KelvinVoigt<Elastic>{elastic, mu_v, lambda_v};
}

}  // namespace tlfea
