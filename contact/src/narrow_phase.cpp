// TLFEA: the contact narrow phase (narrow_phase.hpp; docs/theory.md §7.3):
// vertex-triangle and vertex-obstacle tests on the device, least depth per
// partner body, contacts written in vertex order.
#include "narrow_phase.hpp"

#include "hash_grid.hpp"

namespace tlfea {

namespace {

using hash_grid::cell_bucket;
using hash_grid::cell_coord;

constexpr Real kPi = 3.14159265358979323846;

// Exclusive scan of `count` into `offset`.
struct OffsetScan {
  using value_type = Ordinal;
  DeviceView<Ordinal*> count, offset;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Ordinal& update, const bool final) const {
    const Ordinal v = count(i);
    if (final) offset(i) = update;
    update += v;
  }
};

// Vertex p against triangle (a, b, c): see detection.hpp. On success delta,
// barycentric lam (clamped to the triangle, summing to 1) and the outward
// unit normal n.
KOKKOS_INLINE_FUNCTION bool vertex_triangle(const Real p[3], const Real a[3], const Real b[3],
                                            const Real c[3], Real max_depth, Real tol, Real& delta,
                                            Real lam[3], Real n[3]) {
  const Real e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const Real e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const Real w[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
  Real nn[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                e1[0] * e2[1] - e1[1] * e2[0]};
  const Real len = kmath::sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
  if (!(len > 0.0)) return false;
  for (int k = 0; k < 3; ++k) nn[k] /= len;
  const Real d = w[0] * nn[0] + w[1] * nn[1] + w[2] * nn[2];
  if (!(d < 0.0) || d < -max_depth) return false;
  // Barycentric coordinates of the projection (w's components along e1, e2).
  const Real d00 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2];
  const Real d01 = e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2];
  const Real d11 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
  const Real d20 = w[0] * e1[0] + w[1] * e1[1] + w[2] * e1[2];
  const Real d21 = w[0] * e2[0] + w[1] * e2[1] + w[2] * e2[2];
  const Real den = d00 * d11 - d01 * d01;
  if (!(den > 0.0)) return false;
  const Real l1 = (d11 * d20 - d01 * d21) / den;
  const Real l2 = (d00 * d21 - d01 * d20) / den;
  const Real l0 = 1.0 - l1 - l2;
  if (l0 < -tol || l1 < -tol || l2 < -tol) return false;
  lam[0] = kmath::fmax(l0, 0.0);
  lam[1] = kmath::fmax(l1, 0.0);
  lam[2] = kmath::fmax(l2, 0.0);
  const Real s = lam[0] + lam[1] + lam[2];
  for (int k = 0; k < 3; ++k) lam[k] /= s;
  delta = -d;
  for (int k = 0; k < 3; ++k) n[k] = nn[k];
  return true;
}

struct Candidate {
  int body;
  Ordinal tri;
  Real delta;
  Real lam[3];
  Real n[3];
};

struct CountTag {};
struct WriteTag {};

struct NarrowPhase : NarrowPhaseData {
  KOKKOS_INLINE_FUNCTION int find_candidates(const Ordinal v, Candidate* slot) const {
    const int a = vertex_body(v);
    int ns = 0;
    if (num_triangles == 0 || !body_has_partner(a)) return 0;
    const Real p[3] = {x(v, 0), x(v, 1), x(v, 2)};
    // The 2 x 2 x 2 cells nearest the vertex: a triangle it can touch has its
    // bounding-box centre within extent / 2 + max_depth <= h / 2 of it per axis.
    long long c[3];
    int lo[3];
    for (int k = 0; k < 3; ++k) {
      const Real s = p[k] * inv_h;
      c[k] = cell_coord(p[k], inv_h);
      lo[k] = (s - static_cast<Real>(c[k]) < 0.5) ? -1 : 0;
    }
    const long long c0 = c[0], c1 = c[1], c2 = c[2];
    for (int dz = lo[2]; dz <= lo[2] + 1; ++dz)
      for (int dy = lo[1]; dy <= lo[1] + 1; ++dy)
        for (int dx = lo[0]; dx <= lo[0] + 1; ++dx) {
          const Ordinal b = cell_bucket(c0 + dx, c1 + dy, c2 + dz, mask);
          for (Ordinal s = bucket_start(b); s < bucket_start(b + 1); ++s) {
            const int bt = sorted_body(s);
            if (!body_pair(a * nb + bt)) continue;  // a == bt only with self-contact
            bool joined = false;                    // joint filter (exclude_near_point)
            for (Ordinal e = exclusion_ptr(v); e < exclusion_ptr(v + 1); ++e)
              joined = joined || exclusion_body(e) == bt;
            if (joined) continue;
            // First reject on the precomputed plane, with a margin above its
            // round-off; the exact test below decides.
            const Real d0 =
                p[0] * plane(s, 0) + p[1] * plane(s, 1) + p[2] * plane(s, 2) - plane(s, 3);
            const Real margin =
                1e-6 * max_depth + 1e-12 * (kmath::fabs(p[0]) + kmath::fabs(p[1]) +
                                            kmath::fabs(p[2]) + kmath::fabs(plane(s, 3)));
            if (d0 > margin || d0 < -max_depth - margin) continue;
            const Ordinal t = sorted(s);
            if (bt == a) {
              // Self-contact: not against the body's own triangles within
              // self_radius of the vertex in the reference configuration
              // (its own triangles and their neighbourhood).
              const Real r = self_radius(a);
              bool near = false;
              for (int b = 0; b < 3 && !near; ++b) {
                Real d2 = 0.0;
                for (int k = 0; k < 3; ++k) {
                  const Real d = vertex_reference(tri(t, b), k) - vertex_reference(v, k);
                  d2 += d * d;
                }
                near = d2 < r * r;
              }
              if (near) continue;
            }
            Real ta[3], tb[3], tc[3];
            for (int k = 0; k < 3; ++k) {
              ta[k] = x(tri(t, 0), k);
              tb[k] = x(tri(t, 1), k);
              tc[k] = x(tri(t, 2), k);
            }
            Candidate cand;
            if (!vertex_triangle(p, ta, tb, tc, max_depth, tol, cand.delta, cand.lam, cand.n))
              continue;
            if (vertex_normal(v, 0) * cand.n[0] + vertex_normal(v, 1) * cand.n[1] +
                    vertex_normal(v, 2) * cand.n[2] >=
                -opposition)
              continue;  // normals do not oppose: not a contact through this face
            cand.body = bt;
            cand.tri = t;
            int k = 0;
            while (k < ns && slot[k].body != bt) ++k;
            if (k < ns) {
              if (cand.delta < slot[k].delta || (cand.delta == slot[k].delta && t < slot[k].tri))
                slot[k] = cand;
            } else if (ns < kMaxPartnersPerVertex) {
              slot[ns++] = cand;
            }
          }
        }
    // Partners in increasing body id (keys increase within a vertex).
    for (int i = 1; i < ns; ++i)
      for (int j = i; j > 0 && slot[j - 1].body > slot[j].body; --j) {
        const Candidate tmp = slot[j - 1];
        slot[j - 1] = slot[j];
        slot[j] = tmp;
      }
    return ns;
  }

  KOKKOS_INLINE_FUNCTION Real own_radius(const int body, const Real area) const {
    const Real r = body_radius(body);
    return r > 0.0 ? r : kmath::sqrt(area / kPi);
  }

  KOKKOS_INLINE_FUNCTION void copy_vertex_point(const Ordinal v, const Ordinal idx) const {
    int m = 0;
    for (Ordinal l = vertices.ptr(v); l < vertices.ptr(v + 1) && m < kMaxContactCoefficients;
         ++l, ++m) {
      cp.id(idx, m, 0) = vertices.id(l);
      cp.weight(idx, m, 0) = vertices.weight(l);
    }
    cp.num(idx, 0) = m;
  }

  KOKKOS_INLINE_FUNCTION void operator()(CountTag, const Ordinal v) const {
    if (split && !vertex_active(v)) {
      vertex_count(v) = 0;
      return;
    }
    Candidate slot[kMaxPartnersPerVertex];
    int count = find_candidates(v, slot);
    const int a = vertex_body(v);
    const Real p[3] = {x(v, 0), x(v, 1), x(v, 2)};
    for (int k = 0; k < nobs; ++k) {
      if (!obstacle_body(k * nb + a)) continue;
      Real delta, n[3], xs[3];
      if (obstacle_penetration(obstacle(k), p, delta, n, xs)) ++count;
    }
    vertex_count(v) = count;
  }

  KOKKOS_INLINE_FUNCTION void operator()(WriteTag, const Ordinal v) const {
    if (vertex_count(v) == 0) return;
    Candidate slot[kMaxPartnersPerVertex];
    const int ns = find_candidates(v, slot);
    const int a = vertex_body(v);
    const Real area = vertex_area(v);
    const Real ra = own_radius(a, area);
    const Real p[3] = {x(v, 0), x(v, 1), x(v, 2)};
    const unsigned long long P = static_cast<unsigned long long>(nb + nobs);
    const unsigned long long gv = static_cast<unsigned long long>(split ? vertex_global(v) : v);
    Ordinal idx = vertex_offset(v);
    for (int j = 0; j < ns; ++j, ++idx) {
      if (idx >= cp.capacity) return;
      const Candidate& c = slot[j];
      for (int k = 0; k < 3; ++k) {
        cp.x(idx, k) = p[k] + 0.5 * c.delta * c.n[k];
        cp.normal(idx, k) = c.n[k];
        cp.obstacle_velocity(idx, k) = 0.0;
      }
      cp.delta(idx) = c.delta;
      cp.area(idx) = area;
      const Real rb = own_radius(c.body, area);
      cp.radius(idx) = ra * rb / (ra + rb);
      cp.body(idx, 0) = a;
      cp.body(idx, 1) = c.body;
      copy_vertex_point(v, idx);
      // B: sum_b lam_b (combination of triangle vertex b), merged by id.
      int m = 0;
      for (int b = 0; b < 3; ++b) {
        const Ordinal tv = tri(c.tri, b);
        for (Ordinal l = vertices.ptr(tv); l < vertices.ptr(tv + 1); ++l) {
          const Ordinal id = vertices.id(l);
          const Real w = c.lam[b] * vertices.weight(l);
          int i = 0;
          while (i < m && cp.id(idx, i, 1) != id) ++i;
          if (i < m) {
            cp.weight(idx, i, 1) += w;
          } else if (m < kMaxContactCoefficients) {
            cp.id(idx, m, 1) = id;
            cp.weight(idx, m, 1) = w;
            ++m;
          }
        }
      }
      cp.num(idx, 1) = m;
      cp.key(idx) = gv * P + static_cast<unsigned long long>(c.body);
    }
    for (int k = 0; k < nobs; ++k) {
      if (!obstacle_body(k * nb + a)) continue;
      const ObstacleState o = obstacle(k);
      Real delta, n[3], xs[3];
      if (!obstacle_penetration(o, p, delta, n, xs)) continue;
      if (idx >= cp.capacity) return;
      Real xc[3], vb[3];
      for (int i = 0; i < 3; ++i) xc[i] = 0.5 * (p[i] + xs[i]);
      obstacle_velocity_at(o, xc, vb);
      for (int i = 0; i < 3; ++i) {
        cp.x(idx, i) = xc[i];
        cp.normal(idx, i) = n[i];
        cp.obstacle_velocity(idx, i) = vb[i];
      }
      cp.delta(idx) = delta;
      cp.area(idx) = area;
      cp.radius(idx) = (o.shape == static_cast<int>(ObstacleShape::Sphere))
                           ? ra * o.radius / (ra + o.radius)
                           : ra;
      cp.body(idx, 0) = a;
      cp.body(idx, 1) = -1 - k;
      copy_vertex_point(v, idx);
      cp.num(idx, 1) = 0;
      cp.key(idx) = gv * P + static_cast<unsigned long long>(nb + k);
      ++idx;
    }
  }
};

}  // namespace

Ordinal find_contacts(const NarrowPhaseData& d, Ordinal num_vertices) {
  const NarrowPhase np{d};
  Ordinal total = 0;
  Kokkos::parallel_for("tlfea::contact::narrow_count",
                       Kokkos::RangePolicy<ExecSpace, CountTag>(0, num_vertices), np);
  Kokkos::parallel_scan("tlfea::contact::contact_scan",
                        Kokkos::RangePolicy<ExecSpace>(0, num_vertices),
                        OffsetScan{d.vertex_count, d.vertex_offset}, total);
  Kokkos::parallel_for("tlfea::contact::narrow_write",
                       Kokkos::RangePolicy<ExecSpace, WriteTag>(0, num_vertices), np);
  return total;
}

}  // namespace tlfea
