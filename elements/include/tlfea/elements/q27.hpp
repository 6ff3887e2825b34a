// TLFEA: 27-node triquadratic hexahedron (docs/theory.md §3.2).
//
// Parent domain [-1, 1]^3. Node (i, j, k) in {0,1,2}^3 sits at parent
// coordinates (-1, 0, +1) per direction, local index i + 3 j + 9 k (xi
// fastest; core/mesh.hpp). Shape function: l_i(xi) l_j(eta) l_k(zeta) with
// the 1D quadratic Lagrange polynomials l_0 = s(s-1)/2, l_1 = 1 - s^2,
// l_2 = s(s+1)/2.
//
// Quadrature:
//  - stiffness and mass: 3x3x3 Gauss (degree 5 per direction). s_i s_j has
//    degree 4 per direction, so the mass is exact; the stiffness of a
//    straight (affine) Q27 has degree 4 per direction too and is also exact.
//  - faces: 3x3 Gauss; s_i on a face is biquadratic, s_i s_j degree 4 per
//    direction, both exact.
#pragma once

#include "tlfea/core/mesh.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/elements/lagrange_param.hpp"
#include "tlfea/elements/quadrature.hpp"

namespace tlfea {

// Gauss 3 x 3 x 3 (stiffness and mass), 3 x 3 on faces.
struct Q27 : LagrangeElementParam, GaussBoxRules<3, 3, 3, 3, 3, 3, 3, 3> {
  static constexpr ElementType type = ElementType::Q27;
  static constexpr int n = 27;
  static constexpr int nodes = 27;
  static constexpr int coef_per_node = 1;

  // 1D quadratic Lagrange values and derivatives at nodes -1, 0, +1.
  KOKKOS_INLINE_FUNCTION static void lagrange(Real s, Real l[3], Real dl[3]) {
    l[0] = 0.5 * s * (s - 1.0);
    l[1] = 1.0 - s * s;
    l[2] = 0.5 * s * (s + 1.0);
    dl[0] = s - 0.5;
    dl[1] = -2.0 * s;
    dl[2] = s + 0.5;
  }

  KOKKOS_INLINE_FUNCTION static void shape(const Param&, const Real xi[3], Real s[n]) {
    Real lx[3], ly[3], lz[3], d[3];
    lagrange(xi[0], lx, d);
    lagrange(xi[1], ly, d);
    lagrange(xi[2], lz, d);
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) s[i + 3 * j + 9 * k] = lx[i] * ly[j] * lz[k];
  }

  KOKKOS_INLINE_FUNCTION static void shape_deriv(const Param&, const Real xi[3], Real ds[n][3]) {
    Real lx[3], ly[3], lz[3], dx[3], dy[3], dz[3];
    lagrange(xi[0], lx, dx);
    lagrange(xi[1], ly, dy);
    lagrange(xi[2], lz, dz);
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) {
          const int a = i + 3 * j + 9 * k;
          ds[a][0] = dx[i] * ly[j] * lz[k];
          ds[a][1] = lx[i] * dy[j] * lz[k];
          ds[a][2] = lx[i] * ly[j] * dz[k];
        }
  }

  KOKKOS_INLINE_FUNCTION static void node_parent(int node, Real xi[3]) {
    xi[0] = Real(node % 3 - 1);
    xi[1] = Real((node / 3) % 3 - 1);
    xi[2] = Real(node / 9 - 1);
  }
};

}  // namespace tlfea
