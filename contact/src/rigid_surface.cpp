// TLFEA: contact surfaces of rigid bodies (surface.hpp): triangulated
// primitive shapes, the boundary of a shape mesh, and the vertices as fixed
// combinations of the body's four natural coordinates (docs/theory.md §10.1).
#include <algorithm>
#include <cmath>
#include <map>

#include "tlfea/contact/surface.hpp"
#include "tlfea/core/error.hpp"

namespace tlfea {

namespace {

using P3 = std::array<Real, 3>;
constexpr Real kPi = 3.14159265358979323846;

// Builds a triangle soup from triangles given by their corner positions,
// merging corners closer than `tol` (by rounding to a grid of spacing tol)
// and orienting each triangle outward from the origin (the primitives are
// convex and centred at it).
class ConvexBuilder {
 public:
  explicit ConvexBuilder(Real tol) : tol_(tol) {}
  void add(const P3& a, const P3& b, const P3& c) {
    const Ordinal ia = vertex(a), ib = vertex(b), ic = vertex(c);
    if (ia == ib || ib == ic || ic == ia) return;  // collapsed (at a pole or cap centre)
    const P3 e1{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const P3 n{e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
               e1[0] * e2[1] - e1[1] * e2[0]};
    const Real d =
        n[0] * (a[0] + b[0] + c[0]) + n[1] * (a[1] + b[1] + c[1]) + n[2] * (a[2] + b[2] + c[2]);
    if (d >= 0.0)
      s_.triangles.push_back({ia, ib, ic});
    else
      s_.triangles.push_back({ia, ic, ib});
  }
  // Two triangles of the quad (a, b, c, d) in cyclic order.
  void quad(const P3& a, const P3& b, const P3& c, const P3& d) {
    add(a, b, c);
    add(a, c, d);
  }
  RigidShapeSurface take() { return std::move(s_); }

 private:
  Ordinal vertex(const P3& p) {
    const std::array<long long, 3> k{std::llround(p[0] / tol_), std::llround(p[1] / tol_),
                                     std::llround(p[2] / tol_)};
    auto it = ids_.find(k);
    if (it != ids_.end()) return it->second;
    const Ordinal id = static_cast<Ordinal>(s_.X.size());
    s_.X.push_back(p);
    ids_.emplace(k, id);
    return id;
  }
  Real tol_;
  RigidShapeSurface s_;
  std::map<std::array<long long, 3>, Ordinal> ids_;
};

void check_divisions(int n, const char* what) {
  if (n < 1) throw_error("rigid contact surface of a ", what, ": divisions ", n, " < 1");
}

}  // namespace

RigidShapeSurface rigid_shape_of_mesh(const Mesh& mesh, const std::array<Real, 3>& center) {
  const SurfaceHost h = extract_surface(mesh, 0, 0);
  RigidShapeSurface s;
  s.X.reserve(h.vertex_reference.size());
  for (const P3& x : h.vertex_reference)
    s.X.push_back({x[0] - center[0], x[1] - center[1], x[2] - center[2]});
  s.triangles = h.triangles;
  return s;
}

RigidShapeSurface rigid_box_shape(const std::array<Real, 3>& size, int n) {
  check_divisions(n, "box");
  ConvexBuilder b(1e-9 * std::max({size[0], size[1], size[2]}));
  // Face with normal +-e_a spanned by e_b, e_c: an n x n grid.
  for (int a = 0; a < 3; ++a) {
    const int bb = (a + 1) % 3, cc = (a + 2) % 3;
    for (int side = -1; side <= 1; side += 2) {
      auto point = [&](int i, int j) {
        P3 p{};
        p[a] = 0.5 * side * size[a];
        p[bb] = size[bb] * (Real(i) / n - 0.5);
        p[cc] = size[cc] * (Real(j) / n - 0.5);
        return p;
      };
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          b.quad(point(i, j), point(i + 1, j), point(i + 1, j + 1), point(i, j + 1));
    }
  }
  return b.take();
}

RigidShapeSurface rigid_sphere_shape(Real R, int n) {
  check_divisions(n, "sphere");
  ConvexBuilder b(1e-9 * R);
  const int nl = 2 * n;
  // theta in [0, pi] from the pole +e_3, phi in [0, 2 pi).
  auto point = [&](int i, int j) {
    const Real th = kPi * i / n, ph = 2.0 * kPi * (j % nl) / nl;
    return P3{R * std::sin(th) * std::cos(ph), R * std::sin(th) * std::sin(ph), R * std::cos(th)};
  };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < nl; ++j)
      b.quad(point(i, j), point(i + 1, j), point(i + 1, j + 1), point(i, j + 1));
  return b.take();
}

RigidShapeSurface rigid_cylinder_shape(Real R, Real L, int n) {
  check_divisions(n, "cylinder");
  ConvexBuilder b(1e-9 * std::max(R, L));
  const int na = 2 * n, nz = std::max(1, n / 2), nr = std::max(1, n / 4);
  auto ring = [&](Real r, int j, Real z) {
    const Real ph = 2.0 * kPi * (j % na) / na;
    return P3{r * std::cos(ph), r * std::sin(ph), z};
  };
  for (int j = 0; j < na; ++j) {
    for (int k = 0; k < nz; ++k) {
      const Real z0 = L * (Real(k) / nz - 0.5), z1 = L * (Real(k + 1) / nz - 0.5);
      b.quad(ring(R, j, z0), ring(R, j + 1, z0), ring(R, j + 1, z1), ring(R, j, z1));
    }
    for (int side = -1; side <= 1; side += 2) {
      const Real z = 0.5 * side * L;
      for (int k = 0; k < nr; ++k) {
        const Real r0 = R * k / nr, r1 = R * (k + 1) / nr;
        b.quad(ring(r0, j, z), ring(r1, j, z), ring(r1, j + 1, z), ring(r0, j + 1, z));
      }
    }
  }
  return b.take();
}

SurfaceHost rigid_surface(const RigidShapeSurface& shape, const std::array<Real, 3>& center,
                          Ordinal coef_offset, int body) {
  if (shape.X.empty() || shape.triangles.empty())
    throw_error("rigid contact surface of body ", body, ": empty shape");
  if (body < 0) throw_error("rigid contact surface: body id ", body, " < 0");
  const Ordinal nv = static_cast<Ordinal>(shape.X.size());
  SurfaceHost s;
  for (Ordinal v = 0; v < nv; ++v) {
    const P3& X = shape.X[v];
    s.vertex_body.push_back(body);
    s.vertex_element.push_back(0);
    s.vertex_xi.push_back(X);
    const Real w[4] = {1.0, X[0], X[1], X[2]};  // x = r + X_k r_k (§10.1)
    for (int l = 0; l < 4; ++l) {
      s.vertex_coef.push_back(coef_offset + l);
      s.vertex_weight.push_back(w[l]);
    }
    s.vertex_ptr.push_back(static_cast<Ordinal>(s.vertex_coef.size()));
    // The reference pose has r = c, r_k = e_k: x = c + X.
    s.vertex_reference.push_back({center[0] + X[0], center[1] + X[1], center[2] + X[2]});
    s.vertex_area.push_back(0.0);
  }
  for (const auto& t : shape.triangles) {
    for (int a = 0; a < 3; ++a)
      if (t[a] < 0 || t[a] >= nv)
        throw_error("rigid contact surface of body ", body, ": triangle vertex ", t[a],
                    " out of range [0, ", nv, ")");
    const Real A = triangle_area(shape.X[t[0]], shape.X[t[1]], shape.X[t[2]]);
    if (!(A > 0.0))
      throw_error("rigid contact surface of body ", body, ": degenerate triangle (", t[0], ", ",
                  t[1], ", ", t[2], ")");
    for (int a = 0; a < 3; ++a) s.vertex_area[t[a]] += A / 3.0;
    s.triangles.push_back(t);
    s.triangle_body.push_back(body);
    s.triangle_element.push_back(0);
  }
  return s;
}

}  // namespace tlfea
