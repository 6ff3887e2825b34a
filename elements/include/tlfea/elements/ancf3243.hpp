// TLFEA: fully parameterised 2-node ANCF beam element 3243 (docs/theory.md §3.3;
// Gerstmayr and Shabana 2005).
//
// Material coordinates (u, v, w) of the straight reference beam: u along the
// axis in [0, L], v in [-W/2, W/2], w in [-H/2, H/2]. Parent xi in [-1, 1]^3
// with u = L (xi + 1)/2, v = W eta/2, w = H zeta/2 (core/mesh.hpp). Nodes 0, 1
// at u = 0, L on the axis; node k owns coefficients 4k + j, j = 0..3 for
// (r, r_u, r_v, r_w).
//
// Shape functions (docs/theory.md §3.3): monomial basis
// b = [1, u, v, w, uv, uw, u^2, u^3],
// B = [b, b_u, b_v, b_w](P1), [b, b_u, b_v, b_w](P2) (columns), s = B^-1 b.
// B^-1 is built on the host by make_param and stored per element in Param;
// s = B^-1 b reproduces the cubic Hermite functions in u, linear in v and w.
//
// Quadrature:
//  - stiffness / internal force: 3 x 2 x 2 Gauss (the design's choice). H is
//    quadratic in xi and linear in eta, zeta; 3 points integrate H H^T
//    (degree 4 in xi) exactly, 2 points its degree 2 in eta and zeta, so the
//    small-strain stiffness of a straight reference beam is exact.
//  - mass: 4 x 2 x 2 Gauss; s_i s_j has degree 6 in xi and 2 in eta, zeta,
//    so 4 points (degree 7) and 2 points (degree 3) integrate it exactly.
//  - faces: 4 x 2 Gauss on every face (nq_face = 8). On the lateral faces
//    (eta or zeta = +-1) the 4 points run along xi, where s_i s_j has degree
//    6; the other tangent direction has degree 2, so 2 points are exact. On
//    the end faces (xi = +-1) s_i s_j has degree 2 in each tangent direction;
//    4 x 2 over-integrates but keeps nq_face uniform.
#pragma once

#include <cmath>

#include "tlfea/core/error.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/elements/quadrature.hpp"

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

}  // namespace detail

struct ANCF3243 {
  static constexpr ElementType type = ElementType::ANCF3243;
  static constexpr int n = 8;
  static constexpr int nodes = 2;
  static constexpr int coef_per_node = 4;
  static constexpr int nq = 12;       // 3 x 2 x 2
  static constexpr int nq_mass = 16;  // 4 x 2 x 2
  static constexpr int nfaces = 6;
  static constexpr int nq_face = 8;  // 4 x 2

  struct Param {
    Real L, W, H;
    Real Binv[n][n];
  };

  // Monomial basis b(u, v, w) and its partial derivatives.
  KOKKOS_INLINE_FUNCTION static void basis(Real u, Real v, Real w, Real b[n]) {
    b[0] = 1.0;
    b[1] = u;
    b[2] = v;
    b[3] = w;
    b[4] = u * v;
    b[5] = u * w;
    b[6] = u * u;
    b[7] = u * u * u;
  }
  KOKKOS_INLINE_FUNCTION static void basis_deriv(Real u, Real v, Real w, Real bu[n], Real bv[n],
                                                 Real bw[n]) {
    for (int m = 0; m < n; ++m) bu[m] = bv[m] = bw[m] = 0.0;
    bu[1] = 1.0;
    bu[4] = v;
    bu[5] = w;
    bu[6] = 2.0 * u;
    bu[7] = 3.0 * u * u;
    bv[2] = 1.0;
    bv[4] = u;
    bw[3] = 1.0;
    bw[5] = u;
  }

  // Host: B^-1 for an element of length L, width W (along v), height H (along w).
  // B is formed in the normalised coordinates (u/L, v/W, w/H), where it does not
  // depend on the element size, inverted there and scaled back
  // (detail::ancf_scale_binv), so B^-1 is accurate for any element size.
  static Param make_param(Real L, Real W, Real H) {
    if (!(L > 0.0) || !(W > 0.0) || !(H > 0.0))
      throw_error("ANCF3243::make_param: element size must be positive, got L = ", L, ", W = ", W,
                  ", H = ", H);
    Param p;
    p.L = L;
    p.W = W;
    p.H = H;
    Real B[n][n];
    for (int k = 0; k < nodes; ++k) {
      const Real u = (k == 0) ? 0.0 : 1.0;
      Real b[n], bu[n], bv[n], bw[n];
      basis(u, 0.0, 0.0, b);
      basis_deriv(u, 0.0, 0.0, bu, bv, bw);
      for (int m = 0; m < n; ++m) {
        B[m][4 * k + 0] = b[m];
        B[m][4 * k + 1] = bu[m];
        B[m][4 * k + 2] = bv[m];
        B[m][4 * k + 3] = bw[m];
      }
    }
    Real Bhat_inv[n][n], scale[n];
    detail::invert_dense_host<n>(B, Bhat_inv, "ANCF3243::make_param");
    basis(L, W, H, scale);
    detail::ancf_scale_binv<n>(Bhat_inv, scale, L, W, H, p.Binv);
    return p;
  }

  // Material coordinates (u, v, w) of parent point xi.
  KOKKOS_INLINE_FUNCTION static void material_point(const Param& p, const Real xi[3], Real x[3]) {
    x[0] = 0.5 * p.L * (xi[0] + 1.0);
    x[1] = 0.5 * p.W * xi[1];
    x[2] = 0.5 * p.H * xi[2];
  }

  KOKKOS_INLINE_FUNCTION static void shape(const Param& p, const Real xi[3], Real s[n]) {
    Real x[3], b[n];
    material_point(p, xi, x);
    basis(x[0], x[1], x[2], b);
    for (int i = 0; i < n; ++i) {
      Real acc = 0.0;
      for (int m = 0; m < n; ++m) acc += p.Binv[i][m] * b[m];
      s[i] = acc;
    }
  }

  // ds_i/dxi_k = (B^-1 b_{,u_k})_i du_k/dxi_k, du/dxi = L/2, dv/deta = W/2, dw/dzeta = H/2.
  KOKKOS_INLINE_FUNCTION static void shape_deriv(const Param& p, const Real xi[3], Real ds[n][3]) {
    Real x[3], bu[n], bv[n], bw[n];
    material_point(p, xi, x);
    basis_deriv(x[0], x[1], x[2], bu, bv, bw);
    for (int i = 0; i < n; ++i) {
      Real au = 0.0, av = 0.0, aw = 0.0;
      for (int m = 0; m < n; ++m) {
        au += p.Binv[i][m] * bu[m];
        av += p.Binv[i][m] * bv[m];
        aw += p.Binv[i][m] * bw[m];
      }
      ds[i][0] = 0.5 * p.L * au;
      ds[i][1] = 0.5 * p.W * av;
      ds[i][2] = 0.5 * p.H * aw;
    }
  }

  KOKKOS_INLINE_FUNCTION static void quad_point(int q, Real xi[3], Real& w) {
    gauss_box(3, 2, 2, q, xi, w);
  }
  KOKKOS_INLINE_FUNCTION static void mass_quad_point(int q, Real xi[3], Real& w) {
    gauss_box(4, 2, 2, q, xi, w);
  }
  // Face f (f0 xi=-1 ... f5 zeta=+1), axes as in cube_face_map; 4 points
  // along xi where xi is a tangent direction, else along a.
  KOKKOS_INLINE_FUNCTION static void face_quad_point(int f, int q, Real xi[3], Real t1[3],
                                                     Real t2[3], Real& w) {
    if (cube_face_axis_b(f) == 0)
      cube_face_rule(f, 2, 4, q, xi, t1, t2, w);
    else
      cube_face_rule(f, 4, 2, q, xi, t1, t2, w);
  }

  KOKKOS_INLINE_FUNCTION static void node_parent(int node, Real xi[3]) {
    xi[0] = (node == 0) ? -1.0 : 1.0;
    xi[1] = 0.0;
    xi[2] = 0.0;
  }
};

}  // namespace tlfea
