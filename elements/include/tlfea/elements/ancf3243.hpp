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

#include "tlfea/core/mesh.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/elements/ancf_common.hpp"
#include "tlfea/elements/quadrature.hpp"

namespace tlfea {

// 8 coefficients (2 nodes); Gauss 3 x 2 x 2 (stiffness), 4 x 2 x 2 (mass),
// 4 x 2 on faces with the 4 along xi (or along a on the end faces).
struct ANCF3243 : ANCFElement<ANCF3243, 8>, GaussBoxRules<3, 2, 2, 4, 2, 2, 4, 2> {
  static constexpr ElementType type = ElementType::ANCF3243;

  // Monomial basis b(u, v, w) and its partial derivatives.
  KOKKOS_INLINE_FUNCTION static void basis(Real u, Real v, Real w, Real b[n]) {
    common_monomials(u, v, w, b);
    b[6] = u * u;
    b[7] = u * u * u;
  }
  KOKKOS_INLINE_FUNCTION static void basis_deriv(Real u, Real v, Real w, Real bu[n], Real bv[n],
                                                 Real bw[n]) {
    common_monomial_derivs(u, v, bu, bv, bw);
    bu[5] = w;
    bu[6] = 2.0 * u;
    bu[7] = 3.0 * u * u;
  }

  // Host: B^-1 for an element of length L, width W (along v), height H (along w).
  // B is formed in the normalised coordinates (u/L, v/W, w/H), where it does not
  // depend on the element size, inverted there and scaled back
  // (detail::ancf_scale_binv), so B^-1 is accurate for any element size.
  static Param make_param(Real L, Real W, Real H) {
    const Real nu[nodes] = {0.0, 1.0}, nv[nodes] = {0.0, 0.0};  // normalised u/L, v/W
    return detail::ancf_make_param<ANCF3243>(L, W, H, nu, nv, "ANCF3243::make_param");
  }

  // Material coordinates (u, v, w) of parent point xi.
  KOKKOS_INLINE_FUNCTION static void material_point(const Param& p, const Real xi[3], Real x[3]) {
    x[0] = 0.5 * p.L * (xi[0] + 1.0);
    x[1] = 0.5 * p.W * xi[1];
    x[2] = 0.5 * p.H * xi[2];
  }

  KOKKOS_INLINE_FUNCTION static void node_parent(int node, Real xi[3]) {
    xi[0] = (node == 0) ? -1.0 : 1.0;
    xi[1] = 0.0;
    xi[2] = 0.0;
  }
};

}  // namespace tlfea
