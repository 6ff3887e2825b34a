// TLFEA: contact surfaces (surface.hpp, docs/theory.md §7.1): boundary
// triangles and vertices extracted from meshes, and their device update.
#include "tlfea/contact/surface.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

#include "tlfea/contact/contact_points.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/view_utils.hpp"
#include "tlfea/elements/element_types.hpp"

namespace tlfea {

namespace {

using P3 = std::array<Real, 3>;

P3 sub(const P3& a, const P3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
P3 crossp(const P3& a, const P3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Real dotp(const P3& a, const P3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// Boundary faces of a solid mesh: faces whose sorted corner ids occur once.
struct FaceKey {
  std::array<Ordinal, 4> c;
  bool operator==(const FaceKey& o) const { return c == o.c; }
};
struct FaceKeyHash {
  size_t operator()(const FaceKey& k) const {
    size_t h = 1469598103934665603ull;
    for (Ordinal v : k.c)
      h = (h ^ static_cast<size_t>(static_cast<unsigned>(v))) * 1099511628211ull;
    return h;
  }
};

void solid_node_parent(ElementType type, int local, Real xi[3]) {
  if (type == ElementType::T10) {
    T10::node_parent(local, xi);
  } else {  // Q27: local = i + 3 j + 9 k at (-1, 0, +1) per direction
    xi[0] = static_cast<Real>(local % 3) - 1.0;
    xi[1] = static_cast<Real>((local / 3) % 3) - 1.0;
    xi[2] = static_cast<Real>(local / 9) - 1.0;
  }
}

void extract_solid(const Mesh& mesh, Ordinal coef_offset, int body, SurfaceHost& s) {
  const ElementType type = mesh.type;
  const int nf = faces_per_element(type);
  const std::vector<int> corners = face_corner_positions(type);
  std::vector<std::vector<int>> fnodes(nf);
  for (int f = 0; f < nf; ++f) fnodes[f] = face_nodes(type, f);

  std::unordered_map<FaceKey, std::pair<int, FaceRef>, FaceKeyHash> faces;
  faces.reserve(static_cast<size_t>(mesh.num_elements()) * nf);
  for (Ordinal e = 0; e < mesh.num_elements(); ++e) {
    for (int f = 0; f < nf; ++f) {
      FaceKey k{{-1, -1, -1, -1}};
      for (size_t c = 0; c < corners.size(); ++c)
        k.c[c] = mesh.coefficient(e, fnodes[f][corners[c]]);
      std::sort(k.c.begin(), k.c.begin() + corners.size());
      auto it = faces.find(k);
      if (it == faces.end()) {
        faces.emplace(k, std::make_pair(1, FaceRef{e, f}));
      } else {
        ++it->second.first;
      }
    }
  }
  // Boundary faces in (element, face) order, so the soup does not depend on
  // the hash table's iteration order.
  std::vector<FaceRef> boundary;
  for (const auto& kv : faces) {
    if (kv.second.first == 1) boundary.push_back(kv.second.second);
  }
  std::sort(boundary.begin(), boundary.end(), [](const FaceRef& a, const FaceRef& b) {
    return a.element != b.element ? a.element < b.element : a.face < b.face;
  });

  std::vector<Ordinal> vertex_of(mesh.num_coefficients(), -1);
  auto vertex = [&](Ordinal e, int local) {
    const Ordinal c = mesh.coefficient(e, local);
    if (vertex_of[c] < 0) {
      vertex_of[c] = static_cast<Ordinal>(s.vertex_body.size());
      Real xi[3];
      solid_node_parent(type, local, xi);
      s.vertex_body.push_back(body);
      s.vertex_element.push_back(e);
      s.vertex_xi.push_back({xi[0], xi[1], xi[2]});
      s.vertex_coef.push_back(coef_offset + c);
      s.vertex_weight.push_back(1.0);  // s_i(xi_node) = delta_i (interpolatory shape functions)
      s.vertex_ptr.push_back(static_cast<Ordinal>(s.vertex_coef.size()));
      s.vertex_reference.push_back(mesh.coefficients[c]);
    }
    return vertex_of[c];
  };
  // Sub-triangles in face-list positions, each counter-clockwise seen from
  // outside like the face itself. T6: (v0 v1 v2 m01 m12 m20).
  static const int t6[4][3] = {{0, 3, 5}, {3, 1, 4}, {5, 4, 2}, {3, 4, 5}};
  for (const FaceRef& fr : boundary) {
    const std::vector<int>& fn = fnodes[fr.face];
    auto add = [&](int a, int b, int c) {
      s.triangles.push_back(
          {vertex(fr.element, fn[a]), vertex(fr.element, fn[b]), vertex(fr.element, fn[c])});
      s.triangle_body.push_back(body);
      s.triangle_element.push_back(fr.element);
    };
    if (type == ElementType::T10) {
      for (const auto& t : t6) add(t[0], t[1], t[2]);
    } else {
      // Q9 grid (a, b), list index a + 3 b, d/da x d/db outward; each quarter
      // split along the diagonal from its (a, b) corner, alternating by
      // quarter so the split is symmetric about the face centre.
      for (int b = 0; b < 2; ++b) {
        for (int a = 0; a < 2; ++a) {
          const int p00 = a + 3 * b, p10 = p00 + 1, p01 = p00 + 3, p11 = p00 + 4;
          if ((a + b) % 2 == 0) {
            add(p00, p10, p11);
            add(p00, p11, p01);
          } else {
            add(p00, p10, p01);
            add(p10, p11, p01);
          }
        }
      }
    }
  }
}

// ANCF faces sampled on grids: face(aa, bb) maps grid parameters in [0, 1]^2
// to parent xi. Triangles are flipped when their normal points towards the
// element centre r(0, 0, 0) in the reference configuration.
template <class E>
void extract_ancf(const Mesh& mesh, Ordinal coef_offset, int body, const SurfaceSettings& set,
                  SurfaceHost& s) {
  if (mesh.element_size.size() != static_cast<size_t>(mesh.num_elements()))
    throw_error(mesh.source, ": contact surface: ANCF mesh without element_size");
  const int cpe = mesh.coefficients_per_element();
  for (Ordinal e = 0; e < mesh.num_elements(); ++e) {
    const auto& sz = mesh.element_size[e];
    const typename E::Param param = E::make_param(sz[0], sz[1], sz[2]);
    auto position = [&](const Real xi[3]) {
      Real sh[E::n];
      E::shape(param, xi, sh);
      P3 r{0.0, 0.0, 0.0};
      for (int l = 0; l < cpe; ++l) {
        const auto& c = mesh.coefficients[mesh.coefficient(e, l)];
        for (int a = 0; a < 3; ++a) r[a] += sh[l] * c[a];
      }
      return r;
    };
    const Real centre_xi[3] = {0.0, 0.0, 0.0};
    const P3 centre = position(centre_xi);
    auto add_face = [&](int ma, int mb, const std::function<void(Real, Real, Real*)>& face) {
      const Ordinal base = static_cast<Ordinal>(s.vertex_body.size());
      for (int j = 0; j <= mb; ++j) {
        for (int i = 0; i <= ma; ++i) {
          Real xi[3];
          face(static_cast<Real>(i) / ma, static_cast<Real>(j) / mb, xi);
          Real sh[E::n];
          E::shape(param, xi, sh);
          s.vertex_body.push_back(body);
          s.vertex_element.push_back(e);
          s.vertex_xi.push_back({xi[0], xi[1], xi[2]});
          for (int l = 0; l < cpe; ++l) {
            s.vertex_coef.push_back(coef_offset + mesh.coefficient(e, l));
            s.vertex_weight.push_back(sh[l]);
          }
          s.vertex_ptr.push_back(static_cast<Ordinal>(s.vertex_coef.size()));
          s.vertex_reference.push_back(position(xi));
        }
      }
      auto id = [&](int i, int j) { return base + i + (ma + 1) * j; };
      for (int j = 0; j < mb; ++j) {
        for (int i = 0; i < ma; ++i) {
          const Ordinal tri[2][3] = {{id(i, j), id(i + 1, j), id(i + 1, j + 1)},
                                     {id(i, j), id(i + 1, j + 1), id(i, j + 1)}};
          for (const auto& t : tri) {
            std::array<Ordinal, 3> v{t[0], t[1], t[2]};
            const P3& a = s.vertex_reference[v[0]];
            const P3& b = s.vertex_reference[v[1]];
            const P3& c = s.vertex_reference[v[2]];
            const P3 n = crossp(sub(b, a), sub(c, a));
            const P3 g{(a[0] + b[0] + c[0]) / 3.0 - centre[0],
                       (a[1] + b[1] + c[1]) / 3.0 - centre[1],
                       (a[2] + b[2] + c[2]) / 3.0 - centre[2]};
            if (dotp(n, g) < 0.0) std::swap(v[1], v[2]);
            s.triangles.push_back(v);
            s.triangle_body.push_back(body);
            s.triangle_element.push_back(e);
          }
        }
      }
    };
    if (E::type == ElementType::ANCF3443) {
      const int m = set.shell_divisions;
      if (m < 1) throw_error("contact surface: shell_divisions must be >= 1, got ", m);
      for (const Real zeta : {-1.0, 1.0}) {
        add_face(m, m, [zeta](Real a, Real b, Real* xi) {
          xi[0] = 2.0 * a - 1.0;
          xi[1] = 2.0 * b - 1.0;
          xi[2] = zeta;
        });
      }
    } else {
      const int ma = set.beam_axial_divisions, mc = set.beam_cross_divisions;
      if (ma < 1 || mc < 1)
        throw_error("contact surface: beam divisions must be >= 1, got ", ma, " x ", mc);
      for (const Real side : {-1.0, 1.0}) {
        add_face(ma, mc, [side](Real a, Real b, Real* xi) {  // eta = side
          xi[0] = 2.0 * a - 1.0;
          xi[1] = side;
          xi[2] = 2.0 * b - 1.0;
        });
        add_face(ma, mc, [side](Real a, Real b, Real* xi) {  // zeta = side
          xi[0] = 2.0 * a - 1.0;
          xi[1] = 2.0 * b - 1.0;
          xi[2] = side;
        });
      }
    }
  }
}

struct UpdateVertices {
  MaterialPointSet vertices;
  CoefView q;
  DeviceView<Real* [3]> x;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal v) const {
    const Vec3 r = vertices.position(v, q);
    for (int a = 0; a < 3; ++a) x(v, a) = r[a];
  }
};

}  // namespace

Real triangle_area(const std::array<Real, 3>& a, const std::array<Real, 3>& b,
                   const std::array<Real, 3>& c) {
  const P3 n = crossp(sub(b, a), sub(c, a));
  return 0.5 * std::sqrt(dotp(n, n));
}

void SurfaceHost::append(const SurfaceHost& o) {
  const Ordinal vshift = num_vertices();
  const Ordinal cshift = static_cast<Ordinal>(vertex_coef.size());
  vertex_body.insert(vertex_body.end(), o.vertex_body.begin(), o.vertex_body.end());
  vertex_element.insert(vertex_element.end(), o.vertex_element.begin(), o.vertex_element.end());
  vertex_xi.insert(vertex_xi.end(), o.vertex_xi.begin(), o.vertex_xi.end());
  for (size_t v = 1; v < o.vertex_ptr.size(); ++v) vertex_ptr.push_back(o.vertex_ptr[v] + cshift);
  vertex_coef.insert(vertex_coef.end(), o.vertex_coef.begin(), o.vertex_coef.end());
  vertex_weight.insert(vertex_weight.end(), o.vertex_weight.begin(), o.vertex_weight.end());
  vertex_reference.insert(vertex_reference.end(), o.vertex_reference.begin(),
                          o.vertex_reference.end());
  vertex_area.insert(vertex_area.end(), o.vertex_area.begin(), o.vertex_area.end());
  for (const auto& t : o.triangles)
    triangles.push_back({t[0] + vshift, t[1] + vshift, t[2] + vshift});
  triangle_body.insert(triangle_body.end(), o.triangle_body.begin(), o.triangle_body.end());
  triangle_element.insert(triangle_element.end(), o.triangle_element.begin(),
                          o.triangle_element.end());
}

MaterialPointSetHost SurfaceHost::vertex_points() const {
  if (vertex_ptr.size() != vertex_body.size() + 1 || vertex_coef.size() != vertex_weight.size() ||
      vertex_ptr.back() != static_cast<Ordinal>(vertex_coef.size()))
    throw_error("contact surface: inconsistent vertex combinations");
  MaterialPointSetHost p;
  p.ptr = vertex_ptr;
  p.id = vertex_coef;
  p.weight = vertex_weight;
  p.offset.assign(vertex_body.size(), Vec3{{0.0, 0.0, 0.0}});
  return p;
}

SurfaceHost extract_surface(const Mesh& mesh, Ordinal coef_offset, int body,
                            const SurfaceSettings& settings) {
  if (body < 0) throw_error(mesh.source, ": contact surface: body id must be >= 0, got ", body);
  if (mesh.num_elements() == 0) throw_error(mesh.source, ": contact surface: mesh has no elements");
  check_mesh(mesh);
  SurfaceHost s;
  switch (mesh.type) {
    case ElementType::T10:
    case ElementType::Q27:
      extract_solid(mesh, coef_offset, body, s);
      break;
    case ElementType::ANCF3243:
      extract_ancf<ANCF3243>(mesh, coef_offset, body, settings, s);
      break;
    case ElementType::ANCF3443:
      extract_ancf<ANCF3443>(mesh, coef_offset, body, settings, s);
      break;
  }
  s.vertex_area.assign(s.vertex_body.size(), 0.0);
  for (const auto& t : s.triangles) {
    const Real a3 = triangle_area(s.vertex_reference[t[0]], s.vertex_reference[t[1]],
                                  s.vertex_reference[t[2]]) /
                    3.0;
    for (int k = 0; k < 3; ++k) s.vertex_area[t[k]] += a3;
  }
  return s;
}

namespace {
// Unit vertex normal: the angle-weighted sum of the unit normals of the
// vertex's triangles (Thuermer & Wuethrich 1998), normalised. The weights
// make it independent of how a face is split into triangles: a box corner
// gets (1, 1, 1) / sqrt(3), an edge (1, 0, 1) / sqrt(2), whatever the split.
struct UpdateNormals {
  DeviceView<Ordinal*> ptr, adj;
  DeviceView<Ordinal* [3]> tri;
  DeviceView<Real*[3]> x, normal;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal v) const {
    Real n[3] = {0.0, 0.0, 0.0};
    for (Ordinal j = ptr(v); j < ptr(v + 1); ++j) {
      const Ordinal t = adj(j);
      int c = 0;
      while (c < 2 && tri(t, c) != v) ++c;
      const Ordinal a = tri(t, c), b = tri(t, (c + 1) % 3), d = tri(t, (c + 2) % 3);
      Real e1[3], e2[3];
      for (int k = 0; k < 3; ++k) {
        e1[k] = x(b, k) - x(a, k);
        e2[k] = x(d, k) - x(a, k);
      }
      const Real m[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                         e1[0] * e2[1] - e1[1] * e2[0]};
      const Real lm = kmath::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
      if (!(lm > 0.0)) continue;
      const Real angle = kmath::atan2(lm, e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2]);
      for (int k = 0; k < 3; ++k) n[k] += angle * m[k] / lm;
    }
    const Real l = kmath::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; ++k) normal(v, k) = l > 0.0 ? n[k] / l : 0.0;
  }
};
}  // namespace

Surface::Surface(const SurfaceHost& host)
    : host_(host), num_vertices_(host.num_vertices()), num_triangles_(host.num_triangles()) {
  const MaterialPointSetHost points = host.vertex_points();
  for (Ordinal t = 0; t < num_triangles_; ++t) {
    std::vector<Ordinal> ids;
    for (int k = 0; k < 3; ++k) {
      const Ordinal v = host.triangles[t][k];
      if (v < 0 || v >= num_vertices_)
        throw_error("contact surface: triangle ", t, " has vertex ", v, " of ", num_vertices_);
      ids.insert(ids.end(), points.id.begin() + points.ptr[v],
                 points.id.begin() + points.ptr[v + 1]);
    }
    std::sort(ids.begin(), ids.end());
    const auto distinct = std::unique(ids.begin(), ids.end()) - ids.begin();
    if (distinct > kMaxContactCoefficients)
      throw_error("contact surface: triangle ", t, " combines ", distinct,
                  " coefficients, more than a contact side holds (", kMaxContactCoefficients, ")");
  }
  vertices = upload_material_points("tlfea::contact::vertex", points);
  vertex_body = upload_to_device("tlfea::contact::vertex_body", host.vertex_body);
  vertex_area = upload_to_device("tlfea::contact::vertex_area", host.vertex_area);
  triangle_body = upload_to_device("tlfea::contact::triangle_body", host.triangle_body);
  x = DeviceView<Real* [3]>("tlfea::contact::vertex_x", num_vertices_);
  triangle = DeviceView<Ordinal* [3]>("tlfea::contact::triangle", num_triangles_);
  auto th = host_mirror(triangle);
  auto xh = host_mirror(x);
  for (Ordinal t = 0; t < num_triangles_; ++t)
    for (int k = 0; k < 3; ++k) th(t, k) = host.triangles[t][k];
  for (Ordinal v = 0; v < num_vertices_; ++v)
    for (int a = 0; a < 3; ++a) xh(v, a) = host.vertex_reference[v][a];
  copy_to_device(triangle, th);
  copy_to_device(x, xh);
  // Vertex -> triangles (in increasing triangle id).
  std::vector<Ordinal> ptr(num_vertices_ + 1, 0), adj;
  for (const auto& t : host.triangles)
    for (int k = 0; k < 3; ++k) ++ptr[t[k] + 1];
  for (Ordinal v = 0; v < num_vertices_; ++v) ptr[v + 1] += ptr[v];
  adj.resize(ptr[num_vertices_] > 0 ? ptr[num_vertices_] : 1);
  std::vector<Ordinal> cursor(ptr.begin(), ptr.end() - 1);
  for (Ordinal t = 0; t < num_triangles_; ++t)
    for (int k = 0; k < 3; ++k) adj[cursor[host.triangles[t][k]]++] = t;
  vertex_triangle_ptr = upload_to_device("tlfea::contact::vertex_triangle_ptr", ptr);
  vertex_triangle = upload_to_device("tlfea::contact::vertex_triangle", adj);
  normal = DeviceView<Real* [3]>("tlfea::contact::vertex_normal", num_vertices_);
}

void Surface::update_positions(const CoefView& q) const {
  if (num_vertices_ == 0) return;
  Kokkos::parallel_for("tlfea::contact::update_vertices",
                       Kokkos::RangePolicy<ExecSpace>(0, num_vertices_),
                       UpdateVertices{vertices, q, x});
  Kokkos::parallel_for("tlfea::contact::update_normals",
                       Kokkos::RangePolicy<ExecSpace>(0, num_vertices_),
                       UpdateNormals{vertex_triangle_ptr, vertex_triangle, triangle, x, normal});
}

}  // namespace tlfea
