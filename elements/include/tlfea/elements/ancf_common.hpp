// TLFEA: what the ANCF 3243 beam and the ANCF 3443 shell share: s = B^-1 b
// from a monomial basis b (docs/theory.md §3.3-3.4), B^-1 built on the host in
// normalised coordinates, and the shape functions and their parent gradients.
#pragma once

#include <cmath>

#include "tlfea/core/error.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

namespace detail {

// Host: inverse of a dense N x N matrix by Gauss-Jordan elimination with
// partial pivoting. Throws Error when a pivot vanishes relative to the
// matrix scale.
template <int N>
void invert_dense_host(const Real A[N][N], Real Ainv[N][N], const char* who) {
  Real a[N][2 * N];
  Real scale = 0.0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      a[i][j] = A[i][j];
      a[i][N + j] = (i == j) ? 1.0 : 0.0;
      scale = std::fmax(scale, std::fabs(A[i][j]));
    }
  if (!(scale > 0.0)) throw_error(who, ": matrix B is zero");
  for (int c = 0; c < N; ++c) {
    int piv = c;
    for (int r = c + 1; r < N; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[piv][c])) piv = r;
    if (!(std::fabs(a[piv][c]) > 1e-14 * scale))
      throw_error(who, ": matrix B is singular (check the element size L, W, H)");
    if (piv != c)
      for (int j = 0; j < 2 * N; ++j) {
        const Real t = a[c][j];
        a[c][j] = a[piv][j];
        a[piv][j] = t;
      }
    const Real inv = 1.0 / a[c][c];
    for (int j = 0; j < 2 * N; ++j) a[c][j] *= inv;
    for (int r = 0; r < N; ++r) {
      if (r == c || a[r][c] == 0.0) continue;
      const Real f = a[r][c];
      for (int j = 0; j < 2 * N; ++j) a[r][j] -= f * a[c][j];
    }
  }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) Ainv[i][j] = a[i][N + j];
}

// Host: B^-1 from the inverse of Bhat, the matrix B of the same basis in
// normalised coordinates (x, y, z) = (u/L, v/W, w/H). Every basis function is
// a monomial u^a v^b w^c, so b(u) = Dr b(x) with Dr = diag(b_m(L, W, H)), and
// the gradient columns scale as d/du = (1/L) d/dx etc., so B = Dr Bhat Dc with
// Dc = diag(1, 1/L, 1/W, 1/H) per node. Hence B^-1 = Dc^-1 Bhat^-1 Dr^-1.
template <int N>
void ancf_scale_binv(const Real Bhat_inv[N][N], const Real monomial_scale[N], Real L, Real W,
                     Real H, Real Binv[N][N]) {
  const Real dc[4] = {1.0, L, W, H};
  for (int i = 0; i < N; ++i)
    for (int m = 0; m < N; ++m) Binv[i][m] = dc[i % 4] * Bhat_inv[i][m] / monomial_scale[m];
}

// Host: the element parameters of an ANCF element E of size L x W x H whose
// nodes sit at normalised coordinates (node_u[k], node_v[k], 0) = (u/L, v/W, w/H):
// B = [b, b_u, b_v, b_w](P_k) column by column, inverted in normalised
// coordinates and scaled back (ancf_scale_binv), so B^-1 is accurate for any
// element size.
template <class E>
typename E::Param ancf_make_param(Real L, Real W, Real H, const Real node_u[E::nodes],
                                  const Real node_v[E::nodes], const char* who) {
  constexpr int n = E::n;
  if (!(L > 0.0) || !(W > 0.0) || !(H > 0.0))
    throw_error(who, ": element size must be positive, got L = ", L, ", W = ", W, ", H = ", H);
  typename E::Param p;
  p.L = L;
  p.W = W;
  p.H = H;
  Real B[n][n];
  for (int k = 0; k < E::nodes; ++k) {
    Real b[n], bu[n], bv[n], bw[n];
    E::basis(node_u[k], node_v[k], 0.0, b);
    E::basis_deriv(node_u[k], node_v[k], 0.0, bu, bv, bw);
    for (int m = 0; m < n; ++m) {
      B[m][4 * k + 0] = b[m];
      B[m][4 * k + 1] = bu[m];
      B[m][4 * k + 2] = bv[m];
      B[m][4 * k + 3] = bw[m];
    }
  }
  Real Bhat_inv[n][n], scale[n];
  invert_dense_host<n>(B, Bhat_inv, who);
  E::basis(L, W, H, scale);
  ancf_scale_binv<n>(Bhat_inv, scale, L, W, H, p.Binv);
  return p;
}

// s = B^-1 b(u(xi)).
template <class E>
KOKKOS_INLINE_FUNCTION void ancf_shape(const typename E::Param& p, const Real xi[3], Real s[E::n]) {
  Real x[3], b[E::n];
  E::material_point(p, xi, x);
  E::basis(x[0], x[1], x[2], b);
  for (int i = 0; i < E::n; ++i) {
    Real acc = 0.0;
    for (int m = 0; m < E::n; ++m) acc += p.Binv[i][m] * b[m];
    s[i] = acc;
  }
}

// ds_i/dxi_k = (B^-1 b_{,u_k})_i du_k/dxi_k, du/dxi = L/2, dv/deta = W/2, dw/dzeta = H/2.
template <class E>
KOKKOS_INLINE_FUNCTION void ancf_shape_deriv(const typename E::Param& p, const Real xi[3],
                                             Real ds[E::n][3]) {
  Real x[3], bu[E::n], bv[E::n], bw[E::n];
  E::material_point(p, xi, x);
  E::basis_deriv(x[0], x[1], x[2], bu, bv, bw);
  for (int i = 0; i < E::n; ++i) {
    Real au = 0.0, av = 0.0, aw = 0.0;
    for (int m = 0; m < E::n; ++m) {
      au += p.Binv[i][m] * bu[m];
      av += p.Binv[i][m] * bv[m];
      aw += p.Binv[i][m] * bw[m];
    }
    ds[i][0] = 0.5 * p.L * au;
    ds[i][1] = 0.5 * p.W * av;
    ds[i][2] = 0.5 * p.H * aw;
  }
}

}  // namespace detail

// The members an ANCF element E with N coefficients shares with the other
// (CRTP base; docs/theory.md §3.3-3.4): four coefficients (r, r_u, r_v, r_w)
// per node, the per-element Param (sizes and B^-1) and s = B^-1 b with its
// parent gradient from E's basis, basis_deriv and material_point.
template <class E, int N>
struct ANCFElement {
  static constexpr int n = N;
  static constexpr int coef_per_node = 4;
  static constexpr int nodes = N / coef_per_node;

  struct Param {
    Real L, W, H;
    Real Binv[N][N];
  };

  KOKKOS_INLINE_FUNCTION static void shape(const Param& p, const Real xi[3], Real s[N]) {
    detail::ancf_shape<E>(p, xi, s);
  }

  // The monomials both ANCF bases start with, 1, u, v, w, u v, u w, and
  // their derivatives (the other entries zeroed); each element's basis adds
  // its own from index 6 (docs/theory.md §3.3-3.4).
  KOKKOS_INLINE_FUNCTION static void common_monomials(Real u, Real v, Real w, Real b[N]) {
    b[0] = 1.0;
    b[1] = u;
    b[2] = v;
    b[3] = w;
    b[4] = u * v;
    b[5] = u * w;
  }
  KOKKOS_INLINE_FUNCTION static void common_monomial_derivs(Real u, Real v, Real bu[N], Real bv[N],
                                                            Real bw[N]) {
    for (int m = 0; m < N; ++m) bu[m] = bv[m] = bw[m] = 0.0;
    bu[1] = 1.0;
    bu[4] = v;
    bv[2] = 1.0;
    bv[4] = u;
    bw[3] = 1.0;
    bw[5] = u;
  }
  KOKKOS_INLINE_FUNCTION static void shape_deriv(const Param& p, const Real xi[3], Real ds[N][3]) {
    detail::ancf_shape_deriv<E>(p, xi, ds);
  }
};

}  // namespace tlfea
