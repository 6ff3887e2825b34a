// TLFEA: quadrature rules on the parent domains of the element types.
//
// Every rule is a device-callable function of the point index (constants live
// in local arrays or switches, never in static member arrays, so the code is
// clean for CUDA). Constants carry 25 significant digits; they were computed
// with mpmath at 40 digits (Gauss-Legendre: Newton on P_n; the 14-point tet
// rule: Newton on its six symmetric moment equations).
//
// Parent domains:
//  - line [-1, 1];
//  - cube [-1, 1]^3 (volume 8), tensor Gauss-Legendre, point index
//    q = i + nx (j + ny k), xi fastest;
//  - unit tetrahedron {xi, eta, zeta >= 0, xi + eta + zeta <= 1} (volume 1/6);
//  - unit triangle {a, b >= 0, a + b <= 1} (area 1/2).
#pragma once

#include "tlfea/core/types.hpp"

namespace tlfea {

// Gauss-Legendre point i (0-based, ascending) of the n-point rule on [-1, 1],
// n = 1..6; exact for polynomials of degree 2n - 1.
KOKKOS_INLINE_FUNCTION void gauss_legendre(int n, int i, Real& x, Real& w) {
  switch (n) {
    case 1:
      x = 0.0;
      w = 2.0;
      return;
    case 2: {
      const Real a = 0.5773502691896257645091488;  // 1 / sqrt(3)
      x = (i == 0) ? -a : a;
      w = 1.0;
      return;
    }
    case 3: {
      const Real a = 0.7745966692414833770358531;  // sqrt(3/5)
      const Real xs[3] = {-a, 0.0, a};
      const Real ws[3] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
      x = xs[i];
      w = ws[i];
      return;
    }
    case 4: {
      const Real a = 0.8611363115940525752239465;   // sqrt(3/7 + 2/7 sqrt(6/5))
      const Real b = 0.3399810435848562648026658;   // sqrt(3/7 - 2/7 sqrt(6/5))
      const Real wa = 0.3478548451374538573730639;  // (18 - sqrt(30)) / 36
      const Real wb = 0.6521451548625461426269361;  // (18 + sqrt(30)) / 36
      const Real xs[4] = {-a, -b, b, a};
      const Real ws[4] = {wa, wb, wb, wa};
      x = xs[i];
      w = ws[i];
      return;
    }
    case 5: {
      const Real a = 0.9061798459386639927976269;   // sqrt(5 + 2 sqrt(10/7)) / 3
      const Real b = 0.5384693101056830910363144;   // sqrt(5 - 2 sqrt(10/7)) / 3
      const Real wa = 0.2369268850561890875142640;  // (322 - 13 sqrt(70)) / 900
      const Real wb = 0.4786286704993664680412915;  // (322 + 13 sqrt(70)) / 900
      const Real xs[5] = {-a, -b, 0.0, b, a};
      const Real ws[5] = {wa, wb, 128.0 / 225.0, wb, wa};
      x = xs[i];
      w = ws[i];
      return;
    }
    case 6: {
      const Real a = 0.9324695142031520278123016;
      const Real b = 0.6612093864662645136613996;
      const Real c = 0.2386191860831969086305017;
      const Real wa = 0.1713244923791703450402961;
      const Real wb = 0.3607615730481386075698335;
      const Real wc = 0.4679139345726910473898703;
      const Real xs[6] = {-a, -b, -c, c, b, a};
      const Real ws[6] = {wa, wb, wc, wc, wb, wa};
      x = xs[i];
      w = ws[i];
      return;
    }
    default:
      Kokkos::abort("tlfea::gauss_legendre: n must be 1..6");
  }
}

// Tensor Gauss rule nx x ny x nz on [-1, 1]^3, point q = i + nx (j + ny k).
// Exact for xi^a eta^b zeta^c with a <= 2nx-1, b <= 2ny-1, c <= 2nz-1.
KOKKOS_INLINE_FUNCTION void gauss_box(int nx, int ny, int nz, int q, Real xi[3], Real& w) {
  const int i = q % nx;
  const int j = (q / nx) % ny;
  const int k = q / (nx * ny);
  Real wx, wy, wz;
  gauss_legendre(nx, i, xi[0], wx);
  gauss_legendre(ny, j, xi[1], wy);
  gauss_legendre(nz, k, xi[2], wz);
  w = wx * wy * wz;
}

// 4-point degree-2 rule on the unit tetrahedron (Hammer-Marlowe-Stroud):
// barycentric (b, a, a, a) and permutations, a = (5 - sqrt 5)/20,
// b = (5 + 3 sqrt 5)/20, each weight 1/24.
KOKKOS_INLINE_FUNCTION void tet_rule_4(int q, Real xi[3], Real& w) {
  const Real a = 0.1381966011250105151795413;
  const Real b = 0.5854101966249684544613761;
  xi[0] = (q == 1) ? b : a;
  xi[1] = (q == 2) ? b : a;
  xi[2] = (q == 3) ? b : a;
  w = 1.0 / 24.0;
}

// 14-point degree-5 rule on the unit tetrahedron with positive weights
// (Walkington 2000; constants recomputed from its moment equations): two S31 orbits
// (a, a, a, 1-3a) of 4 points and one S22 orbit (b, b, 1/2-b, 1/2-b) of 6.
// Exact for every polynomial of total degree <= 5 (not 6; see
// tests/elements/test_quadrature.cpp).
KOKKOS_INLINE_FUNCTION void tet_rule_14(int q, Real xi[3], Real& w) {
  if (q < 8) {
    const bool first = q < 4;
    const Real a = first ? 0.09273525031089122640232391 : 0.3108859192633006097973457;
    const Real c = first ? 0.7217942490673263207930283 : 0.0673422422100981706079628;  // 1 - 3a
    w = first ? 0.01224884051939365825728503 : 0.01878132095300264179986428;
    const int r = q % 4;  // which barycentric coordinate holds 1 - 3a (r = 0: L0)
    xi[0] = (r == 1) ? c : a;
    xi[1] = (r == 2) ? c : a;
    xi[2] = (r == 3) ? c : a;
    return;
  }
  const Real b = 0.04550370412564964949188053;
  const Real c = 0.4544962958743503505081195;  // 1/2 - b
  w = 0.007091003462846911073011571;
  // Six ways to place the pair (c, c) among (L0, L1, L2, L3); xi = (L1, L2, L3).
  // Row r marks the components of xi that equal c (rows 0-2: L0 = b, 3-5: L0 = c).
  const int r = q - 8;
  if (r < 0 || r > 5) Kokkos::abort("tlfea::tet_rule_14: q out of range");
  const bool is_c[6][3] = {{false, true, true},  {true, false, true},  {true, true, false},
                           {true, false, false}, {false, true, false}, {false, false, true}};
  for (int d = 0; d < 3; ++d) xi[d] = is_c[r][d] ? c : b;
}

// 7-point degree-5 rule on the unit triangle (Radon 1948; Stroud T2:5-1):
// centroid with weight 9/80, and orbits (a, a, 1-2a) with
// a = (6 -+ sqrt 15)/21, weights (155 -+ sqrt 15)/2400. Weights sum to 1/2.
// Returns the triangle coordinates (a, b) of point q.
KOKKOS_INLINE_FUNCTION void triangle_rule_7(int q, Real& a, Real& b, Real& w) {
  if (q == 0) {
    a = b = 1.0 / 3.0;
    w = 9.0 / 80.0;
    return;
  }
  const bool first = q < 4;
  const Real s = first ? 0.1012865073234563388009874 : 0.4701420641051150897704412;
  const Real t = first ? 0.7974269853530873223980253 : 0.05971587178976982045911758;  // 1 - 2s
  w = first ? 0.06296959027241357629784197 : 0.06619707639425309036882469;
  const int r = (q - 1) % 3;  // which coordinate (L0, a, b) holds 1 - 2s
  a = (r == 1) ? t : s;
  b = (r == 2) ? t : s;
}

// Face coordinate axis (0 xi, 1 eta, 2 zeta) that a and b run along on cube
// face f (the table at cube_face_map below); f outside 0..5 as f5.
KOKKOS_INLINE_FUNCTION int cube_face_axis_a(int f) {
  const int axis[6] = {2, 1, 0, 2, 1, 0};
  return axis[(f >= 0 && f < 6) ? f : 5];
}
KOKKOS_INLINE_FUNCTION int cube_face_axis_b(int f) {
  const int axis[6] = {1, 2, 2, 0, 0, 1};
  return axis[(f >= 0 && f < 6) ? f : 5];
}

// Point on face f of the cube [-1, 1]^3 (f0 xi=-1, f1 xi=+1, f2 eta=-1,
// f3 eta=+1, f4 zeta=-1, f5 zeta=+1; core/mesh.hpp) from face coordinates
// (a, b) in [-1, 1]^2. The tangents t1 = dxi/da, t2 = dxi/db are unit axis
// vectors with t1 x t2 the outward normal:
//   f0: (a, b) = (zeta, eta)   f1: (eta, zeta)
//   f2: (xi, zeta)             f3: (zeta, xi)
//   f4: (eta, xi)              f5: (xi, eta)
KOKKOS_INLINE_FUNCTION void cube_face_map(int f, Real a, Real b, Real xi[3], Real t1[3],
                                          Real t2[3]) {
  if (f < 0 || f > 5) {
    Kokkos::abort("tlfea::cube_face_map: face out of range");
    return;
  }
  const int ia = cube_face_axis_a(f), ib = cube_face_axis_b(f);
  const int normal = f / 2;
  for (int d = 0; d < 3; ++d) {
    t1[d] = (d == ia) ? 1.0 : 0.0;
    t2[d] = (d == ib) ? 1.0 : 0.0;
  }
  xi[normal] = (f % 2 == 0) ? -1.0 : 1.0;
  xi[ia] = a;
  xi[ib] = b;
}

// Tensor Gauss rule na x nb on cube face f, point q = qa + na qb.
// Weights sum to 4, the parent face area (|t1 x t2| = 1).
KOKKOS_INLINE_FUNCTION void cube_face_rule(int f, int na, int nb, int q, Real xi[3], Real t1[3],
                                           Real t2[3], Real& w) {
  Real a, b, wa, wb;
  gauss_legendre(na, q % na, a, wa);
  gauss_legendre(nb, q / na, b, wb);
  cube_face_map(f, a, b, xi, t1, t2);
  w = wa * wb;
}

// The quadrature of an element on the cube [-1, 1]^3 (Q27, ANCF 3243 / 3443):
// stiffness Sx x Sy x Sz and mass Mx x My x Mz Gauss (gauss_box), and on each
// of the six faces Fxi x Fo Gauss points (cube_face_rule), Fxi along xi where
// xi is a tangent direction of the face, else along a, and Fo along the other
// tangent direction.
template <int Sx, int Sy, int Sz, int Mx, int My, int Mz, int Fxi, int Fo>
struct GaussBoxRules {
  static constexpr int nq = Sx * Sy * Sz;
  static constexpr int nq_mass = Mx * My * Mz;
  static constexpr int nfaces = 6;
  static constexpr int nq_face = Fxi * Fo;

  KOKKOS_INLINE_FUNCTION static void quad_point(int q, Real xi[3], Real& w) {
    gauss_box(Sx, Sy, Sz, q, xi, w);
  }
  KOKKOS_INLINE_FUNCTION static void mass_quad_point(int q, Real xi[3], Real& w) {
    gauss_box(Mx, My, Mz, q, xi, w);
  }
  // Face f (f0 xi=-1 ... f5 zeta=+1), axes as in cube_face_map.
  KOKKOS_INLINE_FUNCTION static void face_quad_point(int f, int q, Real xi[3], Real t1[3],
                                                     Real t2[3], Real& w) {
    if (cube_face_axis_b(f) == 0)
      cube_face_rule(f, Fo, Fxi, q, xi, t1, t2, w);
    else
      cube_face_rule(f, Fxi, Fo, q, xi, t1, t2, w);
  }
};

}  // namespace tlfea
