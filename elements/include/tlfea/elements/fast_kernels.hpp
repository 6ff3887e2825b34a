// TLFEA: restructured internal-force and tangent loops of the ANCF 3243 beam
// and ANCF 3443 shell (docs/theory.md §3.11). Same quadrature
// points, weights, gradients and constitutive evaluations as the general
// loops of kernels.hpp (InternalForceFunctor, TangentFunctor) and
// poisson_split.hpp (SplitInternalForceFunctor, SplitTangentFunctor), which
// stay as the reference (ElementBlockBase::set_reference_kernels): the results
// agree to round-off, only the order of the sums differs.
//
// What changes (a profile of the general loops: the tangent spends ~3/4 of its
// time in the block update K_ij += G_i . h_j, 27 multiply-adds per block and
// point, with K_ij read and written at every point, and the rest in
// G_i = C : h_i):
//  - the gradients of a point are loaded once into a transposed local array
//    hT[D][j] (j contiguous), so that F = sum_j x_j (x) h_j, f_j += P h_j and
//    G_i = C h_i are loops over j with unit stride (vectorisable);
//  - the element matrix is stored K[i][3a+c][j] (j contiguous) and updated
//    for a chunk of Q points at once: K[i][k][j] += sum_{p<Q, D} G_p[i][k][D]
//    hT_p[D][j], a register-blocked rank-3Q update that reads and writes K
//    once per chunk instead of once per point and vectorises over j; G is
//    stored G[p][k][D][i] (computed with unit stride over i);
//  - for the symmetric (elastic) tangent only j >= i (rounded down to even)
//    is formed and the rest mirrored, as before.
// A chunk that runs past the last point is padded with zero gradients and a
// zero weight (it adds exact zeros).
//
// Why not pre-integration (Garcia-Vallejo, Mayo, Escalona and Dominguez,
// Nonlinear Dyn. 35, 2004): see docs/theory.md §3.11; it is exact for SVK but
// costs n^2 x 9 multiply-adds per 3 x 3 block (n = 16: 2304) against
// nq x 27 here (864 for the shell, 324 for the beam), and n^4 / 4 stored
// coefficients per element.
//
// Device: Kokkos functors, compile-time sizes, stack arrays only.
#pragma once

#include "tlfea/elements/kernels.hpp"
#include "tlfea/elements/poisson_split.hpp"

namespace tlfea {

// Which element types use these loops (the others keep kernels.hpp's).
// enabled: the tangent (every material, split on or off) uses
// FastTangentFunctor. split_force: the Poisson-split internal force uses
// FastInternalForceFunctor. The other internal forces keep kernels.hpp's /
// poisson_split.hpp's loops: with the restructured force loop they measured
// 0.75-1.15x (tlfea_bench_kernels --compare 1, thread CPU medians; only the
// split beam was consistently faster, 1.26x), and the force dominates a
// step that reuses its Jacobian.
template <class E>
struct FastKernelTraits {
  static constexpr bool enabled = false;
  static constexpr bool split_force = false;
  static constexpr int chunk = 1;
};
template <>
struct FastKernelTraits<ANCF3243> {
  static constexpr bool enabled = true;
  static constexpr bool split_force = true;
  static constexpr int chunk = 3;  // full rule 12 points, split axis 3
};
template <>
struct FastKernelTraits<ANCF3443> {
  static constexpr bool enabled = true;
  static constexpr bool split_force = false;
  static constexpr int chunk = 4;  // full rule 32 points, split mid-surface 16
};

namespace detail {

// One set of points: gradients H(e, p, i, k), weights dV(e, p), np points.
template <class E>
struct FastPointSet {
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
    Mat3 S = zero3();
    add_split_stress(el[set], StVenantKirchhoff::green_lagrange_strain(F), S);
    if constexpr (V) add_split_stress(vi[set], strain_rate(F, Fdot), S);
    (void)Fdot;
    if constexpr (Base::present) {
      if (set == 0) return F * S + base.first_piola(F);
    }
    return F * S;
  }
  KOKKOS_INLINE_FUNCTION void tangent(int set, const Mat3& F, const Mat3& Fdot, Real sK, Real sD,
                                      Tangent& C) const {
    Mat3 S = zero3();
    add_split_stress(el[set], StVenantKirchhoff::green_lagrange_strain(F), S);
    if constexpr (V) add_split_stress(vi[set], strain_rate(F, Fdot), S);
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
KOKKOS_INLINE_FUNCTION void load_gradients_t(const FastPointSet<E>& ps, Ordinal e, int p,
                                             Real hT[3][E::n]) {
  for (int j = 0; j < E::n; ++j)
    for (int D = 0; D < 3; ++D) hT[D][j] = ps.H(e, p, j, D);
}

// F(a, B) = sum_j xT[a][j] hT[B][j]: j outermost, nine independent running
// sums (the order of kernels.hpp's deformation_gradient, and no serial
// dependency chain per entry). Measured faster than even/odd partial sums
// vectorised over j, with and without -march=native.
template <int N>
KOKKOS_INLINE_FUNCTION Mat3 gradient_t(const Real xT[3][N], const Real hT[3][N]) {
  Mat3 F = zero3();
  for (int j = 0; j < N; ++j)
    for (int a = 0; a < 3; ++a)
      for (int B = 0; B < 3; ++B) F(a, B) += xT[a][j] * hT[B][j];
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

// What the fast (range) and team internal force and tangent functors share:
// the block geometry, the point sets with their law, the coefficients q (and
// velocities v, used by viscous laws) and the add mode, set by
// for_each_element / for_each_element_team (scatter_policy.hpp).
template <class E, class Law, int nsets>
struct PointSetLoop {
  using law_type = Law;
  static constexpr int num_sets = nsets;
  ElementGeometry<E> g;
  detail::FastPointSet<E> set[nsets];
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

// f_j += sum_sets sum_p P(F, Fdot) h_j dV.
template <class E, class Law, int nsets>
struct FastInternalForceFunctor : PointSetLoop<E, Law, nsets> {
  CoefView f;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    constexpr int n = E::n;
    Real xT[3][n], vT[3][n], fT[3][n];
    detail::gather_t(this->g, this->q, e, xT);
    if constexpr (Law::viscous) detail::gather_t(this->g, this->v, e, vT);
    for (int a = 0; a < 3; ++a)
      for (int j = 0; j < n; ++j) fT[a][j] = 0.0;
    for (int k = 0; k < nsets; ++k) {
      const detail::FastPointSet<E>& ps = this->set[k];
      for (int p = 0; p < ps.np; ++p) {
        Real hT[3][n];
        detail::load_gradients_t(ps, e, p, hT);
        const Mat3 F = detail::gradient_t<n>(xT, hT);
        Mat3 Fdot = zero3();
        if constexpr (Law::viscous) Fdot = detail::gradient_t<n>(vT, hT);
        const Mat3 P = ps.dV(e, p) * this->law.stress(k, F, Fdot);
        for (int a = 0; a < 3; ++a) {
          const Real p0 = P(a, 0), p1 = P(a, 1), p2 = P(a, 2);
          for (int j = 0; j < n; ++j) fT[a][j] += p0 * hT[0][j] + p1 * hT[1][j] + p2 * hT[2][j];
        }
      }
    }
    for (int j = 0; j < n; ++j) {
      const Ordinal c = this->g.conn(e, j);
      for (int a = 0; a < 3; ++a) scatter_add(this->plain, f(c, a), fT[a][j]);
    }
  }
};

// values += alpha_K K + alpha_D D, K_ij[a][c] = sum_p A_{aBcD} h_iB h_jD dV
// (as TangentFunctor / SplitTangentFunctor), chunked over Q points.
template <class E, class Law, int nsets>
struct FastTangentFunctor : PointSetTangentLoop<E, Law, nsets> {
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    constexpr int n = E::n;
    constexpr int Q = FastKernelTraits<E>::chunk;
    constexpr bool symmetric = !Law::viscous;
    Real xT[3][n], vT[3][n];
    Real K[n][9][n];  // K[i][3a+c][j]
    detail::gather_t(this->g, this->q, e, xT);
    if constexpr (Law::viscous) detail::gather_t(this->g, this->v, e, vT);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 9; ++k)
        for (int j = 0; j < n; ++j) K[i][k][j] = 0.0;
    for (int s = 0; s < nsets; ++s) {
      const detail::FastPointSet<E>& ps = this->set[s];
      for (int p0 = 0; p0 < ps.np; p0 += Q) {
        Real hT[Q][3][n];
        Real G[Q][9][3][n];  // G[p][3a+c][D][i] = sum_B C[3a+B][3c+D] h_iB
        for (int pc = 0; pc < Q; ++pc) {
          const int p = p0 + pc;
          if (p >= ps.np) {  // padding: adds exact zeros
            for (int D = 0; D < 3; ++D)
              for (int j = 0; j < n; ++j) hT[pc][D][j] = 0.0;
            for (int k = 0; k < 9; ++k)
              for (int D = 0; D < 3; ++D)
                for (int i = 0; i < n; ++i) G[pc][k][D][i] = 0.0;
            continue;
          }
          detail::load_gradients_t(ps, e, p, hT[pc]);
          const Mat3 F = detail::gradient_t<n>(xT, hT[pc]);
          Mat3 Fdot = zero3();
          if constexpr (Law::viscous) Fdot = detail::gradient_t<n>(vT, hT[pc]);
          const Real dV = ps.dV(e, p);
          Tangent C;
          this->law.tangent(s, F, Fdot, this->alpha_K * dV, this->alpha_D * dV, C);
          for (int a = 0; a < 3; ++a)
            for (int c = 0; c < 3; ++c)
              for (int D = 0; D < 3; ++D) {
                const Real c0 = C.a[3 * a][3 * c + D], c1 = C.a[3 * a + 1][3 * c + D],
                           c2 = C.a[3 * a + 2][3 * c + D];
                for (int i = 0; i < n; ++i)
                  G[pc][3 * a + c][D][i] =
                      c0 * hT[pc][0][i] + c1 * hT[pc][1][i] + c2 * hT[pc][2][i];
              }
        }
        for (int i = 0; i < n; ++i) {
          const int j0 = symmetric ? (i & ~1) : 0;
          for (int k = 0; k < 9; ++k) {
            Real gk[Q][3];
            for (int pc = 0; pc < Q; ++pc)
              for (int D = 0; D < 3; ++D) gk[pc][D] = G[pc][k][D][i];
            Real* Kik = K[i][k];
            for (int j = j0; j < n; ++j) {
              Real acc = Kik[j];
              for (int pc = 0; pc < Q; ++pc)
                acc +=
                    gk[pc][0] * hT[pc][0][j] + gk[pc][1] * hT[pc][1][j] + gk[pc][2] * hT[pc][2][j];
              Kik[j] = acc;
            }
          }
        }
      }
    }
    if constexpr (symmetric) {
      // K_ji = K_ij^T: block (i, j), j < i, entry (a, c) = block (j, i), entry (c, a).
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j)
          for (int a = 0; a < 3; ++a)
            for (int c = 0; c < 3; ++c) K[i][3 * a + c][j] = K[j][3 * c + a][i];
    }
    for (int i = 0; i < n; ++i) {
      const Offset len = this->block_row_length(this->g.conn(e, i));
      for (int j = 0; j < n; ++j) {
        const Offset off = this->offsets(e, i, j);
        if (off < 0) continue;
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 3; ++c)
            scatter_add(this->plain, this->values(off + a * len + c), K[i][3 * a + c][j]);
      }
    }
  }
};

}  // namespace tlfea
