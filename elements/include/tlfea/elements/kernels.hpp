// TLFEA: element loops templated on <Element, Material> (docs/theory.md §3.8;
// the loops: §3.5-3.10).
// Every loop is a named functor launched with a "tlfea::elements::<kernel>"
// label; element-local arrays have compile-time sizes and live on the stack;
// the scatter to shared coefficients goes through scatter_add with the
// functor's `plain` flag, which only the launch helpers of scatter_policy.hpp
// set, and, for matrices, the precomputed CRS block offsets.
#pragma once

#include <type_traits>

#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/elements/geometry.hpp"
#include "tlfea/elements/point_law_core.hpp"
#include "tlfea/elements/scatter_policy.hpp"

namespace tlfea {

// P(F, Fdot): elastic laws ignore Fdot.
template <class M>
KOKKOS_INLINE_FUNCTION Mat3 material_stress(const M& m, const Mat3& F, const Mat3& Fdot) {
  if constexpr (M::is_viscous)
    return m.first_piola(F, Fdot);
  else {
    (void)Fdot;
    return m.first_piola(F);
  }
}

// C = alpha_K dP/dF + alpha_D dP/dFdot.
template <class M>
KOKKOS_INLINE_FUNCTION void material_tangent(const M& m, const Mat3& F, const Mat3& Fdot,
                                             Real alpha_K, Real alpha_D, Tangent& C) {
  if constexpr (M::is_viscous) {
    Tangent B;
    m.tangent(F, Fdot, C);
    m.velocity_tangent(F, Fdot, B);
    for (int r = 0; r < 9; ++r)
      for (int s = 0; s < 9; ++s) C.a[r][s] = alpha_K * C.a[r][s] + alpha_D * B.a[r][s];
  } else {
    (void)Fdot;
    (void)alpha_D;
    m.tangent(F, C);
    for (int r = 0; r < 9; ++r)
      for (int s = 0; s < 9; ++s) C.a[r][s] *= alpha_K;
  }
}

namespace detail {

template <class E>
KOKKOS_INLINE_FUNCTION void gather(const ElementGeometry<E>& g, const CoefView& x, Ordinal e,
                                   Real xe[E::n][3]) {
  for (int i = 0; i < E::n; ++i) {
    const Ordinal c = g.conn(e, i);
    for (int a = 0; a < 3; ++a) xe[i][a] = x(c, a);
  }
}

// F = sum_i e_i (x) h_i at quadrature point q (point_law_core.hpp).
template <class E>
KOKKOS_INLINE_FUNCTION Mat3 deformation_gradient(const ElementGeometry<E>& g, Ordinal e, int q,
                                                 const Real xe[E::n][3]) {
  Mat3 F;
  point::deformation_gradient<E::n>([&](int i, int a) { return xe[i][a]; },
                                    [&](int i, int k) { return g.H(e, q, i, k); }, F.m);
  return F;
}

}  // namespace detail

// Strain energy sum_q Psi(F) dV, reduced.
template <class E, class M>
struct StrainEnergyFunctor {
  ElementGeometry<E> g;
  M mat;
  CoefView q;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e, Real& sum) const {
    Real xe[E::n][3];
    detail::gather(g, q, e, xe);
    for (int p = 0; p < E::nq; ++p)
      sum += g.dV(e, p) * mat.energy(detail::deformation_gradient(g, e, p, xe));
  }
};

// Deformation gradient at every stiffness quadrature point: Fout(e, q, 3a+B).
template <class E>
struct DeformationGradientFunctor {
  ElementGeometry<E> g;
  CoefView q;
  DeviceView<Real** [9]> Fout;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    Real xe[E::n][3];
    detail::gather(g, q, e, xe);
    for (int p = 0; p < E::nq; ++p) {
      const Mat3 F = detail::deformation_gradient(g, e, p, xe);
      for (int k = 0; k < 9; ++k) Fout(e, p, k) = F.m[k];
    }
  }
};

// Reference-geometry quantities at the mass rule's points (computed on the fly:
// the mass matrix and body force are assembled once).
template <class E>
KOKKOS_INLINE_FUNCTION Real mass_point(const ElementGeometry<E>& g, const Real x0[E::n][3],
                                       Ordinal e, int p, Real s[E::n]) {
  Real xi[3], w, ds[E::n][3];
  E::mass_quad_point(p, xi, w);
  E::shape(g.param(e), xi, s);
  E::shape_deriv(g.param(e), xi, ds);
  return w * kmath::fabs(det(parent_jacobian<E>(x0, ds)));
}

// Consistent mass M_ij = sum_q rho s_i s_j dV: values += alpha (M (x) I3),
// or with row_map (the whole pattern's) values += alpha M_ij once per block,
// at block row_map(3 i) / 9 + (o - row_map(3 i)) / 3 (ElementBlockBase::block_mass).
template <class E>
struct MassFunctor {
  ElementGeometry<E> g;
  CoefView q0;
  Real rho = 0.0, alpha = 1.0;
  DeviceView<Offset***> offsets;
  DeviceView<Offset*> block_row_length;
  DeviceView<Real*> values;
  bool plain = false;           // add mode, set by for_each_element
  DeviceView<Offset*> row_map;  // empty: values on the pattern; else per block
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    Real x0[E::n][3], Me[E::n][E::n], s[E::n];
    detail::gather(g, q0, e, x0);
    for (int i = 0; i < E::n; ++i)
      for (int j = 0; j < E::n; ++j) Me[i][j] = 0.0;
    for (int p = 0; p < E::nq_mass; ++p) {
      const Real dV = rho * alpha * mass_point(g, x0, e, p, s);
      for (int i = 0; i < E::n; ++i)
        for (int j = 0; j < E::n; ++j) Me[i][j] += s[i] * s[j] * dV;
    }
    const bool per_block = row_map.extent(0) > 0;
    for (int i = 0; i < E::n; ++i) {
      const Ordinal c = g.conn(e, i);
      const Offset len = block_row_length(c);
      const Offset first = per_block ? row_map(3 * c) : 0;
      for (int j = 0; j < E::n; ++j) {
        const Offset off = offsets(e, i, j);
        if (off < 0) continue;
        if (per_block) {
          scatter_add(plain, values(first / 9 + (off - first) / 3), Me[i][j]);
          continue;
        }
        for (int a = 0; a < 3; ++a) scatter_add(plain, values(off + a * len + a), Me[i][j]);
      }
    }
  }
};

// Body force f_i += rho b int s_i dV (mass rule: integrates s_i exactly).
template <class E>
struct BodyForceFunctor {
  ElementGeometry<E> g;
  CoefView q0;
  Real rho = 0.0;
  Real b[3] = {0.0, 0.0, 0.0};
  CoefView f;
  bool plain = false;  // add mode, set by for_each_element
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    Real x0[E::n][3], s[E::n], fe[E::n];
    detail::gather(g, q0, e, x0);
    for (int i = 0; i < E::n; ++i) fe[i] = 0.0;
    for (int p = 0; p < E::nq_mass; ++p) {
      const Real dV = rho * mass_point(g, x0, e, p, s);
      for (int i = 0; i < E::n; ++i) fe[i] += s[i] * dV;
    }
    for (int i = 0; i < E::n; ++i) {
      const Ordinal c = g.conn(e, i);
      for (int a = 0; a < 3; ++a) scatter_add(plain, f(c, a), fe[i] * b[a]);
    }
  }
};

template <class E>
struct VolumeFunctor {
  ElementGeometry<E> g;
  CoefView q0;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e, Real& sum) const {
    Real x0[E::n][3], s[E::n];
    detail::gather(g, q0, e, x0);
    for (int p = 0; p < E::nq_mass; ++p) sum += mass_point(g, x0, e, p, s);
  }
};

// Face point geometry: x_a = sum_i e_i (ds_i/dxi . t1), x_b likewise, for the
// coefficients `xe` (reference ones give dX/da, dX/db).
template <class E>
KOKKOS_INLINE_FUNCTION void face_tangents(const Real ds[E::n][3], const Real t1[3],
                                          const Real t2[3], const Real xe[E::n][3], Vec3& xa,
                                          Vec3& xb, Real da[E::n], Real db[E::n]) {
  for (int a = 0; a < 3; ++a) xa[a] = xb[a] = 0.0;
  for (int i = 0; i < E::n; ++i) {
    da[i] = ds[i][0] * t1[0] + ds[i][1] * t1[1] + ds[i][2] * t1[2];
    db[i] = ds[i][0] * t2[0] + ds[i][1] * t2[1] + ds[i][2] * t2[2];
    for (int a = 0; a < 3; ++a) {
      xa[a] += xe[i][a] * da[i];
      xb[a] += xe[i][a] * db[i];
    }
  }
}

// Face quadrature point p of face fc of element e: weight w, shape values s,
// and the tangents x_a, x_b with their shape-function parts da, db
// (face_tangents) for the coefficients xe.
template <class E>
KOKKOS_INLINE_FUNCTION void face_point(const ElementGeometry<E>& g, Ordinal e, int fc, int p,
                                       const Real xe[E::n][3], Real& w, Real s[E::n], Vec3& xa,
                                       Vec3& xb, Real da[E::n], Real db[E::n]) {
  Real xi[3], t1[3], t2[3], ds[E::n][3];
  E::face_quad_point(fc, p, xi, t1, t2, w);
  E::shape(g.param(e), xi, s);
  E::shape_deriv(g.param(e), xi, ds);
  face_tangents<E>(ds, t1, t2, xe, xa, xb, da, db);
}

// Surface loads on faces (element, local face):
//  dead traction:     f_i += int s_i t0 dA0                      (follower = false)
//  follower pressure: f_i += -p int s_i J F^-T n0 dA0
//                          = -p int s_i (x_a x x_b) da db        (follower = true)
template <class E>
struct SurfaceLoadFunctor {
  ElementGeometry<E> g;
  DeviceView<Ordinal*> element;
  DeviceView<int*> face;
  CoefView x;  // reference coefficients (dead traction) or current (pressure)
  bool follower = false;
  Real t0[3] = {0.0, 0.0, 0.0};
  Real pressure = 0.0;
  CoefView f;
  bool plain = false;  // add mode, set by for_each_load
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    const Ordinal e = element(k);
    const int fc = face(k);
    Real xe[E::n][3], fe[E::n][3];
    detail::gather(g, x, e, xe);
    for (int i = 0; i < E::n; ++i) fe[i][0] = fe[i][1] = fe[i][2] = 0.0;
    for (int p = 0; p < E::nq_face; ++p) {
      Real w, s[E::n], da[E::n], db[E::n];
      Vec3 xa, xb;
      face_point<E>(g, e, fc, p, xe, w, s, xa, xb, da, db);
      const Vec3 nda = cross(xa, xb);
      Real load[3];
      if (follower) {
        for (int a = 0; a < 3; ++a) load[a] = -pressure * nda[a] * w;
      } else {
        const Real dA = kmath::sqrt(dot(nda, nda)) * w;
        for (int a = 0; a < 3; ++a) load[a] = t0[a] * dA;
      }
      for (int i = 0; i < E::n; ++i)
        for (int a = 0; a < 3; ++a) fe[i][a] += s[i] * load[a];
    }
    for (int i = 0; i < E::n; ++i) {
      const Ordinal c = g.conn(e, i);
      for (int a = 0; a < 3; ++a) scatter_add(plain, f(c, a), fe[i][a]);
    }
  }
};

// Load stiffness of the follower pressure, values += alpha d f_ext / d q:
//   d(x_a x x_b) = da_j dx_j x x_b + db_j x_a x dx_j, so block
//   (i, j) = -p sum_q w s_i (db_j [x_a]_x - da_j [x_b]_x),  [u]_x y = u x y.
template <class E>
struct PressureTangentFunctor {
  ElementGeometry<E> g;
  DeviceView<Ordinal*> element;
  DeviceView<int*> face;
  DeviceView<Offset***> offsets;  // element offsets (block-local element ids)
  DeviceView<Offset*> block_row_length;
  CoefView x;
  Real pressure = 0.0, alpha = 1.0;
  DeviceView<Real*> values;
  bool plain = false;  // add mode, set by for_each_load
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    const Ordinal e = element(k);
    const int fc = face(k);
    Real xe[E::n][3];
    detail::gather(g, x, e, xe);
    for (int p = 0; p < E::nq_face; ++p) {
      Real w, s[E::n], da[E::n], db[E::n];
      Vec3 xa, xb;
      face_point<E>(g, e, fc, p, xe, w, s, xa, xb, da, db);
      // Skew matrices: [u]_x = [[0,-u2,u1],[u2,0,-u0],[-u1,u0,0]].
      const Real Sa[9] = {0, -xa[2], xa[1], xa[2], 0, -xa[0], -xa[1], xa[0], 0};
      const Real Sb[9] = {0, -xb[2], xb[1], xb[2], 0, -xb[0], -xb[1], xb[0], 0};
      for (int i = 0; i < E::n; ++i) {
        const Offset len = block_row_length(g.conn(e, i));
        const Real si = -alpha * pressure * w * s[i];
        if (si == 0.0) continue;
        for (int j = 0; j < E::n; ++j) {
          const Offset off = offsets(e, i, j);
          if (off < 0) continue;
          for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
              scatter_add(plain, values(off + r * len + c),
                          si * (db[j] * Sa[3 * r + c] - da[j] * Sb[3 * r + c]));
        }
      }
    }
  }
};

}  // namespace tlfea
