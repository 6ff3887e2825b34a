// TLFEA: the physics of the internal force and tangent, written once for
// every loop shape (docs/theory.md §3.8-3.12): an element's point sets (the
// shape-function gradients H(e, p, i, k) and weights dV(e, p) of one
// quadrature rule) and the point law evaluated at each point.
//  - ContinuumPointLaw<M>: P(F, Fdot) and C = alpha_K dP/dF + alpha_D dP/dFdot
//    of the material M on the element's stiffness rule (one set). T10, Q27
//    and the ANCF elements with the Poisson split off.
//  - SplitPointLaw: the ANCF Poisson split (poisson_split.hpp) as a second
//    point set, set 0 the full rule with the D0 laws (and, for the
//    hyperelastic shells, the law kept in full), set 1 the reduced rule
//    (beam axis, shell mid-surface) with the Dv laws; the sets hold the frame
//    gradients hl_i = R^T h_i, so the kinematics are those of the continuum.
// Kinematics: F = sum_i x_i (x) h_i (point_law_core.hpp deformation_gradient;
// Fdot likewise from the coefficient rates); force f_i += dV P h_i, tangent K_ij += dV C(h_i, h_j).
// The loops around them (one thread per element, one team per element, point
// lanes) only order these sums differently, so they agree to round-off.
//
// Device: Kokkos functors, compile-time sizes, stack arrays only.
#pragma once

#include "tlfea/elements/kernels.hpp"
#include "tlfea/elements/point_law_core.hpp"
#include "tlfea/elements/poisson_split.hpp"

namespace tlfea {

namespace detail {

// One set of points: gradients H(e, p, i, k), weights dV(e, p), np points.
template <class E>
struct PointSet {
  DeviceView<Real* * [E::n][3]> H;
  DeviceView<Real**> dV;
  int np = 0;
};

// The continuum law M at every point of the (single) set.
template <class M>
struct ContinuumPointLaw {
  static constexpr bool viscous = M::is_viscous;
  M mat;
  KOKKOS_INLINE_FUNCTION Mat3 stress(int, const Mat3& F, const Mat3& Fdot) const {
    return material_stress(mat, F, Fdot);
  }
  KOKKOS_INLINE_FUNCTION void tangent(int, const Mat3& F, const Mat3& Fdot, Real sK, Real sD,
                                      Tangent& C) const {
    material_tangent(mat, F, Fdot, sK, sD, C);
  }
};

// The Poisson-split laws (poisson_split.hpp): set 0 the D0 laws (and the law
// Base kept in full: the hyperelastic shells), set 1 the Dv laws; F is the
// frame deformation gradient (the set's H holds hl).
template <bool V, class Base = NoBaseLaw>
struct SplitPointLaw {
  static constexpr bool viscous = V;
  SplitLaw el[2], vi[2];
  Base base{};
  KOKKOS_INLINE_FUNCTION Mat3 stress(int set, const Mat3& F, const Mat3& Fdot) const {
    Mat3 S, P;
    point::split_first_piola<V>(el[set], vi[set], F.m, Fdot.m, S.m, P.m);
    if constexpr (Base::present) {
      if (set == 0) return P + base.first_piola(F);
    }
    return P;
  }
  KOKKOS_INLINE_FUNCTION void tangent(int set, const Mat3& F, const Mat3& Fdot, Real sK, Real sD,
                                      Tangent& C) const {
    Mat3 S, P;
    point::split_first_piola<V>(el[set], vi[set], F.m, Fdot.m, S.m, P.m);
    for (int r = 0; r < 9; ++r)
      for (int c = 0; c < 9; ++c) C.a[r][c] = 0.0;
    for (int i = 0; i < 3; ++i)
      for (int J = 0; J < 3; ++J)
        for (int L = 0; L < 3; ++L) C.a[3 * i + J][3 * i + L] = sK * S(L, J);
    add_split_tangent(el[set], F, F, sK, C);
    if constexpr (Base::present) {
      if (set == 0) add_base_tangent(base, F, sK, C);
    }
    if constexpr (V) {
      add_split_tangent(vi[set], F, Fdot, sK, C);
      add_split_tangent(vi[set], F, F, sD, C);
    } else {
      (void)Fdot;
      (void)sD;
    }
  }
};

// hT[D][j] = H(e, p, j, D).
template <class E>
KOKKOS_INLINE_FUNCTION void load_gradients_t(const PointSet<E>& ps, Ordinal e, int p,
                                             Real hT[3][E::n]) {
  for (int j = 0; j < E::n; ++j)
    for (int D = 0; D < 3; ++D) hT[D][j] = ps.H(e, p, j, D);
}

// F(a, B) = sum_j xT[a][j] hT[B][j] (point_law_core.hpp deformation_gradient:
// j outermost, nine independent running sums, no serial dependency chain per
// entry; measured faster than even/odd partial sums vectorised over j).
template <int N>
KOKKOS_INLINE_FUNCTION Mat3 gradient_t(const Real xT[3][N], const Real hT[3][N]) {
  Mat3 F;
  point::deformation_gradient<N>([&](int j, int a) { return xT[a][j]; },
                                 [&](int j, int B) { return hT[B][j]; }, F.m);
  return F;
}

template <class E>
KOKKOS_INLINE_FUNCTION void gather_t(const ElementGeometry<E>& g, const CoefView& x, Ordinal e,
                                     Real xT[3][E::n]) {
  for (int i = 0; i < E::n; ++i) {
    const Ordinal c = g.conn(e, i);
    for (int a = 0; a < 3; ++a) xT[a][i] = x(c, a);
  }
}

}  // namespace detail

// What every loop shape (range_kernels.hpp, team_kernels.hpp) shares:
// the block geometry, the point sets with their law, the coefficients q (and
// velocities v, used by viscous laws) and the add mode, set by
// for_each_element / for_each_element_team (scatter_policy.hpp).
template <class E, class Law, int nsets>
struct PointSetLoop {
  using law_type = Law;
  static constexpr int num_sets = nsets;
  ElementGeometry<E> g;
  detail::PointSet<E> set[nsets];
  Law law;
  CoefView q, v;
  bool plain = false;
};
// The tangent functors' part: values += alpha_K K + alpha_D D at the offsets
// of each element's blocks in the CRS pattern (block rows of length
// block_row_length).
template <class E, class Law, int nsets>
struct PointSetTangentLoop : PointSetLoop<E, Law, nsets> {
  DeviceView<Offset***> offsets;
  DeviceView<Offset*> block_row_length;
  DeviceView<Real*> values;
  Real alpha_K = 1.0, alpha_D = 0.0;
};

}  // namespace tlfea
