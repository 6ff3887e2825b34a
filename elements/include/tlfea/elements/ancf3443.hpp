// TLFEA: fully parameterised 4-node ANCF shell element 3443 (docs/theory.md §3.4;
// Dmitrochenko and Pogorelov 2003, Dufva and Shabana 2005).
//
// Material coordinates (u, v, w) of the flat reference shell: mid-surface
// u in [0, L], v in [0, W], thickness coordinate w in [-H/2, H/2]. Parent xi
// in [-1, 1]^3 with u = L (xi + 1)/2, v = W (eta + 1)/2, w = H zeta/2
// (core/mesh.hpp). Nodes 0..3 at (u, v) = (0,0), (L,0), (L,W), (0,W), w = 0;
// node k owns coefficients 4k + j, j = 0..3 for (r, r_u, r_v, r_w).
//
// Basis. The TL-FEA papers (docs/theory.md §3.4) print b = [1, u, v, w, uw, vw,
// uv, u^2, w^2, u^3, w^3, u^2 w, w^2 u, uvw, u^3 w, u w^3], the standard 3443
// basis for a shell whose mid-surface is the papers' u-w plane (v through the
// thickness). TLFEA puts the mid-surface in the u-v plane with w through the
// thickness, so v and w are exchanged:
//   b = [1, u, v, w, uv, uw, vw, uvw, u^2, v^2, u^3, v^3, u^2 v, u v^2, u^3 v, u v^3].
// B = [b, b_u, b_v, b_w](P_k), k = 1..4 (columns), s = B^-1 b, with B^-1 built
// on the host by make_param and stored per element in Param.
//
// Quadrature:
//  - stiffness and mass: 4 x 4 x 2 Gauss. s is cubic in u and v and linear in
//    w, so s_i s_j has degree 6 / 6 / 2 and is integrated exactly (degree 7 /
//    7 / 3); H H^T has the same degrees, so the small-strain stiffness of a
//    flat reference shell is exact too.
//  - faces: 4 x 4 Gauss on every face (nq_face = 16). On the top and bottom
//    faces (zeta = +-1) s_i s_j has degree 6 in both tangent directions; on
//    the edge faces degree 6 along the mid-surface and 2 through the thickness,
//    where 4 points over-integrate but keep nq_face uniform.
#pragma once

#include "tlfea/core/mesh.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/elements/ancf_common.hpp"
#include "tlfea/elements/quadrature.hpp"

namespace tlfea {

// 16 coefficients (4 nodes); Gauss 4 x 4 x 2 (stiffness and mass), 4 x 4 on faces.
struct ANCF3443 : ANCFElement<ANCF3443, 16>, GaussBoxRules<4, 4, 2, 4, 4, 2, 4, 4> {
  static constexpr ElementType type = ElementType::ANCF3443;

  KOKKOS_INLINE_FUNCTION static void basis(Real u, Real v, Real w, Real b[n]) {
    common_monomials(u, v, w, b);
    b[6] = v * w;
    b[7] = u * v * w;
    b[8] = u * u;
    b[9] = v * v;
    b[10] = u * u * u;
    b[11] = v * v * v;
    b[12] = u * u * v;
    b[13] = u * v * v;
    b[14] = u * u * u * v;
    b[15] = u * v * v * v;
  }
  KOKKOS_INLINE_FUNCTION static void basis_deriv(Real u, Real v, Real w, Real bu[n], Real bv[n],
                                                 Real bw[n]) {
    common_monomial_derivs(u, v, bu, bv, bw);
    bu[5] = w;
    bu[7] = v * w;
    bu[8] = 2.0 * u;
    bu[10] = 3.0 * u * u;
    bu[12] = 2.0 * u * v;
    bu[13] = v * v;
    bu[14] = 3.0 * u * u * v;
    bu[15] = v * v * v;

    bv[6] = w;
    bv[7] = u * w;
    bv[9] = 2.0 * v;
    bv[11] = 3.0 * v * v;
    bv[12] = u * u;
    bv[13] = 2.0 * u * v;
    bv[14] = u * u * u;
    bv[15] = 3.0 * u * v * v;

    bw[6] = v;
    bw[7] = u * v;
  }

  // Host: B^-1 for an element of size L (along u), W (along v), thickness H,
  // formed in normalised coordinates and scaled back (detail::ancf_scale_binv).
  static Param make_param(Real L, Real W, Real H) {
    const Real nu[nodes] = {0.0, 1.0, 1.0, 0.0};  // normalised u/L, v/W
    const Real nv[nodes] = {0.0, 0.0, 1.0, 1.0};
    return detail::ancf_make_param<ANCF3443>(L, W, H, nu, nv, "ANCF3443::make_param");
  }

  // Material coordinates (u, v, w) of parent point xi.
  KOKKOS_INLINE_FUNCTION static void material_point(const Param& p, const Real xi[3], Real x[3]) {
    x[0] = 0.5 * p.L * (xi[0] + 1.0);
    x[1] = 0.5 * p.W * (xi[1] + 1.0);
    x[2] = 0.5 * p.H * xi[2];
  }

  KOKKOS_INLINE_FUNCTION static void node_parent(int node, Real xi[3]) {
    xi[0] = (node == 1 || node == 2) ? 1.0 : -1.0;
    xi[1] = (node >= 2) ? 1.0 : -1.0;
    xi[2] = 0.0;
  }
};

}  // namespace tlfea
