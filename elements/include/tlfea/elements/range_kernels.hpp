// TLFEA: the one-thread-per-element ("range") internal-force and tangent
// loops, generic over the element's point sets and point law
// (point_laws.hpp; docs/theory.md §3.11): every element type and material,
// Poisson split on or off.
//
// Loop shape (a profile of the plain quadrature loop: the tangent spends ~3/4
// of its time in the block update K_ij += G_i . h_j, 27 multiply-adds per
// block and point, with K_ij read and written at every point, and the rest in
// G_i = C : h_i):
//  - force: the gradients of a point are read in place or, where
//    RangeShapeTraits<E>::staged_force, first loaded into a transposed local
//    array hT[D][j] (j contiguous), so that F = sum_j x_j (x) h_j and
//    f_j += P h_j are loops over j with unit stride; the sums are the same;
//  - tangent: the element matrix is stored K[i][3a+c][j] (j contiguous) and
//    updated for a chunk of Q = RangeShapeTraits<E>::chunk points at once:
//    K[i][k][j] += sum_{p<Q, D} G_p[i][k][D] hT_p[D][j], a register-blocked
//    rank-3Q update that reads and writes K once per chunk instead of once
//    per point and vectorises over j; G is stored G[p][k][D][i] (computed with
//    unit stride over i);
//  - for the symmetric (elastic) tangent only j >= i (rounded down to even)
//    is formed and the rest mirrored.
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

#include "tlfea/elements/point_laws.hpp"

namespace tlfea {

// Per element type: staged_force, the force loop stages each point's
// gradients in a transposed local array (faster for the ANCF 3243 beam,
// docs/benchmarks.md); chunk, the tangent's points per
// block update (a divisor of the point counts avoids padding).
template <class E>
struct RangeShapeTraits {
  static constexpr bool staged_force = false;
  static constexpr int chunk = 1;
};
template <>
struct RangeShapeTraits<ANCF3243> {
  static constexpr bool staged_force = true;
  static constexpr int chunk = 3;  // full rule 12 points, split axis 3
};
template <>
struct RangeShapeTraits<ANCF3443> {
  static constexpr bool staged_force = false;
  static constexpr int chunk = 4;  // full rule 32 points, split mid-surface 16
};

namespace detail {

// The gradients of point p of set ps of element e, h(j, D) = H(e, p, j, D):
// staged in a local transposed copy, or read in place.
template <class E, bool staged>
struct PointGradients;
template <class E>
struct PointGradients<E, true> {
  Real hT[3][E::n];
  KOKKOS_INLINE_FUNCTION PointGradients(const PointSet<E>& ps, Ordinal e, int p) {
    load_gradients_t(ps, e, p, hT);
  }
  KOKKOS_INLINE_FUNCTION Real operator()(int j, int D) const { return hT[D][j]; }
};
template <class E>
struct PointGradients<E, false> {
  const PointSet<E>& ps;
  Ordinal e;
  int p;
  KOKKOS_INLINE_FUNCTION PointGradients(const PointSet<E>& s, Ordinal el, int pt)
      : ps(s), e(el), p(pt) {}
  KOKKOS_INLINE_FUNCTION Real operator()(int j, int D) const { return ps.H(e, p, j, D); }
};

// F(a, B) = sum_j x[a][j] h(j, B) (point_law_core.hpp deformation_gradient).
template <int N, class Grad>
KOKKOS_INLINE_FUNCTION Mat3 gradient_of(const Real xT[3][N], const Grad& h) {
  Mat3 F;
  point::deformation_gradient<N>([&](int j, int a) { return xT[a][j]; }, h, F.m);
  return F;
}

}  // namespace detail

// f_j += sum_sets sum_p P(F, Fdot) h_j dV.
template <class E, class Law, int nsets>
struct RangeInternalForceFunctor : PointSetLoop<E, Law, nsets> {
  CoefView f;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    constexpr int n = E::n;
    using Grad = detail::PointGradients<E, RangeShapeTraits<E>::staged_force>;
    Real xT[3][n], vT[3][n], fT[3][n];
    detail::gather_t(this->g, this->q, e, xT);
    if constexpr (Law::viscous) detail::gather_t(this->g, this->v, e, vT);
    for (int a = 0; a < 3; ++a)
      for (int j = 0; j < n; ++j) fT[a][j] = 0.0;
    for (int k = 0; k < nsets; ++k) {
      const detail::PointSet<E>& ps = this->set[k];
      for (int p = 0; p < ps.np; ++p) {
        const Grad h(ps, e, p);
        const Mat3 F = detail::gradient_of<n>(xT, h);
        Mat3 Fdot = zero3();
        if constexpr (Law::viscous) Fdot = detail::gradient_of<n>(vT, h);
        const Mat3 P = ps.dV(e, p) * this->law.stress(k, F, Fdot);
        for (int j = 0; j < n; ++j) {
          const Real h0 = h(j, 0), h1 = h(j, 1), h2 = h(j, 2);
          for (int a = 0; a < 3; ++a) fT[a][j] += P(a, 0) * h0 + P(a, 1) * h1 + P(a, 2) * h2;
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
// (tests/elements/reference_kernels.hpp integrates the same one point at a time), chunked over Q
// points.
template <class E, class Law, int nsets>
struct RangeTangentFunctor : PointSetTangentLoop<E, Law, nsets> {
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    constexpr int n = E::n;
    constexpr int Q = RangeShapeTraits<E>::chunk;
    constexpr bool symmetric = !Law::viscous;
    Real xT[3][n], vT[3][n];
    Real K[n][9][n];  // K[i][3a+c][j]
    detail::gather_t(this->g, this->q, e, xT);
    if constexpr (Law::viscous) detail::gather_t(this->g, this->v, e, vT);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 9; ++k)
        for (int j = 0; j < n; ++j) K[i][k][j] = 0.0;
    for (int s = 0; s < nsets; ++s) {
      const detail::PointSet<E>& ps = this->set[s];
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
