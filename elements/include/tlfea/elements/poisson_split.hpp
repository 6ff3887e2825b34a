// TLFEA: Poisson-locking remedies of the ANCF 3243 beam (St. Venant-Kirchhoff)
// and (below) the ANCF 3443 shell (St. Venant-Kirchhoff, Mooney-Rivlin,
// Neo-Hookean; each plain and Kelvin-Voigt): the "enhanced continuum mechanics" split of
// Nachbagauer, Gruber and Gerstmayr (J. Comput. Nonlinear Dyn. 8 (2), 021004,
// 2012), as Project Chrono applies it to ChElementBeamANCF_3243
// (ChMaterialBeamANCF::Calc_D0_Dv and the element's precomputation, which
// integrates Dv at the xi Gauss points with eta = zeta = 0, weight x 2 x 2).
//
// Why: r_v, r_w of the fully parameterised element are constant over the
// cross-section, so the transverse strains cannot vary through the depth as
// the Poisson effect of bending needs; with the full law the bending fibres
// are in lateral plane strain (modulus E (1 - nu) / ((1 + nu)(1 - 2 nu))).
//
// The split. In Voigt form (E11, E22, E33, 2E23, 2E13, 2E12) of the SVK law,
// D = D0 + Dv with
//   D0 = diag(E, E, E, G, G, G)                  (no Poisson coupling),
//   Dv = [D_nn - E I3, 0; 0, 0]                  (normal-normal block only),
// E Young's modulus, G = mu, D_nn = lambda 1 1^T + 2 mu I3. D0 is integrated
// with the element's full 3 x 2 x 2 rule, Dv only on the beam axis: the 3
// axial Gauss points x the cross-section centre, weight w_xi x 2 x 2 (the
// parent cross-section area; times det J0 that is w_xi L/2 A for a straight
// beam). Under a uniform strain both rules are exact and the parts add up to
// D (the Poisson contraction in tension is kept); in bending the D0 part
// gives E I.
//
// As tensors, with the beam frame t_1 (axis), t_2, t_3 (orthonormal, from the
// reference Jacobian J0 = dX/dxi by Gram-Schmidt) and e_m = t_m . E t_m:
//   S(E) = a tr(E) I + 2 b E + c sum_m e_m t_m (x) t_m,
//   Psi  = a/2 tr(E)^2 + b E:E + c/2 sum_m e_m^2,
//   D0: (a, b, c) = (0, mu, E - 2 mu),  Dv: (lambda, 0, 2 mu - E),
// and E - 2 mu = lambda mu / (lambda + mu) (0 at nu = 0, where the split
// element equals the continuum one). Chrono writes D0 in the global axes; the
// beam frame here is the same for beams along the axes and keeps the element
// independent of the orientation of its reference. The kernels work in that
// frame: the setup rotates the shape-function gradients, hl_i = R^T h_i
// (R = [t_1 t_2 t_3]), so F R = sum_i x_i (x) hl_i, E_loc = R^T E R, and the
// frame term is c diag(E_loc).
//
// Kelvin-Voigt: the viscous law S_v = lambda_v tr(Edot) I + 2 mu_v Edot is
// split the same way with E_v = mu_v (3 lambda_v + 2 mu_v)/(lambda_v + mu_v)
// (Chrono's damping is alpha D, split with D).
//
// Tangents: for S = C(E), P = F S, with E the Green-Lagrange strain and Edot
// = sym(F^T Fdot),
//   dP_iJ/dF_kL    = delta_ik S_LJ + F_iM F_kN Ce_MJNL + F_iM Fdot_kN Cv_MJNL,
//   dP_iJ/dFdot_kL = F_iM F_kN Cv_MJNL,
// and for C = (a, b, c) above X_iM Y_kN C_MJNL = a X_iJ Y_kL
//   + b (X_iL Y_kJ + (X Y^T)_ik delta_JL) + c sum_m (X t_m)_i t_mJ (Y t_m)_k t_mL.
//
// ANCF 3443 shell (same machinery, another D0 and another reduced rule).
// r_w of the fully parameterised shell is bilinear in (u, v) and independent
// of the thickness coordinate w (ancf3443.hpp), so E33 = (r_w . r_w - 1)/2
// is constant through the thickness; with the full law a bending fibre is in
// plane strain through the thickness and the plate bends with
// (lambda + 2 mu) in place of the plane-stress modulus E / (1 - nu^2):
// w / w_Kirchhoff -> (1 - 2 nu) / (1 - nu)^2 (0.816 at nu = 0.3). The shell
// split keeps the Kirchhoff plate assumption sigma_33 = 0 in the part that
// carries the bending (Timoshenko and Woinowsky-Krieger, Theory of Plates
// and Shells, ch. 4) and moves the rest of the Poisson coupling to the
// mid-surface, where the bending strain vanishes. In the shell frame
// (t_1, t_2 tangent to the reference mid-surface, t_3 its normal; beam_frame
// of J0 below, whose first two columns are the mid-surface tangents):
//   D0: S = lambda* (E_11 + E_22) P + 2 mu E,   P = t_1 (x) t_1 + t_2 (x) t_2,
//       lambda* = 2 lambda mu / (lambda + 2 mu)     (plane-stress Lame
//       constant: the in-plane block of D0 is E/(1 - nu^2) [1 nu; nu 1],
//       G on the shears, 2 mu on E_33 with no coupling to E_11, E_22),
//   Dv = D - D0: S = lambda tr(E) I - lambda* (E_11 + E_22) P,
// D0 over the full 4 x 4 x 2 rule, Dv over the mid-surface points: the
// 4 x 4 Gauss points of (xi, eta) at zeta = 0, weight w_xi w_eta x 2 (so
// that times det J0 the weights sum to the element volume). Uniform strain:
// both rules are exact and D0 + Dv = D (membrane tension keeps its in-plane
// and thickness Poisson contraction). Linear small-strain bending, strain
// e0 + zeta e1 with e1_33 = 0: the energy is int D0 over the thickness plus
// Dv at zeta = 0, i.e. 2 (D e0 . e0) + (2/3)(D0 e1 . e1) per unit parent
// area, positive definite for -1 < nu < 1/2, and the bending part is the
// plane-stress one, D = E h^3 / (12 (1 - nu^2)). This is the beam's split
// (Nachbagauer, Gruber, Gerstmayr 2012, above) with D0 the plane-stress law
// of the shell's tangent plane instead of diag(E, E, E, G, G, G), which for a
// plate would bend with E h^3 / 12. At nu = 0 lambda = lambda* = 0 and Dv = 0:
// the split shell equals the continuum one. Kelvin-Voigt: split the same way
// with (lambda_v, mu_v).
//
// All four laws have the form (in the element frame, E the frame strain)
//   S = a tr(E) I + 2 b E + c diag(E) + p (E_11 + E_22) P,
//   Psi = a/2 tr(E)^2 + b E:E + c/2 sum_m E_mm^2 + p/2 (E_11 + E_22)^2,
// beam (a, b, c, p): D0 (0, mu, E - 2 mu, 0), Dv (lambda, 0, 2 mu - E, 0);
// shell: D0 (0, mu, 0, lambda*), Dv (lambda, 0, 0, -lambda*); the p term of
// the tangent is p X_iJ Y_kL for J, L in {1, 2}.
//
// Hyperelastic shells (Mooney-Rivlin, Neo-Hookean, plain or Kelvin-Voigt;
// docs/theory.md §4.3). The same split with the full law kept: with psi_v(E)
// the quadratic Dv energy above (small-strain Lame constants of the law,
// mu = 2 (mu10 + mu01), lambda = kappa - 2 mu / 3),
//   Pi = sum_full dV [Psi(F) - psi_v(E)] + sum_mid dV psi_v(E),
// i.e. the linearised Poisson coupling Dv is moved from the full rule to the
// mid-surface points and the rest of the law stays where it was. Full rule:
// law "base" (Psi) plus the split law -Dv = (-lambda, 0, 0, lambda*); mid-
// surface: Dv. At small strain Psi - psi_v has the tangent D - Dv = D0, so
// the element is the SVK split shell (plates bend with E h^3/(12 (1 - nu^2)));
// under a uniform deformation of any size both rules integrate psi_v exactly
// and the two terms cancel: membrane states see the full law, with its own
// Poisson contraction. The correction is quadratic in E, so at bending
// strains of order 1 it is not the law's plane-stress reduction (Klinkel and
// Govindjee 2002), only its small-strain limit. The law is isotropic, so in
// the frame Psi(F R) = Psi(F) and P(F R) = P(F) R (R a rotation): it is
// evaluated on the frame gradient F R like the split laws.
#pragma once

#include <cmath>
#include <type_traits>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/elements/ancf3243.hpp"
#include "tlfea/elements/ancf3443.hpp"
#include "tlfea/elements/geometry.hpp"
#include "tlfea/elements/kernels.hpp"
#include "tlfea/elements/point_law_core.hpp"
#include "tlfea/elements/quadrature.hpp"
#include "tlfea/materials/kelvin_voigt.hpp"
#include "tlfea/materials/material_spec.hpp"
#include "tlfea/materials/mooney_rivlin.hpp"
#include "tlfea/materials/st_venant_kirchhoff.hpp"

namespace tlfea {

static_assert(std::is_same_v<Real, double>, "SplitLaw (point_law_core.hpp) holds doubles");

// The D0 / Dv laws of the elastic and (Kelvin-Voigt) viscous parts.
struct PoissonSplitCoefficients {
  SplitLaw full, axis;    // elastic: D0 on the full rule, Dv on the reduced rule
  SplitLaw vfull, vaxis;  // viscous
};

// Host: (lambda, mu) -> D0 = (0, mu, c), Dv = (lambda, 0, -c), c = E - 2 mu =
// lambda mu / (lambda + mu). Throws when lambda + mu = 0 with a nonzero
// modulus (no Young's modulus; `who` names the parameters).
inline void split_from_lame(Real lambda, Real mu, SplitLaw& full, SplitLaw& axis, const char* who) {
  Real c = 0.0;
  if (lambda != 0.0 && mu != 0.0) {
    const Real s = lambda + mu;
    if (!(std::fabs(s) > 1e-12 * (std::fabs(lambda) + std::fabs(mu))))
      throw_error("ANCF3243 Poisson split: ", who, " has lambda + mu = 0 (lambda = ", lambda,
                  ", mu = ", mu, "); switch the split off (ancf3243_poisson_split = false)");
    c = lambda * mu / s;
  }
  full = SplitLaw{0.0, mu, c};
  axis = SplitLaw{lambda, 0.0, -c};
}

// Host, shell: (lambda, mu) -> D0 = (0, mu, 0, lambda*), Dv = (lambda, 0, 0,
// -lambda*), lambda* = 2 lambda mu / (lambda + 2 mu). Throws when
// lambda + 2 mu = 0 with a nonzero lambda mu (no plane-stress law).
inline void shell_split_from_lame(Real lambda, Real mu, SplitLaw& full, SplitLaw& mid,
                                  const char* who) {
  Real ls = 0.0;
  if (lambda != 0.0 && mu != 0.0) {
    const Real s = lambda + 2.0 * mu;
    if (!(std::fabs(s) > 1e-12 * (std::fabs(lambda) + std::fabs(mu))))
      throw_error("ANCF3443 Poisson split: ", who, " has lambda + 2 mu = 0 (lambda = ", lambda,
                  ", mu = ", mu, "); switch the split off (ancf3443_poisson_split = false)");
    ls = 2.0 * lambda * mu / s;
  }
  full = SplitLaw{0.0, mu, 0.0, ls};
  mid = SplitLaw{lambda, 0.0, 0.0, -ls};
}

// The reduced rule of the Dv part: beam, the 3 xi Gauss points of the full
// rule on the axis (eta = zeta = 0, weight w_xi x 2 x 2); shell, the 4 x 4
// (xi, eta) Gauss points of the full rule on the mid-surface (zeta = 0,
// weight w_xi w_eta x 2).
template <class E>
struct SplitReducedRule;
template <>
struct SplitReducedRule<ANCF3243> {
  static constexpr int np = 3;
  static void point(int q, Real xi[3], Real& w) { gauss_box(3, 1, 1, q, xi, w); }
};
template <>
struct SplitReducedRule<ANCF3443> {
  static constexpr int np = 16;
  static void point(int q, Real xi[3], Real& w) { gauss_box(4, 4, 1, q, xi, w); }
};

// The elastic law kept in full on the full rule beside the split laws: none
// for SVK (the split laws are the whole law), the hyperelastic law itself for
// Mooney-Rivlin / Neo-Hookean (see above).
struct NoBaseLaw {
  static constexpr bool present = false;
  KOKKOS_INLINE_FUNCTION Mat3 first_piola(const Mat3&) const { return zero3(); }
  KOKKOS_INLINE_FUNCTION void tangent(const Mat3&, Tangent&) const {}
  KOKKOS_INLINE_FUNCTION Real energy(const Mat3&) const { return 0.0; }
};
template <class M>
struct HyperelasticBaseLaw {
  static constexpr bool present = true;
  M law;
  KOKKOS_INLINE_FUNCTION Mat3 first_piola(const Mat3& F) const { return law.first_piola(F); }
  KOKKOS_INLINE_FUNCTION void tangent(const Mat3& F, Tangent& A) const { law.tangent(F, A); }
  KOKKOS_INLINE_FUNCTION Real energy(const Mat3& F) const { return law.energy(F); }
};

// supported: the <element, material> pair has a split; enabled(spec): the
// spec asks for it (MaterialSpec::ancf3243_poisson_split /
// ancf3443_poisson_split, both on by default); Base: the law kept in full
// on the full rule (base(m) builds it).
template <class E, class M>
struct PoissonSplitTraits {
  static constexpr bool supported = false;
  using Base = NoBaseLaw;
};
// SVK and Kelvin-Voigt<SVK>: the split laws are the whole law (no base law);
// the beam splits by split_from_lame, the shell by shell_split_from_lame.
template <class E>
struct SvkSplitOf;
template <>
struct SvkSplitOf<ANCF3243> {
  static bool enabled(const MaterialSpec& s) { return s.ancf3243_poisson_split; }
  static void split(Real lambda, Real mu, SplitLaw& full, SplitLaw& axis, const char* who) {
    split_from_lame(lambda, mu, full, axis, who);
  }
};
template <>
struct SvkSplitOf<ANCF3443> {
  static bool enabled(const MaterialSpec& s) { return s.ancf3443_poisson_split; }
  static void split(Real lambda, Real mu, SplitLaw& full, SplitLaw& mid, const char* who) {
    shell_split_from_lame(lambda, mu, full, mid, who);
  }
};
template <class E>
struct SvkSplitTraits {
  static constexpr bool supported = true;
  using Base = NoBaseLaw;
  template <class M>
  static Base base(const M&) {
    return {};
  }
  static bool enabled(const MaterialSpec& s) { return SvkSplitOf<E>::enabled(s); }
  static PoissonSplitCoefficients coefficients(const StVenantKirchhoff& m) {
    PoissonSplitCoefficients k;
    SvkSplitOf<E>::split(m.lambda, m.mu, k.full, k.axis, "St. Venant-Kirchhoff (lambda, mu)");
    return k;
  }
  static PoissonSplitCoefficients coefficients(const KelvinVoigt<StVenantKirchhoff>& m) {
    PoissonSplitCoefficients k = coefficients(m.elastic);
    SvkSplitOf<E>::split(m.lambda_v, m.mu_v, k.vfull, k.vaxis, "Kelvin-Voigt (lambda_v, mu_v)");
    return k;
  }
};
template <>
struct PoissonSplitTraits<ANCF3243, StVenantKirchhoff> : SvkSplitTraits<ANCF3243> {};
template <>
struct PoissonSplitTraits<ANCF3243, KelvinVoigt<StVenantKirchhoff>> : SvkSplitTraits<ANCF3243> {};
template <>
struct PoissonSplitTraits<ANCF3443, StVenantKirchhoff> : SvkSplitTraits<ANCF3443> {};
template <>
struct PoissonSplitTraits<ANCF3443, KelvinVoigt<StVenantKirchhoff>> : SvkSplitTraits<ANCF3443> {};

// Hyperelastic shells: the full rule carries the law and -Dv, the mid-surface
// Dv, with Dv from the law's small-strain Lame constants (above).
inline void hyperelastic_shell_split(Real mu10, Real mu01, Real kappa, SplitLaw& full,
                                     SplitLaw& mid, const char* who) {
  const Real mu = 2.0 * (mu10 + mu01);
  const Real lambda = kappa - 2.0 * mu / 3.0;
  SplitLaw d0;
  shell_split_from_lame(lambda, mu, d0, mid, who);
  full = SplitLaw{-mid.a, -mid.b, -mid.c, -mid.p};
}
template <class M>
struct HyperelasticShellSplitTraits {
  static constexpr bool supported = true;
  using Base = HyperelasticBaseLaw<M>;
  static bool enabled(const MaterialSpec& s) { return s.ancf3443_poisson_split; }
  static Base base(const M& m) { return Base{m}; }
  static Real mu01(const MooneyRivlin& m) { return m.mu01; }
  static Real mu01(const NeoHookean&) { return 0.0; }
  static PoissonSplitCoefficients coefficients(const M& m) {
    PoissonSplitCoefficients k;
    hyperelastic_shell_split(m.mu10, mu01(m), m.kappa, k.full, k.axis,
                             "hyperelastic (small-strain lambda, mu)");
    return k;
  }
};
template <class M>
struct HyperelasticShellSplitTraits<KelvinVoigt<M>> {
  static constexpr bool supported = true;
  using Base = HyperelasticBaseLaw<M>;
  static bool enabled(const MaterialSpec& s) { return s.ancf3443_poisson_split; }
  static Base base(const KelvinVoigt<M>& m) { return Base{m.elastic}; }
  static PoissonSplitCoefficients coefficients(const KelvinVoigt<M>& m) {
    PoissonSplitCoefficients k = HyperelasticShellSplitTraits<M>::coefficients(m.elastic);
    shell_split_from_lame(m.lambda_v, m.mu_v, k.vfull, k.vaxis, "Kelvin-Voigt (lambda_v, mu_v)");
    return k;
  }
};
template <>
struct PoissonSplitTraits<ANCF3443, MooneyRivlin> : HyperelasticShellSplitTraits<MooneyRivlin> {};
template <>
struct PoissonSplitTraits<ANCF3443, NeoHookean> : HyperelasticShellSplitTraits<NeoHookean> {};
template <>
struct PoissonSplitTraits<ANCF3443, KelvinVoigt<MooneyRivlin>>
    : HyperelasticShellSplitTraits<KelvinVoigt<MooneyRivlin>> {};
template <>
struct PoissonSplitTraits<ANCF3443, KelvinVoigt<NeoHookean>>
    : HyperelasticShellSplitTraits<KelvinVoigt<NeoHookean>> {};

// Extra geometry of the split element: the shape-function gradients in the
// element frame, hl_i = R^T h_i (R = [t_1 t_2 t_3], columns the frame vectors),
// at the full rule's points and at the reduced ("axis": beam axis or shell
// mid-surface) points, and dV at the reduced points. Then
// F R = sum_i x_i (x) hl_i, E_loc = R^T E R, P_loc = (F R) S_loc,
// f_i = P h_i = P_loc hl_i and K_ij = A_loc(hl_i, hl_j): the split kernels
// are the continuum kernels with hl for h. When every frame is the identity
// (beams along the x axis with r_v along y, plates in the x-y plane: the
// generators' meshes) the full rule's hl is the element geometry's H itself
// (shared, no copy).
template <class E>
struct PoissonSplitGeometry {
  static constexpr int nq_axis = SplitReducedRule<E>::np;
  DeviceView<Real* * [E::n][3]> H_full;
  DeviceView<Real* * [E::n][3]> H_axis;
  DeviceView<Real**> dV_axis;
};

// Host: orthonormal element frame from J0 (columns dX/dxi, dX/deta, dX/dzeta)
// by Gram-Schmidt: t_1 along dX/dxi (the beam axis), t_2 in the (t_1,
// dX/deta) plane, t_3 = t_1 x t_2 (for the shell: t_1, t_2 span the
// mid-surface tangent plane and t_3 is its normal).
inline Mat3 beam_frame(const Mat3& J0) {
  Real t1[3], t2[3], t3[3];
  Real n1 = 0.0;
  for (int a = 0; a < 3; ++a) n1 += J0(a, 0) * J0(a, 0);
  n1 = std::sqrt(n1);
  for (int a = 0; a < 3; ++a) t1[a] = J0(a, 0) / n1;
  Real d = 0.0;
  for (int a = 0; a < 3; ++a) d += J0(a, 1) * t1[a];
  Real n2 = 0.0;
  for (int a = 0; a < 3; ++a) {
    t2[a] = J0(a, 1) - d * t1[a];
    n2 += t2[a] * t2[a];
  }
  n2 = std::sqrt(n2);
  for (int a = 0; a < 3; ++a) t2[a] /= n2;
  t3[0] = t1[1] * t2[2] - t1[2] * t2[1];
  t3[1] = t1[2] * t2[0] - t1[0] * t2[2];
  t3[2] = t1[0] * t2[1] - t1[1] * t2[0];
  Mat3 R;
  for (int a = 0; a < 3; ++a) {
    R(a, 0) = t1[a];
    R(a, 1) = t2[a];
    R(a, 2) = t3[a];
  }
  return R;
}

// Host: the split geometry of `mesh` (already checked by build_geometry).
// Reduced points: SplitReducedRule<E>.
template <class E>
PoissonSplitGeometry<E> build_poisson_split_geometry(const Mesh& mesh,
                                                     const ElementGeometry<E>& g) {
  const Ordinal ne = g.num_elements;
  constexpr int na = PoissonSplitGeometry<E>::nq_axis;
  PoissonSplitGeometry<E> s;
  DeviceView<Real* * [E::n][3]> Hf("tlfea::elements::split_H_full", ne, E::nq);
  s.H_axis = DeviceView<Real* * [E::n][3]>("tlfea::elements::split_H_axis", ne, na);
  s.dV_axis = DeviceView<Real**>("tlfea::elements::split_dV_axis", ne, na);
  auto Hfh = host_mirror(Hf);
  auto Ha = host_mirror(s.H_axis);
  auto dVa = host_mirror(s.dV_axis);
  auto param = to_host(g.param);
  bool identity = true;
  for (Ordinal e = 0; e < ne; ++e) {
    Real x0[E::n][3];
    for (int i = 0; i < E::n; ++i)
      for (int a = 0; a < 3; ++a) x0[i][a] = mesh.coefficients[mesh.coefficient(e, i)][a];
    for (int set = 0; set < 2; ++set) {
      const int np = set == 0 ? E::nq : na;
      for (int q = 0; q < np; ++q) {
        Real xi[3], w, ds[E::n][3];
        if (set == 0)
          E::quad_point(q, xi, w);
        else
          SplitReducedRule<E>::point(q, xi, w);
        E::shape_deriv(param(e), xi, ds);
        const Mat3 J0 = parent_jacobian<E>(x0, ds);
        const Mat3 R = beam_frame(J0);
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            if (R(a, b) != (a == b ? 1.0 : 0.0)) identity = false;
        const Mat3 Ji = inverse(J0);
        for (int i = 0; i < E::n; ++i) {
          Real h[3];
          for (int k = 0; k < 3; ++k)
            h[k] = ds[i][0] * Ji(0, k) + ds[i][1] * Ji(1, k) + ds[i][2] * Ji(2, k);
          for (int m = 0; m < 3; ++m) {
            const Real hl = h[0] * R(0, m) + h[1] * R(1, m) + h[2] * R(2, m);
            (set == 0 ? Hfh(e, q, i, m) : Ha(e, q, i, m)) = hl;
          }
        }
        if (set == 1) dVa(e, q) = w * det(J0);
      }
    }
  }
  if (identity) {
    s.H_full = g.H;
  } else {
    copy_to_device(Hf, Hfh);
    s.H_full = Hf;
  }
  copy_to_device(s.H_axis, Ha);
  copy_to_device(s.dV_axis, dVa);
  return s;
}

namespace detail {

// In the element frame the laws' frame terms are diagonal: with X = F R
// (columns F t_m) and E_loc = R^T E R,
//   S_loc += a tr(E) I + 2 b E_loc + c diag(E_loc) + p (E_11 + E_22) P,
// P = diag(1, 1, 0) (the shell's tangent plane; p = 0 for the beam).
KOKKOS_INLINE_FUNCTION void add_split_stress(const SplitLaw& l, const Mat3& E, Mat3& S) {
  point::add_split_stress(l, E.m, S.m);
}

KOKKOS_INLINE_FUNCTION Real split_energy(const SplitLaw& l, const Mat3& E) {
  const Real t = trace(E);
  const Real t2 = E.m[0] + E.m[4];
  return 0.5 * l.a * t * t + l.b * ddot(E, E) +
         0.5 * l.c * (E.m[0] * E.m[0] + E.m[4] * E.m[4] + E.m[8] * E.m[8]) + 0.5 * l.p * t2 * t2;
}

// A[3i+J][3k+L] += s X_iM Y_kN C_MJNL in the element frame (t_m = e_m):
//   a X_iJ Y_kL + b X_iL Y_kJ + delta_JL (b (X Y^T)_ik + c X_iJ Y_kJ)
//   + p X_iJ Y_kL [J, L in the tangent plane (indices 0, 1)].
KOKKOS_INLINE_FUNCTION void add_split_tangent(const SplitLaw& l, const Mat3& X, const Mat3& Y,
                                              Real s, Tangent& A) {
  if (s == 0.0) return;
  const Mat3 XYt = mul_nt(X, Y);
  const Real sa = s * l.a, sb = s * l.b, sc = s * l.c, sp = s * l.p;
  for (int i = 0; i < 3; ++i)
    for (int J = 0; J < 3; ++J)
      for (int k = 0; k < 3; ++k) {
        for (int L = 0; L < 3; ++L)
          A.a[3 * i + J][3 * k + L] += sa * X(i, J) * Y(k, L) + sb * X(i, L) * Y(k, J);
        A.a[3 * i + J][3 * k + J] += sb * XYt(i, k) + sc * X(i, J) * Y(k, J);
      }
  if (sp != 0.0)
    for (int i = 0; i < 3; ++i)
      for (int J = 0; J < 2; ++J)
        for (int k = 0; k < 3; ++k)
          for (int L = 0; L < 2; ++L) A.a[3 * i + J][3 * k + L] += sp * X(i, J) * Y(k, L);
}

// C += s dP_base/dF (the law kept in full; NoBaseLaw adds nothing).
template <class Base>
KOKKOS_INLINE_FUNCTION void add_base_tangent(const Base& base, const Mat3& F, Real s, Tangent& C) {
  if constexpr (Base::present) {
    if (s == 0.0) return;
    Tangent A;
    base.tangent(F, A);
    for (int r = 0; r < 9; ++r)
      for (int c = 0; c < 9; ++c) C.a[r][c] += s * A.a[r][c];
  } else {
    (void)base;
    (void)F;
    (void)s;
    (void)C;
  }
}

// Green-Lagrange strain rate sym(F^T Fdot).
KOKKOS_INLINE_FUNCTION Mat3 strain_rate(const Mat3& F, const Mat3& Fdot) {
  Mat3 E;
  point::strain_rate(F.m, Fdot.m, E.m);
  return E;
}

// The point sets of the split element: set 0 the full rule with the D0 laws,
// set 1 the reduced points with the Dv laws; H holds the frame gradients hl.
template <class E>
struct SplitPointSet {
  DeviceView<Real* * [E::n][3]> H;
  DeviceView<Real**> dV;
  int np;
  SplitLaw el, vi;
};

template <class E>
KOKKOS_INLINE_FUNCTION void frame_gradients(const SplitPointSet<E>& ps, Ordinal e, int p,
                                            Real hl[E::n][3]) {
  for (int i = 0; i < E::n; ++i)
    for (int m = 0; m < 3; ++m) hl[i][m] = ps.H(e, p, i, m);
}

template <class E>
KOKKOS_INLINE_FUNCTION Mat3 frame_F(const Real hl[E::n][3], const Real xe[E::n][3]) {
  Mat3 F;
  point::deformation_gradient<E::n>([&](int i, int a) { return xe[i][a]; },
                                    [&](int i, int m) { return hl[i][m]; }, F.m);
  return F;
}

// Calls fn(k, ps, p, hl, F) at every point p of both sets (k = 0, 1; ps =
// set[k]) of element e, with hl the frame gradients there and F = frame_F(hl, xe).
template <class E, class Fn>
KOKKOS_INLINE_FUNCTION void for_each_split_point(const SplitPointSet<E> (&set)[2], Ordinal e,
                                                 const Real xe[E::n][3], const Fn& fn) {
  for (int k = 0; k < 2; ++k) {
    const SplitPointSet<E>& ps = set[k];
    for (int p = 0; p < ps.np; ++p) {
      Real hl[E::n][3];
      frame_gradients(ps, e, p, hl);
      const Mat3 F = frame_F<E>(hl, xe);
      fn(k, ps, p, hl, F);
    }
  }
}

}  // namespace detail

// The split element's strain energy (same contract as StrainEnergyFunctor in
// kernels.hpp); `Base`: the law kept in full on set 0 (the full rule;
// NoBaseLaw for SVK, the hyperelastic law for MR / NH shells).
template <class E, class Base = NoBaseLaw>
struct SplitStrainEnergyFunctor {
  ElementGeometry<E> g;
  detail::SplitPointSet<E> set[2];
  CoefView q;
  Base base{};
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e, Real& sum) const {
    Real xe[E::n][3];
    detail::gather(g, q, e, xe);
    detail::for_each_split_point<E>(set, e, xe,
                                    [&](const int k, const detail::SplitPointSet<E>& ps,
                                        const int p, const Real(&)[E::n][3], const Mat3& F) {
                                      Real psi = detail::split_energy(
                                          ps.el, StVenantKirchhoff::green_lagrange_strain(F));
                                      if constexpr (Base::present) {
                                        if (k == 0) psi += base.energy(F);
                                      }
                                      sum += ps.dV(e, p) * psi;
                                    });
  }
};

}  // namespace tlfea
