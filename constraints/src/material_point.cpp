#include "tlfea/constraints/material_point.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tlfea/core/error.hpp"

namespace tlfea {

MaterialPoint make_material_point(const ElementBlockBase& block, Ordinal element,
                                  const Real xi[3]) {
  if (element < 0 || element >= block.num_elements())
    throw_error("material point: element ", element, " out of range (", block.num_elements(),
                " elements)");
  const std::vector<Real> s = block.shape_at(element, xi);
  const std::vector<Ordinal> ids = block.element_coefficients(element);
  if (s.size() != ids.size())
    throw_error("material point: element with ", s.size(), " shape functions and ", ids.size(),
                " coefficients");
  MaterialPoint p;
  p.num = static_cast<int>(s.size());
  p.id = ids;
  p.weight = s;
  return p;
}

MaterialPoint combination_point(std::vector<Ordinal> ids, std::vector<Real> weights,
                                const Vec3& offset) {
  if (ids.size() != weights.size())
    throw_error("material point: ", ids.size(), " coefficients but ", weights.size(), " weights");
  for (const Ordinal id : ids)
    if (id < 0) throw_error("material point: negative coefficient id ", id);
  MaterialPoint p;
  p.num = static_cast<int>(ids.size());
  p.id = std::move(ids);
  p.weight = std::move(weights);
  p.offset = offset;
  return p;
}

MaterialPoint ground_point(const Vec3& position) {
  MaterialPoint p;
  p.num = 0;
  p.offset = position;
  return p;
}

Vec3 point_position(const MaterialPoint& p, const CoefViewHost& q) {
  Vec3 r = p.offset;
  for (int i = 0; i < p.num; ++i) {
    if (p.id[i] < 0 || static_cast<size_t>(p.id[i]) >= q.extent(0))
      throw_error("material point: coefficient ", p.id[i], " outside q (", q.extent(0), " rows)");
    for (int a = 0; a < 3; ++a) r[a] += p.weight[i] * q(p.id[i], a);
  }
  return r;
}

namespace {

bool is_simplex(ElementType t) { return t == ElementType::T10; }

// Distance of xi outside the parent domain (0 inside).
Real outside(ElementType t, const Real xi[3]) {
  Real o = 0.0;
  if (is_simplex(t)) {
    for (int a = 0; a < 3; ++a) o = std::max(o, -xi[a]);
    o = std::max(o, xi[0] + xi[1] + xi[2] - 1.0);
  } else {
    for (int a = 0; a < 3; ++a) o = std::max(o, std::fabs(xi[a]) - 1.0);
  }
  return o;
}

Vec3 position_at(const ElementBlockBase& block, const std::vector<Ordinal>& ids,
                 const CoefViewHost& q0, Ordinal e, const Real xi[3]) {
  const std::vector<Real> s = block.shape_at(e, xi);
  Vec3 r{{0, 0, 0}};
  for (size_t i = 0; i < s.size(); ++i)
    for (int a = 0; a < 3; ++a) r[a] += s[i] * q0(ids[i], a);
  return r;
}

Vec3 normalized(const Vec3& v, const char* what) {
  const Real n = std::sqrt(dot(v, v));
  if (!(n > 0)) throw_error("joint frame: zero ", what, " direction");
  return Vec3{{v[0] / n, v[1] / n, v[2] / n}};
}

// A unit vector normal to u (u unit).
Vec3 some_normal(const Vec3& u) {
  int k = 0;
  for (int a = 1; a < 3; ++a)
    if (std::fabs(u[a]) < std::fabs(u[k])) k = a;
  Vec3 e{{0, 0, 0}};
  e[k] = 1.0;
  return normalized(cross(u, e), "cross");
}

Vec3 along(const Vec3& X, const Vec3& d, Real s) {
  return Vec3{{X[0] + s * d[0], X[1] + s * d[1], X[2] + s * d[2]}};
}

}  // namespace

bool locate_material_point(const ElementBlockBase& block, const CoefViewHost& q0, const Vec3& X,
                           Ordinal& element, Real xi_out[3], Real tol) {
  const ElementType type = block.element_type();
  const int cpn = coefficients_per_node(type);
  Real best_out = std::numeric_limits<Real>::max();
  Ordinal best_e = -1;
  Real best_xi[3] = {0, 0, 0};
  for (Ordinal e = 0; e < block.num_elements(); ++e) {
    const std::vector<Ordinal> ids = block.element_coefficients(e);
    for (Ordinal id : ids)
      if (id < 0 || static_cast<size_t>(id) >= q0.extent(0))
        throw_error("find_material_point: coefficient ", id, " of element ", e,
                    " is outside the reference vector (", q0.extent(0),
                    " coefficients); build the model's reference first");
    // Bounding box of the element's position coefficients and of the corners
    // of its parent domain, padded by half its size. The corners matter for
    // ANCF elements, whose position coefficients lie on the beam axis or
    // plate mid-surface: their cross-section spans the gradients, so a box of
    // the positions alone is flat, and points on the surface of a beam
    // finer than its width were missed (e.g. a joint fibre of 5 mm on a
    // 2 x 2 cm beam of 150 elements of 6.7 mm).
    Real lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::numeric_limits<Real>::max();
      hi[a] = -lo[a];
    }
    auto grow = [&](const Vec3& x) {
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::min(lo[a], x[a]);
        hi[a] = std::max(hi[a], x[a]);
      }
    };
    for (size_t i = 0; i < ids.size(); i += cpn)
      grow(Vec3{{q0(ids[i], 0), q0(ids[i], 1), q0(ids[i], 2)}});
    if (cpn > 1) {
      for (int corner = 0; corner < 8; ++corner) {
        const Real xc[3] = {(corner & 1) ? 1.0 : -1.0, (corner & 2) ? 1.0 : -1.0,
                            (corner & 4) ? 1.0 : -1.0};
        grow(position_at(block, ids, q0, e, xc));
      }
    }
    Real size = 0.0;
    for (int a = 0; a < 3; ++a) size = std::max(size, hi[a] - lo[a]);
    bool near = true;
    for (int a = 0; a < 3; ++a)
      near = near && X[a] >= lo[a] - 0.5 * size && X[a] <= hi[a] + 0.5 * size;
    if (!near) continue;
    // Newton on r(xi) = X with a central-difference Jacobian dr/dxi.
    Real xi[3];
    for (int a = 0; a < 3; ++a) xi[a] = is_simplex(type) ? 0.25 : 0.0;
    bool converged = false;
    for (int it = 0; it < 30 && !converged; ++it) {
      const Vec3 r = position_at(block, ids, q0, e, xi);
      const Vec3 res{{r[0] - X[0], r[1] - X[1], r[2] - X[2]}};
      if (std::sqrt(dot(res, res)) <= 1e-13 * std::max(size, Real(1e-300))) {
        converged = true;
        break;
      }
      Mat3 J;
      const Real h = 1e-6;
      for (int b = 0; b < 3; ++b) {
        Real xp[3] = {xi[0], xi[1], xi[2]}, xm[3] = {xi[0], xi[1], xi[2]};
        xp[b] += h;
        xm[b] -= h;
        const Vec3 rp = position_at(block, ids, q0, e, xp), rm = position_at(block, ids, q0, e, xm);
        for (int a = 0; a < 3; ++a) J(a, b) = (rp[a] - rm[a]) / (2 * h);
      }
      if (std::fabs(det(J)) < 1e-300) break;
      const Vec3 dxi = inverse(J) * res;
      for (int a = 0; a < 3; ++a) xi[a] -= dxi[a];
      if (outside(type, xi) > 2.0) break;  // diverging: X is far from this element
    }
    if (!converged) continue;
    const Real o = outside(type, xi);
    if (o < best_out) {
      best_out = o;
      best_e = e;
      for (int a = 0; a < 3; ++a) best_xi[a] = xi[a];
    }
    if (o <= 0.0) break;
  }
  if (best_e < 0 || best_out > tol) return false;
  element = best_e;
  for (int a = 0; a < 3; ++a) xi_out[a] = best_xi[a];
  return true;
}

MaterialPoint find_material_point(const ElementBlockBase& block, const CoefViewHost& q0,
                                  const Vec3& X, Real tol) {
  Ordinal e = -1;
  Real xi[3];
  if (!locate_material_point(block, q0, X, e, xi, tol))
    throw_error("material point: no ", to_string(block.element_type()), " element contains (", X[0],
                ", ", X[1], ", ", X[2], ")");
  return make_material_point(block, e, xi);
}

namespace {

MaterialPoint fiber_point(const ElementBlockBase& block, const CoefViewHost& q0, const Vec3& X,
                          const Vec3& d, Real length) {
  try {
    return find_material_point(block, q0, along(X, d, length));
  } catch (const Error&) {
    return find_material_point(block, q0, along(X, d, -length));
  }
}

void frame_axes(const Vec3& axis, const Vec3* cross1, Vec3& u, Vec3& c1, Vec3& c2) {
  u = normalized(axis, "axis");
  if (cross1) {
    const Vec3 c = *cross1;
    const Real cu = dot(c, u);
    c1 = normalized(Vec3{{c[0] - cu * u[0], c[1] - cu * u[1], c[2] - cu * u[2]}}, "cross");
  } else {
    c1 = some_normal(u);
  }
  c2 = cross(u, c1);
}

JointFrame body_frame(const ElementBlockBase& block, const CoefViewHost& q0, const Vec3& X,
                      const Vec3& axis, const Vec3* cross1, Real fiber_length) {
  if (!(fiber_length > 0)) throw_error("joint frame: fiber length must be positive");
  Vec3 u, c1, c2;
  frame_axes(axis, cross1, u, c1, c2);
  JointFrame f;
  f.origin = find_material_point(block, q0, X);
  f.axis = fiber_point(block, q0, X, u, fiber_length);
  f.cross1 = fiber_point(block, q0, X, c1, fiber_length);
  f.cross2 = fiber_point(block, q0, X, c2, fiber_length);
  return f;
}

JointFrame ground_frame(const Vec3& X, const Vec3& axis, const Vec3* cross1, Real fiber_length) {
  if (!(fiber_length > 0)) throw_error("joint frame: fiber length must be positive");
  Vec3 u, c1, c2;
  frame_axes(axis, cross1, u, c1, c2);
  JointFrame f;
  f.origin = ground_point(X);
  f.axis = ground_point(along(X, u, fiber_length));
  f.cross1 = ground_point(along(X, c1, fiber_length));
  f.cross2 = ground_point(along(X, c2, fiber_length));
  return f;
}

}  // namespace

JointFrame body_joint_frame(const ElementBlockBase& block, const CoefViewHost& q0, const Vec3& X,
                            const Vec3& axis, Real fiber_length) {
  return body_frame(block, q0, X, axis, nullptr, fiber_length);
}
JointFrame body_joint_frame(const ElementBlockBase& block, const CoefViewHost& q0, const Vec3& X,
                            const Vec3& axis, const Vec3& cross1, Real fiber_length) {
  return body_frame(block, q0, X, axis, &cross1, fiber_length);
}
JointFrame ground_joint_frame(const Vec3& X, const Vec3& axis, Real fiber_length) {
  return ground_frame(X, axis, nullptr, fiber_length);
}
JointFrame ground_joint_frame(const Vec3& X, const Vec3& axis, const Vec3& cross1,
                              Real fiber_length) {
  return ground_frame(X, axis, &cross1, fiber_length);
}

}  // namespace tlfea
