// TLFEA: 10-node quadratic tetrahedron (docs/theory.md §3.1).
//
// Parent domain: unit tetrahedron, barycentric L0 = 1 - xi - eta - zeta,
// L1 = xi, L2 = eta, L3 = zeta. Nodes (core/mesh.hpp): vertices 0..3 at
// (0,0,0), (1,0,0), (0,1,0), (0,0,1); midside nodes 4..9 on edges 01, 12, 02,
// 03, 13, 23. Shape functions: vertex i: L_i (2 L_i - 1); edge (i, j):
// 4 L_i L_j.
//
// Quadrature:
//  - stiffness / internal force: 4-point degree-2 rule (tet_rule_4). For a
//    straight-sided T10, H is linear in xi, so the linear-elastic stiffness
//    integrand H H^T is quadratic and the rule integrates it exactly.
//  - mass: 14-point degree-5 rule with positive weights (tet_rule_14); s_i s_j
//    has degree 4, integrated exactly (the rule is one degree to spare).
//  - faces: 7-point degree-5 triangle rule (triangle_rule_7); s_i restricted to a
//    face is quadratic, so both s_i and s_i s_j (degree 4) are exact.
#pragma once

#include "tlfea/core/mesh.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/elements/lagrange_param.hpp"
#include "tlfea/elements/quadrature.hpp"

namespace tlfea {

struct T10 : LagrangeElementParam {
  static constexpr ElementType type = ElementType::T10;
  static constexpr int n = 10;
  static constexpr int nodes = 10;
  static constexpr int coef_per_node = 1;
  static constexpr int nq = 4;
  static constexpr int nq_mass = 14;
  static constexpr int nfaces = 4;
  static constexpr int nq_face = 7;

  // Endpoints (vertex indices) of the edge carrying midside node 4 + e.
  KOKKOS_INLINE_FUNCTION static void edge_vertices(int e, int& a, int& b) {
    switch (e) {
      case 0:
        a = 0;
        b = 1;
        return;
      case 1:
        a = 1;
        b = 2;
        return;
      case 2:
        a = 0;
        b = 2;
        return;
      case 3:
        a = 0;
        b = 3;
        return;
      case 4:
        a = 1;
        b = 3;
        return;
      default:
        a = 2;
        b = 3;
        return;
    }
  }

  KOKKOS_INLINE_FUNCTION static void shape(const Param&, const Real xi[3], Real s[n]) {
    const Real L[4] = {1.0 - xi[0] - xi[1] - xi[2], xi[0], xi[1], xi[2]};
    for (int i = 0; i < 4; ++i) s[i] = L[i] * (2.0 * L[i] - 1.0);
    for (int e = 0; e < 6; ++e) {
      int a, b;
      edge_vertices(e, a, b);
      s[4 + e] = 4.0 * L[a] * L[b];
    }
  }

  KOKKOS_INLINE_FUNCTION static void shape_deriv(const Param&, const Real xi[3], Real ds[n][3]) {
    const Real L[4] = {1.0 - xi[0] - xi[1] - xi[2], xi[0], xi[1], xi[2]};
    // dL_i / dxi_k: L0 -> -1 for every k; L_{k+1} -> 1 for k.
    Real dL[4][3];
    for (int k = 0; k < 3; ++k) {
      dL[0][k] = -1.0;
      for (int i = 1; i < 4; ++i) dL[i][k] = (i == k + 1) ? 1.0 : 0.0;
    }
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 3; ++k) ds[i][k] = (4.0 * L[i] - 1.0) * dL[i][k];
    for (int e = 0; e < 6; ++e) {
      int a, b;
      edge_vertices(e, a, b);
      for (int k = 0; k < 3; ++k) ds[4 + e][k] = 4.0 * (dL[a][k] * L[b] + L[a] * dL[b][k]);
    }
  }

  KOKKOS_INLINE_FUNCTION static void quad_point(int q, Real xi[3], Real& w) {
    tet_rule_4(q, xi, w);
  }
  KOKKOS_INLINE_FUNCTION static void mass_quad_point(int q, Real xi[3], Real& w) {
    tet_rule_14(q, xi, w);
  }

  KOKKOS_INLINE_FUNCTION static void vertex_parent(int v, Real xi[3]) {
    xi[0] = (v == 1) ? 1.0 : 0.0;
    xi[1] = (v == 2) ? 1.0 : 0.0;
    xi[2] = (v == 3) ? 1.0 : 0.0;
  }

  KOKKOS_INLINE_FUNCTION static void node_parent(int node, Real xi[3]) {
    if (node < 4) {
      vertex_parent(node, xi);
      return;
    }
    int a, b;
    edge_vertices(node - 4, a, b);
    Real pa[3], pb[3];
    vertex_parent(a, pa);
    vertex_parent(b, pb);
    for (int k = 0; k < 3; ++k) xi[k] = 0.5 * (pa[k] + pb[k]);
  }

  // Corner vertices of face f, counter-clockwise seen from outside (core/mesh.hpp:
  // f0 = (1,2,3), f1 = (0,3,2), f2 = (0,1,3), f3 = (0,2,1)).
  KOKKOS_INLINE_FUNCTION static void face_vertices(int f, int& v0, int& v1, int& v2) {
    switch (f) {
      case 0:
        v0 = 1;
        v1 = 2;
        v2 = 3;
        return;
      case 1:
        v0 = 0;
        v1 = 3;
        v2 = 2;
        return;
      case 2:
        v0 = 0;
        v1 = 1;
        v2 = 3;
        return;
      default:
        v0 = 0;
        v1 = 2;
        v2 = 1;
        return;
    }
  }

  // Face f parametrised as xi = P0 + a (P1 - P0) + b (P2 - P0) over the unit
  // triangle, P_k the parent positions of face_vertices; t1 x t2 is outward
  // because the vertices run counter-clockwise seen from outside.
  KOKKOS_INLINE_FUNCTION static void face_quad_point(int f, int q, Real xi[3], Real t1[3],
                                                     Real t2[3], Real& w) {
    int v0, v1, v2;
    face_vertices(f, v0, v1, v2);
    Real p0[3], p1[3], p2[3];
    vertex_parent(v0, p0);
    vertex_parent(v1, p1);
    vertex_parent(v2, p2);
    Real a, b;
    triangle_rule_7(q, a, b, w);
    for (int k = 0; k < 3; ++k) {
      t1[k] = p1[k] - p0[k];
      t2[k] = p2[k] - p0[k];
      xi[k] = p0[k] + a * t1[k] + b * t2[k];
    }
  }
};

}  // namespace tlfea
